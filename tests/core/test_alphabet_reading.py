"""Reading typed text in an edition's tiles: ``Alphabet.tiles`` and ``Alphabet.fold`` read as ``scan`` and the
character-by-character fold define them, for every shipped edition and the Spanish-like test edition
(multi-letter tiles, letters of their own, folds), on uppercase text (how bundled lists are written), mixed
case and brackets."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.alphabet import Alphabet
from core.edition import EDITIONS, edition_from_json
from tests.paths import TEST_DATA

TEST_EDITION = TEST_DATA / "editions" / "es-test.json"
ALPHABETS = {code: edition.alphabet for code, edition in EDITIONS.items()}
ALPHABETS["es-test"] = edition_from_json(TEST_EDITION.read_text(encoding="utf-8")).alphabet


def tiles_read_piece_by_piece(alphabet: Alphabet, text: str) -> str:
    """The definition: each piece ``scan`` reads, as its symbol, else its typed text in uppercase."""
    return "".join(p.symbol if p.symbol is not None else p.typed.upper() for p in alphabet.scan(text))


def folded_char_by_char(alphabet: Alphabet, text: str) -> str:
    """The definition: a fold's replacement, a label's character or ASCII kept, else the accents taken off."""
    keep = {c for label in alphabet.labels + tuple(alphabet.symbols) for c in label + label.lower()}
    out = []
    for char in text:
        if char in alphabet.folds:
            out.append(alphabet.folds[char])
        elif char in keep or char.isascii():
            out.append(char)
        else:
            out.append("".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)))
    return "".join(out)


def typed_text(alphabet: Alphabet) -> st.SearchStrategy[str]:
    """Text a player or a list could hold: labels in either case, symbols, folded letters, brackets, other letters."""
    pieces = list(alphabet.labels) + [label.lower() for label in alphabet.labels] + list(alphabet.symbols)
    pieces += list(alphabet.folds) + ["[", "]", "?", " ", "·", "ß", "É", "é", "Ŀ", "Ch", "cH", "x"]
    return st.lists(st.sampled_from(pieces), max_size=12).map("".join)


@pytest.mark.parametrize("code", sorted(ALPHABETS))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_tiles_and_fold_read_as_their_definitions(code: str, data: st.DataObject) -> None:
    alphabet = ALPHABETS[code]
    text = data.draw(typed_text(alphabet))
    assert alphabet.fold(text) == folded_char_by_char(alphabet, text)
    assert alphabet.tiles(text) == tiles_read_piece_by_piece(alphabet, text)
    upper = text.upper()
    assert alphabet.tiles(upper) == tiles_read_piece_by_piece(alphabet, upper)


@pytest.mark.parametrize(
    ("code", "typed", "labels"),
    [
        ("es", "CHORRO", ["CH", "O", "RR", "O"]),
        ("es", "AÑO", ["A", "Ñ", "O"]),
        ("ca", "COL·LEGI", ["C", "O", "L·L", "E", "G", "I"]),
        ("ca", "QUE", ["QU", "E"]),
        ("de", "GRÖSSE", ["G", "R", "Ö", "S", "S", "E"]),
    ],
)
def test_bundled_spellings_read_as_tiles(code: str, typed: str, labels: list[str]) -> None:
    alphabet = ALPHABETS[code]
    assert [alphabet.label(symbol) for symbol in alphabet.tiles(typed)] == labels
