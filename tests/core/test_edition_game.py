"""A whole game in an edition given as data, with two-letter tiles (CH, LL, RR) and Ñ.

The edition (tests/data/editions/es-test.json) and its word list are test data; nothing in
the engine knows Spanish. A classic game is typed and scored, the move generator finds
tops with two-letter tiles, GCG records write labels and read back, and a duplicate game
is drawn and played to its end, then rebuilt from its events.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from core.board import Board
from core.duplicate import DuplicateGame, DuplicateSettings, event_from_dict, event_to_dict, movegen_top_finder
from core.edition import FRENCH, Edition, edition_from_json
from core.errors import RackSyntaxError
from core.errors_duplicate import LetterNotInBagError
from core.errors_lexicon import AlphabetMismatchError
from core.events import Exchange, Play
from core.game import ClassicGame
from core.gcg import read_gcg, write_gcg
from core.lexicon import Lexicon
from core.movegen import find_top, generate_plays
from core.notation import Notation, parse_move, parse_tiles
from core.placement import apply_placement, validate_move
from core.rules import rule_set_by_code
from core.scoring import score_placement
from tests.paths import TEST_DATA

DATA = TEST_DATA / "editions"


@pytest.fixture(scope="module")
def es() -> Edition:
    return edition_from_json((DATA / "es-test.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def words() -> list[str]:
    return (DATA / "es-test-words.txt").read_text(encoding="utf-8").split()


@pytest.fixture(scope="module")
def lexicon(es: Edition, words: list[str]) -> Lexicon:
    return Lexicon.from_words(words, name="es-test", alphabet=es.alphabet)


def tiles_of(es: Edition, word: str) -> list[str]:
    """The labels of a typed word's tiles."""
    return [es.label(symbol) for symbol in es.tiles(word)]


# --- the word list -------------------------------------------------------------------------------


def test_word_list_compiles_in_the_edition_tiles(es: Edition, lexicon: Lexicon, words: list[str]) -> None:
    assert tiles_of(es, "chorro") == ["CH", "O", "RR", "O"]
    for word in ["chorro", "CHORRO", "año", "AÑO", "llama", "canción", "CANCION", "ñu", "che"]:
        assert word in lexicon, word
    assert "ANO" in lexicon
    assert "AÑO" in lexicon
    assert "C[H]ORRO" not in lexicon  # C, H as two tiles: not the word
    assert "CHORR" not in lexicon
    assert "LLAM" not in lexicon
    stored = set(lexicon.words())
    assert es.tiles("chorro") in stored
    assert len(es.tiles("chorro")) == 4
    assert len(stored) == len(lexicon) == len({es.tiles(w) for w in words})
    # two-tile words made with a two-letter tile
    assert {es.spell(w) for w in stored if len(w) == 2} >= {"CHE", "CHA", "ÑU"}
    assert sorted(es.spell(w) for w in lexicon.anagrams(es.tiles("ORROCH"))) == ["CHORRO"]
    again = Lexicon.from_bytes(lexicon.to_bytes())
    assert again.alphabet == es.alphabet
    assert list(again.words()) == list(lexicon.words())
    again.verify()


def test_a_lexicon_of_other_tiles_is_refused(es: Edition, lexicon: Lexicon) -> None:
    with pytest.raises(AlphabetMismatchError):
        find_top(Board(), "AEIOU??", lexicon, FRENCH)


# --- a classic game, typed ---------------------------------------------------------------------


def test_classic_game_typed_and_scored(es: Edition, lexicon: Lexicon) -> None:
    game = ClassicGame(es, rule_set_by_code("box-en"), ["Ana", "Ben"], Notation.FISF)
    # H8: CH(5) O(1) RR(8) O(1) on H8-H11, the centre doubles the word
    placement, score = game.evaluate("H8 chorro")
    assert score.total == 30
    assert score.words[0].word == "CHORRO"
    assert score.words[0].breakdown == "(5+1+8+1)x2 = 30"
    assert len(placement.new_tiles) == 4
    # one case per tile: C, then the jokers h, o, rr, o
    placement, score = game.evaluate("h8 Chorro")
    assert [(es.label(c.letter), c.joker) for c in placement.new_tiles] == [
        ("C", False),
        ("H", True),
        ("O", True),
        ("RR", True),
        ("O", True),
    ]
    assert game.canonical_move("h8 Chorro") == "H8 Chorro"
    assert score.total == 3 * 2
    assert game.canonical_move("H8 C[H]ORRO") == "H8 C[H]ORRO"
    assert game.canonical_move("h8 (ch)orro") == "H8 chORRO"  # a joker for CH, written in lowercase
    assert game.canonical_move("h8 (ch)(o)") == "H8 (CH)(O)"


