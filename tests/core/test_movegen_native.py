"""The C walk of the top search (``core.movegen_native``): built where a compiler is, equal to the Python
search on the bundled lists' games and on lists of 33 tiles and more, turned off by ``ARBITRE_NATIVE=0``."""

from __future__ import annotations

import dataclasses
import random
import shutil
import sysconfig

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import movegen_native
from core.alphabet import Alphabet
from core.board import Board
from core.edition import ENGLISH, FRENCH, Edition, edition_by_code
from core.lexicon import Lexicon
from core.movegen import find_top, generate_plays
from core.movegen_board import Line, Rack, parse_rack
from core.movegen_native import NATIVE_JOKERS, available, native_plays, usable
from core.notation import parse_tiles
from core.placement import apply_placement
from tests.core.engines import ENGINES, NATIVE, PYTHON, engine
from tests.core.test_lexicon_layout import labels, random_words
from tests.core.test_movegen import expected_rule, positions
from tests.positions import board_with, greedy_game
from tests.ready_lists import ready_registry

needs_native = pytest.mark.skipif(not available(), reason="the C walk is not built (no C compiler)")

Summary = tuple[list[tuple[str, int]], str, int, frozenset[object]]


def summary(board: Board, rack: str, lexicon: Lexicon, edition: Edition, count: int) -> Summary:
    """What a top search gives: its plays and scores, tie rule, plays scoring the top, and their keys."""
    top = find_top(board, rack, lexicon, edition, count, keep_ties=count > 1)
    return [(str(p), p.total) for p in top.plays], str(top.tie_rule), top.top_count, frozenset(top.top_keys)


def both_engines(board: Board, rack: str, lexicon: Lexicon, edition: Edition) -> None:
    """Both engines give the same tops (1, 5 and 30 kept) and, for a rack without a joker, list the same plays
    (with one, thousands: each built by both takes seconds)."""
    results = []
    for name in (PYTHON, NATIVE):
        with engine(name):
            listed = [] if "?" in rack else [(str(p), p.total) for p in generate_plays(board, rack, lexicon, edition)]
            tops = [summary(board, rack, lexicon, edition, count) for count in (1, 5, 30)]
            results.append((tops, listed))
    assert results[0] == results[1], (rack, board)


def test_the_c_walk_is_built_where_the_machine_has_a_c_compiler() -> None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}): the package runs on Python alone")
    assert available(), "the C walk was not built: reinstall the package (pip install -e .) with a C compiler"
    assert ENGINES == (PYTHON, NATIVE)


@needs_native
def test_arbitre_native_0_turns_the_c_walk_off() -> None:
    rack = parse_rack("ABC?", FRENCH)
    with engine(NATIVE):
        assert usable(rack, FRENCH)
        assert not usable(Rack((0,) * len(FRENCH.alphabet), NATIVE_JOKERS + 1, NATIVE_JOKERS + 1), FRENCH)
    with engine(PYTHON):
        assert not usable(rack, FRENCH)


@needs_native
def test_the_c_walk_leaves_the_starts_bounded_below_the_best() -> None:
    """A top walks the starts in decreasing order of bound and stops below the best; the full list walks all."""
    lexicon = ready_registry().get("fr")
    board = Board()
    apply_placement(board, find_top(board, "CHANTEZ", lexicon, FRENCH).plays[0].placement)
    with engine(NATIVE):
        every = len(generate_plays(board, "AEIRSTU", lexicon, FRENCH))
        top = find_top(board, "AEIRSTU", lexicon, FRENCH)
        assert top.searched.pruned > 0
        assert top.searched.searched + top.searched.pruned == top.searched.starts
        assert 0 < top.searched.plays_seen < every
        rack = parse_rack("AEIRSTU", FRENCH)
        seen, starts, walked, _ = native_plays(board, rack, lexicon, FRENCH, 0, False)
        assert (seen, walked) == (every, starts)


@needs_native
def test_a_top_met_alone_is_told_from_a_unique_play() -> None:
    """When the walk met one play, the top, and left starts bounded below it, whether those hold another play
    decides between the rules score and unique (AE: I8 AE met alone, 9H AE left)."""
    lexicon = Lexicon.from_words(["ZA", "AZ", "ZZZ", "AE"])
    board = board_with("H8:Z H9:A")
    met_alone = 0
    with engine(NATIVE):
        for rack in ("A", "E", "AE", "ZA", "Z"):
            top = find_top(board, rack, lexicon, FRENCH)
            assert top.tie_rule == expected_rule(generate_plays(board, rack, lexicon, FRENCH)), rack
            met_alone += top.searched.plays_seen == 1 and top.searched.pruned > 0
    assert met_alone >= 1


