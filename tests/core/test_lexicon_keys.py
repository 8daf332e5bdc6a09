"""An anagram map of keys alone (``Lexicon.anagram_words`` false, the largest lists such as Polish): every answer
and every top the same as with the words in the map (``core.lexicon_layout``, ``core.movegen_bingos``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.board import Board
from core.edition import FRENCH, edition_by_code
from core.lexicon import Lexicon
from core.lexicon_format import _HEADER, KEYS_ONLY
from core.lexicon_layout import is_key
from core.movegen import find_top, generate_plays
from tests.positions import play_moves

WORDS = (
    "HANTEZ CHANTEZ FACADES HUES HA UN ET SE JOUET JET OSE ZEN NEZ ZONE ZONES EU EUS SU TU TE TES ETE ETES"
    " SUE SUES USE USEE USEES NE NU NUE NUES UT US ES AS SA TA AN NA AH HE EH HUE AVIONS VAGUE ECOLES SATIRE"
    " ARISTE RAIETS TARIES TERSAI ENTRAIS RATINES TRAINES ANTERIS ARSENIT TSARINE ASTERIE SEREINE RETINES"
    " NITREES ETREINS INTERES ENTREES RENTES TENSEUR SERINE TANISE SATINE ENTAIS ETAINS SAINTE TISANE SINUEE"
    " FACADE CHANTE TANCHE HANTES CHANTES TACHES CHATES HATES ZESTE ZESTES SEZE ONZE ONZES"
).split()


@pytest.fixture(scope="module")
def pair() -> tuple[Lexicon, Lexicon]:
    return Lexicon.from_words(WORDS, anagram_words=True), Lexicon.from_words(WORDS, anagram_words=False)


def test_the_flag_is_kept_in_the_binary_form(pair: tuple[Lexicon, Lexicon]) -> None:
    with_words, keys_only = pair
    assert with_words.anagram_words
    assert not keys_only.anagram_words
    data = keys_only.to_bytes()
    assert _HEADER.unpack_from(data)[2] & KEYS_ONLY
    loaded = Lexicon.from_bytes(data)
    loaded.verify()
    assert not loaded.anagram_words
    assert len(keys_only.table) < len(with_words.table)


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("AEINRSTUZCH"), min_size=1, max_size=8), st.integers(0, 2))
def test_anagrams_are_the_same(pair: tuple[Lexicon, Lexicon], letters: str, jokers: int) -> None:
    with_words, keys_only = pair
    assert list(keys_only.anagrams(letters, jokers)) == list(with_words.anagrams(letters, jokers))
    assert keys_only.has_anagram(letters, jokers) == with_words.has_anagram(letters, jokers)


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("AEINRSTUZCH"), min_size=1, max_size=9))
def test_a_key_read_at_once_is_a_key_the_walk_finds(pair: tuple[Lexicon, Lexicon], letters: str) -> None:
    for lexicon in pair:
        codes = sorted(ord(char) - 65 for char in letters)
        expected = lexicon.has_anagram(letters) if len(letters) >= 2 else False
        assert is_key(lexicon.anagram_table, lexicon.anagram_root, codes, lexicon.anagram_words) == expected


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_tops_and_every_play_are_the_same(pair: tuple[Lexicon, Lexicon], jokers: int) -> None:
    with_words, keys_only = pair
    rng = random.Random(jokers)
    board, _ = play_moves(["H7 HANTEZ", "6F FACADES", "G8 HUES"])
    for where in (Board(), board):
        for _ in range(6):
            letters = rng.sample("AEEINRSSTTU", 7 - jokers)
            rack = "".join(letters) + "?" * jokers
            first = where.is_empty()
            tops = [find_top(where, rack, lexicon, FRENCH, 10, first_move_horizontal_only=first) for lexicon in pair]
            assert [str(p) for p in tops[0].plays] == [str(p) for p in tops[1].plays]
            assert tops[0].tie_rule == tops[1].tie_rule
            if jokers < 2:
                every = [sorted(str(p) for p in generate_plays(where, rack, lexicon, FRENCH)) for lexicon in pair]
                assert every[0] == every[1]


def test_a_patched_map_of_keys_alone(pair: tuple[Lexicon, Lexicon]) -> None:
    _, keys_only = pair
    patched = keys_only.patched(["ENTRAINS", "SATINEZ"], ["RATINES", "TRAINES", "ZESTE"])
    compiled = Lexicon.from_words(
        (set(WORDS) | {"ENTRAINS", "SATINEZ"}) - {"RATINES", "TRAINES", "ZESTE"}, anagram_words=False
    )
    for letters in ["AEINRST", "AEINRSTN", "AEINSTZ", "EESTZ", "AEINRS"]:
        assert list(patched.anagrams(letters)) == list(compiled.anagrams(letters)), letters
        assert patched.has_anagram(letters, 1) == compiled.has_anagram(letters, 1)
    assert "RATINES" not in patched
    assert patched.has_anagram("AEINRST")  # other words keep the key: ANTERIS, ARSENIT...
    assert not patched.has_anagram("EESTZ")  # its only word removed


def test_polish_tiles_with_keys_alone() -> None:
    polish = edition_by_code("pl")
    words = ["ŻAŁOŚĆ", "ŹDŹBŁO", "DŹWIG", "ŻOŁD", "DOŁEK", "KOŃ", "ŻÓŁW", "BAŁ", "ŁZA"]
    lexicon = Lexicon.from_words(words, alphabet=polish.alphabet, anagram_words=False)
    top = find_top(Board(), "ŹDŹBŁOW", lexicon, polish, 5, first_move_horizontal_only=True)
    assert {p.placement.main_word.text for p in top.plays} == {"ŹDŹBŁO"}
    assert list(lexicon.anagrams("ŁOŹDŹB")) == ["ŹDŹBŁO"]
