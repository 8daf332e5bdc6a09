"""The simultanés (one duplicate game played in many rooms) and the rooms that joined each, written once
for both SQL backends. A simultané's definition is kept as the JSON object its code layer gives."""

from __future__ import annotations

import json
import time
from typing import Any

from ..simultane_records import DONE_POST, Admission, HeldRound, SimultaneRecord, SimultaneRoom, SimultaneRoomProgress
from .store import Row, SQLRunner

_COLUMNS = "id, code, channel, organiser, definition, created, entries_closed"
_ROOM_COLUMNS = "simultane, channel, game, joined, due, referee, referee_name, name, admission, held, centre"


def simultane_of(row: Row) -> SimultaneRecord:
    """A ``SimultaneRecord`` from a row of ``_COLUMNS``."""
    simultane_id, code, channel, organiser, definition, created, entries_closed = row
    data = json.loads(definition)
    closed = None if entries_closed is None else float(entries_closed)
    return SimultaneRecord(int(simultane_id), str(code), str(channel), str(organiser), data, float(created), closed)


def room_of(row: Row) -> SimultaneRoom:
    """A ``SimultaneRoom`` from a row of ``_ROOM_COLUMNS``."""
    simultane_id, channel, game, joined, due, referee, referee_name, name, admission, held, centre = row
    return SimultaneRoom(
        int(simultane_id),
        str(channel),
        None if game is None else int(game),
        float(joined),
        None if due is None else float(due),
        str(referee or ""),
        str(referee_name or ""),
        str(name or ""),
        Admission(admission or Admission.ADMITTED.value),
        int(held or 0),
        str(centre or ""),
    )


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

    def join_simultane(
        self,
        simultane_id: int,
        channel: str,
        due: float | None = None,
        referee: str = "",
        referee_name: str = "",
        name: str = "",
        admission: Admission = Admission.ADMITTED,
    ) -> bool:
        """Put a room in a simultané (``due``: when the clock starts its game, whose referee is the admin who
        joined; ``name``: its centre's, "" for none; ``admission``: pending while it waits for the
        organiser's word); whether it was not in it already."""
        with self._one_write():
            rows = self._execute(
                "insert into simultane_rooms"
                " (simultane, channel, game, joined, due, referee, referee_name, name, admission)"
                " values (?, ?, null, ?, ?, ?, ?, ?, ?) on conflict (simultane, channel) do nothing returning channel",
                [simultane_id, channel, time.time(), due, referee, referee_name, name or None, admission.value],
            )
        return bool(rows)

    def admit_simultane_room(self, simultane_id: int, channel: str, admission: Admission) -> bool:
        """The organiser's word on a pending room (admitted or refused); whether the room was pending."""
        with self._one_write():
            rows = self._execute(
                "update simultane_rooms set admission = ? where simultane = ? and channel = ? and admission = ?"
                " returning channel",
                [admission.value, simultane_id, channel, Admission.PENDING.value],
            )
        return bool(rows)

    def set_simultane_centre(self, simultane_id: int, channel: str, centre: str) -> bool:
        """A room's federation centre code ("": none); whether the room is in the simultané."""
        with self._one_write():
            rows = self._execute(
                "update simultane_rooms set centre = ? where simultane = ? and channel = ? returning channel",
                [centre or None, simultane_id, channel],
            )
        return bool(rows)

    def close_simultane_entries(self, simultane_id: int, at: float) -> bool:
        """No room may join any more; whether they were open until now."""
        with self._one_write():
            rows = self._execute(
                "update simultanes set entries_closed = ? where id = ? and entries_closed is null returning id",
                [at, simultane_id],
            )
        return bool(rows)

    def hold_simultane_round(self, simultane_id: int, channel: str, round_number: int) -> bool:
        """The room's round ``round_number`` waits for the other rooms before closing (0: none waits);
        whether that changed anything."""
        with self._one_write():
            rows = self._execute(
                "update simultane_rooms set held = ? where simultane = ? and channel = ? and held <> ?"
                " returning channel",
                [round_number, simultane_id, channel, round_number],
            )
        return bool(rows)

    def simultane_held(self, simultane_id: int, channel: str) -> int:
        """The round a room holds (0: none)."""
        rows = self._execute(
            "select held from simultane_rooms where simultane = ? and channel = ?", [simultane_id, channel]
        )
        return int(rows[0][0] or 0) if rows else 0

    def simultane_holds(self, scope: str = "") -> list[HeldRound]:
        """The rooms, of channels starting with ``scope``, whose round waits for the others before closing
        (their game running, or ended by its referee after that round)."""
        rows = self._execute(
            "select r.simultane, r.channel, r.game, r.held from simultane_rooms r join games g on g.id = r.game"
            " where r.held > 0 and g.status in ('active', 'ended') order by r.simultane, r.joined, r.channel",
            [],
        )
        return [HeldRound(int(s), str(c), int(g), int(n)) for s, c, g, n in rows if str(c).startswith(scope)]

    def simultane_rooms_of_account(self, code: str, user: str) -> list[str]:
        """The rooms of the simultané ``code`` whose game has a seat bound to ``user`` (one, when the rule
        held)."""
        rows = self._execute(
            "select r.channel from simultanes s join simultane_rooms r on r.simultane = s.id"
            ' join players p on p.game = r.game where s.code = ? and p."user" = ? order by r.joined, r.channel',
            [code, user],
        )
        return [str(row[0]) for row in rows]

    def name_simultane_room(self, simultane_id: int, channel: str, name: str) -> bool:
        """Give a room of a simultané its centre's name ("": none); whether the room is in it."""
        with self._one_write():
            rows = self._execute(
                "update simultane_rooms set name = ? where simultane = ? and channel = ? returning channel",
                [name or None, simultane_id, channel],
            )
        return bool(rows)

    def set_simultane_game(self, simultane_id: int, channel: str, game_id: int) -> None:
        """The game a room plays the simultané in (the clock no longer has to start it)."""
        with self._one_write():
            self._execute(
                "update simultane_rooms set game = ?, due = null where simultane = ? and channel = ?",
                [game_id, simultane_id, channel],
            )

    def simultane_work_due(self, now: float) -> tuple[bool, bool, bool]:
        """Whether a room's start is due by ``now``, whether a started simultané has posts to come, and
        whether a room's round waits for the others before closing: one statement, so that a clock tick with
        nothing of the kind to do costs one read."""
        rows = self._execute(
            "select exists (select 1 from simultane_rooms where due is not null and due <= ? and game is null),"
            " exists (select 1 from simultanes s where exists"
            " (select 1 from simultane_rooms r where r.simultane = s.id and r.game is not null)"
            " and not exists (select 1 from simultane_posts p where p.simultane = s.id and p.what = ?)),"
            " exists (select 1 from simultane_rooms r join games g on g.id = r.game"
            " where r.held > 0 and g.status in ('active', 'ended'))",
            [now, DONE_POST],
        )
        starts, posts, releases = rows[0]
        return bool(starts), bool(posts), bool(releases)

    def simultane_starts_due(self, now: float, scope: str = "") -> list[SimultaneRoom]:
        """The rooms whose game the clock starts by ``now`` and has not yet, of channels starting with
        ``scope``, the earliest first."""
        rows = self._execute(
            f"select {_ROOM_COLUMNS} from simultane_rooms where due is not null and due <= ? and game is null"
            " order by due, simultane, channel",
            [now],
        )
        return [room for room in map(room_of, rows) if room.channel.startswith(scope)]

    def leave_simultane(self, simultane_id: int, channel: str) -> None:
        """Take a room that has not started out of a simultané."""
        with self._one_write():
            self._execute(
                "delete from simultane_rooms where simultane = ? and channel = ? and game is null",
                [simultane_id, channel],
            )

    def simultane_posts(self, simultane_id: int) -> set[str]:
        """What has been posted for a simultané (``claim_simultane_post``)."""
        rows = self._execute("select what from simultane_posts where simultane = ?", [simultane_id])
        return {str(row[0]) for row in rows}

    def simultane_progress(self, simultane_id: int) -> list[SimultaneRoomProgress]:
        """Every room's game, its status and rounds closed (one statement), in the order they joined."""
        rows = self._execute(
            "select r.channel, r.game, g.status, (select count(*) from closes c where c.game = r.game),"
            " r.held, r.admission, (select min(d.at) from deadlines d where d.game = r.game)"
            " from simultane_rooms r left join games g on g.id = r.game"
            " where r.simultane = ? order by r.joined, r.channel",
            [simultane_id],
        )
        return [
            SimultaneRoomProgress(
                str(c),
                None if g is None else int(g),
                None if s is None else str(s),
                int(n or 0),
                int(held or 0),
                Admission(admission or Admission.ADMITTED.value),
                None if deadline is None else float(deadline),
            )
            for c, g, s, n, held, admission, deadline in rows
        ]

    def simultanes_to_post(self) -> list[SimultaneRecord]:
        """The simultanés a room has started whose overall ranking is not all posted yet (no ``done`` post)."""
        rows = self._execute(
            f"select {_COLUMNS} from simultanes s where exists"
            " (select 1 from simultane_rooms r where r.simultane = s.id and r.game is not null)"
            " and not exists (select 1 from simultane_posts p where p.simultane = s.id and p.what = ?) order by id",
            [DONE_POST],
        )
        return [simultane_of(row) for row in rows]

    def claim_simultane_post(self, simultane_id: int, what: str, at: float) -> bool:
        """Whether this caller is the first to post ``what`` for the simultané (in any process)."""
        with self._one_write():
            rows = self._execute(
                "insert into simultane_posts (simultane, what, at) values (?, ?, ?)"
                " on conflict (simultane, what) do nothing returning what",
                [simultane_id, what, at],
            )
        return bool(rows)

    # --- the tops, searched once for every room -------------------------------------------------

    def simultane_top(self, code: str, move: int, draw: str, lexicon: str) -> str | None:
        """The stored top of a simultané's move (JSON), if it has been found."""
        rows = self._execute(
            "select top from simultane_tops where simultane = ? and move = ? and draw = ? and list = ?",
            [code, move, draw, lexicon],
        )
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    def claim_simultane_top(
        self, code: str, move: int, draw: str, lexicon: str, owner: str, now: float, stale: float
    ) -> bool:
        """Whether ``owner`` is to search that top: no one claimed it, or its claim dates from before
        ``stale`` and the top is still missing (its searcher died)."""
        with self._one_write():
            rows = self._execute(
                "insert into simultane_tops (simultane, move, draw, list, owner, claimed, top)"
                " values (?, ?, ?, ?, ?, ?, null) on conflict (simultane, move, draw, list) do update"
                " set owner = excluded.owner, claimed = excluded.claimed"
                " where simultane_tops.top is null and simultane_tops.claimed < ? returning owner",
                [code, move, draw, lexicon, owner, now, stale],
            )
        return bool(rows)

    def set_simultane_top(self, code: str, move: int, draw: str, lexicon: str, top: str) -> None:
        """Store a simultané's top once found (the first one stored stays)."""
        with self._one_write():
            self._execute(
                "update simultane_tops set top = ? where simultane = ? and move = ? and draw = ? and list = ?"
                " and top is null",
                [top, code, move, draw, lexicon],
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
