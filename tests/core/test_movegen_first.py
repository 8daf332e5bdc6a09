"""The first move's top read from the anagram map (``core.movegen_first``) against the walk of every play."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.board import Board
from core.edition import ENGLISH, FRENCH, JOKER, Edition, edition_by_code
from core.lexicon import Lexicon
from core.movegen import find_top, generate_plays
from core.movegen_board import make_lines, parse_rack
from core.movegen_first import rack_keys
from core.movegen_search import Search
from tests.core.test_movegen import check_top, random_lexicon
from tests.ready_lists import ready_registry

BOTH = (True, False)  # horizontal only (FISF), or both directions


def _check_all_counts(rack: str, lexicon: Lexicon, edition: Edition, horizontal_only: bool) -> None:
    """``find_top`` on the empty board (the anagram map) agrees with ``generate_plays`` (the walk of every
    play): the top and its rule, the best three and five, how many score the top, and their keys."""
    board = Board()
    plays = generate_plays(board, rack, lexicon, edition, first_move_horizontal_only=horizontal_only)
    check_top(board, rack, lexicon, edition, plays, first_move_horizontal_only=horizontal_only)
    five = find_top(board, rack, lexicon, edition, 5, first_move_horizontal_only=horizontal_only, keep_ties=True)
    assert [(str(p), p.total) for p in five.plays] == [(str(p), p.total) for p in plays[:5]]
    best = plays[0].total if plays else None
    assert len(five.top_keys) == five.top_count == sum(1 for p in plays if p.total == best)


@pytest.mark.parametrize("code", ["fr", "en"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), size=st.integers(1, 7), horizontal_only=st.sampled_from(BOTH))
def test_first_move_of_a_bundled_list_equals_the_walk(code: str, seed: int, size: int, horizontal_only: bool) -> None:
    edition = edition_by_code(code)
    lexicon = ready_registry().get(code)
    tiles = [tile for tile in edition.bag() if tile != JOKER]
    random.Random(seed).shuffle(tiles)
    _check_all_counts("".join(tiles[:size]), lexicon, edition, horizontal_only)


@st.composite
def dense_lists(draw: st.DrawFn) -> tuple[list[str], str]:
    """A little word list dense in words of one seven-tile rack (its sub-racks, some anagrams), and the rack."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    words = random_lexicon(rng, "AEINRST")
    rack = "".join(rng.choice("AEINRST") for _ in range(draw(st.integers(2, 7))))
    for _ in range(40):
        letters = rng.sample(rack, rng.randint(2, len(rack)))
        words.append("".join(letters))
    return words, rack


@pytest.mark.parametrize("keys_alone", [False, True])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=dense_lists(), horizontal_only=st.sampled_from(BOTH))
def test_first_move_equals_the_walk_in_both_anagram_maps(
    keys_alone: bool, case: tuple[list[str], str], horizontal_only: bool
) -> None:
    """With each key's words below it (most lists), and with the keys alone (Polish): ties of anagrams, of
    places and of bingos included."""
    words, rack = case
    lexicon = Lexicon.from_words(words, anagram_words=not keys_alone)
    _check_all_counts(rack, lexicon, ENGLISH, horizontal_only)


@pytest.mark.parametrize("keys_alone", [False, True])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=dense_lists())
def test_rack_keys_are_the_sub_racks_with_a_word(keys_alone: bool, case: tuple[list[str], str]) -> None:
    """Every sub-rack of two tiles or more that some word uses exactly, once, with its value and best tile."""
    words, rack = case
    lexicon = Lexicon.from_words(words, anagram_words=not keys_alone)
    search = Search(lexicon, FRENCH, parse_rack(rack, FRENCH), 1, split_bingos=False)
    found = rack_keys(search)
    keys = [key for key, _, _, _ in found]
    assert len(keys) == len(set(keys))
    counts = {letter: rack.count(letter) for letter in set(rack)}
    expected = set()
    for numbers in product(*(range(n + 1) for n in counts.values())):
        letters = "".join(letter * n for letter, n in zip(counts, numbers))
        if len(letters) >= 2 and lexicon.has_anagram(letters):
            expected.add(tuple(sorted(ord(letter) - 65 for letter in letters)))
    assert set(keys) == expected
    values = search.values
    for key, _, worth, best in found:
        assert (worth, best) == (sum(values[code] for code in key), max(values[code] for code in key))


def test_the_first_move_reads_no_line_but_the_centre_ones() -> None:
    """The empty board's lines are the centre row (and column), each with the centre as its one hook: the
    places the first move's plays are read at."""
    lexicon = ready_registry().get("fr")
    lines = make_lines(Board(), lexicon, FRENCH, False)
    assert [(line.horizontal, line.index) for line in lines] == [(True, 7), (False, 7)]
    assert all(line.hook == [position == 7 for position in range(16)] for line in lines)
    top = find_top(Board(), "CHANTEZ", lexicon, FRENCH, first_move_horizontal_only=True).best
    assert top is not None
    assert (str(top), top.total) == ("H6 CHANTEZ", 112)  # Z on the double letter H12
