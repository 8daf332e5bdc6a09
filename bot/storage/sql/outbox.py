"""The outbox on an SQL database, written once for both backends: messages owed, their claims (one rule:
a claim names its process and holds until ``claimed_until``; PostgreSQL also skips rows another process is
claiming right now), retries, dead letters and pruning."""

from __future__ import annotations

import math
import time

from ...chat import Reply
from ..outbox_records import DeadLetter, OutboxBacklog, OutboxItem, reply_from_json
from .common import BACKLOG, CARRIES_BYTES, LIVE_JSON, OUTBOX_COLUMNS, outbox_row
from .store import SQLRunner

ENQUEUED_AT_ONCE = 100  # replies stored by one insert statement at most


class SQLOutbox(SQLRunner):
    """The outbox; the storage gives it its statements and transactions."""

    def enqueue(
        self, replies: list[Reply], due: float, created: float | None = None, owner: str | None = None
    ) -> list[int]:
        """Store replies to send (in the caller's transaction); their outbox numbers, in order. ``owner``:
        the live process that sends them now (claimed by it: no other process takes them while it lives)."""
        ids: list[int] = []
        at = time.time() if created is None else created
        with self.transaction():
            for start in range(0, len(replies), ENQUEUED_AT_ONCE):  # one statement for a close's five replies
                chunk = replies[start : start + ENQUEUED_AT_ONCE]
                rows = self._execute(
                    f"insert into outbox ({OUTBOX_COLUMNS}) values "
                    + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
                    + " returning id",
                    [value for reply in chunk for value in outbox_row(reply, at, due, owner)],
                )
                ids += sorted(int(row[0]) for row in rows)  # numbered in the order of the rows
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
        claimed for ``lease`` seconds (by ``owner``, if named): no other process takes them until they are
        marked or the claim ends. A message another process claimed by name is left alone while that
        process lives (its heartbeat, see ``outbox_alive``, has not expired at ``at``, by default ``now``
        or the time); one a dead process claimed is due at once.

        ``now`` infinite (everything that waits) takes every message ``owner`` claimed itself, and still
        leaves out what another process holds: its claim, or a new message its sender is delivering (never
        tried, its first due time still ahead)."""
        finite = math.isfinite(now)
        # everything waiting: due by the wall clock or by the caller's clock, whichever is later
        clock = now if finite else max(time.time(), -math.inf if at is None else at)
        alive_at = clock if at is None else at
        scope_like, mine = scope.replace("%", "") + "%", owner or ""
        if finite:
            rule = "o.claimed_by is null or o.claimed_by = ? then o.due <= ?"
        else:  # its own claims are its own; a message nobody claimed once tried, or due
            rule = "o.claimed_by = ? then 1 = 1 when o.claimed_by is null then (o.due <= ? or o.attempts > 0)"
        with self.transaction():
            rows = self._execute(
                "select o.id, o.destination, o.reply, o.attempts, o.created from outbox o"
                # each destination's first waiting message, read from the waiting messages' index alone (the
                # table's delivered history is never read: its scan took SQLite 30-220 ms a claim in a burst)
                " where o.id in (select min(p.id) from outbox p where p.delivered is null and p.dropped is null"
                " and p.destination like ? group by p.destination)"
                f" and case when {rule} and coalesce(o.claimed_until, 0) <= ?"
                " else not exists (select 1 from outbox_processes w where w.owner = o.claimed_by"
                f" and w.alive_until > ?) end order by o.id limit ?{self.dialect.claim_lock}",
                [scope_like, mine, clock, clock, alive_at, limit],
            )
            if rows and lease > 0:  # claimed until a finite time, even when everything waiting was asked for
                self._execute(
                    f"update outbox set claimed_until = ?, claimed_by = ? where id {self.dialect.id_list}",
                    [alive_at + lease, owner, self.dialect.listed([row[0] for row in rows])],
                )
        return [OutboxItem(int(i), d, reply_from_json(r, int(i)), int(a), float(c)) for i, d, r, a, c in rows]

    def outbox_alive(self, owner: str, until: float) -> None:
        """``owner``'s heartbeat: its claims hold until ``until`` unless it beats again."""
        with self._one_write():
            self._execute(
                "insert into outbox_processes (owner, alive_until) values (?, ?)"
                " on conflict (owner) do update set alive_until = excluded.alive_until",
                [owner, until],
            )

    def outbox_processes(self) -> list[tuple[str, float]]:
        """The processes that claim messages, with when their heartbeat expires."""
        rows = self._execute("select owner, alive_until from outbox_processes order by owner")
        return [(str(o), float(u)) for o, u in rows]

    def forget_process(self, owner: str) -> None:
        """``owner`` is gone (a clean stop, or found dead): what it claimed is due at once."""
        with self._one_write():
            self._execute("delete from outbox_processes where owner = ?", [owner])

    def outbox_superseded(self, outbox_id: int, destination: str, edit_key: str) -> bool:
        """Whether a waiting edit is superseded: the message it edits was delivered (an older message of
        ``edit_key``) and a newer text of it is waiting or was delivered (showing this one now would take it
        back)."""
        rows = self._execute(
            "select exists (select 1 from outbox where destination = ? and edit_key = ? and id > ?"
            " and dropped is null)"
            " and exists (select 1 from outbox where destination = ? and edit_key = ? and id < ?"
            " and delivered is not null)",
            [destination, edit_key, outbox_id] * 2,
        )
        return bool(rows and rows[0][0])

    def outbox_waiting(self, destination: str, before: int, edit_key: str | None = None) -> bool:
        """Whether an older message to ``destination`` is still waiting (a new one must not pass it); a live
        line's update (a counter, a join line: ``Reply.live``) holds up only the later messages of its own line
        (``edit_key``: its first post, then each edit, in order), never what players must see; and once the
        line's message exists (an older message of it was delivered), a waiting edit of it holds up no newer
        text of the line (that text supersedes it: the count at a close never waits for a lower count)."""
        if edit_key is None:
            rows = self._execute(
                "select 1 from outbox where destination = ? and id < ? and delivered is null and dropped is null"
                " and reply not like ? limit 1",
                [destination, before, LIVE_JSON],
            )
            return bool(rows)
        rows = self._execute(
            "select 1 from outbox o where o.destination = ? and o.id < ? and o.delivered is null"
            " and o.dropped is null and (o.reply not like ? or o.edit_key = ?)"
            " and not (o.edit_key = ? and exists (select 1 from outbox p where p.destination = o.destination"
            " and p.edit_key = o.edit_key and p.id < o.id and p.delivered is not null)) limit 1",
            [destination, before, LIVE_JSON, edit_key, edit_key],
        )
        return bool(rows)

    def mark_delivered(self, ids: list[int], at: float) -> None:
        """Messages the platform took (one statement committing alone, or in the caller's transaction: a full
        disk is a ``StorageFullError``, as for every write)."""
        with self._statement_write():
            self._execute(
                f"update outbox set delivered = ?, claimed_until = null where id {self.dialect.id_list}",
                [at, self.dialect.listed(ids)],
            )

    def mark_failed(self, outbox_id: int, error: str, due: float) -> None:
        with self._one_write():
            self._execute(
                "update outbox set attempts = attempts + 1, due = ?, last_error = ?, claimed_until = null,"
                " claimed_by = null where id = ?",
                [due, error[:300], outbox_id],
            )

    def mark_dropped(self, outbox_id: int, at: float, reason: str) -> None:
        with self._one_write():
            self._execute(
                "update outbox set dropped = ?, last_error = ?, claimed_until = null where id = ?",
                [at, reason[:300], outbox_id],
            )

    def reschedule(self, ids: list[int], due: float) -> None:
        """Messages the outbox worker may take from ``due`` on (they wait behind older ones)."""
        with self._one_write():
            self._execute(
                f"update outbox set due = ?, claimed_until = null, claimed_by = null where id {self.dialect.id_list}",
                [due, self.dialect.listed(ids)],
            )

    def mark_dead(self, outbox_id: int, at: float, reason: str) -> None:
        """A dead letter: never tried again, listed by ``dead_letters`` (the destination's next ones go on)."""
        with self._one_write():
            self._execute(
                "update outbox set dropped = ?, dead = ?, last_error = ?, attempts = attempts + 1,"
                " claimed_until = null where id = ?",
                [at, at, reason[:300], outbox_id],
            )

    def dead_letters(self, channel: str, since: float) -> list[DeadLetter]:
        """The dead letters about ``channel`` given up since ``since``, oldest first."""
        rows = self._execute(
            "select id, reply, last_error, dead, attempts from outbox where channel = ? and dead >= ? order by id",
            [channel, since],
        )
        return [DeadLetter(int(i), reply_from_json(r, int(i)), e or "", float(d), int(a)) for i, r, e, d, a in rows]

    def prune_outbox(self, images_before: float, rows_before: float) -> int:
        """Forget the images and files of rows delivered, dropped or dead before ``images_before``, and
        delete those rows before ``rows_before``; how many rows were deleted."""
        with self.transaction():
            self._execute(
                f"update outbox set reply = {self.dialect.forget_bytes}"
                " where coalesce(delivered, dropped) < ? and (reply like ? or reply like ?)",
                [images_before, *CARRIES_BYTES],
            )
            rows = self._execute(
                "delete from outbox where delivered < ? or dropped < ? returning id", [rows_before, rows_before]
            )
        return len(rows)

    def outbox_state(self, outbox_id: int) -> str:
        """``waiting``, ``delivered``, ``dropped`` or ``dead``."""
        rows = self._execute("select delivered, dropped, dead from outbox where id = ?", [outbox_id])
        if not rows or (rows[0][0] is None and rows[0][1] is None):
            return "waiting"
        return "delivered" if rows[0][0] is not None else "dead" if rows[0][2] is not None else "dropped"

    def outbox_backlog(self) -> list[OutboxBacklog]:
        """Per platform: the messages waiting, the oldest one's creation, the dead letters kept (one statement)."""
        rows = self._execute(BACKLOG.format(platform=self.dialect.platform))
        return [OutboxBacklog(str(p), int(n), None if c is None else float(c), int(d)) for p, n, c, d in rows]