def _classic_game(es: Edition) -> ClassicGame:
    game = ClassicGame(es, rule_set_by_code("box-en"), ["Ana", "Ben"], Notation.FISF)
    game.apply(Play("Ana", "H8 CHORRO"))  # CH O RR O on H8-H11
    game.apply(Play("Ben", "8H CHICO"))  # down column 8 through the CH: I, C, O on I8-K8
    game.apply(Play("Ana", "11H OllA"))  # down column 11 through the last O: a joker for LL, then A
    game.apply(Exchange("Ben", "ÑX"))
    game.apply(Play("Ben", "K6 AñO"))  # A, a joker for Ñ, then the O of CHICO on K8
    return game


def test_classic_game_with_two_letter_tiles_and_jokers(es: Edition, lexicon: Lexicon) -> None:
    game = _classic_game(es)
    assert [line.move or line.tiles for line in game.lines] == ["H8 CHORRO", "8H CHICO", "11H OllA", "ÑX", "K6 AñO"]
    assert [line.points for line in game.lines] == [30, 5 + 1 + 3 + 1, 1 + 0 + 1, 0, 1 + 0 + 1]
    for line in game.lines:
        if line.placement is not None:
            for word in line.placement.words:
                assert word.text in lexicon, es.spell(word.text)
    olla = game.lines[2].placement
    assert olla is not None
    assert [(es.label(c.letter), c.joker) for c in olla.new_tiles] == [("LL", True), ("A", False)]
    # the unseen tiles count each two-letter tile once, jokers apart
    unseen = game.unseen()
    assert unseen[es.tiles("CH")] == 0
    assert unseen[es.tiles("RR")] == 0
    assert unseen[es.tiles("LL")] == 1
    assert unseen["Ñ"] == 1
    assert unseen["?"] == 0
    assert sum(unseen.values()) == es.tile_count - len(game.board) == 100 - 11
    assert not game.alerts
    board = game.board.rows()
    assert board[7][7:11] == es.tiles("CHORRO")
    assert board[8][10] == es.tiles("LL").lower()


def test_gcg_writes_labels_and_reads_back(es: Edition) -> None:
    game = _classic_game(es)
    text = write_gcg(game)
    assert "#arbitre-edition es-test" in text
    assert " 8H CHORRO " in text
    assert " H8 .ICO " in text
    assert " K8 .llA " in text
    assert " 11F Añ. " in text
    assert "-ÑX" in text
    record = read_gcg(text, edition=es, strict=True)
    assert [(line.move, line.tiles) for line in record.game.lines] == [(line.move, line.tiles) for line in game.lines]
    assert record.game.board == game.board
    assert record.game.totals() == game.totals()
    assert not [entry for entry in record.entries if entry.mismatch]


# --- the move generator -------------------------------------------------------------------------


def test_generator_finds_tops_with_two_letter_tiles(es: Edition, lexicon: Lexicon) -> None:
    rack = es.tiles("CHORROA")  # CH O RR O A: 5 tiles
    top = find_top(Board(), rack + "??", lexicon, es, 5)
    assert top.best is not None
    plays = generate_plays(Board(), rack, lexicon, es)
    assert plays
    best = find_top(Board(), rack, lexicon, es).best
    assert best is not None
    assert plays[0].total == best.total
    spelled = {es.spell(p.placement.main_word.text) for p in plays}
    assert "CHORRO" in spelled
    multi = [p for p in plays if any(len(es.label(c.letter)) == 2 for c in p.placement.new_tiles)]
    assert multi, "no play uses a two-letter tile"
    for play in plays:
        # a generated play, typed as written, validates and scores the same
        move = parse_move(play.placement.notation(), Notation.FISF, alphabet=es.alphabet)
        again = validate_move(Board(), move, Notation.FISF, rack_size=es.rack_size)
        assert score_placement(again, es).total == play.total
        assert all(word.text in lexicon for word in again.words)


def test_generator_on_a_board_matches_every_play(es: Edition, lexicon: Lexicon) -> None:
    game = _classic_game(es)
    rack = es.tiles("LLEÑAS?")
    plays = generate_plays(game.board, rack, lexicon, es)
    top = find_top(game.board, rack, lexicon, es, 3)
    assert plays
    assert top.best is not None
    assert [p.total for p in top.plays] == [p.total for p in plays[:3]]
    assert any(any(len(es.label(c.letter)) == 2 for c in p.placement.new_tiles) for p in plays)
    for play in plays[:50]:
        move = parse_move(play.placement.notation(), Notation.FISF, alphabet=es.alphabet)
        again = validate_move(game.board, move, Notation.FISF, rack_size=es.rack_size)
        assert score_placement(again, es).total == play.total


