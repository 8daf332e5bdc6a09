"""The outbox kept in storage (``OutboxStore``): the one implementation of ``Outbox``. It holds this
process's claimer name and heartbeat, the replies known to be first in line, and applies the rules of
``bot.outbox.policy`` (claims, backoff, dead letters, retention) over the store's rows."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Sequence

from ..chat import Reply
from ..storage.outbox_records import DeadLetter, OutboxBacklog, OutboxItem, destination
from ..storage.protocol import OutboxStore
from ..storage.records import StorageFullError, log_failure
from .policy import (
    CLAIM_SECONDS,
    GRACE_SECONDS,
    IMAGE_RETENTION_SECONDS,
    PROCESS_SECONDS,
    RETENTION_SECONDS,
    backoff,
    is_dead,
    known_dead,
    process_name,
)
from .records import Undelivered, undelivered

log = logging.getLogger("arbitre")

PASSES = 10  # ``claim_due`` claims again at most this often: what it dropped lets the next message come


def _keeps(reply: Reply) -> bool:
    """Nothing is shed."""
    return False


class StoredOutbox:
    """The outbox over a storage's ``OutboxStore``, on the clock ``now``."""

    def __init__(
        self,
        store: OutboxStore,
        now: Callable[[], float],
        *,
        scopes: Sequence[str] = ("",),
        grace: float = GRACE_SECONDS,
        rng: random.Random | None = None,
        sheds: Callable[[Reply], bool] = _keeps,
        owner: str | None = None,
    ) -> None:
        """``scopes``: the destinations (prefixes) whose waiting messages this process delivers; ``grace``:
        how long a reply its sender could not hand over waits before the outbox worker tries it again (when no
        live process claims it); ``rng``: the backoff's jitter (a test seeds it); ``sheds``: whether a due
        message can wait while the process is overloaded (dropped as shed); ``owner``: this process's name
        as a claimer (by default ``process_name()``)."""
        self.store = store
        self.now = now
        self.scopes = tuple(scopes)
        self.grace = grace
        self.rng = rng or random.Random()
        self.sheds = sheds
        self.owner = owner or process_name()
        self.alive_until = float("-inf")  # until when this process's heartbeat holds (``beat``)
        self._first: set[int] = set()  # stored replies known to be first in line for their destination
        self._left: set[int] = set()  # stored replies left to the outbox worker (behind older ones, unclaimed)

    # --- storing ---------------------------------------------------------------------------

    def enqueue(self, replies: list[Reply]) -> list[Reply]:
        """Write replies to the outbox (in the caller's transaction, if any); numbered copies."""
        if not replies:
            return replies
        now = self.now()
        owner = self.claimer(now)  # claimed while it is sent: no other process takes it meanwhile
        ids = self.store.enqueue(replies, now + self.grace, created=now, owner=owner)
        return [r.numbered(i) for r, i in zip(replies, ids)]

    def enqueue_apart(self, replies: list[Reply]) -> list[Reply]:
        """Store replies that no transaction produced (refusals, views); unstored if storage fails."""
        try:
            return self.enqueue(replies)
        except StorageFullError as error:
            log.error("could not store %d replies in the outbox: %s", len(replies), error)
            return replies
        except Exception:
            log.exception("could not store %d replies in the outbox", len(replies))
            return replies

    def claimer(self, now: float) -> str | None:
        """This process's name for its claims, while its heartbeat holds long enough (else None: what it
        stores is anyone's to send after the grace)."""
        return self.owner if self.alive_until - now >= PROCESS_SECONDS / 2 else None

    # --- the order per destination ------------------------------------------------------------

    def first_in_line_known(self, ids: Iterable[int], left: Iterable[int] = ()) -> None:
        """Replies just stored that nothing older waits before (their transaction read it), and those
        ``left`` to the outbox worker: due at once and claimed by nobody, the command never sends them (the
        worker may have taken them already)."""
        self._first.update(ids)
        self._left.update(left)

    def in_line_known(self, replies: list[Reply]) -> bool:
        """Whether ``first_in_line`` can tell these replies' order without reading storage (their command's
        transaction read it)."""
        return all(r.outbox_id is None or r.outbox_id in self._first or r.outbox_id in self._left for r in replies)

    def first_in_line(self, replies: list[Reply]) -> list[Reply]:
        """The replies that may go now: none older is waiting for their destination (the order is kept)."""
        first: dict[str, Reply] = {}  # per destination, the batch's first message: those after it come with it
        known = {r.outbox_id for r in replies if r.outbox_id in self._first}
        self._first -= known
        left = {r.outbox_id for r in replies if r.outbox_id in self._left}
        if left:
            self._left -= left
            replies = [r for r in replies if r.outbox_id not in left]
        lines: dict[str, set[str | None]] = {}  # per destination, the lines its replies write (a live line's own)
        for reply in replies:
            if reply.outbox_id is not None and reply.outbox_id not in known:
                first.setdefault(destination(reply), reply)
                lines.setdefault(destination(reply), set()).add(reply.edit_key)
        blocked = {
            d
            for d, head in first.items()
            if head.outbox_id and any(self.store.outbox_waiting(d, head.outbox_id, key) for key in lines[d])
        }
        waiting = [r.outbox_id for r in replies if r.outbox_id is not None and destination(r) in blocked]
        if waiting:  # they go behind the older ones, as soon as those are through
            self.store.reschedule(waiting, self.now())
        return [r for r in replies if r.outbox_id is None or destination(r) not in blocked]

    # --- deliveries and tries ---------------------------------------------------------------

    def sent(self, replies: list[Reply], failed: Sequence[Reply | Undelivered]) -> None:
        """Mark what the platform accepted, and what it refused: a dead letter if for good, else another try."""
        refused = [undelivered(f) for f in failed]
        failed_ids = {f.reply.outbox_id for f in refused}
        now = self.now()
        delivered = [r.outbox_id for r in replies if r.outbox_id is not None and r.outbox_id not in failed_ids]
        try:
            if delivered:
                self.store.mark_delivered(delivered, now)
            for failure in refused:
                if failure.reply.outbox_id is not None:
                    item = OutboxItem(failure.reply.outbox_id, destination(failure.reply), failure.reply, 0, now)
                    self._failed(item, failure, now)
        except StorageFullError as error:  # sent all the same: their claims lapse, and this process remembers them
            log.error("outbox: could not record %d deliveries: %s", len(replies), error)

    def claim_due(self, everything: bool = False) -> list[OutboxItem]:
        """Messages of this process's scopes whose (next) try is due (``everything``: all that wait);
        expired ones are dropped, edits a newer edit of the same message supersedes, and what ``sheds``
        leaves out while the process is overloaded."""
        now = self.now()
        items = []
        taken: set[int] = set()
        for _ in range(PASSES):  # what was dropped lets the destination's next message come in this pass
            claimed = [
                item
                for scope in self.scopes
                for item in self.store.outbox_due(
                    scope,
                    float("inf") if everything else now,
                    lease=CLAIM_SECONDS,
                    owner=self.owner,  # its own claims are always its own (even while its heartbeat lags)
                    at=now,
                )
            ]
            dropped = False
            for item in claimed:
                if item.id in taken:
                    continue  # everything waiting is asked for again: what this pass took is its own already
                if item.reply.expires is not None and now > item.reply.expires:
                    self.store.mark_dropped(item.id, now, "expired")
                elif item.reply.edit_key is not None and self.store.outbox_superseded(
                    item.id, item.destination, item.reply.edit_key
                ):
                    self.store.mark_dropped(item.id, now, "superseded")
                elif self.sheds(item.reply):  # overloaded: it can wait
                    self.store.mark_dropped(item.id, now, "shed")
                else:
                    items.append(item)
                    taken.add(item.id)
                    continue
                dropped = True
            if not dropped:
                break
        return items

    def retried(self, item: OutboxItem, failure: Undelivered | None) -> None:
        """Record one retry's outcome (``failure`` None: delivered)."""
        now = self.now()
        try:
            if failure is None:
                self.store.mark_delivered([item.id], now)
            else:
                self._failed(item, failure, now)
        except StorageFullError as error:  # tried again once its claim lapses
            log.error("outbox: could not record the try of message %d: %s", item.id, error)

    def _failed(self, item: OutboxItem, failure: Undelivered, now: float) -> None:
        """A failed try: another one after a jittered backoff, or a dead letter, said once in the log."""
        if not is_dead(item, failure, now):
            self.store.mark_failed(item.id, failure.reason, now + backoff(item.attempts + 1, self.rng))
            return
        self.store.mark_dead(item.id, now, failure.reason)
        log.warning(
            "outbox: dead letter, never sent again (tries: %d; %s): %s",
            item.attempts + 1,
            failure.reason[:300],
            item.reply,
        )

    # --- what is kept -----------------------------------------------------------------------

    def dead_letters(self, channel: str) -> list[DeadLetter]:
        """The messages about ``channel`` that could not be delivered, kept until they are pruned."""
        return self.store.dead_letters(channel, self.now() - RETENTION_SECONDS)

    def prune(self) -> int:
        """Delete what the outbox no longer needs (images first); how many rows went. Never raises."""
        now = self.now()
        try:
            return self.store.prune_outbox(now - IMAGE_RETENTION_SECONDS, now - RETENTION_SECONDS)
        except Exception as error:
            log_failure(log, "could not prune the outbox", error)
            return 0

    def backlog(self) -> list[OutboxBacklog]:
        """Per platform: the messages waiting, the oldest one's creation, the dead letters kept."""
        return self.store.outbox_backlog()

    # --- this process's claims ------------------------------------------------------------------

    def beat(self) -> bool | None:
        """Say this process lives (its claims hold another ``PROCESS_SECONDS``), and void the claims of
        processes found dead (silent too long, or gone from this host); whether another process lives
        (None: not recorded, this process's claims lapse in time and others take its messages over)."""
        me, now = self.owner, self.now()
        try:
            self.store.outbox_alive(me, now + PROCESS_SECONDS)
            self.alive_until = now + PROCESS_SECONDS
            others = False
            for owner, until in self.store.outbox_processes():
                if owner != me and (until <= now or known_dead(owner, me)):
                    self.store.forget_process(owner)
                    log.info("outbox: process %s is gone, what it was sending is due at once", owner)
                else:
                    others = others or owner != me
            return others
        except Exception as error:
            log_failure(log, "outbox: could not record this process's heartbeat", error)
            return None

    def stopped(self) -> None:
        """This process stops claiming: what it still claims is due at once elsewhere. Never raises."""
        self.alive_until = float("-inf")
        try:
            self.store.forget_process(self.owner)
        except Exception as error:
            log_failure(log, "outbox: could not say this process stopped", error)
