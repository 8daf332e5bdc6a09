"""What a SQLite file must hold for this version to read it: the tables and columns its migrations make,
games of known kinds and statuses with readable set-ups (each check says what it found, in one line)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from typing import Any

import sqlite_utils

from ..records import GameKind, GameSetup, GameSetupError, GameStatus

# every table's columns, in one query (sqlite-utils asks once per table, and again whether it exists)
_COLUMNS = "select m.name, c.name from sqlite_master m join pragma_table_info(m.name) c where m.type = 'table'"


def _columns(db: sqlite_utils.Database) -> dict[str, set[str]]:
    """The tables of ``db`` and their columns, by name."""
    found: dict[str, set[str]] = {}
    for table, column in db.execute(_COLUMNS).fetchall():
        found.setdefault(table, set()).add(column)
    return found


def expected_schema(statements: Iterable[str]) -> dict[str, set[str]]:
    """The tables and their columns that the migrations' ``statements`` make, by name (run on an empty
    database in memory once per process for a given list of statements)."""
    return {name: set(columns) for name, columns in _schema_of(tuple(statements)).items()}


@functools.cache
def _schema_of(statements: tuple[str, ...]) -> dict[str, frozenset[str]]:
    db = sqlite_utils.Database(memory=True)
    try:
        for statement in statements:
            db.execute(statement)
        return {name: frozenset(columns) for name, columns in _columns(db).items()}
    finally:
        db.close()


def schema_problem(db: sqlite_utils.Database, expected: dict[str, set[str]]) -> str | None:
    """The first table or column of ``expected`` that ``db`` lacks, said in words (None: none lacks)."""
    found = _columns(db)
    for name, columns in expected.items():
        if name not in found:
            return f"it has no table {name}"
        missing = sorted(columns - found[name])
        if missing:
            return f"its table {name} has no column {', '.join(missing)}"
    return None


def games_problem(rows: Iterable[Any]) -> str | None:
    """The first game of ``rows`` (id, channel, kind, status, set-up) this version cannot read, in words."""
    kinds = {kind.value for kind in GameKind}
    statuses = {status.value for status in GameStatus}
    for game_id, channel, kind, status, setup in rows:
        where = f"game {game_id} (channel {channel})"
        if kind not in kinds:
            return f"{where} is of an unknown kind {str(kind)[:40]!r}"
        if status not in statuses:
            return f"{where} has an unknown status {str(status)[:40]!r}"
        try:
            GameSetup.from_json(json.loads(setup))
        except (ValueError, TypeError, GameSetupError) as error:
            return f"{where} has a set-up that cannot be read ({str(error)[:100]})"
    return None
