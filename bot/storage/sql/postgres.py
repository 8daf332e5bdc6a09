"""Storage on a PostgreSQL server (psycopg 3, a connection pool), shared by any number of bot processes.

One command is one transaction on one pooled connection (nested ``transaction()`` calls join it).
``lock_channel`` takes a transaction-scoped advisory lock on the channel, so that commands of one
channel run one after the other whatever process runs them, and every statement after it (READ
COMMITTED) sees what the previous command committed. A round is closed once by the ``closes``
primary key; outbox messages are taken with ``for update skip locked`` and a claim that names its
process (``bot/storage/sql/outbox.py``), so that two processes never deliver the same message; clock
leases say which process runs each channel's duplicate clock, and last only while their owner's session
lives (a process killed leaves its channels to the others at once). The statements are
``bot.storage.sql.store``'s, shared with SQLite; the schema history (``bot.storage.sql.migrations``) is
applied on open under an advisory lock (several processes may start at once).
"""

from __future__ import annotations

import contextlib
import hashlib
import select
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool

from ..records import (
    ArrivalsSaid,
    ChannelLock,
    ConnectionLostError,
    GameKind,
    GameStatus,
    OutsideTransactionError,
    StorageFullError,
    StorageOpenError,
)
from .common import newer_version_reason
from .dialect import CLOCK_OWNER_LOCKS, POSTGRES
from .games import PLAY_CHANNEL, SQLGames
from .migrations import MIGRATIONS, upgrade
from .outbox import SQLOutbox
from .series import SQLSeries
from .simultanes import SQLSimultanes
from .store import Row, SQLStore
from .views import SQLViews

__all__ = ["MIGRATIONS", "PostgresStorage", "shown_url"]

# advisory lock namespaces (the first key of the two-key form): one lock per channel, one for migrations
CHANNEL_LOCKS = 0x41524249  # "ARBI"
MIGRATION_LOCK = 0x41524250
SAID_NAME = "arbitre-said "  # an arrival session's name: this, then as of when it said, then its process's key
ARRIVAL_LOCKS = 0x41524251  # shared by each process holding answers sent in the channel and not recorded yet
CLOCK_SCOPE_LOCKS = 0x41524253  # shared by the session of each process running the clock of a scope
OWNER_CHECK_SECONDS = 5.0  # how often a clock owner's session is checked (one that broke is opened again)


def said_key(owner: str) -> str:
    """A process's short name in its arrival session's name (which holds 63 bytes; a host's name may too)."""
    return hashlib.blake2s(owner.encode(), digest_size=6).hexdigest()


