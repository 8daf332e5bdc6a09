"""Storage in one SQLite file (WAL) through sqlite-utils: migrations applied on open, one write
transaction (``BEGIN IMMEDIATE``) per command, lock-free readers for long rebuilds."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import sqlite_utils

from ..house_words import HouseWordChange
from .common import (
    DEAD_LETTERS,
    HOUSE_WORDS_PER_LIST,
    OUTBOX_CLAIMS,
    applying,
    most_used,
    newer_version_reason,
    serialised,
)
from .records import (
    ChannelSettings,
    Deadline,
    GameKind,
    GameRecord,
    GameRunningError,
    GameSetup,
    GameStatus,
    RoundClosedTwiceError,
    StorageFullError,
    StorageOpenError,
    StoredEvent,
)
from .sqlite_files import explains_open_failures, is_disk_full, make_private_place
from .sqlite_games import SQLiteGames
from .sqlite_outbox import SQLiteOutbox
from .sqlite_schema import expected_schema, games_problem, schema_problem


def _migration_1(db: sqlite_utils.Database) -> None:
    db.table("channels").create(
        {
            "channel": str,
            "language": str,
            "edition": str,
            "notation": str,
            "rules": str,
            "lexicon": str,
            "minutes": float,
        },
        pk="channel",
    )
    db.table("games").create(
        {"id": int, "channel": str, "kind": str, "referee": str, "status": str, "setup": str, "created": float},
        pk="id",
    )
    db.table("games").create_index(["channel", "status"])
    db.table("events").create(
        {"id": int, "game": int, "seq": int, "kind": str, "data": str, "author": str, "at": float},
        pk="id",
        foreign_keys=[("game", "games", "id")],
    )
    db.table("events").create_index(["game", "seq"], unique=True)
    db.table("players").create(
        {"game": int, "user": str, "name": str, "position": int},
        pk=("game", "user"),
        foreign_keys=[("game", "games", "id")],
    )


def _migration_2(db: sqlite_utils.Database) -> None:
    db.table("deadlines").create(
        {"game": int, "round": int, "at": float, "channel": str},
        pk="game",
        foreign_keys=[("game", "games", "id")],
    )


def _migration_3(db: sqlite_utils.Database) -> None:
    db.table("channels").add_column("timezone", str, not_null_default="")


def _migration_4(db: sqlite_utils.Database) -> None:
    # deadlines keyed by game and round; each round closed at most once (a constraint, not only code)
    db.table("deadlines").transform(pk=("game", "round"))
    db.table("closes").create(
        {"game": int, "round": int, "at": float},
        pk=("game", "round"),
        foreign_keys=[("game", "games", "id")],
    )


def _migration_5(db: sqlite_utils.Database) -> None:
    db.execute(
        "create table outbox ("
        " id integer primary key autoincrement, destination text not null, reply text not null,"
        " created real not null, due real not null, expires real, attempts integer not null default 0,"
        " delivered real, dropped real, last_error text)"
    )
    db.execute("create index outbox_waiting on outbox (destination, id) where delivered is null and dropped is null")


def _migration_6(db: sqlite_utils.Database) -> None:
    db.table("house_words").create(
        {
            "id": int,
            "channel": str,
            "action": str,
            "word": str,
            "author": str,
            "name": str,
            "at": float,
            "lexicon": str,
        },
        pk="id",
    )
    db.table("house_words").create_index(["channel", "id"])


def _migration_7(db: sqlite_utils.Database) -> None:
    # which process runs each channel's duplicate clock, until when (several processes on one file)
    db.execute("create table clock_leases (channel text primary key, owner text not null, expires real not null)")


MIGRATIONS: list[tuple[int, str, Callable[[sqlite_utils.Database], None]]] = [
    (1, "channels, games, events, players", _migration_1),
    (2, "duplicate deadlines", _migration_2),
    (3, "channel time zone", _migration_3),
    (4, "deadlines per round, rounds closed once", _migration_4),
    (5, "outbox of messages owed to channels and players", _migration_5),
    (6, "house words of each channel", _migration_6),
    (7, "clock leases", _migration_7),
    (8, "house words per channel and list", applying(HOUSE_WORDS_PER_LIST)),
    (9, "dead letters in the outbox", applying(DEAD_LETTERS)),
    (10, "outbox claims named by process, edits by message", applying(OUTBOX_CLAIMS)),
]


_GAME_COLUMNS = "id, channel, kind, referee, status, setup, created"
_CHANNEL_COLUMNS = ", ".join(f.name for f in fields(ChannelSettings))
_HOUSE_COLUMNS = ", ".join(f.name for f in fields(HouseWordChange))


class SQLiteStorage(SQLiteGames, SQLiteOutbox):
    """Storage in one SQLite file (WAL), through sqlite-utils."""

    @explains_open_failures
    def __init__(self, path: str | Path, *, tracer: Callable[[str, Any], None] | None = None) -> None:
        self.path = Path(path)
        make_private_place(self.path)  # it holds open duplicate submissions: for its owner's eyes only
        conn = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 30000")
        self.db = sqlite_utils.Database(conn, tracer=tracer)
        self.db.enable_wal()
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self._lock = threading.RLock()
        self._depth = 0
        self._owner = 0  # the thread inside transaction()
        self._readers: list[sqlite3.Connection] = []  # one per thread: reads that take no lock
        self._readers_lock = threading.Lock()
        self._local = threading.local()
        self._check_sound()
        self._migrate()
        self._check_contents()
        _ = self.db.supports_on_conflict  # probed once here (it creates a table), not mid-command

    def close(self) -> None:
        """Close the file once no thread is using it (a command or clock tick under way finishes first)."""
        with self._lock:
            self.db.close()
            with self._readers_lock:
                for reader in self._readers:
                    reader.close()
                self._readers.clear()

    def _reader(self) -> sqlite3.Connection:
        """This thread's read-only connection (WAL: it sees committed data and never waits for writers)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only = ON")
            self._local.conn = conn
            with self._readers_lock:  # never the store's lock: readers are used while other locks are held
                self._readers.append(conn)
        return conn

    def read_events(self, game_id: int, after: int = 0) -> list[StoredEvent]:
        """``events`` read without the store's lock: committed events only (for long rebuilds)."""
        rows = self._reader().execute(
            "select game, seq, data, author, at from events where game = ? and seq > ? order by seq", [game_id, after]
        )
        return [StoredEvent(game, seq, json.loads(data), author, at) for game, seq, data, author, at in rows]

    def read_stamp(self, game_id: int) -> tuple[int, float]:
        """``last_stamp`` read without the store's lock (committed events only)."""
        row = (
            self._reader()
            .execute("select seq, at from events where game = ? order by seq desc limit 1", [game_id])
            .fetchone()
        )
        return (int(row[0]), float(row[1])) if row else (0, 0.0)

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
            if "migrations" not in self.db.table_names():
                self.db.table("migrations").create({"version": int, "name": str, "applied": float}, pk="version")
            self.db.execute("delete from migrations where false")  # a file SQLite opened read-only is refused now
            done = {row["version"] for row in self.db.table("migrations").rows}
            self._check_version(max(done, default=0))
            for version, name, apply in MIGRATIONS:
                if version not in done:
                    apply(self.db)
                    self.db.table("migrations").insert({"version": version, "name": name, "applied": time.time()})

    def _check_version(self, version: int) -> None:
        """Refuse a file a newer Arbitre migrated: this one would misread what it does not know."""
        known = MIGRATIONS[-1][0]
        if version > known:
            raise StorageOpenError(self.path, newer_version_reason(version, known))

    def _check_contents(self) -> None:
        """Refuse at once a file whose tables, games or events this version cannot read (a damaged or
        hand-edited file), naming what is wrong, rather than failing at every command."""
        problem = schema_problem(self.db, expected_schema(apply for _, _, apply in MIGRATIONS))
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
        return max((row["version"] for row in self.db.table("migrations").rows), default=0)

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

    def hold_clocks(self, owner: str, channels: list[str], now: float, seconds: float) -> set[str]:
        wanted = json.dumps(sorted(set(channels)))
        with self.transaction():
            self.db.execute(
                "insert into clock_leases (channel, owner, expires) select value, ?, ? from json_each(?) where true"
                " on conflict (channel) do update set owner = excluded.owner, expires = excluded.expires"
                " where clock_leases.owner = excluded.owner or clock_leases.expires < ?",
                [owner, now + seconds, wanted, now],
            )
            rows = self.db.execute(
                "select channel from clock_leases where owner = ? and channel in (select value from json_each(?))",
                [owner, wanted],
            ).fetchall()
        return {str(row[0]) for row in rows}

    def release_clocks(self, owner: str, channels: list[str] | None = None) -> None:
        with self.transaction():
            if channels is None:
                self.db.execute("delete from clock_leases where owner = ?", [owner])
            else:
                self.db.execute(
                    "delete from clock_leases where owner = ? and channel in (select value from json_each(?))",
                    [owner, json.dumps(sorted(set(channels)))],
                )

    @serialised
    def channel(self, channel: str) -> ChannelSettings:
        row = self.db.execute(f"select {_CHANNEL_COLUMNS} from channels where channel = ?", [channel]).fetchone()
        return ChannelSettings(*row) if row else ChannelSettings(channel)

    @serialised
    def has_channel(self, channel: str) -> bool:
        return self.db.execute("select 1 from channels where channel = ?", [channel]).fetchone() is not None

    def save_channel(self, settings: ChannelSettings) -> None:
        with self.transaction():
            self.db.table("channels").upsert(asdict(settings), pk="channel")

    @staticmethod
    def _game(row: dict[str, Any]) -> GameRecord:
        return GameRecord(
            row["id"],
            row["channel"],
            GameKind(row["kind"]),
            row["referee"],
            GameStatus(row["status"]),
            GameSetup.from_json(json.loads(row["setup"])),
            row["created"],
        )

    @serialised
    def active_game(self, channel: str) -> GameRecord | None:
        rows = self.db.execute_returning_dicts(
            f"select {_GAME_COLUMNS} from games where channel = ? and status = ? order by id desc limit 1",
            [channel, GameStatus.ACTIVE.value],
        )
        return self._game(rows[0]) if rows else None

    @serialised
    def game(self, game_id: int) -> GameRecord:
        rows = self.db.execute_returning_dicts(f"select {_GAME_COLUMNS} from games where id = ?", [game_id])
        if not rows:
            raise KeyError(game_id)
        return self._game(rows[0])

    def create_game(
        self, channel: str, kind: GameKind, referee: str, setup: GameSetup, *, abandon_running: bool = False
    ) -> GameRecord:
        """A new active game; a running one is marked abandoned only when asked (else GameRunningError)."""
        with self.transaction():
            running = self.active_game(channel)
            if running is not None and not abandon_running:
                raise GameRunningError(channel, running)
            self.db.execute(
                "update games set status = ? where channel = ? and status = ?",
                [GameStatus.ABANDONED.value, channel, GameStatus.ACTIVE.value],
            )
            self.db.execute("delete from deadlines where channel = ?", [channel])
            table = self.db.table("games")
            table.insert(
                {
                    "channel": channel,
                    "kind": GameKind(kind).value,
                    "referee": referee,
                    "status": GameStatus.ACTIVE.value,
                    "setup": json.dumps(setup.to_json(), ensure_ascii=False),
                    "created": time.time(),
                }
            )
            assert table.last_pk is not None
            return self.game(int(table.last_pk))

    @serialised
    def games(self, channel: str) -> list[GameRecord]:
        """The channel's games, oldest first (their place in this list is their number in the channel)."""
        return [self._game(row) for row in self.db.table("games").rows_where("channel = ?", [channel], order_by="id")]

    def set_game_status(self, game_id: int, status: GameStatus) -> None:
        status = GameStatus(status)
        with self.transaction():
            self.db.table("games").update(game_id, {"status": status.value})
            if status is not GameStatus.ACTIVE:
                self.db.execute("delete from deadlines where game = ?", [game_id])

    @serialised
    def events(self, game_id: int, after: int = 0) -> list[StoredEvent]:
        """The game's events in order, those after sequence number ``after`` only."""
        rows = self.db.execute(
            "select game, seq, data, author, at from events where game = ? and seq > ? order by seq", [game_id, after]
        )
        return [StoredEvent(game, seq, json.loads(data), author, at) for game, seq, data, author, at in rows]

    @serialised
    def last_stamp(self, game_id: int) -> tuple[int, float]:
        """(sequence number, time) of the game's last stored event, (0, 0.0) for none: what identifies it."""
        row = self.db.execute(
            "select seq, at from events where game = ? order by seq desc limit 1", [game_id]
        ).fetchone()
        return (int(row[0]), float(row[1])) if row else (0, 0.0)

    def append_event(self, game_id: int, data: dict[str, Any], author: str, at: float | None = None) -> StoredEvent:
        with self.transaction():
            row = self.db.execute("select coalesce(max(seq), 0) + 1 from events where game = ?", [game_id]).fetchone()
            seq = int(row[0])
            stamp = time.time() if at is None else at
            self.db.execute(
                "insert into events (game, seq, kind, data, author, at) values (?, ?, ?, ?, ?, ?)",
                [game_id, seq, str(data.get("kind", "")), json.dumps(data, ensure_ascii=False), author, stamp],
            )
            return StoredEvent(game_id, seq, data, author, stamp)

    def set_deadline(self, game_id: int, round_number: int, at: float | None) -> None:
        """The deadline of one round of a game (None removes that round's only)."""
        with self.transaction():
            if at is None:
                self.db.execute("delete from deadlines where game = ? and round = ?", [game_id, round_number])
                return
            self.db.execute(
                "insert into deadlines (game, round, at, channel) select ?, ?, ?, channel from games where id = ?"
                " on conflict (game, round) do update set at = excluded.at, channel = excluded.channel",
                [game_id, round_number, at, game_id],
            )

    def open_round(self, game_id: int, round_number: int, at: float | None) -> None:
        """The game's open round and its deadline, every other round's deadline removed (None: no clock)."""
        with self.transaction():
            self.db.execute("delete from deadlines where game = ? and round != ?", [game_id, round_number])
            self.set_deadline(game_id, round_number, at)

    def mark_closed(self, game_id: int, round_number: int) -> None:
        """Record a round's close; a second close of the same round raises RoundClosedTwiceError."""
        with self.transaction():
            try:
                self.db.execute(
                    "insert into closes (game, round, at) values (?, ?, ?)", [game_id, round_number, time.time()]
                )
            except sqlite3.IntegrityError:
                raise RoundClosedTwiceError(game_id, round_number) from None

    def mark_reopened(self, game_id: int, round_number: int) -> None:
        with self.transaction():
            self.db.execute("delete from closes where game = ? and round = ?", [game_id, round_number])

    @serialised
    def deadlines(self) -> list[Deadline]:
        rows = self.db.execute("select game, round, at, channel from deadlines order by at").fetchall()
        return [Deadline(*row) for row in rows]

    # house words: a log of changes per channel and list, who and when

    def add_house_word_change(self, change: HouseWordChange) -> None:
        with self.transaction():
            self.db.table("house_words").insert(asdict(change))

    @serialised
    def house_word_changes(self, channel: str, lexicon: str) -> list[HouseWordChange]:
        """The changes of the channel's house words for the list ``lexicon``, oldest first."""
        rows = self.db.execute(
            f"select {_HOUSE_COLUMNS} from house_words where channel = ? and lexicon = ? order by id",
            [channel, lexicon],
        )
        return [HouseWordChange(*row) for row in rows]

    @serialised
    def lists_in_use(self) -> list[str]:
        """The word lists of running games, then of channel settings, most used first."""
        setups = self.db.execute("select setup from games where status = ?", [GameStatus.ACTIVE.value]).fetchall()
        running = [GameSetup.from_json(json.loads(row[0])).lexicon for row in setups]
        chosen = [row[0] for row in self.db.execute("select lexicon from channels").fetchall()]
        return list(dict.fromkeys(most_used(running) + most_used(chosen)))
