"""The compiled lexicon: normalisation, membership, walks, anagrams, the binary form, minimality."""

from __future__ import annotations

import gzip
import sys
import time
from array import array
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.board import Board
from core.edition import FRENCH
from core.errors import ArbitreError
from core.errors_lexicon import CorruptLexiconError, InvalidWordError
from core.lexicon import Lexicon, normalise_word
from core.lexicon_layout import FINAL, LOOKAHEAD
from core.movegen import find_top
from tests.paths import REPO_ROOT
from tests.ready_lists import compiled_once

LISTS = REPO_ROOT / "lexicons"

WORDS = ["VAGUE", "VAGUES", "AVIONS", "AVION", "ECOLE", "ECOLES", "HANTEZ", "CHANTEZ", "ZA", "AZ"]


@pytest.fixture(scope="module")
def small() -> Lexicon:
    return Lexicon.from_words(WORDS, name="small")


# --- normalisation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("écoles", "ECOLES"), ("  Vague ", "VAGUE"), ("cœur", "COEUR"), ("ÉTÉ", "ETE"), ("za", "ZA")],
)
def test_normalise_word_folds_strips_and_uppercases(text: str, expected: str) -> None:
    assert normalise_word(text) == expected


@pytest.mark.parametrize("text", ["", "a", "é", "aujourd'hui", "porte-clé", "ab1", "A" * 16, "deux mots"])
def test_normalise_word_rejects_what_is_not_a_word(text: str) -> None:
    with pytest.raises(InvalidWordError) as caught:
        normalise_word(text)
    assert isinstance(caught.value, ArbitreError)
    assert repr(text) in str(caught.value)
    assert caught.value.text == text


# --- the word set ------------------------------------------------------------------------------


def test_membership_any_case_and_accents(small: Lexicon) -> None:
    assert "VAGUE" in small
    assert "vague" in small
    assert "Écoles" in small
    assert " hantez " in small
    assert "VAGU" not in small
    assert "VAGUESS" not in small
    assert "" not in small
    assert "A" not in small
    assert "ZA-" not in small
    assert "Z" * 40 not in small
    assert 42 not in small


def test_len_counts_distinct_words_and_words_are_sorted() -> None:
    lexicon = Lexicon.from_words(["vague", "VAGUE", "Vague", "avion", "école", "ECOLE"])
    assert len(lexicon) == 3
    assert list(lexicon.words()) == ["AVION", "ECOLE", "VAGUE"]


def test_invalid_word_in_list_raises_or_is_skipped() -> None:
    with pytest.raises(InvalidWordError):
        Lexicon.from_words(["VAGUE", "X"])
    lexicon = Lexicon.from_words(["VAGUE", "X", "A" * 20], skip_invalid=True)
    assert list(lexicon.words()) == ["VAGUE"]


def test_empty_lexicon() -> None:
    lexicon = Lexicon.from_words([], name="empty")
    assert len(lexicon) == 0
    assert "AA" not in lexicon
    assert list(lexicon.words()) == []
    assert not lexicon.has_prefix("")
    assert list(lexicon.children(lexicon.root)) == []
    again = Lexicon.from_bytes(lexicon.to_bytes())
    assert len(again) == 0
    assert again.name == "empty"


# --- walks ---------------------------------------------------------------------------------------


def test_prefix_walks(small: Lexicon) -> None:
    node = small.root
    for letter in "VAGUE":
        child = small.child(node, letter)
        assert child is not None
        node = child
    assert small.is_final(node)
    assert [letter for letter, _ in small.children(node)] == ["S"]
    assert small.child(node, "X") is None
    assert small.child(node, "s") == dict(small.children(node))["S"]
    assert small.child(node, "?") is None
    assert not small.is_final(small.root)
    assert [letter for letter, _ in small.children(small.root)] == ["A", "C", "E", "H", "V", "Z"]
    assert small.has_prefix("vag")
    assert small.has_prefix("VAGUES")
    assert small.has_prefix("")
    assert not small.has_prefix("VAGUEST")
    assert not small.has_prefix("Q")
    assert not small.has_prefix("V-")
    assert small.walk("CHANT") is not None
    assert small.walk("CHAT") is None
    assert small.height(small.root) == 7
    assert small.lengths(small.walk("AVION") or 0) == 0b11


def test_cross_mask(small: Lexicon) -> None:
    assert small.cross_mask("VAGUE", "") == 1 << (ord("S") - 65)
    assert small.cross_mask("", "ANTEZ") == 1 << (ord("H") - 65)
    assert small.cross_mask("", "A") == 1 << (ord("Z") - 65)
    assert small.cross_mask("A", "") == 1 << (ord("Z") - 65)
    assert small.cross_mask("Q", "") == 0
    assert small.cross_mask("", "") == 0  # no one-letter words


