"""The seats of a game's players, and a private duplicate move read and written in the fewest statements
(``play_state``: one read; ``record_play``: one statement where the backend has data-modifying CTEs, else
one insert for the events and the seat they bind and one for the replies), written once for both SQL
backends."""

from __future__ import annotations

import json
from typing import Any

from ...chat import Reply
from ..records import ChannelSettings, GameKind, GameStatus, PlayState, PlayWrite
from .common import OUTBOX_COLUMNS, outbox_row
from .store import GAME_COLUMNS, SQLRunner, game_of

_WAITING = "exists (select 1 from outbox where destination = {} and delivered is null and dropped is null)"
_PLAY_STATE_OF = (  # {user} and {channel}: the move's account and channel (two placeholders, or a row's columns)
    f"select {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))},"
    " (select seq from events where game = g.id order by seq desc limit 1),"
    " (select at from events where game = g.id order by seq desc limit 1),"
    ' (select name from players where game = g.id and "user" = {user}), {settings},'
    f" {_WAITING.format('{user}')}, {_WAITING.format('g.channel')}"
    " from games g where g.status = ? and g.kind = ?"
    ' and (g.channel = {channel} or g.id in (select game from players where "user" = {user}))'
    " order by (g.channel = {channel}) desc, g.id desc limit 1"
)
_PLAY_STATE = _PLAY_STATE_OF.replace("{user}", "?").replace("{channel}", "?")
# PostgreSQL: the play states of several moves (channels, accounts) in one statement, by their place
_PLAY_STATES = (
    'select k.n, s.* from unnest(cast(? as text[]), cast(? as text[])) with ordinality as k (channel, "user", n)'
    " cross join lateral ("
    + _PLAY_STATE_OF.replace("{user}", 'k."user"').replace("{channel}", "k.channel")
    + ") s"
)
# the channel of the game ``_PLAY_STATE`` finds (parameters: status, kind, channel, user, channel)
PLAY_CHANNEL = (
    "select g.channel from games g where g.status = ? and g.kind = ?"
    ' and (g.channel = ? or g.id in (select game from players where "user" = ?))'
    " order by (g.channel = ?) desc, g.id desc limit 1"
)
# PostgreSQL: several moves' seats, events and replies in one statement of a fixed text, each column an array
_PLAYS = (
    'with p as (insert into players (game, "user", name, position)'
    ' select s.game, s."user", s.name, (select count(*) from players where game = s.game)'
    ' from unnest(cast(? as bigint[]), cast(? as text[]), cast(? as text[])) as s (game, "user", name)'
    ' on conflict (game, "user") do update set name = excluded.name),'
    " e as (insert into events (game, seq, kind, data, author, at) select * from unnest(cast(? as bigint[]),"
    " cast(? as integer[]), cast(? as text[]), cast(? as text[]), cast(? as text[]), cast(? as double precision[]))),"
    f" o as (insert into outbox ({OUTBOX_COLUMNS}) select * from unnest(cast(? as text[]), cast(? as text[]),"
    " cast(? as double precision[]), cast(? as double precision[]), cast(? as double precision[]),"
    " cast(? as text[]), cast(? as text[]), cast(? as text[])) returning id)"
    " select id from o order by id"
)
_SEAT = (
    'insert into players (game, "user", name, position) select ?, ?, ?, count(*) from players where game = ?'
    ' on conflict (game, "user") do update set name = excluded.name'
)


def play_state_of(row: Any) -> PlayState:
    """A ``PlayState`` from a row of the play state's statement."""
    *game, seq, at, seat, settings, mine, theirs = row
    record = game_of(tuple(game))
    chosen = ChannelSettings(**json.loads(settings)) if settings else ChannelSettings(record.channel)
    stamp = (int(seq), float(at)) if seq is not None else (0, 0.0)
    return PlayState(record, chosen, stamp, None if seat is None else str(seat), bool(mine), bool(theirs))


