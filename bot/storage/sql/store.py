"""The storage on an SQL database, written once for SQLite and PostgreSQL: channels, games, the event log,
duplicate rounds, clock leases and house words (players and private moves in ``games``, the outbox
in ``outbox``). The backend modules give it a connection, transactions and a ``Dialect``."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, fields
from typing import Any

from ...words.house import HouseWordChange
from ..records import (
    ChannelSettings,
    Deadline,
    GameKind,
    GameRecord,
    GameRunningError,
    GameSetup,
    GameStatus,
    RoundClosedTwiceError,
    StoredEvent,
)
from .common import most_used
from .dialect import Dialect

Row = tuple[Any, ...]

GAME_COLUMNS = "id, channel, kind, referee, status, setup, created"
_CHANNEL_COLUMNS = [f.name for f in fields(ChannelSettings)]
_HOUSE_COLUMNS = [f.name for f in fields(HouseWordChange)]
EVENTS_AFTER = "select game, seq, data, author, at from events where game = ? and seq > ? order by seq"
LAST_STAMP = "select seq, at from events where game = ? order by seq desc limit 1"


def game_of(row: Row) -> GameRecord:
    """A ``GameRecord`` from a row of ``GAME_COLUMNS``."""
    game_id, channel, kind, referee, status, setup, created = row
    setup_data = setup if isinstance(setup, dict) else json.loads(setup)
    setup_value = GameSetup.from_json(setup_data)
    return GameRecord(int(game_id), channel, GameKind(kind), referee, GameStatus(status), setup_value, float(created))


def events_of(rows: Sequence[Row]) -> list[StoredEvent]:
    """``StoredEvent`` values from rows of ``EVENTS_AFTER``."""
    return [StoredEvent(int(g), int(seq), json.loads(data), author, float(at)) for g, seq, data, author, at in rows]


def stamp_of(rows: Sequence[Row]) -> tuple[int, float]:
    """(sequence number, time) from the rows of ``LAST_STAMP``, (0, 0.0) for none."""
    return (int(rows[0][0]), float(rows[0][1])) if rows else (0, 0.0)


class SQLRunner:
    """What the SQL storage needs from its backend (``SQLiteStorage``, ``PostgresStorage``)."""

    dialect: Dialect

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one statement (``?`` placeholders), in this thread's transaction if it has one."""
        raise NotImplementedError

    def _committed(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one read on a connection of its own: committed data only, no lock taken."""
        raise NotImplementedError

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        raise NotImplementedError

    def _one_write(self) -> contextlib.AbstractContextManager[Any]:
        """Around a write of one statement: SQLite's write transaction, nothing on PostgreSQL (it commits alone)."""
        raise NotImplementedError

    def _statement_write(self) -> contextlib.AbstractContextManager[Any]:
        """Around a write of one statement that commits alone, with no transaction of its own (what a hot path
        saves: SQLite's BEGIN and COMMIT); a full disk is a ``StorageFullError`` there too."""
        return self._one_write()


class SQLStore(SQLRunner):
    """Channels, games, events, rounds, clock leases and house words on an SQL database."""

    # --- reads without the transaction -----------------------------------------------------------

    def read_events(self, game_id: int, after: int = 0) -> list[StoredEvent]:
        """``events`` read on a connection of its own: committed events only (for long rebuilds)."""
        return events_of(self._committed(EVENTS_AFTER, [game_id, after]))

    def read_stamp(self, game_id: int) -> tuple[int, float]:
        """``last_stamp`` read on a connection of its own (committed events only)."""
        return stamp_of(self._committed(LAST_STAMP, [game_id]))

    # --- channels and games ---------------------------------------------------------------

    def channel(self, channel: str) -> ChannelSettings:
        rows = self._execute(f"select {', '.join(_CHANNEL_COLUMNS)} from channels where channel = ?", [channel])
        return ChannelSettings(*rows[0]) if rows else ChannelSettings(channel)

    def has_channel(self, channel: str) -> bool:
        return bool(self._execute("select 1 from channels where channel = ?", [channel]))

    def save_channel(self, settings: ChannelSettings) -> None:
        values = asdict(settings)
        updates = ", ".join(f"{c} = excluded.{c}" for c in _CHANNEL_COLUMNS if c != "channel")
        with self._one_write():
            self._execute(
                f"insert into channels ({', '.join(_CHANNEL_COLUMNS)}) values ({', '.join(['?'] * len(values))})"
                f" on conflict (channel) do update set {updates}",
                [values[c] for c in _CHANNEL_COLUMNS],
            )

    def active_game(self, channel: str) -> GameRecord | None:
        rows = self._execute(
            f"select {GAME_COLUMNS} from games where channel = ? and status = ? order by id desc limit 1",
            [channel, GameStatus.ACTIVE.value],
        )
        return game_of(rows[0]) if rows else None

    def game(self, game_id: int) -> GameRecord:
        rows = self._execute(f"select {GAME_COLUMNS} from games where id = ?", [game_id])
        if not rows:
            raise KeyError(game_id)
        return game_of(rows[0])

    def create_game(
        self,
        channel: str,
        kind: GameKind,
        referee: str,
        setup: GameSetup,
        *,
        abandon_running: bool = False,
        beside: bool = False,
    ) -> GameRecord:
        """A new active game; a running one is marked abandoned only when asked (else GameRunningError), or
        left running beside the new one (``beside``: games by correspondence, several in a channel)."""
        with self.transaction():
            running = self.active_game(channel)
            if running is not None and not abandon_running and not beside:
                raise GameRunningError(channel, running)
            if not beside:
                self._execute(
                    "update games set status = ? where channel = ? and status = ?",
                    [GameStatus.ABANDONED.value, channel, GameStatus.ACTIVE.value],
                )
                self._execute("delete from deadlines where channel = ?", [channel])
            setup_text = json.dumps(setup.to_json(), ensure_ascii=False)
            rows = self._execute(
                f"insert into games (channel, kind, referee, status, setup, created) values (?, ?, ?, ?, ?, ?)"
                f" returning {GAME_COLUMNS}",
                [channel, GameKind(kind).value, referee, GameStatus.ACTIVE.value, setup_text, time.time()],
            )
            return game_of(rows[0])

    def games(self, channel: str) -> list[GameRecord]:
        """The channel's games, oldest first (their place in this list is their number in the channel)."""
        rows = self._execute(f"select {GAME_COLUMNS} from games where channel = ? order by id", [channel])
        return [game_of(row) for row in rows]

    def set_game_status(self, game_id: int, status: GameStatus) -> None:
        status = GameStatus(status)
        with self.transaction():
            self._execute("update games set status = ? where id = ?", [status.value, game_id])
            if status is not GameStatus.ACTIVE:
                self._execute("delete from deadlines where game = ?", [game_id])

    def active_games_of(self, user: str) -> list[GameRecord]:
        columns = ", ".join(f"games.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = self._execute(
            f"select {columns} from games join players on players.game = games.id"
            ' where players."user" = ? and games.status = ? order by games.id desc',
            [user, GameStatus.ACTIVE.value],
        )
        return [game_of(row) for row in rows]

    # --- the event log -----------------------------------------------------------------------

    def events(self, game_id: int, after: int = 0) -> list[StoredEvent]:
        """The game's events in order, those after sequence number ``after`` only."""
        return events_of(self._execute(EVENTS_AFTER, [game_id, after]))

    def last_stamp(self, game_id: int) -> tuple[int, float]:
        """(sequence number, time) of the game's last stored event, (0, 0.0) for none: what identifies it."""
        return stamp_of(self._execute(LAST_STAMP, [game_id]))

    def append_event(self, game_id: int, data: dict[str, Any], author: str, at: float | None = None) -> StoredEvent:
        """The next event of the game's log (two writers that did not lock the channel collide on the
        (game, seq) key instead of interleaving)."""
        stamp = time.time() if at is None else at
        with self._one_write():
            rows = self._execute(
                "insert into events (game, seq, kind, data, author, at)"
                " select ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ? from events where game = ? returning seq",
                [game_id, str(data.get("kind", "")), json.dumps(data, ensure_ascii=False), author, stamp, game_id],
            )
        return StoredEvent(game_id, int(rows[0][0]), data, author, stamp)

    # --- duplicate rounds --------------------------------------------------------------------

    def set_deadline(self, game_id: int, round_number: int, at: float | None) -> None:
        """The deadline of one round of a game (None removes that round's only)."""
        with self._one_write():
            if at is None:
                self._execute("delete from deadlines where game = ? and round = ?", [game_id, round_number])
                return
            self._execute(
                "insert into deadlines (game, round, at, channel) select id, ?, ?, channel from games where id = ?"
                " on conflict (game, round) do update set at = excluded.at, channel = excluded.channel",
                [round_number, at, game_id],
            )

    def open_round(self, game_id: int, round_number: int, at: float | None) -> None:
        """The game's open round and its deadline, every other round's deadline removed (None: no clock)."""
        if at is None:  # no round of the game has a deadline
            with self._one_write():
                self._execute("delete from deadlines where game = ?", [game_id])
            return
        with self.transaction():
            self._execute("delete from deadlines where game = ? and round <> ?", [game_id, round_number])
            self.set_deadline(game_id, round_number, at)

    def deadlines(self) -> list[Deadline]:
        return _deadlines(self._execute(_DEADLINES))

    def read_deadlines(self) -> list[Deadline]:
        """``deadlines`` read on a connection of its own (committed rounds only), without the store's lock:
        the clock reads them at every tick, up to 20 times a second while rounds close, and on SQLite's one
        shared connection that read held the answers' writes back (150-170 ms for 300 rooms in a burst)."""
        return _deadlines(self._committed(_DEADLINES))

    def mark_closed(self, game_id: int, round_number: int) -> None:
        """Record a round's close; the primary key refuses a second one (RoundClosedTwiceError). The insert
        never fails, so the caller's transaction stays usable."""
        with self._one_write():
            rows = self._execute(
                "insert into closes (game, round, at) values (?, ?, ?) on conflict (game, round) do nothing"
                " returning round",
                [game_id, round_number, time.time()],
            )
        if not rows:
            raise RoundClosedTwiceError(game_id, round_number)

    def mark_reopened(self, game_id: int, round_number: int) -> None:
        with self._one_write():
            self._execute("delete from closes where game = ? and round = ?", [game_id, round_number])

    # --- clock leases: which process runs each channel's duplicate clock -------------------------

    def hold_clocks(
        self, owner: str, channels: list[str], now: float, seconds: float, most: int | None = None
    ) -> set[str]:
        wanted = self.dialect.listed(sorted(set(channels)))
        gone = self.dialect.owner_gone
        taken = "clock_leases.owner = excluded.owner or clock_leases.expires < ? or " + gone.format(
            owner="clock_leases.owner"
        )
        with self.transaction():
            self._execute(
                f"with wanted as ({self.dialect.text_list}),"
                " mine as (select w.value from wanted w join clock_leases l on l.channel = w.value where l.owner = ?),"
                " free as (select w.value from wanted w left join clock_leases l on l.channel = w.value"
                f" where l.channel is null or (l.owner <> ? and (l.expires < ? or {gone.format(owner='l.owner')}))"
                " order by random() limit ?)"
                " insert into clock_leases (channel, owner, expires)"
                " select value, ?, ? from (select value from mine union all select value from free) s where true"
                " on conflict (channel) do update set owner = excluded.owner, expires = excluded.expires"
                f" where {taken}",
                [wanted, owner, owner, now, len(channels) if most is None else most, owner, now + seconds, now],
            )
            rows = self._execute(
                f"select channel from clock_leases where owner = ? and channel in ({self.dialect.text_list})",
                [owner, wanted],
            )
        return {str(row[0]) for row in rows}

    def clock_owners(self, owner: str, scope: str, *, count: bool = True) -> int | None:
        return None

    def release_clocks(self, owner: str, channels: list[str] | None = None) -> None:
        with self._one_write():
            if channels is None:
                self._execute("delete from clock_leases where owner = ?", [owner])
            else:
                self._execute(
                    f"delete from clock_leases where owner = ? and channel in ({self.dialect.text_list})",
                    [owner, self.dialect.listed(sorted(set(channels)))],
                )

    # --- house words: a log of changes per channel and list, who and when ---------------------------

    def add_house_word_change(self, change: HouseWordChange) -> None:
        values = asdict(change)
        with self._one_write():
            self._execute(
                f"insert into house_words ({', '.join(_HOUSE_COLUMNS)}) values ({', '.join(['?'] * len(values))})",
                [values[c] for c in _HOUSE_COLUMNS],
            )

    def house_word_changes(self, channel: str, lexicon: str) -> list[HouseWordChange]:
        """The changes of the channel's house words for the list ``lexicon``, oldest first."""
        rows = self._execute(
            f"select {', '.join(_HOUSE_COLUMNS)} from house_words where channel = ? and lexicon = ? order by id",
            [channel, lexicon],
        )
        return [HouseWordChange(*row) for row in rows]

    def lists_in_use(self) -> list[str]:
        """The word lists of running games, then of channel settings, most used first."""
        setups = self._execute("select setup from games where status = ?", [GameStatus.ACTIVE.value])
        running = [GameSetup.from_json(json.loads(row[0])).lexicon for row in setups]
        chosen = [row[0] for row in self._execute("select lexicon from channels")]
        return list(dict.fromkeys(most_used(running) + most_used(chosen)))


_DEADLINES = "select game, round, at, channel from deadlines order by at, game, round"


def _deadlines(rows: list[Any]) -> list[Deadline]:
    """The rows of ``_DEADLINES`` as deadlines."""
    return [Deadline(int(g), int(r), float(at), channel) for g, r, at, channel in rows]
