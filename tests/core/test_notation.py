"""Reading and writing references, words and moves in both conventions."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.edition import EDITIONS, JOKER
from core.errors import RackSyntaxError, RefSyntaxError, WordSyntaxError
from core.notation import (
    Move,
    Notation,
    Ref,
    TypedLetter,
    format_move,
    format_ref,
    format_word,
    parse_move,
    parse_ref,
    parse_tiles,
    parse_word,
)


@pytest.mark.parametrize(
    ("text", "notation", "expected"),
    [
        ("H4", Notation.FISF, Ref(7, 3, True)),
        ("4H", Notation.FISF, Ref(7, 3, False)),
        ("h 4", Notation.FISF, Ref(7, 3, True)),
        (" 4 h ", Notation.FISF, Ref(7, 3, False)),
        ("A1", Notation.FISF, Ref(0, 0, True)),
        ("15O", Notation.FISF, Ref(14, 14, False)),
        ("8D", Notation.GCG, Ref(7, 3, True)),
        ("D8", Notation.GCG, Ref(7, 3, False)),
        ("8d", Notation.GCG, Ref(7, 3, True)),
        ("H8", Notation.GCG, Ref(7, 7, False)),
        ("H8", Notation.FISF, Ref(7, 7, True)),
    ],
)
def test_parse_ref(text: str, notation: Notation, expected: Ref) -> None:
    assert parse_ref(text, notation) == expected


@pytest.mark.parametrize("text", ["", "H", "8", "P8", "H16", "H0", "HH", "88", "H8X", "Z1"])
def test_bad_ref(text: str) -> None:
    with pytest.raises(RefSyntaxError) as info:
        parse_ref(text)
    assert repr(text) in str(info.value)


def test_same_square_in_both_conventions() -> None:
    assert parse_ref("H4", Notation.FISF) == parse_ref("8D", Notation.GCG)
    assert format_ref(Ref(7, 3, True), Notation.GCG) == "8D"
    assert format_ref(Ref(7, 3, False), Notation.FISF) == "4H"


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        ("VAGUE", "VAGUE"),
        ("VAGuE", "VAGuE"),
        ("vague", "VAGUE"),
        ("C(H)ACUNE", "ChACUNE"),
        ("c(h)acune", "ChACUNE"),
        ("ÉCOLES", "ECOLES"),
        ("écoles", "ECOLES"),
        ("Écoles", "Ecoles"),
        ("CŒUR", "COEUR"),
        ("RE.IgION", "RE.IgION"),
        ("(Q)(I)", "qi"),
    ],
)
def test_parse_word(text: str, letters: str) -> None:
    parsed = parse_word(text)
    assert "".join(str(t) for t in parsed) == letters


def test_strict_mode_reads_every_lowercase_letter_as_joker() -> None:
    assert [t.joker for t in parse_word("eh", lowercase_is_plain=False)] == [True, True]
    assert [t.joker for t in parse_word("eh")] == [False, False]


@pytest.mark.parametrize("text", ["", "VA-GUE", "VA GUE1", "C(HA)CUNE", "C(HACUNE", "C()A", "ΩMEGA"])
def test_bad_word(text: str) -> None:
    with pytest.raises(WordSyntaxError):
        parse_word(text)


@pytest.mark.parametrize(
    ("text", "notation", "canonical"),
    [
        ("h8 vague", Notation.FISF, "H8 VAGUE"),
        ("H 8 VAGuE", Notation.FISF, "H8 VAGuE"),
        ("8 h  vague", Notation.FISF, "8H VAGUE"),
        ("8d re.igion", Notation.GCG, "8D RE.IGION"),
        ("D8 RE.IgION", Notation.GCG, "D8 RE.IgION"),
        ("F2 (K)IWI", Notation.FISF, "F2 kIWI"),
    ],
)
def test_move_canonical_form(text: str, notation: Notation, canonical: str) -> None:
    assert format_move(parse_move(text, notation), notation) == canonical


@pytest.mark.parametrize("text", ["VAGUE", "H8", "VAGUE H8", "H8 VA GUE", "H8VAGUE"])
def test_bad_move(text: str) -> None:
    with pytest.raises((WordSyntaxError, RefSyntaxError)):
        parse_move(text)


refs = st.builds(Ref, st.integers(0, 14), st.integers(0, 14), st.booleans())
notations = st.sampled_from(list(Notation))
typed_letters = st.one_of(
    st.builds(TypedLetter, st.none()),
    st.builds(TypedLetter, st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), st.booleans()),
)
moves = st.builds(Move, refs, st.lists(typed_letters, min_size=1, max_size=15).map(tuple))


@given(refs, notations)
def test_ref_round_trip(ref: Ref, notation: Notation) -> None:
    assert parse_ref(format_ref(ref, notation), notation) == ref


@given(moves, notations)
def test_move_round_trip(move: Move, notation: Notation) -> None:
    assert parse_move(format_move(move, notation), notation) == move


@given(moves, notations, st.sampled_from([str.lower, str.upper, lambda s: s]), st.booleans())
def test_format_of_parse_is_canonical(move: Move, notation: Notation, case: Callable[[str], str], spaced: bool) -> None:
    ref_text = format_ref(move.ref, notation)
    if spaced:  # a space between the letter and the number: "H 8", "10 A"
        ref_text = re.sub(r"(?<=\d)(?=[A-Z])|(?<=[A-Z])(?=\d)", " ", ref_text)
    messy = f"  {case(ref_text)}   {format_move(move, notation).split(' ', 1)[1]} "
    once = format_move(parse_move(messy, notation), notation)
    assert format_move(parse_move(once, notation), notation) == once
    assert parse_move(messy, notation) == move


# --- tiles typed in any edition (issue 42) -----------------------------------------------------------

EDITION_CODES = sorted(EDITIONS)


@given(st.sampled_from(EDITION_CODES), st.data())
def test_parse_tiles_reads_back_the_spelled_tiles(code: str, data: st.DataObject) -> None:
    """Any tiles (``?`` jokers among them), spelled as players read them, are read back as the same tiles."""
    edition = EDITIONS[code]
    tiles = data.draw(st.text(st.sampled_from(edition.alphabet.symbols + JOKER), min_size=1, max_size=9))
    spelled = edition.spell(tiles)
    assert parse_tiles(spelled, edition.alphabet) == tiles
    assert parse_tiles(spelled.lower(), edition.alphabet) == tiles or "[" not in spelled


@given(st.sampled_from(EDITION_CODES), st.data())
def test_moves_with_board_letters_read_back_in_every_edition(code: str, data: st.DataObject) -> None:
    """A typed word's tiles and ``.`` board letters, written and read again, are the same (a Catalan L before a
    ``.`` is bracketed, or L.L would read as L·L)."""
    alphabet = EDITIONS[code].alphabet
    letters = st.one_of(
        st.builds(TypedLetter, st.none()), st.builds(TypedLetter, st.sampled_from(alphabet.symbols), st.booleans())
    )
    word = data.draw(st.lists(letters, min_size=1, max_size=15).map(tuple))
    move = Move(Ref(7, 7, True), word, alphabet)
    assert parse_move(format_move(move), alphabet=alphabet, lowercase_is_plain=False) == move


@pytest.mark.parametrize("typed", ["COL·LEGI", "COL.LEGI", "COL-LEGI", "col.legi", "Col·legi"])
def test_catalan_middle_dot_typed_as_a_full_stop_or_a_hyphen(typed: str) -> None:
    catalan = EDITIONS["ca"].alphabet
    assert [catalan.label(t.letter or ".") for t in parse_word(typed, alphabet=catalan)] == [
        "C", "O", "L·L", "E", "G", "I"
    ]  # fmt: skip
    assert catalan.tiles(typed.upper()) == catalan.tiles("COL·LEGI")


def test_a_full_stop_elsewhere_is_a_board_letter_in_catalan() -> None:
    catalan = EDITIONS["ca"].alphabet
    assert [t.letter for t in parse_word("AL.A", alphabet=catalan)] == ["A", "L", None, "A"]
    letters = (TypedLetter("L"), TypedLetter(None), TypedLetter("L"))
    assert format_word(letters, catalan) == "[L].L"
    assert parse_word("[L].L", alphabet=catalan) == letters


def test_parse_tiles_refuses_what_is_no_tile() -> None:
    with pytest.raises(RackSyntaxError):
        parse_tiles("AB1")
    with pytest.raises(RackSyntaxError):
        parse_tiles("  ")
    assert parse_tiles("é a ?") == "EA?"
