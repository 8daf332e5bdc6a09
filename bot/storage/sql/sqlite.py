"""Storage in one SQLite file (WAL) through sqlite-utils: the schema history applied on open, one write
transaction (``BEGIN IMMEDIATE``) per command, lock-free readers for long rebuilds. The statements are
``bot.storage.sql.store``'s, shared with PostgreSQL; this module holds what only SQLite does: its file, its
one connection shared by threads under a lock, its exclusive write transactions, its checks on open."""

from __future__ import annotations

import contextlib
import math
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from ..records import ArrivalsSaid, ChannelLock, StorageFullError, StorageOpenError
from .common import newer_version_reason
from .dialect import SQLITE
from .games import SQLGames
from .migrations import MIGRATIONS, upgrade
from .outbox import SQLOutbox
from .series import SQLSeries
from .simultanes import SQLSimultanes
from .sqlite_files import explains_open_failures, is_disk_full, make_private_place
from .sqlite_schema import expected_schema, games_problem, schema_problem
from .store import Row, SQLStore
from .views import SQLViews

__all__ = ["MIGRATIONS", "SQLiteStorage"]


class SQLiteStorage(SQLStore, SQLGames, SQLOutbox, SQLSeries, SQLViews, SQLSimultanes):
    """Storage in one SQLite file (WAL), through sqlite-utils."""

    @explains_open_failures
    def __init__(self, path: str | Path, *, tracer: Callable[[str, Any], None] | None = None) -> None:
        self.path = Path(path)
        self.dialect = SQLITE
        self._lock = threading.RLock()
        self._depth = 0
        self._owner = 0  # the thread inside transaction()
        self._readers: list[sqlite3.Connection] = []  # one per thread: reads that take no lock
        self._readers_lock = threading.Lock()
        self._local = threading.local()
        self.db = sqlite_utils.Database(self._open_writer(), tracer=tracer)
        self.db.execute("PRAGMA foreign_keys = ON")
        self._prepare_schema()
        self._prepare_seated_events()

    def _open_writer(self) -> sqlite3.Connection:
        """The store's one shared connection, on a private WAL file."""
        make_private_place(self.path)  # it holds open duplicate submissions: for its owner's eyes only
        conn = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 30000")
        _set_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def _prepare_seated_events(self) -> None:
        """``seated_events`` (``Dialect.seated_events``): a temporary view of this connection whose insert
        stores an event and, when the row names one, the seat it binds; one statement for the two tables,
        as PostgreSQL's data-modifying CTEs give (nothing is added to the file's schema)."""
        self.db.execute(
            "create temp view if not exists seated_events as select game, seq, kind, data, author, at,"
            " cast(null as text) as seat_user, cast(null as text) as seat_name from events where false"
        )
        self.db.execute(
            "create temp trigger if not exists seated_events_insert instead of insert on seated_events begin"
            " insert into events (game, seq, kind, data, author, at)"
            " values (new.game, new.seq, new.kind, new.data, new.author, new.at);"
            ' insert into players (game, "user", name, position)'
            " select new.game, new.seat_user, new.seat_name, (select count(*) from players where game = new.game)"
            ' where new.seat_user is not null on conflict (game, "user") do update set name = excluded.name;'
            " end"
        )

    def _open_reader(self) -> sqlite3.Connection:
        """A new read-only connection (WAL: it sees committed data and never waits for writers)."""
        conn = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA query_only = ON")
        return conn

    def _prepare_schema(self) -> None:
        """Check the file, apply the migrations it lacks, check what it holds."""
        self._check_sound()
        self._migrate()
        self._check_contents()

    def close(self) -> None:
        """Close the file once no thread is using it (a command or clock tick under way finishes first)."""
        with self._lock:
            self.db.close()
            with self._readers_lock:
                for reader in self._readers:
                    reader.close()
                self._readers.clear()

    def _reader(self) -> sqlite3.Connection:
        """This thread's read-only connection, opened on first use."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open_reader()
            self._local.conn = conn
            with self._readers_lock:  # never the store's lock: readers are used while other locks are held
                self._readers.append(conn)
        return conn

    def _committed(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One read on this thread's read-only connection, without the store's lock (committed data only)."""
        return self._reader().execute(sql, list(params)).fetchall()

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement on the store's connection, under its lock (threads share the connection)."""
        with self._lock:
            return self.db.execute(sql, list(params)).fetchall()

    def _one_write(self) -> contextlib.AbstractContextManager[None]:
        return self.transaction()

    @contextlib.contextmanager
    def _statement_write(self) -> Iterator[None]:
        """One statement committing alone (autocommit, or in the caller's transaction): SQLite rolls it back
        when the disk is full, said as ``StorageFullError``."""
        try:
            yield
        except sqlite3.Error as error:
            if is_disk_full(error, self.path.parent):
                raise StorageFullError(str(self.path)) from error
            raise

    def in_transaction(self) -> bool:
        """Whether this thread is inside ``transaction()`` (and sees its own uncommitted writes)."""
        return self._depth > 0 and self._owner == threading.get_ident()

    def _check_sound(self) -> None:
        """Refuse a damaged file at once (SQLite's quick check reads every page: ~30 ms for 30 MB)."""
        found = [str(row[0]) for row in self.db.execute("PRAGMA quick_check(1)").fetchall()]
        if found != ["ok"]:
            said = " ".join(" ".join(found).split())  # one line
            raise StorageOpenError(self.path, f"it is damaged (SQLite's check: {said[:200]})")

    def _migrate(self) -> None:
        with self.transaction():
            if "migrations" in self.db.table_names():
                self.db.execute("delete from migrations where false")  # a file SQLite opened read-only is refused now
            upgrade(self._execute, SQLITE, MIGRATIONS, self._refuse_newer)

    def _refuse_newer(self, found: int, known: int) -> None:
        """Refuse a file a newer Arbitre migrated: this one would misread what it does not know."""
        raise StorageOpenError(self.path, newer_version_reason(found, known))

    def _check_contents(self) -> None:
        """Refuse at once a file whose tables, games or events this version cannot read (a damaged or
        hand-edited file), naming what is wrong, rather than failing at every command."""
        problem = schema_problem(self.db, expected_schema(s for step in MIGRATIONS for s in step.for_dialect(SQLITE)))
        problem = problem or games_problem(self.db.execute("select id, channel, kind, status, setup from games"))
        row = self.db.execute(
            "select events.game, events.seq, games.channel from events left join games on games.id = events.game"
            " where case when json_valid(events.data) then json_type(events.data) != 'object' else 1 end limit 1"
        ).fetchone()
        if row is not None:
            problem = problem or f"event {row[1]} of game {row[0]} (channel {row[2]}) is not a JSON object"
        if problem:
            raise StorageOpenError(self.path, f"{problem} (a damaged or hand-edited file)")

    @property
    def schema_version(self) -> int:
        return int(self._execute("select coalesce(max(version), 0) from migrations")[0][0])

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (``BEGIN IMMEDIATE``); nested calls join the outer one."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self.db.execute("BEGIN IMMEDIATE")
            self._depth, self._owner = 1, threading.get_ident()
            try:
                yield
                self._depth, self._owner = 0, 0
                self.db.execute("COMMIT")
            except BaseException as error:
                self._depth, self._owner = 0, 0
                self.db.conn.rollback()  # also after a failed COMMIT (a full disk), which leaves it open
                if isinstance(error, sqlite3.Error) and is_disk_full(error, self.path.parent):
                    raise StorageFullError(str(self.path)) from error
                raise

    def lock_channel(self, channel: str) -> bool:
        """Nothing to do: ``BEGIN IMMEDIATE`` already excludes every other writer of the file."""
        return False

    arrivals_shared = False  # one process writes the file at a time: its own queue is all there is
    concurrent_transactions = False  # one writer at a time: closes run one after the other

    def hold_arrivals(self, channels: set[str], said: ArrivalsSaid) -> None:
        """Nothing to say: the process's own queue is all there is."""

    def arrivals_said_through(self, me: str, now: float) -> float:
        return math.inf

    def arrivals_elsewhere(self, game_id: int, channel: str) -> bool:
        return False

    def arrivals_elsewhere_of(self, rounds: list[tuple[int, str]]) -> set[int]:
        return set()

    def lock_play(self, channel: str, user: str) -> frozenset[str] | None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already excludes every other writer of the file."""
        return None

    def try_lock_channels(self, channels: list[str]) -> dict[str, ChannelLock]:
        """Nothing to take: ``BEGIN IMMEDIATE`` already excludes every other writer of the file."""
        return dict.fromkeys(channels, ChannelLock.EXCLUSIVE)


WAL_TRIES_SECONDS = 30.0  # as long as the busy timeout
WAL_PAUSE_SECONDS = 0.02


def _set_wal(conn: sqlite3.Connection) -> None:
    """The file in WAL mode. Several processes opening a new file at once (a bot and the console started
    together): SQLite answers "database is locked" to the mode's change at once, without waiting out the
    busy timeout, while another connection changes it; tried again until it is done."""
    give_up = time.monotonic() + WAL_TRIES_SECONDS
    while True:
        try:
            conn.execute("PRAGMA journal_mode = wal")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > give_up:
                raise
            time.sleep(WAL_PAUSE_SECONDS)
