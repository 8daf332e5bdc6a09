"""FISF rule book (1 January 2023), sections 3.2, 3.4, 3.6 and 3.7: the draw's minimum while letters are
left, the top's choice among tied plays, the cancelled move and the end of the game, each clause a row.

Positions are built for the purpose: small tile sets (the French values, a few tiles each) so that the
end of the game comes on the first or second move, and word lists of a few words read by the real move
generator (``core.movegen`` through ``movegen_top_finder``)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from core.draw import Bag, Counts, DrawRule, can_draw, check_draw, draw_tiles
from core.duplicate.game import DuplicateGame, EndReason
from core.duplicate.tops import movegen_top_finder
from core.edition import FRENCH, Edition
from core.errors_duplicate import NoDrawPossibleError, TopClause, TopClauseError
from core.lexicon import Lexicon
from core.tie import TieRule
from tests.club import Club


def tiles(letters: str) -> Edition:
    """The French tile values with only these tiles in the bag (``?`` a joker)."""
    counts = {symbol: letters.count(symbol) for symbol in FRENCH.alphabet.symbols}
    return dataclasses.replace(FRENCH, code="fr", counts=counts, jokers=letters.count("?"))


def first_round(letters: str, words: list[str], answer: str | None = None) -> DuplicateGame:
    """A game on the tile set ``letters`` whose first draw is every tile, closed with the words' tops."""
    edition = tiles(letters)
    game = DuplicateGame(edition, ["Ana"])
    game.draw_manual(letters, at=0.0)
    if answer is not None:
        game.submit("Ana", answer, at=10.0)
    lexicon = Lexicon.from_words(words)
    game.close_round(movegen_top_finder(lexicon, edition, game.settings), set(words))
    return game


# --- 3.2 and 3.7: what the letters left allow ------------------------------------------------

RULE = DrawRule()

# (clause, bag, reliquat, move, y, joker, a draw can be made)
LEFT_ROWS = [
    ("3.7 every tile drawn and placed", "", "", 20, Counts.EITHER, Counts.EITHER, False),
    ("3.7 a single letter left, a vowel", "E", "", 20, Counts.EITHER, Counts.EITHER, False),
    ("3.7 a single letter left, a joker", "?", "", 20, Counts.EITHER, Counts.EITHER, False),
    ("3.7 a single letter left, a Y", "", "Y", 20, Counts.EITHER, Counts.EITHER, False),
    ("3.7 only vowels left", "AEI", "OU", 20, Counts.EITHER, Counts.EITHER, False),
    ("3.7 only consonants left", "BCDFG", "HJ", 3, Counts.EITHER, Counts.EITHER, False),
    ("3.7 a joker among consonants, two letters or more", "BC", "?", 20, Counts.EITHER, Counts.EITHER, True),
    ("3.7 a Y among vowels", "AE", "Y", 20, Counts.EITHER, Counts.EITHER, True),
    ("3.7 a joker and a Y alone", "?", "Y", 20, Counts.EITHER, Counts.EITHER, True),
    ("3.2 last paragraph: Y set as a consonant, a vowel here", "BC", "Y", 20, Counts.CONSONANT, Counts.EITHER, True),
    ("3.2 last paragraph: joker set as a vowel still a consonant", "AE", "?", 20, Counts.EITHER, Counts.VOWEL, True),
    ("3.2 one of each before move 16 when two are not left", "AEI", "B", 10, Counts.EITHER, Counts.EITHER, True),
    ("3.2 no consonant at all before move 16", "AEI", "", 10, Counts.EITHER, Counts.EITHER, False),
]


@pytest.mark.parametrize(("clause", "bag", "kept", "move", "y", "joker", "possible"), LEFT_ROWS)
def test_letters_left(clause: str, bag: str, kept: str, move: int, y: Counts, joker: Counts, possible: bool) -> None:
    rule = DrawRule(y=y, joker=joker)
    assert can_draw(Bag(bag), kept, move, rule, FRENCH) is possible, clause
    if possible:
        outcome = draw_tiles(Bag(bag), kept, move, random.Random(1), rule, FRENCH)
        assert sorted(outcome.draw.letters) == sorted(bag + kept)  # fewer than seven left: all of them
    else:
        with pytest.raises(NoDrawPossibleError):
            draw_tiles(Bag(bag), kept, move, random.Random(1), rule, FRENCH)


