"""Editions as data: the shipped files, alphabets with multi-letter tiles, reading and writing tiles."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.alphabet import LATIN, MAX_TILES, Alphabet
from core.edition import EDITIONS, ENGLISH, FRENCH, edition_by_code, edition_from_data, edition_from_json, fold_accents
from core.errors import EditionDataError, WordSyntaxError
from core.notation import Notation, default_notation, format_word, parse_word
from tests.paths import TEST_DATA

SPANISH_TEST = TEST_DATA / "editions" / "es-test.json"


@pytest.fixture(scope="module")
def spanish_text() -> str:
    return SPANISH_TEST.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def es(spanish_text: str) -> Alphabet:
    return edition_from_json(spanish_text).alphabet


# --- the shipped editions ------------------------------------------------------------------


def test_shipped_editions_in_menu_order() -> None:
    assert list(EDITIONS)[:2] == ["fr", "en"]  # the other editions: tests/core/test_editions_shipped.py
    assert edition_by_code(" FR ") is FRENCH
    with pytest.raises(KeyError):
        edition_by_code("xx")


@pytest.mark.parametrize(
    ("edition", "tiles", "vowels", "notation", "rules", "z"),
    [(FRENCH, 102, "AEIOU", Notation.FISF, "box-fr", 10), (ENGLISH, 100, "AEIOU", Notation.GCG, "box-en", 10)],
)
def test_french_and_english_data(
    edition: object, tiles: int, vowels: str, notation: Notation, rules: str, z: int
) -> None:
    from core.edition import Edition

    assert isinstance(edition, Edition)
    assert edition.tile_count == tiles
    assert edition.vowels == frozenset(vowels)
    assert edition.flexible == frozenset("Y")
    assert edition.alphabet == LATIN
    assert edition.alphabet.plain
    assert edition.values["Z"] == z
    assert default_notation(edition.code) is notation
    assert edition.rules == rules
    assert "".join(edition.bag()).rstrip("?") == "".join(sorted("".join(edition.bag()).rstrip("?")))


def test_default_notation_of_an_unknown_edition_is_gcg() -> None:
    assert default_notation("xx") is Notation.GCG


# --- alphabets -----------------------------------------------------------------------------------


def test_spanish_test_edition_symbols(es: Alphabet) -> None:
    assert es.labels[:4] == ("A", "B", "C", "CH")
    assert len(es.symbols) == len(es.labels)
    assert es.label(es.symbols[3]) == "CH"
    assert es.code("Ñ") == es.labels.index("Ñ")
    assert not es.plain
    assert es.multiletter
    assert all(s.isalpha() and s.isupper() and s.lower() != s for s in es.symbols)


@pytest.mark.parametrize(
    ("typed", "labels"),
    [
        ("CHORRO", ["CH", "O", "RR", "O"]),
        ("chorro", ["CH", "O", "RR", "O"]),
        ("Chorro", ["C", "H", "O", "RR", "O"]),  # one case per tile: C then h
        ("C[H]ORRO", ["C", "H", "O", "RR", "O"]),
        ("[c]h", ["C", "H"]),
        ("año", ["A", "Ñ", "O"]),  # Ñ is a tile of its own
        ("canción", ["C", "A", "N", "C", "I", "O", "N"]),  # accents off letters that are not tiles
        ("LLAMA", ["LL", "A", "M", "A"]),
    ],
)
def test_reading_typed_text_as_tiles(es: Alphabet, typed: str, labels: list[str]) -> None:
    assert [es.label(s) for s in es.tiles(typed)] == labels


@pytest.mark.parametrize(
    ("typed", "expected"), [("Écoles", "ECOLES"), ("cœur", "COEUR"), ("año", "ANO"), ("straße", "STRASSE")]
)
def test_latin_folds_like_fold_accents(typed: str, expected: str) -> None:
    assert LATIN.tiles(typed) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Zoe 2", "Zoe 2"),  # ASCII: as it is, case kept
        ("/jouer H8 ZOO", "/jouer H8 ZOO"),
        ("", ""),
        ("Zoé", "Zoe"),  # one letter beyond ASCII: the whole text folded
        ("Œuf à la coque", "OEuf a la coque"),
        ("straße", "straSSe"),
    ],
)
def test_fold_accents_keeps_plain_text_and_case(text: str, expected: str) -> None:
    assert fold_accents(text) == expected


def test_latin_has_no_brackets() -> None:
    with pytest.raises(WordSyntaxError):
        parse_word("[A]B")


def test_spell_adds_brackets_only_where_needed(es: Alphabet) -> None:
    c, h, ch, o = es.tiles("C"), es.tiles("H"), es.tiles("CH"), es.tiles("O")
    assert es.spell(ch + o) == "CHO"
    assert es.spell(c + h + o) == "C[H]O"
    assert es.spell(c + h, [False, True]) == "Ch"  # the case already cuts
    assert es.spell(c + h, [True, True]) == "c[h]"
    assert es.spell_tiles("?" + h + ch + c + "Ñ") == "C" + "CH" + "H" + "Ñ?"


def test_bad_brackets_and_jokers(es: Alphabet) -> None:
    for text in ["C[HO]RRO", "C[H", "(CHO)RRO", "(C"]:
        with pytest.raises(WordSyntaxError):
            parse_word(text, alphabet=es)
    (joker,) = parse_word("(ch)", alphabet=es)
    assert joker.joker
    assert es.label(joker.letter or "") == "CH"


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_words_written_read_back_the_same(es: Alphabet, data: st.DataObject) -> None:
    symbols = data.draw(st.text(alphabet=es.symbols, min_size=1, max_size=15))
    jokers = data.draw(st.lists(st.booleans(), min_size=len(symbols), max_size=len(symbols)))
    if all(jokers):
        jokers[0] = False
    letters = parse_word(es.spell(symbols, jokers), lowercase_is_plain=False, alphabet=es)
    assert "".join(t.letter or "." for t in letters) == symbols
    assert [t.joker for t in letters] == jokers
    assert parse_word(format_word(letters, es), lowercase_is_plain=False, alphabet=es) == letters


# --- malformed data ------------------------------------------------------------------------------


def _document(**changes: object) -> dict[str, object]:
    document: dict[str, object] = {
        "code": "xx",
        "name": "Test",
        "tiles": [{"label": "A", "value": 1, "count": 2, "kind": "vowel"}, {"label": "B", "value": 3, "count": 2}],
    }
    document.update(changes)
    return document


def test_a_minimal_document() -> None:
    edition = edition_from_data(_document())
    assert edition.alphabet.labels == ("A", "B")
    assert edition.vowels == frozenset("A")
    assert edition.values["B"] == 3
    assert edition.rack_size == 7


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"name": 3}, "name"),
        ({"tiles": "AB"}, "tiles"),
        ({"tiles": [{"label": "A", "value": 1, "count": 2, "kind": "both"}]}, "tiles[1]"),
        ({"tiles": [{"label": "A", "value": 1, "count": 2}, {"label": "A", "value": 1, "count": 2}]}, "tiles"),
        ({"tiles": [{"label": "a", "value": 1, "count": 2}]}, "tiles"),
        ({"tiles": [{"label": f"A{i}", "value": 1, "count": 1} for i in range(MAX_TILES + 1)]}, "tiles"),
        ({"notation": "xyz"}, "notation"),
        ({"rack_size": 0}, "rack_size"),
        ({"jokers": -1}, "jokers"),
        ({"fold": {"Œ": 1}}, "fold"),
    ],
)
def test_malformed_documents_name_the_field(changes: dict[str, object], key: str) -> None:
    with pytest.raises(EditionDataError) as caught:
        edition_from_data(_document(**changes))
    assert caught.value.key == key
    assert caught.value.code == "xx"


def test_not_json() -> None:
    with pytest.raises(EditionDataError):
        edition_from_json("{")


def test_the_test_edition_is_valid_json(spanish_text: str) -> None:
    data = json.loads(spanish_text)
    edition = edition_from_data(data)
    assert edition.tile_count == sum(t["count"] for t in data["tiles"]) + data["jokers"]