def test_racks_are_read_in_the_edition_tiles(es: Edition, lexicon: Lexicon) -> None:
    with pytest.raises(RackSyntaxError):
        find_top(Board(), "KIWI", lexicon, es)  # no K, W in this edition
    with pytest.raises(RackSyntaxError):
        find_top(Board(), "chorro", lexicon, es)  # typed text, not tiles
    assert find_top(Board(), parse_tiles("chorro", es.alphabet), lexicon, es).best is not None


# --- a duplicate game to its end ----------------------------------------------------------------


def test_duplicate_game_to_its_end(es: Edition, lexicon: Lexicon) -> None:
    settings = DuplicateSettings()  # no solo bonus with two players
    game = DuplicateGame(es, ["Ana", "Ben"], settings, lexicon_name="es-test")
    finder = movegen_top_finder(lexicon, es, settings)
    rng = random.Random(11)
    rule = settings.draw_rule
    multi_tops = 0
    while not game.finished:
        assert len(game.rounds) < 60
        start = float(len(game.rounds)) * 200
        game.draw(rng, at=start)
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        assert rule.is_met(round_.draw.letters, round_.number, es)
        best = finder(game.board.copy(), round_.draw.letters)
        if best.plays:
            top = best.plays[0].placement
            game.submit("Ana", top.notation(Notation.FISF), at=start + 10)
            multi_tops += any(len(es.label(c.letter)) == 2 for c in top.new_tiles)
        game.submit("Ben", "H8 XXXX", at=start + 20)
        game.close_round(finder, lexicon)
    rounds = game.closed_rounds
    assert len(rounds) >= 8
    assert game.end_reason
    assert multi_tops >= 1
    # Ana played every top, Ben nothing valid
    standings = {s.player: s for s in game.standings()}
    assert standings["Ana"].total == game.tops_total > 0
    assert standings["Ben"].total == 0
    # the record is written in labels: every draw reads back as the round's tiles
    for round_, line in zip(rounds, game.record()):
        assert round_.draw is not None
        kept, _, new = line.draw.partition("+") if "+" in line.draw else ("", "", line.draw)
        assert Counter(es.tiles(kept + new)) == Counter(round_.draw.letters)
        if round_.top is not None:
            assert score_placement(round_.top, es).total == line.score
            assert line.word == round_.top.notation().split(" ", 1)[1]
    # tiles are conserved: board + bag + what is left on the rack = the edition's bag
    on_board = Counter("?" if t.joker else t.letter for _, _, t in game.board.tiles())
    assert on_board + Counter(game.bag.tiles) + Counter(game.reliquat) == Counter(es.bag())
    # rebuilt from its events through JSON, without word list or move generator
    data = json.loads(json.dumps([event_to_dict(e) for e in game.events], ensure_ascii=False))
    again = DuplicateGame.from_events((event_from_dict(d) for d in data), edition=es)
    assert again.board == game.board
    assert again.record() == game.record()
    assert again.standings() == game.standings()
    assert again.end_reason == game.end_reason


def test_manual_draws_in_labels(es: Edition) -> None:
    game = DuplicateGame(es, ["Ana"], DuplicateSettings(solo_min_players=1))
    game.draw_manual("CH LL RR A E I O")
    round_ = game.current
    assert round_ is not None
    assert round_.draw is not None
    assert sorted(es.label(t) for t in round_.draw.letters) == ["A", "CH", "E", "I", "LL", "O", "RR"]
    assert game.bag.count(es.tiles("CH")) == 0
    game.reject_draw()
    with pytest.raises(LetterNotInBagError):
        game.draw_manual("CH CH A E I O U")  # one CH in the bag
    game.draw_manual("C[H]AEIOU")  # C and H, not CH
    round_ = game.current
    assert round_ is not None
    assert round_.draw is not None
    assert sorted(es.label(t) for t in round_.draw.letters) == ["A", "C", "E", "H", "I", "O", "U"]


def test_apply_placement_from_labels(es: Edition) -> None:
    board = Board()
    placement = validate_move(board, parse_move("H8 ÑU", alphabet=es.alphabet), rack_size=7)
    apply_placement(board, placement)
    assert board.rows()[7][7:9] == "ÑU"
    assert str(placement) == "H8 ÑU"