# (clause, bag before the draw, typed draw, move, the draw breaks the rule)
TYPED_ROWS = [
    ("3.2 two vowels in the first fifteen moves", "ABCDEFGHIJKLMNOP", "ABCDFGH", 5, True),
    ("3.2 two vowels in the first fifteen moves, met", "ABCDEFGHIJKLMNOP", "ABCDEFG", 5, False),
    ("3.2 one vowel from move 16", "ABCDEFGHIJKLMNOP", "ABCDFGH", 16, False),
    ("3.2 one vowel earlier when the letters left hold only one", "ABCDFGHJ", "ABCDFGH", 5, False),
]


@pytest.mark.parametrize(("clause", "bag", "typed", "move", "breaks"), TYPED_ROWS)
def test_typed_draw_against_the_letters_left(clause: str, bag: str, typed: str, move: int, breaks: bool) -> None:
    outcome = check_draw(typed, Bag(bag), "", move, RULE, FRENCH)
    assert (outcome.shortfall is not None) is breaks, clause


# --- 3.4: the top among plays that score as much ----------------------------------------------------


def test_3_4_the_top_is_the_best_score_found_or_not() -> None:
    game = first_round("ABERST", ["BRAS", "BAS"], answer="H6 BAS")
    closed = game.closed_rounds[0]
    assert closed.top_word == "BRAS"
    assert closed.top_points == 12
    assert closed.results["Ana"].score == 10


# (clause, tiles, words, the top placed, its tie rule, the game ends after it)
TIE_ROWS = [
    (
        "3.4 a tie without the joker before one with it",
        "ABRWX?",
        ["AB", "BAS"],
        "H7 AB",
        TieRule.ORDER,  # AB at H7 and H8 score 8 with no joker, as BAs with its joker
        False,
    ),
    (
        "3.4 a tie that ends the game is chosen (3.7: R S left, only consonants)",
        "ABERST",
        ["BRAS", "EBAT"],
        "H5 EBAT",
        TieRule.ENDS_GAME,  # BRAS comes first in board order and would leave E T
        True,
    ),
    (
        "3.4 ... unless it uses the joker when a tie does not",
        "ABRST?",
        ["BAS", "EBAT"],
        "H6 BAS",  # 10 with no joker; eBAT scores 10 too and would end the game (R S left)
        TieRule.ORDER,
        False,
    ),
]


@pytest.mark.parametrize(("clause", "letters", "words", "top", "rule", "ends"), TIE_ROWS)
def test_3_4_tied_tops(clause: str, letters: str, words: list[str], top: str, rule: TieRule, ends: bool) -> None:
    game = first_round(letters, words)
    closed = game.closed_rounds[0]
    assert closed.top is not None, clause
    assert closed.tied, clause
    assert closed.top_text == top, clause
    assert closed.tie_rule is rule, clause
    assert game.finished is ends, clause


# (clause, tiles, words, the tie the arbiter asks for, the clause that refuses it or None)
CHOICE_ROWS = [
    ("3.4 the joker clause binds the arbiter", "ABRWX?", ["AB", "BAS"], "H6 BAs", TopClause.JOKER),
    ("3.4 the arbiter picks the tie that best opens the game", "ABRWX?", ["AB", "BAS"], "H8 AB", None),
    ("3.4 the end-of-game clause binds the arbiter", "ABERST", ["BRAS", "EBAT"], "H5 BRAS", TopClause.ENDS_GAME),
    ("3.4 another tie that ends the game", "ABERST", ["BRAS", "EBAT"], "H8 EBAT", None),
    ("3.4 the joker clause before the end-of-game one", "ABRST?", ["BAS", "EBAT"], "H5 eBAT", TopClause.JOKER),
]


