"""What a SQLite file must hold for this version to read it: the tables and columns its migrations make,
games of known kinds and statuses with readable set-ups (each check says what it found, in one line)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import sqlite_utils

from .records import GameKind, GameSetup, GameSetupError, GameStatus


def expected_schema(statements: Iterable[str]) -> dict[str, set[str]]:
    """The tables and their columns that the migrations' ``statements`` make, by name (run on an empty
    database in memory)."""
    db = sqlite_utils.Database(memory=True)
    for statement in statements:
        db.execute(statement)
    schema = {table.name: set(table.columns_dict) for table in db.tables}
    db.close()
    return schema


def schema_problem(db: sqlite_utils.Database, expected: dict[str, set[str]]) -> str | None:
    """The first table or column of ``expected`` that ``db`` lacks, said in words (None: none lacks)."""
    found = {table.name: set(table.columns_dict) for table in db.tables}
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