@needs_native
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=positions(max_rack=7), count=st.sampled_from([1, 2, 3, 5, 30]))
def test_the_engines_keep_the_same_plays_for_any_count(case: tuple[list[str], Board, str], count: int) -> None:
    """Random dense lists and positions (``test_movegen.positions``): the same kept plays, rule, count of plays
    scoring the top and keys of those, whatever the number of plays asked."""
    words, board, rack = case
    lexicon = Lexicon.from_words(words)
    found = []
    for name in (PYTHON, NATIVE):
        with engine(name):
            found.append(summary(board, rack, lexicon, FRENCH, count))
    assert found[0] == found[1]


@needs_native
@pytest.mark.parametrize("code", ["fr", "en"])
def test_the_engines_agree_on_greedy_games_of_the_bundled_lists(code: str) -> None:
    """Eight turns of a seeded greedy game per list; each turn's rack as drawn, without its jokers and with one."""
    edition = FRENCH if code == "fr" else ENGLISH
    lexicon = ready_registry().get(code)
    for board, text in greedy_game(edition, lexicon, 42, jokers=False):
        both_engines(board, text, lexicon, edition)
        both_engines(board, text[:6] + "?", lexicon, edition)


@needs_native
@pytest.mark.parametrize("tiles", [33, 40])
def test_the_engines_agree_on_an_alphabet_of_more_than_32_tiles(tiles: int) -> None:
    """A list of 64-bit nodes (``core.lexicon_layout``): random words, a game of its best plays."""
    alphabet = Alphabet(labels(tiles))
    symbols = alphabet.symbols
    edition = Edition(
        code="wide",
        name="wide",
        values={s: 1 + i % 10 for i, s in enumerate(symbols)},
        counts={s: 3 for s in symbols},
        jokers=2,
        vowels=frozenset(symbols[:5]),
        alphabet=alphabet,
    )
    play_a_game(edition, Lexicon.from_words(random_words(alphabet, 3000, tiles), alphabet=alphabet), tiles)


@needs_native
@pytest.mark.parametrize("code", ["es", "ca"])
def test_the_engines_agree_on_editions_with_tiles_of_two_letters(code: str) -> None:
    """Spanish (CH, LL, RR) and Catalan (L·L, NY, QU): random words of their tiles, a game of its best plays."""
    edition = edition_by_code(code)
    alphabet = edition.alphabet
    typed = ("".join(edition.label(tile) for tile in word) for word in random_words(alphabet, 3000, 7))
    words = [text for text in typed if len(parse_tiles(text, alphabet)) >= 2]  # typed C H is one tile, CH
    lexicon = Lexicon.from_words(words, alphabet=alphabet)
    assert any(len(edition.label(tile)) > 1 for word in lexicon.words() for tile in word)
    play_a_game(edition, lexicon, 7)


def play_a_game(edition: Edition, lexicon: Lexicon, seed: int) -> None:
    """Six turns of the best play (racks of the alphabet's first twelve and last three tiles, some with a joker),
    both engines giving the same tops and plays at each."""
    symbols = edition.alphabet.symbols
    rng = random.Random(seed)
    board = Board()
    for _turn in range(6):
        rack = "".join(rng.choice(symbols[:12] + symbols[-3:]) for _ in range(6)) + rng.choice(["", "?"])
        both_engines(board, rack, lexicon, edition)
        with engine(NATIVE):
            best = find_top(board, rack, lexicon, edition).best
        if best is not None:
            apply_placement(board, best.placement)
    assert len(board) > 0


@needs_native
def test_the_c_walk_refuses_arguments_out_of_their_sizes() -> None:
    from core import _movegen_native

    lexicon = Lexicon.from_words(["ZA"])
    empty = bytes(225)

    def line_of(horizontal: bool, index: int) -> Line:
        return Line(horizontal, index, lexicon.letters)

    with pytest.raises(ValueError):
        _movegen_native.plays(
            lexicon.table, lexicon.lookahead, False, lexicon.root, lexicon.letters, b"\xff" * 224, empty, empty,
            empty, bytes(26), bytes(26), 0, 0, 1, False, line_of,
        )  # fmt: skip
    with pytest.raises(ValueError):  # a table of 32-bit words read as 64-bit
        _movegen_native.plays(
            lexicon.table, lexicon.lookahead, True, lexicon.root, lexicon.letters, b"\xff" * 225, empty, empty,
            empty, bytes(26), bytes(26), 0, 0, 1, False, line_of,
        )  # fmt: skip


@needs_native
def test_the_editions_made_per_search_are_not_all_kept() -> None:
    """The 7/8 formats make an edition per search (``core.movegen_formats``): the tile values kept for the C
    walk are those of the last editions used, not of every edition a long-running bot has made."""
    lexicon = Lexicon.from_words(["ZA", "AZ"])
    for size in range(200):
        edition = dataclasses.replace(FRENCH, rack_size=7 + size % 2, bingo_bonus=size)
        assert str(find_top(board_with("H8:Z"), "A", lexicon, edition).best) == "H7 AZ"
    assert 0 < len(movegen_native._VALUES) <= movegen_native._VALUES_KEPT