def test_anagrams(small: Lexicon) -> None:
    assert sorted(small.anagrams("ZTHACNE")) == ["CHANTEZ"]
    assert sorted(small.anagrams("GUEAV")) == ["VAGUE"]
    assert sorted(small.anagrams("SUEAV", 1)) == ["VAGUES"]
    assert sorted(small.anagrams("Z", 1)) == ["AZ", "ZA"]
    assert sorted(small.anagrams("", 2)) == ["AZ", "ZA"]
    assert small.has_anagram("SNOIVA")
    assert not small.has_anagram("SNOIVAX")
    assert small.has_anagram("ECOL", 2)
    assert not small.has_anagram("ECOL", 3)
    assert not small.has_anagram("A1")


# --- binary form -----------------------------------------------------------------------------------


def test_bytes_round_trip(small: Lexicon) -> None:
    data = small.to_bytes()
    assert data[:6] == b"ARBLEX"
    again = Lexicon.from_bytes(data)
    assert again.name == "small"
    assert list(again.words()) == list(small.words())
    assert len(again) == len(small)
    assert Lexicon.from_bytes(data, name="other").name == "other"
    assert Lexicon.from_bytes(bytearray(data)).to_bytes() == data
    assert Lexicon.from_bytes(memoryview(data)).to_bytes() == data


@pytest.mark.skipif(sys.byteorder != "little", reason="big-endian hosts copy the arrays to swap them")
def test_bytes_loaded_without_copy_are_views_that_answer_alike(small: Lexicon) -> None:
    data = small.to_bytes()
    shared = Lexicon.from_bytes(data, copy=False)
    copied = Lexicon.from_bytes(data)
    assert isinstance(copied.table, array)
    assert isinstance(shared.table, memoryview)
    assert shared.table.obj is data
    assert all(isinstance(part, memoryview) and part.obj is data for part in shared.lookahead)
    shared.verify()
    assert shared.to_bytes() == data
    assert list(shared.words()) == list(copied.words()) == sorted(set(WORDS))
    for probe in ["VAGUE", "vagues", "AVIO", "ZZ", "CHANTEZ", "CHANTE"]:
        assert (probe in shared) == (probe in copied)
        assert shared.has_prefix(probe) == copied.has_prefix(probe)
    assert shared.cross_mask("VAGU", "") == copied.cross_mask("VAGU", "")
    assert sorted(shared.anagrams("ECOLS", 1)) == sorted(copied.anagrams("ECOLS", 1))


@pytest.mark.parametrize("rack", ["VAGUES?", "AVIONS", "CHANTEZ", "ECOLE??"])
def test_the_move_generator_finds_the_same_plays_on_views(small: Lexicon, rack: str) -> None:
    shared = Lexicon.from_bytes(small.to_bytes(), copy=False)
    tops = [
        find_top(Board(), rack, lexicon, FRENCH, 20, first_move_horizontal_only=True) for lexicon in (small, shared)
    ]
    plays = [[(p.placement.notation(), p.score.total) for p in top.plays] for top in tops]
    assert plays[0] == plays[1]
    assert plays[0]


def test_corrupt_bytes_raise(small: Lexicon) -> None:
    data = small.to_bytes()
    damaged_cases = {
        "empty": b"",
        "header only": data[:20],
        "truncated": data[:-1],
        "extra byte": data + b"\0",
        "bad magic": b"XXXXXX" + data[6:],
        "version": data[:8] + b"\x09\x00" + data[10:],
        "payload bit": data[:-5] + bytes([data[-5] ^ 0x10]) + data[-4:],
        "header field": data[:28] + bytes([data[28] ^ 1]) + data[29:],
    }
    for case, damaged in damaged_cases.items():
        with pytest.raises(CorruptLexiconError):
            Lexicon.from_bytes(damaged)
        assert case


# --- properties against plain sets --------------------------------------------------------------

word_lists = st.lists(st.text(alphabet="ABCDE", min_size=2, max_size=7), max_size=60)


def _right_languages(words: set[str]) -> int:
    """Number of states of the minimal automaton (distinct non-empty sets of suffixes)."""
    languages = set()
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    for prefix in prefixes:
        languages.add(frozenset(w[len(prefix) :] for w in words if w.startswith(prefix)))
    return len(languages)


def _reachable_nodes(lexicon: Lexicon, root: int) -> int:
    seen = {root}
    stack = [root]
    while stack:
        node = stack.pop()
        for _, child in lexicon.children(node):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return len(seen)