def shown_url(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def connection_lost(conn: psycopg.Connection[Any], error: BaseException) -> bool:
    """Whether ``error`` says that ``conn`` is dead: the server restarted, crashed or ended the session (what
    it was running was rolled back with it), not that the statement was refused."""
    if not isinstance(error, psycopg.OperationalError):
        return False
    ended = (psycopg.errors.AdminShutdown, psycopg.errors.CrashShutdown, psycopg.errors.CannotConnectNow)
    return conn.closed or conn.broken or isinstance(error, ended)


class PoolCheck:
    """The pool's check of a connection it hands out: its socket looked at first, the server asked (an empty
    query, ``ConnectionPool.check_connection``) only when the socket has something to say while the session is
    idle: the server closed it (a restart, a crash, a session ended) or sent a notice. A live idle connection
    costs no round trip; ``asked`` counts those that did."""

    def __init__(self) -> None:
        self.asked = 0

    def __call__(self, conn: psycopg.Connection[Any]) -> None:
        if conn.closed or conn.broken:
            raise psycopg.OperationalError("the connection is closed")
        if not hasattr(select, "poll"):  # a system without poll() (Windows): the server asked each time
            self.asked += 1
            psycopg_pool.ConnectionPool.check_connection(conn)
            return
        poller = select.poll()  # not select(): a busy process's descriptors may pass FD_SETSIZE
        poller.register(conn.fileno(), select.POLLIN)
        if poller.poll(0):
            self.asked += 1
            psycopg_pool.ConnectionPool.check_connection(conn)


def reads_only(sql: str) -> bool:
    """Whether a statement only reads (run again at no risk when its connection died under it)."""
    text = sql.lstrip().lower()
    return text.startswith("select") and " for update" not in text and "pg_advisory_lock" not in text


def binary_text_lists(sql: str, params: Sequence[Any]) -> str:
    """``sql`` with the placeholder of each list of texts (or nulls) in ``params`` asking for PostgreSQL's
    binary format: psycopg's text format quotes and escapes every element in Python (a batch of answers'
    JSON cost more CPU than the rest of their /jouer), its binary format copies them."""
    if not any(type(p) is list for p in params):
        return sql
    parts = sql.split("%s")
    if len(parts) != len(params) + 1:  # not one placeholder per parameter: left as it is
        return sql
    marks = ["%b" if type(p) is list and all(v is None or type(v) is str for v in p) else "%s" for p in params]
    return "".join(part + mark for part, mark in zip(parts, [*marks, ""]))


class PostgresStorage(SQLStore, SQLGames, SQLOutbox, SQLSeries, SQLViews, SQLSimultanes):
    """Storage on a PostgreSQL server, safe to share between threads and processes."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 10,
        connect_timeout: float = 10.0,
        tracer: Callable[[str, Sequence[Any]], None] | None = None,
    ) -> None:
        self.url = url
        self.dialect = POSTGRES
        self._tracer = tracer
        self._local = threading.local()  # this thread's transaction: its connection and depth
        self._arrivals: psycopg.Connection[Any] | None = None  # its session holds the arrival locks
        self._arrivals_held: set[str] = set()
        self._arrivals_lock = threading.Lock()
        self._owners: dict[str, psycopg.Connection[Any]] = {}  # clock lease owner -> the session holding its lock
        self._owners_checked = time.monotonic()
        self._owners_lock = threading.Lock()
        self._scopes: set[tuple[str, str]] = set()  # (owner, clock scope) whose shared lock its session holds
        try:  # one plain connection first: an unreachable server is said at once, in its own words
            with psycopg.connect(url, connect_timeout=max(1, round(connect_timeout))) as first:
                encoding = first.info.parameter_status("server_encoding") or "UTF8"  # the server says it at once
        except psycopg.Error as error:
            said = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise StorageOpenError(shown_url(url), f"PostgreSQL: {said[:300]}") from None
        if encoding.upper() != "UTF8":  # texts would come back as bytes (SQL_ASCII), or names be refused
            raise StorageOpenError(
                shown_url(url),
                f"PostgreSQL: the database's encoding is {encoding}; Arbitre needs UTF8 "
                "(createdb --encoding UTF8 --template template0)",
            )
        self.pool_check = PoolCheck()
        try:
            self.pool = psycopg_pool.ConnectionPool(
                url,
                min_size=1,
                max_size=pool_size,
                kwargs={"autocommit": True},
                check=self.pool_check,  # one the server dropped is replaced
                open=False,
                name="arbitre",
            )
            self.pool.open(wait=True, timeout=connect_timeout)
            self._migrate()
        except StorageOpenError:
            self.pool.close()
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
            with contextlib.suppress(Exception):
                self.pool.close()
            said = " ".join(str(error).split()) or type(error).__name__
            raise StorageOpenError(shown_url(url), f"PostgreSQL: {said[:300]}") from None

    def close(self) -> None:
        """Close every pooled connection (a command under way finishes first), give back the arrival locks."""
        with self._arrivals_lock:
            if self._arrivals is not None:
                self._arrivals.close()
                self._arrivals = None
        with self._owners_lock:
            for session in self._owners.values():
                session.close()
            self._owners.clear()
        self.pool.close()

    # --- clock leases: an owner's leases hold while its session lives ------------------------

    def _owner_session(self, owner: str, scope: str | None = None) -> psycopg.Connection[Any]:
        """The session holding ``owner``'s lock (opened, or opened again if the server dropped it), and
        the shared lock of ``scope`` if given (the processes running its clock are counted by it)."""
        with self._owners_lock:
            session = self._owners.get(owner)
            if session is not None and time.monotonic() - self._owners_checked > OWNER_CHECK_SECONDS:
                self._owners_checked = time.monotonic()
                with contextlib.suppress(psycopg.Error):
                    session.execute("select 1")  # a session the server dropped is seen broken, and replaced
            if session is None or session.closed or session.broken:
                if session is not None:
                    session.close()
                session = psycopg.connect(self.url, autocommit=True)
                self._run(session, "select pg_advisory_lock(?, hashtext(?))", [CLOCK_OWNER_LOCKS, owner])
                self._owners[owner] = session
                self._scopes = {(o, s) for o, s in self._scopes if o != owner}
            if scope is not None and (owner, scope) not in self._scopes:
                self._run(session, "select pg_advisory_lock_shared(?, hashtext(?))", [CLOCK_SCOPE_LOCKS, scope])
                self._scopes.add((owner, scope))
            return session

    def hold_clocks(
        self, owner: str, channels: list[str], now: float, seconds: float, most: int | None = None
    ) -> set[str]:
        """``SQLStore.hold_clocks``, the owner's lock held first by a session of its own (its leases are
        taken over at once by any process once that session ends: the process died)."""
        self._owner_session(owner)
        return super().hold_clocks(owner, channels, now, seconds, most)

    def clock_owners(self, owner: str, scope: str, *, count: bool = True) -> int | None:
        """The sessions holding the scope's shared lock (one per live process running that clock)."""
        self._owner_session(owner, scope)
        if not count:
            return None
        rows = self._committed(
            "select count(*) from pg_locks where locktype = 'advisory' and granted and classid = ?"
            " and objid = cast(hashtext(?) as oid) and objsubid = 2",
            [CLOCK_SCOPE_LOCKS, scope],
        )
        return max(1, int(rows[0][0]))

    # --- answers other processes hold: the close waits for them --------------------------------

    arrivals_shared = True
    concurrent_transactions = True  # each channel's lock is its own

    def hold_arrivals(self, channels: set[str], said: ArrivalsSaid) -> None:
        """A shared advisory lock per channel, held by a session of its own while this process holds
        messages sent there (released with the session if the process dies); then the session's name says
        as of when (``arrivals_said_through``): one statement per call."""
        with self._arrivals_lock:
            taken, given = sorted(channels - self._arrivals_held), sorted(self._arrivals_held - channels)
            if self._arrivals is not None and (self._arrivals.closed or self._arrivals.broken):
                self._arrivals.close()  # the server dropped it, and its locks with it: all taken again
                self._arrivals, self._arrivals_held = None, set()
                taken, given = sorted(channels), []
            if self._arrivals is None:
                self._arrivals = psycopg.connect(self.url, autocommit=True)
            name = f"{SAID_NAME}{said.at!r} {said_key(said.owner)}"
            if not taken and not given:
                self._run(self._arrivals, "select set_config('application_name', ?, false)", [name])
                return
            self._run(  # the name changes once the locks are taken: the materialised CTE's row comes first
                self._arrivals,
                "with held as materialized (select"
                " (select count(pg_advisory_lock_shared(?, hashtext(c))) from unnest(cast(? as text[])) c) as taken,"
                " (select count(pg_advisory_unlock_shared(?, hashtext(c))) from unnest(cast(? as text[])) c) as given)"
                " select set_config('application_name', ?, false), taken, given from held",
                [ARRIVAL_LOCKS, taken, ARRIVAL_LOCKS, given, name],
            )
            self._arrivals_held = set(channels)

    def arrivals_said_through(self, me: str, now: float) -> float:
        """Read from the names of the other live processes' arrival sessions (one statement)."""
        rows = self._committed(
            "select owner, null from outbox_processes where alive_until > ?"
            " union all select null, application_name from pg_stat_activity where starts_with(application_name, ?)",
            [now, SAID_NAME],
        )
        said: dict[str, float] = {}
        for _, name in rows:
            if name is not None and len(parts := name[len(SAID_NAME) :].split(" ")) == 2:
                with contextlib.suppress(ValueError):
                    said[parts[1]] = max(said.get(parts[1], float("-inf")), float(parts[0]))
        others = [said_key(owner) for owner, _ in rows if owner is not None and owner != me]
        return min((said.get(key, float("-inf")) for key in others), default=float("inf"))

    def arrivals_elsewhere(self, game_id: int, channel: str) -> bool:
        """Whether a process holds the arrival lock of the channel or of a player's private chat (an
        account's private chat with the bot is named as the account): the locks tried, not waited for."""
        rows = self._committed(
            "select count(*) from (select cast(? as text) as c union select \"user\" from players where game = ?) k"
            " where not pg_try_advisory_xact_lock(?, hashtext(c))",
            [channel, game_id, ARRIVAL_LOCKS],
        )
        return bool(rows[0][0])

    def arrivals_elsewhere_of(self, rounds: list[tuple[int, str]]) -> set[int]:
        """``arrivals_elsewhere`` of each (game, channel), in one statement."""
        if not rounds:
            return set()
        rows = self._committed(
            "select distinct k.game from (select r.game, r.c from unnest(cast(? as bigint[]), cast(? as text[]))"
            ' as r(game, c) union select p.game, p."user" from players p where p.game = any(cast(? as bigint[]))) k'
            " where not pg_try_advisory_xact_lock(?, hashtext(k.c))",
            [[g for g, _ in rounds], [c for _, c in rounds], [g for g, _ in rounds], ARRIVAL_LOCKS],
        )
        return {int(row[0]) for row in rows}

    # --- connections and transactions -------------------------------------------------------

    def _run(self, conn: psycopg.Connection[Any], sql: str, params: Sequence[Any] = ()) -> list[Row]:
        sql = POSTGRES.sql(sql)
        if self._tracer is not None:
            self._tracer(sql, params)
        cursor = conn.execute(binary_text_lists(sql, params), params)
        return cursor.fetchall() if cursor.description else []

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        if conn is not None:  # in this thread's transaction
            return self._run(conn, sql, params)
        return self._alone(sql, params)

    def _committed(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One read on a pooled connection of its own: committed data only."""
        return self._alone(sql, params)

    def _alone(self, sql: str, params: Sequence[Any]) -> list[Row]:
        """One statement on a pooled connection, committed alone. A read whose connection died under it (a
        server restarted between the pool's check and the statement) is run once more on another; a full disk
        is a ``StorageFullError``."""
        for again in (False, True):
            used: psycopg.Connection[Any] | None = None
            try:
                with self.pool.connection() as conn:
                    used = conn
                    return self._run(conn, sql, params)
            except psycopg.errors.DiskFull as error:
                raise StorageFullError(shown_url(self.url)) from error
            except psycopg.OperationalError as error:
                if again or used is None or not connection_lost(used, error) or not reads_only(sql):
                    raise
        raise AssertionError("unreachable")

    def _one_write(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()  # one statement commits alone (or with the caller's transaction)

    def in_transaction(self) -> bool:
        """Whether this thread is inside ``transaction()`` (and sees its own uncommitted writes)."""
        return getattr(self._local, "depth", 0) > 0

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction on one pooled connection for this thread; nested calls join it."""
        if self.in_transaction():
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        with self.pool.connection() as conn:
            self._local.conn, self._local.depth = conn, 1
            committing = False
            try:
                with conn.transaction():
                    yield
                    committing = True  # from here on, an error may come after the server committed
            except psycopg.errors.DiskFull as error:  # rolled back: nothing of the command was kept
                raise StorageFullError(shown_url(self.url)) from error
            except psycopg.OperationalError as error:
                if not committing and connection_lost(conn, error):  # rolled back with the session
                    raise ConnectionLostError(shown_url(self.url)) from error
                raise
            finally:
                self._local.conn, self._local.depth = None, 0

    def lock_channel(self, channel: str) -> bool:
        """Wait for, then hold until this transaction ends, the channel's lock (in every process)."""
        if not self.in_transaction():
            raise OutsideTransactionError(channel)
        self._execute("select pg_advisory_xact_lock(%s, hashtext(%s))", [CHANNEL_LOCKS, channel])
        return True

    def lock_play(self, channel: str, user: str) -> frozenset[str] | None:
        """The channel's lock, then its game's channel's (``PLAY_CHANNEL``), in one round trip."""
        if not self.in_transaction():
            raise OutsideTransactionError(channel)
        rows = self._execute(
            "select pg_advisory_xact_lock(?, hashtext(?)), c, pg_advisory_xact_lock(?, hashtext(c))"
            f" from (select coalesce(({PLAY_CHANNEL}), ?) as c) s",
            [CHANNEL_LOCKS, channel, CHANNEL_LOCKS, GameStatus.ACTIVE.value, GameKind.DUPLICATE.value, channel, user,
             channel, channel],
        )
        return frozenset({channel, str(rows[0][1])})

    def try_lock_channels(self, channels: list[str]) -> dict[str, ChannelLock]:
        """Each channel's lock until this transaction ends if no other transaction holds it (else BUSY)."""
        if not self.in_transaction():
            raise OutsideTransactionError(", ".join(channels))
        wanted = sorted(set(channels))
        rows = self._execute(
            "select c, pg_try_advisory_xact_lock(%s, hashtext(c)) from unnest(cast(%s as text[])) as c",
            [CHANNEL_LOCKS, wanted],
        )
        return {str(c): ChannelLock.TAKEN if taken else ChannelLock.BUSY for c, taken in rows}

    def _migrate(self) -> None:
        with self.transaction():
            self._execute("select pg_advisory_xact_lock(%s, 0)", [MIGRATION_LOCK])
            upgrade(self._execute, POSTGRES, MIGRATIONS, self._refuse_newer)

    def _refuse_newer(self, found: int, known: int) -> None:
        """Refuse a database a newer Arbitre migrated: this one would misread what it does not know."""
        raise StorageOpenError(shown_url(self.url), newer_version_reason(found, known))

    @property
    def schema_version(self) -> int:
        return int(self._execute("select coalesce(max(version), 0) from migrations")[0][0])
