"""Copying a whole database into another, empty one: from SQLite to PostgreSQL when a club outgrows one process
(``arbitre database copy``), or back.

Both are opened as the bot opens them first, so that each is migrated to this version's schema; then every
table is copied row by row, parents before the tables that refer to them, in one transaction of the target, and
PostgreSQL's id sequences are moved past the ids copied. What only lives while a process runs is left behind:
the clock leases and the outbox's senders (the processes of the new database take them afresh). The target must
hold no row yet (its schema may be there).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .open import open_storage
from .records import StorageOpenError

BATCH = 1000  # rows sent to the target at once
TRANSIENT = frozenset({"clock_leases", "outbox_processes", "migrations"})  # never copied (see above)


class CopyError(Exception):
    """A copy that cannot be made (one line: which database, and why)."""


@dataclass
class _Side:
    """One database as the copy reads or writes it: a DB-API connection and its spelling."""

    connection: Any
    placeholder: str
    postgres: bool

    def rows(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cursor = self.connection.cursor()
        cursor.execute(sql.replace("?", self.placeholder), list(parameters))
        return list(cursor.fetchall()) if cursor.description is not None else []

    def tables(self) -> list[str]:
        """The tables of the schema, every one the migrations made."""
        if self.postgres:
            found = self.rows("select table_name from information_schema.tables where table_schema = current_schema()"
                              " and table_type = 'BASE TABLE'")  # fmt: skip
        else:
            found = self.rows("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
        return sorted(str(row[0]) for row in found)

    def parents(self, table: str) -> set[str]:
        """The tables ``table`` refers to (its foreign keys)."""
        if self.postgres:
            found = self.rows(
                "select distinct ccu.table_name from information_schema.table_constraints tc"
                " join information_schema.constraint_column_usage ccu on tc.constraint_name = ccu.constraint_name"
                " where tc.constraint_type = 'FOREIGN KEY' and tc.table_name = ?",
                [table],
            )
            return {str(row[0]) for row in found} - {table}
        return {str(row[2]) for row in self.rows(f'pragma foreign_key_list("{table}")')} - {table}

    def columns(self, table: str) -> list[str]:
        if self.postgres:
            found = self.rows(
                "select column_name from information_schema.columns where table_schema = current_schema()"
                " and table_name = ? order by ordinal_position",
                [table],
            )
            return [str(row[0]) for row in found]
        return [str(row[1]) for row in self.rows(f'pragma table_info("{table}")')]

    def version(self) -> int:
        return int(self.rows("select coalesce(max(version), 0) from migrations")[0][0])


def _in_order(tables: Sequence[str], parents: Callable[[str], set[str]]) -> list[str]:
    """``tables`` with every table after those it refers to."""
    ordered: list[str] = []
    placed: set[str] = set()

    def place(table: str, seen: frozenset[str]) -> None:
        if table in placed or table in seen:
            return
        for parent in sorted(parents(table) & set(tables)):
            place(parent, seen | {table})
        placed.add(table)
        ordered.append(table)

    for table in tables:
        place(table, frozenset())
    return ordered


@contextmanager
def _opened(url: str) -> Iterator[_Side]:
    """The database at ``url``, migrated to this version's schema, as a plain connection."""
    from .open import SCHEMES, UnknownStorageError

    try:
        storage = open_storage(url)  # creates or migrates the schema, as a bot's start does
    except UnknownStorageError:
        raise CopyError(f"{url!r}: not a database URL ({', '.join(SCHEMES)})") from None
    storage.close()
    if url.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(url) as server:
            yield _Side(server, "%s", postgres=True)
        return
    if url == "memory:":
        raise CopyError("memory: holds nothing to copy, nor keeps what is copied")
    path = Path(url.removeprefix("sqlite://"))
    connection = sqlite3.connect(str(path), timeout=30.0)
    try:
        connection.execute("pragma foreign_keys = on")
        yield _Side(connection, "?", postgres=False)
        connection.commit()
    finally:
        connection.close()


@dataclass(frozen=True)
class Copied:
    """What a copy did: rows copied by table."""

    rows: dict[str, int]


def copy_database(source: str, target: str, progress: Callable[[str, int], None] | None = None) -> Copied:
    """Copy every row of the database at ``source`` into the empty one at ``target`` (URLs as ``--db`` takes
    them); ``progress(table, rows)`` is told after each table. Raises ``CopyError`` (one line) when it cannot."""
    try:
        with _opened(source) as reading, _opened(target) as writing:
            return _copy(reading, writing, progress)
    except StorageOpenError as error:
        raise CopyError(str(error)) from None


def _copy(reading: _Side, writing: _Side, progress: Callable[[str, int], None] | None) -> Copied:
    if reading.version() != writing.version():
        raise CopyError(f"the two schemas differ (versions {reading.version()} and {writing.version()})")
    tables = [table for table in reading.tables() if table not in TRANSIENT]
    missing = sorted(set(tables) - set(writing.tables()))
    if missing:
        raise CopyError(f"the target has no table {', '.join(missing)}")
    full = [table for table in tables if writing.rows(f'select count(*) from "{table}"')[0][0]]
    if full:
        raise CopyError(f"the target already holds rows (in {', '.join(full)}): copy into an empty database")
    counts: dict[str, int] = {}
    for table in _in_order(tables, reading.parents):
        columns = [column for column in reading.columns(table) if column in set(writing.columns(table))]
        names = ", ".join(f'"{column}"' for column in columns)
        insert = f'insert into "{table}" ({names}) values ({", ".join(["?"] * len(columns))})'
        insert = insert.replace("?", writing.placeholder)
        source = reading.connection.cursor()
        source.execute(f'select {names} from "{table}"')
        counts[table] = 0
        while batch := source.fetchmany(BATCH):
            writing.connection.cursor().executemany(insert, [list(row) for row in batch])
            counts[table] += len(batch)
        if writing.postgres and "id" in columns:
            writing.rows(
                f"select setval(pg_get_serial_sequence('\"{table}\"', 'id'), coalesce(max(id), 0) + 1, false)"
                f' from "{table}"'
            )
        if progress is not None:
            progress(table, counts[table])
    writing.connection.commit()
    return Copied(counts)
