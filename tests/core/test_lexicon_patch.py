"""A compiled list patched with a few words in and out (``Lexicon.patched``, for house words, issue #20):
it answers every question exactly as the same list compiled from its words, and compiles nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.board import Board
from core.edition import FRENCH
from core.lexicon import Lexicon
from core.movegen import find_top, generate_plays
from tests.positions import play_moves
from tests.ready_lists import compiled_once, ready_registry

words = st.text(alphabet="ABCDEIKLNORSTUV", min_size=2, max_size=7)


def same_answers(patched: Lexicon, compiled: Lexicon, probes: set[str]) -> None:
    """Every look-up the bot and the move generator make agrees between the two."""
    assert list(patched.words()) == list(compiled.words())
    assert len(patched) == len(compiled)
    for word in probes:
        assert (word in patched) == (word in compiled), word
        assert patched.has_prefix(word[:3]) == compiled.has_prefix(word[:3]), word
        assert patched.has_anagram(word) == compiled.has_anagram(word), word
        assert sorted(patched.anagrams(word)) == sorted(compiled.anagrams(word)), word
        assert patched.cross_mask(word[:1], word[2:]) == compiled.cross_mask(word[:1], word[2:]), word
        mine, theirs = patched.walk(word[:2]), compiled.walk(word[:2])
        assert (mine is None) == (theirs is None), word
        assert mine is None or theirs is None or patched.lengths(mine) == compiled.lengths(theirs), word


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(words, min_size=1, max_size=40), st.sets(words, max_size=8), st.data())
def test_a_patched_list_answers_as_the_list_compiled_with_the_same_words(
    base_words: set[str], added: set[str], data: st.DataObject
) -> None:
    removed = data.draw(st.sets(st.sampled_from(sorted(base_words | {"ZZ"})), max_size=8))
    base = Lexicon.from_words(base_words, name="small")
    patched = base.patched(added, removed)
    kept = (base_words | added) - removed  # a word both added and removed is removed
    same_answers(patched, Lexicon.from_words(kept), base_words | added | removed)
    assert patched.name == "small"
    assert list(base.words()) == sorted(base_words)
    again = patched.patched(removed, added)  # patched twice: the removed words back, the added out
    same_answers(again, Lexicon.from_words((kept | removed) - added), base_words | added | removed)


ADDED = frozenset({"UKVASIE", "ZOUKQX", "KAOSQ", "XU", "QIZXA", "HANTEZQ"})
REMOVED = frozenset({"KVAS", "VAGUE", "ZA", "HUES", "SATIRE", "ARISTE", "HANTEZ"})


@pytest.fixture(scope="module")
def french() -> Lexicon:
    return ready_registry().get("fr")


@pytest.fixture(scope="module")
def french_compiled(french: Lexicon) -> Lexicon:
    """The French list with ADDED and without REMOVED, compiled from its words (seconds: once for every run,
    kept in the cache folder until the words or the compiler change)."""
    source = french.to_bytes() + repr((sorted(ADDED), sorted(REMOVED))).encode()  # what the words depend on
    return compiled_once(source, lambda: (set(french.words()) | ADDED) - REMOVED)


@pytest.mark.parametrize("rack", ["KVASEIU", "ZOUKQXA", "AEIRST?", "??EEKLM", "QIZXAEU"])
def test_tops_on_the_patched_french_list_are_those_of_the_list_compiled_with_the_same_words(
    french: Lexicon, french_compiled: Lexicon, rack: str
) -> None:
    patched = french.patched(ADDED, REMOVED)
    board, _ = play_moves(["H7 HANTEZ", "6F FACADES", "G8 HUES"])  # cross-words and hooks count
    for where in (Board(), board):
        assert [str(p) for p in find_top(where, rack, patched, FRENCH, 12).plays] == [
            str(p) for p in find_top(where, rack, french_compiled, FRENCH, 12).plays
        ]
    if "?" not in rack:  # every play, not only the best (with jokers: seconds)
        every = {str(p) for p in generate_plays(board, rack, patched, FRENCH)}
        assert every == {str(p) for p in generate_plays(board, rack, french_compiled, FRENCH)}


def test_the_move_generator_uses_an_added_word_as_a_cross_word_and_never_a_removed_one(
    french: Lexicon,
) -> None:
    base = french
    board, _ = play_moves(["H8 VAGUE"])
    before = [[w.text for w in p.placement.words] for p in generate_plays(board, "SEIKUVA", base, FRENCH)]
    assert any("VAGUES" in formed for formed in before)
    assert not any("VAGUEK" in formed for formed in before)
    patched = base.patched({"VAGUEK"}, {"VAGUES"})
    after = [[w.text for w in p.placement.words] for p in generate_plays(board, "SEIKUVA", patched, FRENCH)]
    assert not any("VAGUES" in formed for formed in after)
    assert any(formed[0] != "VAGUEK" and "VAGUEK" in formed[1:] for formed in after)  # as a cross-word


def test_a_patched_list_has_no_binary_form_and_leaves_its_original_as_it_was() -> None:
    base = Lexicon.from_words(["VAGUE", "MAISON"])
    saved = base.to_bytes()
    patched = base.patched(["KA"], ["VAGUE"])
    with pytest.raises(ValueError, match="no binary form"):
        patched.to_bytes()
    assert base.to_bytes() == saved
    assert "VAGUE" in base
    assert "KA" not in base
    assert list(patched.words()) == ["KA", "MAISON"]
    assert len(patched) == 2