class SQLGames(SQLRunner):
    """The players' seats and the private move of a duplicate round."""

    def add_player(self, game_id: int, user: str, name: str) -> None:
        with self._one_write():
            self._execute(_SEAT, [game_id, user, name, game_id])

    def players(self, game_id: int) -> list[tuple[str, str]]:
        rows = self._execute('select "user", name from players where game = ? order by position', [game_id])
        return [(str(user), str(name)) for user, name in rows]

    def players_of(self, games: list[int]) -> dict[int, set[str]]:
        seated: dict[int, set[str]] = {game: set() for game in games}
        if games:
            listed = self.dialect.listed(sorted(set(games)))
            rows = self._execute(f'select game, "user" from players where game {self.dialect.id_list}', [listed])
            for game, user in rows:
                seated[int(game)].add(str(user))
        return seated

    def play_state(self, channel: str, user: str) -> PlayState | None:
        """The state a private move of ``user`` sent from ``channel`` goes to: the channel's running
        duplicate game, else the player's latest one (None: neither); one statement."""
        statement = _PLAY_STATE.replace("{settings}", self.dialect.settings)
        rows = self._execute(
            statement, [user, user, GameStatus.ACTIVE.value, GameKind.DUPLICATE.value, channel, user, channel]
        )
        return play_state_of(rows[0]) if rows else None

    def play_states(self, moves: list[tuple[str, str]]) -> list[PlayState | None]:
        """``play_state`` of several moves (channel, account), in order: one statement where the backend
        joins laterally (PostgreSQL), else one each."""
        if not self.dialect.writes_in_one_statement or len(moves) < 2:
            return [self.play_state(channel, user) for channel, user in moves]
        statement = _PLAY_STATES.replace("{settings}", self.dialect.settings)
        rows = self._execute(
            statement,
            [[c for c, _ in moves], [u for _, u in moves], GameStatus.ACTIVE.value, GameKind.DUPLICATE.value],
        )
        found = {int(row[0]): play_state_of(row[1:]) for row in rows}
        return [found.get(n) for n in range(1, len(moves) + 1)]

    def record_plays(self, writes: list[PlayWrite]) -> list[list[int]]:
        """``record_play`` of several moves, each of another game: one statement of data-modifying CTEs
        where the backend has them, else one ``record_play`` each; each one's outbox numbers, in order."""
        if not self.dialect.writes_in_one_statement or len(writes) < 2:
            return [
                self.record_play(w.game_id, w.events, w.after, w.at, w.seat, w.replies, w.dues, w.created, w.owner)
                for w in writes
            ]
        events = [
            (w.game_id, w.after + n, str(data.get("kind", "")), json.dumps(data, ensure_ascii=False), author, w.at)
            for w in writes
            for n, (data, author) in enumerate(w.events, 1)
        ]
        values = [
            outbox_row(r, w.created, due, w.owner if due > w.created else None)
            for w in writes
            for r, due in zip(w.replies, w.dues)
        ]
        seats = [(w.game_id, *w.seat) for w in writes if w.seat is not None]
        params = [list(column) for column in zip(*seats)] if seats else [[], [], []]
        params += [list(column) for column in zip(*events)] if events else [[]] * 6
        params += [list(column) for column in zip(*values)] if values else [[]] * 8
        rows = self._execute(_PLAYS, params)  # one text whatever the batch: parsed and prepared once
        ids = [int(row[0]) for row in rows]
        numbered: list[list[int]] = []
        for w in writes:  # one insert numbers its rows in their order
            numbered.append(ids[: len(w.replies)])
            ids = ids[len(w.replies):]
        return numbered

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
        event_rows = [
            [game_id, after + n, str(data.get("kind", "")), json.dumps(data, ensure_ascii=False), author, at]
            for n, (data, author) in enumerate(events, 1)
        ]
        insert_events = "insert into events (game, seq, kind, data, author, at) values " + ", ".join(
            ["(?, ?, ?, ?, ?, ?)"] * len(event_rows)
        )
        # claimed by the sender when it sends them itself (due after its grace), else anyone's at once
        values = [outbox_row(r, created, due, owner if due > created else None) for r, due in zip(replies, dues)]
        insert_replies = f"insert into outbox ({OUTBOX_COLUMNS}) values " + ", ".join(
            ["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(values)
        ) + " returning id"
        seat_params = [] if seat is None else [game_id, seat[0], seat[1], game_id]
        if self.dialect.writes_in_one_statement:  # one statement of data-modifying CTEs
            parts = [f"e as ({insert_events})"] if event_rows else []
            parts += [f"p as ({_SEAT})"] if seat is not None else []
            parts.append(f"o as ({insert_replies})" if values else "o as (select cast(0 as bigint) as id where false)")
            params = [v for row in event_rows for v in row] + seat_params + [v for row in values for v in row]
            rows = self._execute("with " + ", ".join(parts) + " select id from o order by id", params)
            return [int(row[0]) for row in rows]
        with self.transaction():
            if event_rows and seat is not None and self.dialect.seated_events:  # one insert for both tables
                seated = [[*row, *(seat if n == 0 else (None, None))] for n, row in enumerate(event_rows)]
                self._execute(
                    f"insert into {self.dialect.seated_events} (game, seq, kind, data, author, at, seat_user,"
                    " seat_name) values " + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(seated)),
                    [v for row in seated for v in row],
                )
            else:
                if event_rows:
                    self._execute(insert_events, [v for row in event_rows for v in row])
                if seat is not None:
                    self._execute(_SEAT, seat_params)
            if not values:
                return []
            rows = self._execute(insert_replies, [v for row in values for v in row])
        return sorted(int(row[0]) for row in rows)  # one statement under the write lock: in order
