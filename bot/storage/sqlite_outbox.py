"""The outbox methods of the SQLite storage (a mixin of ``SQLiteStorage``): messages owed, their claims,
retries, dead letters and pruning."""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time

import sqlite_utils

from ..chat import Reply
from ..outbox import DeadLetter, OutboxBacklog, OutboxItem, reply_from_json
from .common import CARRIES_BYTES, OUTBOX_COLUMNS, backlog_rows, outbox_row, serialised


class SQLiteOutbox:
    """The outbox of one SQLite file; the storage gives it its connection, lock and transactions."""

    db: sqlite_utils.Database
    _lock: threading.RLock

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        raise NotImplementedError  # the storage's own

    # --- outbox ------------------------------------------------------------------------

    def enqueue(
        self, replies: list[Reply], due: float, created: float | None = None, owner: str | None = None
    ) -> list[int]:
        """Store replies to send (in the caller's transaction); their outbox numbers, in order. ``owner``:
        the live process that sends them now (claimed by it: no other process takes them while it lives)."""
        ids = []
        at = time.time() if created is None else created
        with self.transaction():
            for reply in replies:
                cursor = self.db.execute(
                    f"insert into outbox ({OUTBOX_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?)",
                    outbox_row(reply, at, due, owner),
                )
                ids.append(int(cursor.lastrowid or 0))
        return ids

    def outbox_due(
        self,
        scope: str,
        now: float,
        limit: int = 50,
        lease: float = 0.0,
        owner: str | None = None,
        at: float | None = None,
    ) -> list[OutboxItem]:
        """The first waiting message of each destination of ``scope`` (a prefix) whose time has come,
        claimed for ``lease`` seconds (by ``owner``, if named): no other process takes them meanwhile
        (in one transaction). A message another process claimed is left alone while that process lives
        (its heartbeat, see ``outbox_alive``, has not expired at ``at``, by default ``now`` or the time);
        one a dead process claimed is due at once."""
        alive_at = at if at is not None else now if math.isfinite(now) else time.time()
        with self.transaction():
            rows = self.db.execute(
                "select o.id, o.destination, o.reply, o.attempts, o.created from outbox o"
                " where o.delivered is null and o.dropped is null and o.destination like ?"
                " and o.id = (select min(p.id) from outbox p where p.destination = o.destination"
                " and p.delivered is null and p.dropped is null)"
                " and case when o.claimed_by is null or o.claimed_by = ? then o.due <= ?"
                " else not exists (select 1 from outbox_processes w where w.owner = o.claimed_by"
                " and w.alive_until > ?) end order by o.id limit ?",
                [scope.replace("%", "") + "%", owner or "", now, alive_at, limit],
            ).fetchall()
            if lease > 0:  # claimed until a finite time, even when everything waiting was asked for
                until = alive_at + lease
                for row in rows:
                    self.db.execute("update outbox set due = ?, claimed_by = ? where id = ?", [until, owner, row[0]])
        return [OutboxItem(i, d, reply_from_json(r, i), a, c) for i, d, r, a, c in rows]

    def outbox_alive(self, owner: str, until: float) -> None:
        """``owner``'s heartbeat: its claims hold until ``until`` unless it beats again."""
        with self.transaction():
            self.db.execute(
                "insert into outbox_processes (owner, alive_until) values (?, ?)"
                " on conflict (owner) do update set alive_until = excluded.alive_until",
                [owner, until],
            )

    @serialised
    def outbox_processes(self) -> list[tuple[str, float]]:
        """The processes that claim messages, with when their heartbeat expires."""
        rows = self.db.execute("select owner, alive_until from outbox_processes order by owner").fetchall()
        return [(str(o), float(u)) for o, u in rows]

    def forget_process(self, owner: str) -> None:
        """``owner`` is gone (a clean stop, or found dead): what it claimed is due at once."""
        with self.transaction():
            self.db.execute("delete from outbox_processes where owner = ?", [owner])

    @serialised
    def outbox_superseded(self, outbox_id: int, destination: str, edit_key: str) -> bool:
        """Whether a waiting edit is superseded: the message it edits was delivered (an older message of
        ``edit_key``) and a newer edit of it waits."""
        row = self.db.execute(
            "select exists (select 1 from outbox where destination = ? and edit_key = ? and id > ?"
            " and delivered is null and dropped is null)"
            " and exists (select 1 from outbox where destination = ? and edit_key = ? and id < ?"
            " and delivered is not null)",
            [destination, edit_key, outbox_id] * 2,
        ).fetchone()
        return bool(row and row[0])

    @serialised
    def outbox_waiting(self, destination: str, before: int) -> bool:
        """Whether an older message to ``destination`` is still waiting (a new one must not pass it)."""
        row = self.db.execute(
            "select 1 from outbox where destination = ? and id < ? and delivered is null and dropped is null limit 1",
            [destination, before],
        ).fetchone()
        return row is not None

    def mark_delivered(self, ids: list[int], at: float) -> None:
        with self._lock:  # one statement, its own transaction (or the caller's)
            self.db.execute(
                "update outbox set delivered = ? where id in (select value from json_each(?))", [at, json.dumps(ids)]
            )

    def mark_failed(self, outbox_id: int, error: str, due: float) -> None:
        with self.transaction():
            self.db.execute(
                "update outbox set attempts = attempts + 1, due = ?, last_error = ?, claimed_by = null where id = ?",
                [due, error[:300], outbox_id],
            )

    def mark_dropped(self, outbox_id: int, at: float, reason: str) -> None:
        with self.transaction():
            self.db.execute("update outbox set dropped = ?, last_error = ? where id = ?", [at, reason[:300], outbox_id])

    def reschedule(self, ids: list[int], due: float) -> None:
        """Messages the outbox worker may take from ``due`` on (they wait behind older ones)."""
        with self.transaction():
            for outbox_id in ids:
                self.db.execute("update outbox set due = ?, claimed_by = null where id = ?", [due, outbox_id])

    def mark_dead(self, outbox_id: int, at: float, reason: str) -> None:
        """A dead letter: never tried again, listed by ``dead_letters`` (the destination's next ones go on)."""
        with self.transaction():
            self.db.execute(
                "update outbox set dropped = ?, dead = ?, last_error = ?, attempts = attempts + 1 where id = ?",
                [at, at, reason[:300], outbox_id],
            )

    @serialised
    def dead_letters(self, channel: str, since: float) -> list[DeadLetter]:
        """The dead letters about ``channel`` given up since ``since``, oldest first."""
        rows = self.db.execute(
            "select id, reply, last_error, dead, attempts from outbox where channel = ? and dead >= ? order by id",
            [channel, since],
        ).fetchall()
        return [DeadLetter(i, reply_from_json(r, i), e or "", d, a) for i, r, e, d, a in rows]

    def prune_outbox(self, images_before: float, rows_before: float) -> int:
        """Forget the images and files of rows delivered, dropped or dead before ``images_before``, and
        delete those rows before ``rows_before``; how many rows were deleted."""
        with self.transaction():
            self.db.execute(
                "update outbox set reply = json_set(reply, '$.image', null, '$.document', null)"
                " where coalesce(delivered, dropped) < ? and (reply like ? or reply like ?)",
                [images_before, *CARRIES_BYTES],
            )
            cursor = self.db.execute("delete from outbox where delivered < ? or dropped < ?", [rows_before] * 2)
        return int(cursor.rowcount)

    @serialised
    def outbox_state(self, outbox_id: int) -> str:
        """``waiting``, ``delivered``, ``dropped`` or ``dead``."""
        row = self.db.execute("select delivered, dropped, dead from outbox where id = ?", [outbox_id]).fetchone()
        if row is None or (row[0] is None and row[1] is None):
            return "waiting"
        return "delivered" if row[0] is not None else "dead" if row[2] is not None else "dropped"

    @serialised
    def outbox_backlog(self) -> list[OutboxBacklog]:
        return backlog_rows(lambda sql: self.db.execute(sql).fetchall(), "sqlite")
