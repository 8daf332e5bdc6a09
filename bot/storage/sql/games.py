"""The seats of a game's players, and private duplicate moves read and written in the fewest statements
(``play_state``: one read; ``record_plays``: one statement where the backend has data-modifying CTEs, else
one insert for the events and the seats they bind and one for the replies, for a whole batch), written once
for both SQL backends."""

from __future__ import annotations

import json
from typing import Any

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
        """Store several private moves, each of another game: each one's events (numbered after its
        ``after``, each at its ``at``), the seat it binds (account, name) if any, and its replies (each due
        at its time; claimed by its ``owner`` when due later); each one's outbox numbers, in order. One
        statement of data-modifying CTEs where the backend has them, else one insert for the events with
        the seats they bind and one for the replies, whatever the number of moves."""
        if not writes:
            return []
        if not self.dialect.writes_in_one_statement:
            return self._record_plays_in_two(writes)
        events = [event for w in writes for event in _event_rows(w)]
        values = [value for w in writes for value in _outbox_rows(w)]
        seats = [(w.game_id, *w.seat) for w in writes if w.seat is not None]
        params = [list(column) for column in zip(*seats)] if seats else [[], [], []]
        params += [list(column) for column in zip(*events)] if events else [[]] * 6
        params += [list(column) for column in zip(*values)] if values else [[]] * 8
        rows = self._execute(_PLAYS, params)  # one text whatever the batch: parsed and prepared once
        return _numbered(writes, [int(row[0]) for row in rows])  # one insert numbers its rows in their order

    def _record_plays_in_two(self, writes: list[PlayWrite]) -> list[list[int]]:
        """Moves' writes in one transaction of two inserts (chunked under the backend's limit of
        parameters): the events through ``Dialect.seated_events``, each move's first event carrying the
        seat it binds, then the replies; their outbox numbers, per move, in order."""
        seated = [
            [*row, *(w.seat if n == 0 and w.seat is not None else (None, None))]
            for w in writes
            for n, row in enumerate(_event_rows(w))
        ]
        values = [value for w in writes for value in _outbox_rows(w)]
        ids: list[int] = []
        with self.transaction():
            for w in writes:  # a seat without an event (none today) is bound on its own
                if w.seat is not None and not w.events:
                    self._execute(_SEAT, [w.game_id, *w.seat, w.game_id])
            for chunk in _chunks(seated):
                self._execute(_insert(self._seated_events(), chunk), [v for row in chunk for v in row])
            for chunk in _chunks(values):
                rows = self._execute(_insert(_OUTBOX, chunk) + " returning id", [v for row in chunk for v in row])
                ids += sorted(int(row[0]) for row in rows)  # one statement under the write lock: in order
        return _numbered(writes, ids)

    def _seated_events(self) -> str:
        """``Dialect.seated_events`` with its columns: an event's, then the seat it binds (account, name)."""
        if self.dialect.seated_events is None:
            raise TypeError(f"{self.dialect.name} writes in one statement: it has no seated_events view")
        return f"{self.dialect.seated_events} (game, seq, kind, data, author, at, seat_user, seat_name)"


_OUTBOX = f"outbox ({OUTBOX_COLUMNS})"
_MOST_PARAMETERS = 30_000  # SQLite's default limit is 32,766 bound parameters a statement


def _insert(table: str, rows: list[list[Any]]) -> str:
    """A multi-row insert of ``rows`` (their values bound in order) into ``table`` (its name and columns)."""
    placeholders = "(" + ", ".join(["?"] * len(rows[0])) + ")"
    return f"insert into {table} values " + ", ".join([placeholders] * len(rows))


def _chunks(rows: list[list[Any]]) -> list[list[list[Any]]]:
    """``rows`` in consecutive slices of at most ``_MOST_PARAMETERS`` values each (none when empty)."""
    if not rows:
        return []
    size = max(1, _MOST_PARAMETERS // len(rows[0]))
    return [rows[n : n + size] for n in range(0, len(rows), size)]


def _event_rows(write: PlayWrite) -> list[list[Any]]:
    """A move's events as rows (game, seq, kind, data, author, at), numbered after its ``after``."""
    return [
        [write.game_id, write.after + n, str(data.get("kind", "")), json.dumps(data, ensure_ascii=False)]
        + [author, write.at]
        for n, (data, author) in enumerate(write.events, 1)
    ]


def _outbox_rows(write: PlayWrite) -> list[list[Any]]:
    """A move's replies as outbox rows: claimed by the sender when it sends them itself (due after its
    grace), else anyone's at once."""
    return [
        outbox_row(r, write.created, due, write.owner if due > write.created else None)
        for r, due in zip(write.replies, write.dues)
    ]


def _numbered(writes: list[PlayWrite], ids: list[int]) -> list[list[int]]:
    """``ids`` (every move's outbox numbers, in the moves' order) split per move."""
    numbered: list[list[int]] = []
    for w in writes:
        numbered.append(ids[: len(w.replies)])
        ids = ids[len(w.replies) :]
    return numbered