@settings(max_examples=150, deadline=None)
@given(word_lists, st.lists(st.text(alphabet="ABCDEF", max_size=8), max_size=20))
def test_lexicon_matches_a_set(words: list[str], probes: list[str]) -> None:
    lexicon = Lexicon.from_words(words)
    expected = set(words)
    assert len(lexicon) == len(expected)
    assert list(lexicon.words()) == sorted(expected)
    for probe in probes + words:
        assert (probe in lexicon) == (probe in expected)
        assert (probe.lower() in lexicon) == (probe in expected)
        assert lexicon.has_prefix(probe) == any(w.startswith(probe) for w in expected)
    again = Lexicon.from_bytes(lexicon.to_bytes())
    assert list(again.words()) == sorted(expected)
    if expected:
        assert _reachable_nodes(lexicon, lexicon.root) == _right_languages(expected)


@settings(max_examples=100, deadline=None)
@given(word_lists, st.text(alphabet="ABCDE", max_size=6), st.integers(0, 2))
def test_anagrams_match_a_set(words: list[str], letters: str, jokers: int) -> None:
    lexicon = Lexicon.from_words(words)
    wanted = Counter(letters)
    expected = sorted(w for w in set(words) if len(w) == len(letters) + jokers and not wanted - Counter(w))
    assert sorted(lexicon.anagrams(letters, jokers)) == expected
    assert lexicon.has_anagram(letters, jokers) == bool(expected)


@settings(max_examples=100, deadline=None)
@given(word_lists, st.text(alphabet="ABCDE", max_size=4), st.text(alphabet="ABCDE", max_size=4))
def test_cross_mask_matches_a_set(words: list[str], before: str, after: str) -> None:
    lexicon = Lexicon.from_words(words)
    expected = 0
    for code in range(26):
        if before + chr(65 + code) + after in set(words):
            expected |= 1 << code
    assert lexicon.cross_mask(before, after) == expected
    assert lexicon.cross_mask(before, after) == expected  # from the cache


@settings(max_examples=60, deadline=None)
@given(word_lists)
def test_lengths_and_lookahead_match_a_set(words: list[str]) -> None:
    lexicon = Lexicon.from_words(words)
    expected = set(words)
    prefixes = {w[:i] for w in expected for i in range(len(w))}
    for prefix in prefixes:
        node = lexicon.walk(prefix)
        assert node is not None
        rest = [w[len(prefix) :] for w in expected if w.startswith(prefix)]
        assert lexicon.lengths(node) == sum({1 << len(r) for r in rest})
        for d in range(1, LOOKAHEAD + 1):
            letters = {r[d] for r in rest if len(r) > d}
            assert lexicon.lookahead[d - 1][node] == sum(1 << (ord(c) - 65) for c in letters)


def test_node_layout_is_documented(small: Lexicon) -> None:
    table = small.table
    head = table[small.root]
    assert not table[small.root + 1] & FINAL  # the final flag is bit 0 of the lengths word
    assert head == head & small.letters  # a head holds letter bits only
    bit = 1 << (ord("Z") - 65)
    z_node = table[small.root + 2 + (head & (bit - 1)).bit_count()]
    assert z_node == small.child(small.root, "Z")


# --- the bundled lists (skipped when absent) ------------------------------------------------------


def bundled_lexicon(code: str) -> Lexicon:
    """The bundled list ``code`` compiled from its words (once for every run until the list or the compiler
    changes: ``tests.ready_lists.compiled_once``); skips when absent."""
    path = LISTS / f"{code}.txt.gz"
    if not path.exists():
        pytest.skip(f"{path} not built")
    raw = path.read_bytes()
    return compiled_once(raw, lambda: gzip.decompress(raw).decode("utf-8").split(), code)


@pytest.mark.parametrize(
    ("code", "present", "absent"),
    [
        ("fr", ["ECOLES", "VAGUE", "CHANTEZ", "AVIONS", "FACADES", "ZEN", "KIWI"], ["VAGUESS", "XYZZY"]),
        ("en", ["QUIXOTIC", "ZAX", "RETAINS"], ["QUIXOTICS", "XYZZYQ"]),
    ],
)
def test_bundled_list_round_trip(code: str, present: list[str], absent: list[str]) -> None:
    # compiled from its words again whenever the list or the compiler's sources change
    lexicon = bundled_lexicon(code)
    with gzip.open(LISTS / f"{code}.txt.gz", "rt", encoding="utf-8") as handle:
        words = set(handle.read().split())
    data = lexicon.to_bytes()
    start = time.perf_counter()
    loaded = Lexicon.from_bytes(data)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0  # measured at a few ms; generous for a loaded machine
    assert len(loaded) == len(words)
    for word in present:
        assert word in loaded
    for word in absent:
        assert word not in loaded
    sample = sorted(words)[:: max(1, len(words) // 2000)]
    assert all(word in loaded for word in sample)
