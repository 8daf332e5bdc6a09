"""The simultanés (one duplicate game played in many rooms) and the rooms that joined each, written once
for both SQL backends. A simultané's definition is kept as the JSON object its code layer gives."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from .sql_store import Row, SQLRunner

_COLUMNS = "id, code, channel, organiser, definition, created"
_ROOM_COLUMNS = "simultane, channel, game, joined"


@dataclass(frozen=True)
class SimultaneRecord:
    """A simultané as stored: its code, the organiser's room and account, its definition (JSON)."""

    id: int
    code: str
    channel: str
    organiser: str
    definition: dict[str, Any]
    created: float


@dataclass(frozen=True)
class SimultaneRoom:
    """A room that joined a simultané, and its game once started there (None before)."""

    simultane: int
    channel: str
    game: int | None
    joined: float


def simultane_of(row: Row) -> SimultaneRecord:
    """A ``SimultaneRecord`` from a row of ``_COLUMNS``."""
    simultane_id, code, channel, organiser, definition, created = row
    data = json.loads(definition)
    return SimultaneRecord(int(simultane_id), str(code), str(channel), str(organiser), data, float(created))


def room_of(row: Row) -> SimultaneRoom:
    """A ``SimultaneRoom`` from a row of ``_ROOM_COLUMNS``."""
    simultane_id, channel, game, joined = row
    return SimultaneRoom(int(simultane_id), str(channel), None if game is None else int(game), float(joined))


class SQLSimultanes(SQLRunner):
    """The simultanés and their rooms."""

    def create_simultane(self, code: str, channel: str, organiser: str, definition: dict[str, Any]) -> SimultaneRecord:
        """A new simultané (its code unique: the caller draws one not taken)."""
        with self._one_write():
            rows = self._execute(
                "insert into simultanes (code, channel, organiser, definition, created) values (?, ?, ?, ?, ?)"
                f" returning {_COLUMNS}",
                [code, channel, organiser, json.dumps(definition, sort_keys=True), time.time()],
            )
        return simultane_of(rows[0])

    def simultane(self, code: str) -> SimultaneRecord | None:
        """The simultané of that code, if any."""
        rows = self._execute(f"select {_COLUMNS} from simultanes where code = ?", [code])
        return simultane_of(rows[0]) if rows else None

    def simultane_by_id(self, simultane_id: int) -> SimultaneRecord:
        rows = self._execute(f"select {_COLUMNS} from simultanes where id = ?", [simultane_id])
        return simultane_of(rows[0])

    def join_simultane(self, simultane_id: int, channel: str) -> bool:
        """Put a room in a simultané; whether it was not in it already."""
        with self._one_write():
            rows = self._execute(
                "insert into simultane_rooms (simultane, channel, game, joined) values (?, ?, null, ?)"
                " on conflict (simultane, channel) do nothing returning channel",
                [simultane_id, channel, time.time()],
            )
        return bool(rows)

    def set_simultane_game(self, simultane_id: int, channel: str, game_id: int) -> None:
        """The game a room plays the simultané in."""
        with self._one_write():
            self._execute(
                "update simultane_rooms set game = ? where simultane = ? and channel = ?",
                [game_id, simultane_id, channel],
            )

    def simultane_rooms(self, simultane_id: int) -> list[SimultaneRoom]:
        """The rooms of a simultané, in the order they joined."""
        rows = self._execute(
            f"select {_ROOM_COLUMNS} from simultane_rooms where simultane = ? order by joined, channel",
            [simultane_id],
        )
        return [room_of(row) for row in rows]

    def channel_simultanes(self, channel: str) -> list[SimultaneRecord]:
        """The simultanés a room organised or joined, oldest first."""
        rows = self._execute(
            f"select {_COLUMNS} from simultanes where channel = ? or id in"
            " (select simultane from simultane_rooms where channel = ?) order by id",
            [channel, channel],
        )
        return [simultane_of(row) for row in rows]
