"""SQLite: the seats of a game's players, and a private duplicate move read and written in the fewest
statements (``play_state``: one read; ``record_play``: one insert per table)."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

import sqlite_utils

from ..chat import Reply
from .common import OUTBOX_COLUMNS, outbox_row, serialised
from .records import ChannelSettings, GameKind, GameRecord, GameSetup, GameStatus, PlayState

_SETTINGS = "json_object('channel', channel, 'language', language, 'edition', edition, 'notation', notation," \
    " 'rules', rules, 'lexicon', lexicon, 'minutes', minutes, 'timezone', timezone)"

_WAITING = "exists (select 1 from outbox where destination = {} and delivered is null and dropped is null)"

PLAY_STATE = (
    "select g.id, g.channel, g.kind, g.referee, g.status, g.setup, g.created,"
    " (select seq from events where game = g.id order by seq desc limit 1),"
    " (select at from events where game = g.id order by seq desc limit 1),"
    " (select json_group_array(json_array(user, name)) from"
    " (select user, name from players where game = g.id order by position)),"
    f" (select {_SETTINGS} from channels where channel = g.channel),"
    f" {_WAITING.format('?')}, {_WAITING.format('g.channel')}"
    " from games g where g.status = ? and g.kind = ?"
    " and (g.channel = ? or g.id in (select game from players where user = ?))"
    " order by g.channel = ? desc, g.id desc limit 1"
)


def play_state_of(row: Any) -> PlayState:
    """A ``PlayState`` from a row of ``PLAY_STATE`` (the same columns in both SQL backends)."""
    gid, channel, kind, referee, status, setup, created, seq, at, seats, settings, mine, theirs = row
    setup_data = setup if isinstance(setup, dict) else json.loads(setup)
    record = GameRecord(
        int(gid), channel, GameKind(kind), referee, GameStatus(status), GameSetup.from_json(setup_data), float(created)
    )
    chosen = ChannelSettings(**json.loads(settings)) if settings else ChannelSettings(channel)
    bound = tuple((str(user), str(name)) for user, name in json.loads(seats or "[]"))
    stamp = (int(seq), float(at)) if seq is not None else (0, 0.0)
    return PlayState(record, chosen, stamp, bound, bool(mine), bool(theirs))


class SQLiteGames:
    """The players' seats and the private move of a duplicate round, for ``SQLiteStorage``."""

    db: sqlite_utils.Database

    if TYPE_CHECKING:

        def transaction(self) -> contextlib.AbstractContextManager[None]: ...

    def add_player(self, game_id: int, user: str, name: str) -> None:
        with self.transaction():
            count = self.db.execute("select count(*) from players where game = ?", [game_id]).fetchone()[0]
            self.db.execute(
                "insert into players (game, user, name, position) values (?, ?, ?, ?)"
                " on conflict(game, user) do update set name = excluded.name",
                [game_id, user, name, count],
            )

    @serialised
    def players(self, game_id: int) -> list[tuple[str, str]]:
        return [
            (row["user"], row["name"])
            for row in self.db.table("players").rows_where("game = ?", [game_id], order_by="position")
        ]

    @serialised
    def active_games_of(self, user: str) -> list[GameRecord]:
        from .sqlite import SQLiteStorage

        rows = self.db.execute_returning_dicts(
            "select games.* from games join players on players.game = games.id"
            " where players.user = ? and games.status = ? order by games.id desc",
            [user, GameStatus.ACTIVE.value],
        )
        return [SQLiteStorage._game(row) for row in rows]

    @serialised
    def play_state(self, channel: str, user: str) -> PlayState | None:
        """The state a private move of ``user`` sent from ``channel`` goes to: the channel's running
        duplicate game, else the player's latest one (None: neither); one statement."""
        row = self.db.execute(
            PLAY_STATE,
            [user, GameStatus.ACTIVE.value, GameKind.DUPLICATE.value, channel, user, channel],
        ).fetchone()
        return play_state_of(row) if row is not None else None

    def record_play(
        self,
        game_id: int,
        events: list[tuple[dict[str, Any], str]],
        after: int,
        at: float,
        seat: tuple[str, str] | None,
        replies: list[Reply],
        dues: list[float],
        created: float,
        owner: str | None = None,
    ) -> list[int]:
        """Store a move's events (numbered after ``after``, each at ``at``), the seat it binds (account,
        name) if any, and its replies (each due at its time); their outbox numbers, in order."""
        with self.transaction():
            if events:
                rows = [
                    [game_id, after + n, str(data.get("kind", "")), json.dumps(data, ensure_ascii=False), author, at]
                    for n, (data, author) in enumerate(events, 1)
                ]
                self.db.execute(
                    "insert into events (game, seq, kind, data, author, at) values "
                    + ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(rows)),
                    [value for row in rows for value in row],
                )
            if seat is not None:
                self.db.execute(
                    "insert into players (game, user, name, position)"
                    " select ?, ?, ?, count(*) from players where game = ?"
                    " on conflict(game, user) do update set name = excluded.name",
                    [game_id, seat[0], seat[1], game_id],
                )
            if not replies:
                return []
            # claimed by the sender when it sends them itself (due after its grace), else anyone's at once
            values = [outbox_row(r, created, due, owner if due > created else None) for r, due in zip(replies, dues)]
            cursor = self.db.execute(
                f"insert into outbox ({OUTBOX_COLUMNS}) values " + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(values))
                + " returning id",
                [value for row in values for value in row],
            )
            return sorted(int(row[0]) for row in cursor.fetchall())  # one statement under the write lock: in order