@pytest.mark.parametrize(("clause", "letters", "words", "asked", "refused"), CHOICE_ROWS)
def test_3_4_the_arbiters_choice(
    clause: str, letters: str, words: list[str], asked: str, refused: TopClause | None
) -> None:
    game = first_round(letters, words)
    before = len(game.events)
    if refused is None:
        game.choose_top(asked)
        assert game.closed_rounds[0].top_text == asked
        assert game.closed_rounds[0].tie_rule is TieRule.ARBITER
        return
    with pytest.raises(TopClauseError) as caught:
        game.choose_top(asked)
    assert caught.value.clause is refused, clause
    assert asked not in caught.value.allowed
    assert caught.value.allowed
    assert len(game.events) == before  # nothing stored


# --- 3.6 and 3.7: the game's end -------------------------------------------------------------------

# (clause, tiles, words, end reason or None when the game goes on, letters left)
END_ROWS = [
    ("3.7 every tile drawn and placed", "ET", ["ET"], EndReason.NO_TILE_LEFT, ""),
    ("3.7 a single letter left", "EST", ["ET"], EndReason.NO_VALID_DRAW, "S"),
    ("3.7 only consonants left", "ABERST", ["EBAT"], EndReason.NO_VALID_DRAW, "RS"),
    ("3.7 only vowels left", "AEIT", ["TA"], EndReason.NO_VALID_DRAW, "EI"),
    ("3.7 a joker in a reliquat of two or more: the game goes on", "ABRST?", ["BAS"], None, "RT?"),
    ("3.7 a Y in a reliquat of two or more: the game goes on", "ABRSTY", ["BAS"], None, "RTY"),
    ("3.6/3.7 no play and no different draw possible", "ABERST", ["ZZZ"], EndReason.NO_PLAY, "ABERST"),
]


@pytest.mark.parametrize(("clause", "letters", "words", "reason", "left"), END_ROWS)
def test_3_7_end_of_game(clause: str, letters: str, words: list[str], reason: EndReason | None, left: str) -> None:
    game = first_round(letters, words)
    assert game.end_reason is reason, clause
    assert game.finished is (reason is not None), clause
    if reason is not None:
        assert game.end_letters == left, clause
    else:
        assert sorted(game.bag.unseen(game.reliquat)) == sorted(left), clause
        game.draw(random.Random(0), at=100.0)  # the next draw is made from them
        assert game.current is not None
        assert sorted(game.current.draw.letters if game.current.draw else "") == sorted(left)


def test_3_6_no_play_draws_again_a_different_draw() -> None:
    # eight tiles, no word: each draw of seven is cancelled, its letters back in the bag (3.6); the next one
    # differs from it (a repeat is rejected again); after three draws without a play the game ends (3.7)
    letters = "ABDEFGIL"
    for seed in range(8):
        edition = tiles(letters)
        game = DuplicateGame(edition, ["Ana"])
        finder = movegen_top_finder(Lexicon.from_words(["ZZZ"]), edition, game.settings)
        rng = random.Random(seed)
        played: list[str] = []
        while not game.finished:
            game.draw(rng, at=float(len(played)) * 200)
            assert game.current is not None
            assert game.current.draw is not None
            played.append(game.current.draw.letters)
            game.close_round(finder, {"ZZZ"})
            if not game.finished:
                assert len(game.bag) == 8
                assert game.reliquat == ""
        assert all(a != b for a, b in zip(played, played[1:]))  # each draw differs from the cancelled one
        assert len(played) == 3
        assert game.end_reason is EndReason.NO_PLAY
        assert [line.score for line in game.record()] == [0, 0, 0]


def test_the_chat_says_a_move_is_cancelled(club: Club) -> None:
    club.ok("Ref", "/duplicate 3 manuel")
    club.ok("Ref", "/tirage JKQWXZB")  # no word of the French list: no play (3.6)
    closing = club.ok("Ref", "/cloture")
    assert "Aucun coup possible au coup 1 : toutes ses lettres retournent dans le sac" in closing
    assert "Fin de la partie" not in closing
    assert "Coup 2 — tirage : AEINRST" in club.ok("Ref", "/tirage AEINRST")
