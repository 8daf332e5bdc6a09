"""PostgreSQL: the seats of a game's players, and a private duplicate move read in one statement and
written in one (``record_play``: its events, seat and replies in one statement of data-modifying CTEs)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..chat import Reply
from .common import OUTBOX_COLUMNS, outbox_row
from .records import GameKind, GameStatus, PlayState
from .sqlite_games import play_state_of

Row = tuple[Any, ...]

_SETTINGS = (
    "(select row_to_json(c)::text from (select channel, language, edition, notation, rules, lexicon, minutes,"
    " timezone from channels where channel = g.channel) c)"
)
_WAITING = "exists (select 1 from outbox where destination = {} and delivered is null and dropped is null)"

PLAY_STATE = (
    "select g.id, g.channel, g.kind, g.referee, g.status, g.setup, g.created,"
    " (select seq from events where game = g.id order by seq desc limit 1),"
    " (select at from events where game = g.id order by seq desc limit 1),"
    ' (select coalesce(json_agg(json_build_array("user", name) order by position), \'[]\')::text'
    " from players where game = g.id),"
    f" {_SETTINGS}, {_WAITING.format('%s')}, {_WAITING.format('g.channel')}"
    " from games g where g.status = %s and g.kind = %s"
    ' and (g.channel = %s or g.id in (select game from players where "user" = %s))'
    " order by (g.channel = %s) desc, g.id desc limit 1"
)


class PostgresGames:
    """The players' seats and the private move of a duplicate round, for ``PostgresStorage``."""

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError  # PostgresStorage's

    def add_player(self, game_id: int, user: str, name: str) -> None:
        self._execute(
            'insert into players (game, "user", name, position)'
            " select %s, %s, %s, count(*) from players where game = %s"
            ' on conflict (game, "user") do update set name = excluded.name',
            [game_id, user, name, game_id],
        )

    def players(self, game_id: int) -> list[tuple[str, str]]:
        rows = self._execute('select "user", name from players where game = %s order by position', [game_id])
        return [(user, name) for user, name in rows]

    def play_state(self, channel: str, user: str) -> PlayState | None:
        """The state a private move of ``user`` sent from ``channel`` goes to: the channel's running
        duplicate game, else the player's latest one (None: neither); one statement."""
        rows = self._execute(
            PLAY_STATE, [user, GameStatus.ACTIVE.value, GameKind.DUPLICATE.value, channel, user, channel]
        )
        return play_state_of(rows[0]) if rows else None

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
        name) if any, and its replies (each due at its time), in one statement; their outbox numbers."""
        parts: list[str] = []
        params: list[Any] = []
        if events:
            parts.append(
                "e as (insert into events (game, seq, kind, data, author, at) values "
                + ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(events))
                + ")"
            )
            for n, (data, author) in enumerate(events, 1):
                params += [game_id, after + n, str(data.get("kind", "")), json.dumps(data, ensure_ascii=False)]
                params += [author, at]
        if seat is not None:
            parts.append(
                'p as (insert into players (game, "user", name, position)'
                " select %s, %s, %s, count(*) from players where game = %s"
                ' on conflict (game, "user") do update set name = excluded.name)'
            )
            params += [game_id, seat[0], seat[1], game_id]
        # claimed by the sender when it sends them itself (due after its grace), else anyone's at once
        values = [outbox_row(r, created, due, owner if due > created else None) for r, due in zip(replies, dues)]
        parts.append(
            f"o as (insert into outbox ({OUTBOX_COLUMNS}) values "
            + ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * len(values))
            + " returning id)"
        )
        params += [value for row in values for value in row]
        if not values:
            parts.pop()
            parts.append("o as (select 0::bigint as id where false)")
        rows = self._execute("with " + ", ".join(parts) + " select id from o order by id", params)
        return [int(row[0]) for row in rows]
