"""The results file for the federation's software (SIGLES), as Eliot writes it.

Format read in Eliot's report ``extras/reports/sigles.py`` (repository cjlano/eliot; the table numbers in
``game/player.cpp``, the totals in ``extras/reports/eliot.py``): for each table from 1 to the highest one,
one line ``"TABLE","NAME","TOTAL"`` with the player's final total (raw score, warnings, penalties and solos
counted), an unoccupied table ``"N","--table vide--","-1"``; the file in Latin-1; a player given no table
number takes the next one (Eliot: its position plus one). The worked example below is ours, derived from
that reading, not copied from Eliot.
"""

from __future__ import annotations

import pytest

from core.duplicate.ranking import DuplicateStanding
from core.duplicate.results_file import assign_table, sigles_bytes, sigles_lines, table_numbers
from core.errors_duplicate import TableNumberError, TableTakenError
from tests.club import Club


def standing(place: int, player: str, total: int, warnings: int = 0, deduction: int = 0) -> DuplicateStanding:
    return DuplicateStanding(place, player, total, total - 620, round(100 * total / 620, 1), 0, warnings, deduction)


def test_the_worked_example_against_eliots_format() -> None:
    standings = [
        standing(1, "Ana", 598),
        standing(2, "Cléo", 571, warnings=5, deduction=10),  # 581 before the 4th and 5th warnings' 10 points
        standing(3, 'Ben "le grand"', 540),
    ]
    tables = {"Ana": 4, "Cléo": 1, 'Ben "le grand"': 2}
    lines = sigles_lines(standings, tables)
    assert lines == [
        '"1","Cléo","571"',
        '"2","Ben \'le grand\'","540"',  # the format has no escape for a double quote
        '"3","--table vide--","-1"',
        '"4","Ana","598"',
    ]
    data = sigles_bytes(lines)
    assert data == b'"1","Cl\xe9o","571"\n"2","Ben \'le grand\'","540"\n"3","--table vide--","-1"\n"4","Ana","598"\n'
    assert sigles_lines(standings, tables, empty_tables=False)[2] == '"4","Ana","598"'  # Eliot's --no-empty
    assert sigles_bytes(['"1","Łucja","10"']) == b'"1","?ucja","10"\n'  # a letter Latin-1 lacks


# (what the arbiter assigned, every player's table in joining order Ana Ben Cleo Dan)
TABLE_ROWS = [
    ({}, [1, 2, 3, 4]),
    ({"Cleo": 1}, [2, 3, 1, 4]),
    ({"Ben": 7, "Dan": 2}, [1, 7, 3, 2]),
    ({"Ana": 3, "Ben": 1, "Cleo": 2, "Dan": 12}, [3, 1, 2, 12]),
]


@pytest.mark.parametrize(("assigned", "expected"), TABLE_ROWS)
def test_table_numbers(assigned: dict[str, int], expected: list[int]) -> None:
    players = ["Ana", "Ben", "Cleo", "Dan"]
    numbers = table_numbers(players, assigned)
    assert [numbers[p] for p in players] == expected
    assert len(set(numbers.values())) == len(players)


def test_assigning_tables() -> None:
    tables: dict[str, int] = {}
    assign_table(tables, "Ana", 3)
    assign_table(tables, "Ana", 5)  # her table 3 is free again
    assign_table(tables, "Ben", 3)
    with pytest.raises(TableTakenError) as taken:
        assign_table(tables, "Cleo", 5)
    assert taken.value.holder == "Ana"
    for bad in (0, -2, 10_000):
        with pytest.raises(TableNumberError):
            assign_table(tables, "Cleo", bad)
    assert tables == {"Ana": 5, "Ben": 3}


def test_a_fisf_game_exported_for_the_federation(club: Club) -> None:
    club.ok("Ref", "/duplicate 3 manuel sanctions")
    club.ok("Ref", "/tirage ACEHNTZ")
    club.ok("Ana", "/jouer H6 CHANTEZ 112", private=True)
    club.ok("Ben", "/jouer H4 CHANTEZ 97", private=True)  # first move: the word's best score, a warning (5.4.2.a)
    club.ok("Cléo", "/jouer H6 CHANT", private=True)
    club.ok("Ref", "/cloture")
    assert "Tables — 1 : Ana, 2 : Ben, 3 : Cléo" in club.ok("Ref", "/table")
    assert "Cléo est à la table 5." in club.ok("Ref", "/table Cléo 5")
    assert "déjà prise (Cléo)" in club.refused("Ref", "/table Ana 5")
    assert "de 1 à 9999" in club.refused("Ref", "/table Ana 0")
    club.refused("Ana", "/table Ana 7")  # the arbiter's command
    club.ok("Ref", "/fin")
    record = club.send("Ref", "/export")
    assert "/export sigles" in record[0].text  # a FISF game offers the file
    replies = club.send("Ref", "/export sigles")
    assert replies[0].document_name.endswith("sigles.txt")
    assert "pas finie" not in replies[0].text
    assert replies[0].document == (
        b'"1","Ana","112"\n"2","Ben","112"\n"3","--table vide--","-1"\n"4","--table vide--","-1"\n'
        b'"5","Cl\xe9o","26"\n'  # CHANT at its best place, H4: (3x2+4+1+1+1)x2
    )
    assert club.events("table") == [{"kind": "table", "player": "Cléo", "table": 5}]


def test_training_games_and_classic_games(club: Club) -> None:
    club.ok("Ref", "/duplicate 3 manuel entrainement")
    club.ok("Ref", "/tirage ACEHNTZ")
    club.ok("Ana", "/jouer H6 CHANTEZ", private=True)
    assert "/export sigles" not in club.ok("Ref", "/export")  # offered in FISF games only
    assert "pas finie" in club.ok("Ref", "/export sigles")  # a running game's file says so
    club.ok("Ref", "/fin !")
    club.ok("Ana", "/nouvelle Ana Ben")
    assert "que pour les parties duplicate" in club.refused("Ana", "/export sigles")
