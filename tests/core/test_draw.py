"""The bag and duplicate draws: the vowel/consonant rule, rejections, manual draws."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.board import Board, Tile
from core.draw import (
    Bag,
    Counts,
    Draw,
    DrawRule,
    Shortfall,
    can_draw,
    check_draw,
    counts_by_name,
    draw_tiles,
    parse_draw,
    sort_tiles,
    unseen_tiles,
)
from core.edition import ENGLISH, FRENCH
from core.errors import RackSyntaxError, SyntaxProblem
from core.errors_duplicate import DrawSizeError, KeptLettersError, LetterNotInBagError, NoDrawPossibleError

RULE = DrawRule()


def test_full_bag_matches_the_edition() -> None:
    bag = Bag.full(FRENCH)
    assert len(bag) == 102
    assert bag.count("E") == 15
    assert bag.count("?") == 2
    assert bag.count("K") == 1
    assert bag.tiles.endswith("??")
    assert Counter(bag.tiles) == Counter(FRENCH.bag())
    assert len(Bag.full(ENGLISH)) == 100


def test_draw_record_forms() -> None:
    assert str(Draw("UEE", "?ISE")) == "EEU+EIS?"
    assert str(Draw("", "SRIEDBA")) == "ABDEIRS"
    assert str(Draw("EEU", "ESIA", rejected=True)) == "-EEU+AEIS"
    assert Draw("EEU", "ESI?").letters == "EEEISU?"
    assert sort_tiles("?Z?A") == "AZ??"


def test_rule_minimum_by_move_number() -> None:
    assert RULE.minimum(1) == 2
    assert RULE.minimum(15) == 2
    assert RULE.minimum(16) == 1
    assert RULE.minimum(30) == 1
    assert RULE.is_met("AEBCDFG", 1, FRENCH)
    assert not RULE.is_met("AEIOUAB", 15, FRENCH)
    assert RULE.is_met("AEIOUAB", 16, FRENCH)
    assert not RULE.is_met("AEIOUUE", 16, FRENCH)
    assert RULE.shortfall("AEIOUAB", 3, FRENCH) == Shortfall("AABEIOU", 6, 1, 0, 2, 3)


@pytest.mark.parametrize(
    ("y", "joker", "letters", "met"),
    [
        (Counts.EITHER, Counts.EITHER, "AYBCDFG", True),  # Y as the second vowel
        (Counts.CONSONANT, Counts.EITHER, "AYBCDFG", False),
        (Counts.VOWEL, Counts.EITHER, "AYBCDFG", True),
        (Counts.EITHER, Counts.EITHER, "AEIOUY?", True),  # Y and ? as the two consonants
        (Counts.VOWEL, Counts.EITHER, "AEIOUY?", False),
        (Counts.EITHER, Counts.VOWEL, "AEIOU?Y", False),  # only Y left as a consonant
        (Counts.EITHER, Counts.CONSONANT, "A?BCDFG", False),
        (Counts.EITHER, Counts.VOWEL, "A?BCDFG", True),
    ],
)
def test_y_and_joker_settings(y: Counts, joker: Counts, letters: str, met: bool) -> None:
    assert DrawRule(y=y, joker=joker).is_met(letters, 1, FRENCH) is met


def test_counts_by_name() -> None:
    assert counts_by_name(" Either ") is Counts.EITHER
    with pytest.raises(ValueError, match="maybe"):
        counts_by_name("maybe")


def _simulate(seed: int, rule: DrawRule) -> tuple[list[tuple[int, list[Draw], int, DrawRule]], Bag, str, str]:
    """A solo game where each move plays a random part of the draw (no board needed)."""
    rng = random.Random(seed)
    play_rng = random.Random(seed + 10_000)
    bag = Bag.full(FRENCH)
    kept = ""
    played = ""
    history: list[tuple[int, list[Draw], int, DrawRule]] = []
    move = 1
    while can_draw(bag, kept, move, rule, FRENCH):
        outcome = draw_tiles(bag, kept, move, rng, rule, FRENCH)
        history.append((move, list(outcome.draws), len(outcome.bag), rule.for_pool(bag.tiles + kept, move, FRENCH)))
        bag = outcome.bag
        rack = outcome.draw.letters
        # conservation: bag + rack + played tiles = the edition's tiles
        assert Counter(bag.tiles) + Counter(rack) + Counter(played) == Counter(FRENCH.bag())
        used = "".join(play_rng.sample(rack, play_rng.randint(1, len(rack))))
        played += used
        kept = sort_tiles((Counter(rack) - Counter(used)).elements())
        move += 1
    return history, bag, kept, played


@pytest.mark.parametrize("rule", [DrawRule(), DrawRule(y=Counts.CONSONANT, joker=Counts.VOWEL)])
def test_many_seeded_games_keep_counts_and_the_rule(rule: DrawRule) -> None:
    rejections = 0
    for seed in range(150):
        history, bag, kept, played = _simulate(seed, rule)
        assert Counter(bag.tiles) + Counter(kept) + Counter(played) == Counter(FRENCH.bag())
        for move, draws, left, held_to in history:  # held_to: the rule for the letters left (FISF 3.2, 3.7)
            *rejected, accepted = draws
            assert not accepted.rejected
            assert not str(accepted).startswith("-")
            assert held_to.is_met(accepted.letters, move, FRENCH)
            assert len(accepted.letters) == 7 or left == 0  # short only once the bag is empty
            for index, draw in enumerate(rejected):
                rejections += 1
                assert draw.rejected
                assert str(draw).startswith("-")
                assert not held_to.is_met(draw.letters, move, FRENCH)
                if index > 0:
                    assert draw.kept == ""  # after a rejection everything was drawn afresh
            if rejected:
                assert accepted.kept == ""
        # the end: what is left cannot meet the rule of the next move
        assert not can_draw(bag, kept, len(history) + 1, rule, FRENCH)
        with pytest.raises(NoDrawPossibleError):
            draw_tiles(bag, kept, len(history) + 1, random.Random(0), rule, FRENCH)
    assert rejections > 20  # rejections do happen and were checked


def test_same_seed_same_draws() -> None:
    first = _simulate(7, RULE)[0]
    again = _simulate(7, RULE)[0]
    assert [[str(d) for d in entry[1]] for entry in first] == [[str(d) for d in entry[1]] for entry in again]


def test_rejection_returns_kept_letters_too() -> None:
    # kept EEU, bag holds only vowels plus BC: the completed draw may break the rule
    bag = Bag("AAIIOOUUBC")
    for seed in range(30):
        outcome = draw_tiles(bag, "EEU", 1, random.Random(seed), RULE, FRENCH)
        assert RULE.is_met(outcome.draw.letters, 1, FRENCH)
        total = Counter(outcome.bag.tiles) + Counter(outcome.draw.letters)
        assert total == Counter("AAIIOOUUBCEEU")
        if outcome.rejected:
            assert str(outcome.rejected[0]).startswith("-EEU+")
            assert outcome.draw.kept == ""
            assert str(outcome).startswith("-EEU+")


def test_end_of_game_when_the_rule_cannot_be_met() -> None:
    assert not can_draw(Bag("BCDFG"), "HJ", 3, RULE, FRENCH)
    assert not can_draw(Bag(""), "", 20, RULE, FRENCH)
    # FISF 3.2: move 10 asks two consonants only "si le reliquat le permet" (this line asserted the end)
    assert can_draw(Bag("AEI"), "B", 10, RULE, FRENCH)
    assert not can_draw(Bag("AEI"), "", 10, RULE, FRENCH)
    assert can_draw(Bag("AEI"), "B", 16, RULE, FRENCH)
    outcome = draw_tiles(Bag("AEI"), "B", 16, random.Random(1), RULE, FRENCH)
    assert str(outcome.draw) == "B+AEI"
    assert len(outcome.bag) == 0
    with pytest.raises(NoDrawPossibleError, match="move 3"):
        draw_tiles(Bag("BCDFG"), "HJ", 3, random.Random(1), RULE, FRENCH)


def test_bag_operations() -> None:
    bag = Bag("ZEBRA?")
    assert str(bag) == "ABERZ?"
    assert str(bag.minus("ZE")) == "ABR?"
    assert str(bag.plus("E")) == "ABEERZ?"
    assert bag.unseen("EE") == "ABEEERZ?"
    assert bag.counts() == {"A": 1, "B": 1, "E": 1, "R": 1, "Z": 1, "?": 1}
    with pytest.raises(LetterNotInBagError, match="K is not in the bag"):
        bag.minus("K")
    with pytest.raises(LetterNotInBagError, match="drawn 2 times, the bag holds 1"):
        bag.minus("ZZ")


def test_unseen_tiles_from_a_board() -> None:
    board = Board()
    board.place(7, 7, Tile("K"))
    board.place(7, 8, Tile("E", joker=True))
    unseen = unseen_tiles(FRENCH, board)
    assert len(unseen) == 100
    assert "K" not in unseen
    assert unseen.count("?") == 1
    assert unseen.count("E") == 15


# --- manual draws -------------------------------------------------------------------------


def test_parse_draw() -> None:
    assert parse_draw("eeu+esi?") == ("EEU", "EIS?")
    assert parse_draw("ÉEU + ESI?") == ("EEU", "EIS?")
    assert parse_draw("EEUESI?") == (None, "EEEISU?")
    with pytest.raises(RackSyntaxError) as info:
        parse_draw("EEU1")
    assert (info.value.problem, info.value.detail) == (SyntaxProblem.NOT_A_TILE, "1")
    with pytest.raises(RackSyntaxError) as info:
        parse_draw("A+B+C")
    assert info.value.problem is SyntaxProblem.DRAW_PLUS
    with pytest.raises(RackSyntaxError) as info:
        parse_draw("  ")
    assert info.value.problem is SyntaxProblem.EMPTY


def test_manual_draw_valid_forms() -> None:
    bag = Bag.full(FRENCH).minus("EEU")  # EEU kept from the previous move
    outcome = check_draw("EEU+ESI?", bag, "EEU", 2, RULE, FRENCH)
    assert str(outcome.draw) == "EEU+EIS?"
    assert outcome.meets_rule
    assert len(outcome.bag) == len(bag) - 4
    assert outcome.bag.count("?") == 1
    seven = check_draw("ESI?EUE", bag, "EEU", 2, RULE, FRENCH)
    assert str(seven.draw) == "EEU+EIS?"
    first = check_draw("vague?s", Bag.full(FRENCH), "", 1, RULE, FRENCH)
    assert str(first.draw) == "AEGSUV?"


def test_manual_draw_letter_not_in_bag() -> None:
    bag = Bag.full(FRENCH).minus("KEU")
    with pytest.raises(LetterNotInBagError, match="K is not in the bag") as info:
        check_draw("KEU+KSIA", bag, "KEU", 2, RULE, FRENCH)
    assert info.value.letter == "K"
    assert info.value.draw == "KEU+KSIA"
    with pytest.raises(LetterNotInBagError, match="the joker \\? drawn 3 times, the bag holds 2"):
        check_draw("???ABCD", Bag.full(FRENCH), "", 1, RULE, FRENCH)


def test_manual_draw_wrong_kept_letters() -> None:
    bag = Bag.full(FRENCH).minus("EEU")
    with pytest.raises(KeptLettersError, match="are EEU, not AEE") as info:
        check_draw("EEA+ESIT", bag, "EEU", 2, RULE, FRENCH)
    assert info.value.kept == "AEE"
    assert info.value.reliquat == "EEU"
    assert info.value.suggested == "EEU+EIST"  # the reliquat before the +, the new letters as typed
    with pytest.raises(KeptLettersError, match="must contain the letters kept from the previous move, EEU") as info:
        check_draw("EEASSIT", bag, "EEU", 2, RULE, FRENCH)
    assert info.value.suggested == "EEU+AISST"  # the kept letters it holds (E, E) taken out of the new ones
    with pytest.raises(KeptLettersError) as info:
        check_draw("+AERTNL", Bag.full(FRENCH).minus("I"), "I", 2, RULE, FRENCH)  # the reliquat left out
    assert info.value.suggested == "I+AELNRT"
    with pytest.raises(KeptLettersError, match="are none, not EEU"):
        check_draw("EEU+ESIT", Bag.full(FRENCH), "", 1, RULE, FRENCH)


def test_manual_draw_size() -> None:
    with pytest.raises(DrawSizeError, match="6 letters, the draw has 7"):
        check_draw("ABCDEF", Bag.full(FRENCH), "", 1, RULE, FRENCH)
    with pytest.raises(DrawSizeError, match="8 letters"):
        check_draw("EEU+ABCDE", Bag.full(FRENCH).minus("EEU"), "EEU", 2, RULE, FRENCH)
    end = check_draw("B+AEI", Bag("AEI"), "B", 16, RULE, FRENCH)  # the bag runs out: fewer than 7
    assert str(end.draw) == "B+AEI"


def test_manual_draw_reports_the_rule_without_raising() -> None:
    outcome = check_draw("AEIOUEB", Bag.full(FRENCH), "", 1, RULE, FRENCH)
    assert not outcome.meets_rule
    assert outcome.shortfall == Shortfall("ABEEIOU", 6, 1, 0, 2, 1)


def test_manual_draw_letter_outside_the_alphabet() -> None:
    with pytest.raises(RackSyntaxError) as info:
        check_draw("ABCDEF" + "Ω", Bag.full(FRENCH), "", 1, RULE, FRENCH)
    assert (info.value.problem, info.value.detail) == (SyntaxProblem.NOT_A_TILE, "Ω")


@pytest.mark.parametrize(
    ("bag", "kept", "size"),
    [
        ("BBJSY??", "", 6),  # one joker joins the draw, the other stays in the bag: five letters were left
        ("BBJSY?", "", 6),  # the bag's last tiles: the whole of it
        ("BEJSY?", "A?", 7),  # a kept joker: no other one is given, the letters complete the draw
        ("BEJ??", "A?", 5),  # ... and the bag's jokers stay in it
    ],
)
def test_the_joker_format_s_short_draw_at_the_end_is_the_one_the_draw_makes_3_8_1(
    bag: str, kept: str, size: int
) -> None:
    rng = random.Random(7)
    outcome = draw_tiles(Bag(bag), kept, 20, rng, DrawRule(Counts.EITHER, Counts.EITHER), FRENCH, joker_each=True)
    made = outcome.draw
    assert len(made.letters) == size
    assert made.letters.count("?") == 1
    checked = check_draw(str(made), Bag(bag), kept, 20, DrawRule(Counts.EITHER, Counts.EITHER), FRENCH, joker_each=True)
    assert checked.draw.letters == made.letters
    with pytest.raises(DrawSizeError):
        check_draw(str(made)[:-1], Bag(bag), kept, 20, DrawRule(Counts.EITHER, Counts.EITHER), FRENCH, joker_each=True)
