"""Messages sent that later replies edit: at most once per interval, the latest text winning."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

log = logging.getLogger("arbitre.adapters")


POLL_SECONDS = 0.25  # how often a pending edit looks at a clock the event loop does not follow (tests')


DEFERRED_TRIES = 12  # an edit held for its interval that keeps failing is given up after this many tries


class BudgetShortError(Exception):
    """A live edit the platform's budget has no room for now: it is tried at the next interval, unlogged."""


class TrackedMessage:
    """A sent message that later replies with the same ``edit_key`` update.

    Edits happen only when the text changes, and at most once per ``interval`` seconds of
    ``clock``: a change arriving sooner is applied when the interval is over (the latest text
    wins, the ones in between are never sent). ``urgent`` changes (a countdown that ended, the
    count at a round's close) are applied at once.

    An edit the platform refuses is not taken as done: the text shown stays the old one. An ``owed``
    update (a reply of the outbox) applied at once raises the refusal, so that the outbox tries it again
    or makes it a dead letter; one held for its interval is tried again at the next interval (a newer
    text replaces it), at most :data:`DEFERRED_TRIES` times.
    """

    def __init__(
        self,
        edit: Callable[[str], Awaitable[None]],
        text: str,
        interval: float,
        *,
        private: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._edit = edit
        self.text = text
        self.interval = interval
        self.private = private
        self.clock = clock
        self.last = clock()
        self.pending: str | None = None
        self.base = text  # adapters may keep the reply's own text and deadline here
        self.deadline: float | None = None
        self.countdown: asyncio.Task[None] | None = None  # an adapter's own countdown, if any
        self.closed = False
        self.newest = -1  # the outbox number of the newest text it was given (an older one never follows it)
        self._timer: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._failures = 0  # tries of the held text that failed in a row

    async def update(self, text: str, *, urgent: bool = False, owed: bool = False) -> None:
        """Show ``text`` (now if ``urgent`` or the interval is over, else when it is); ``owed``: a
        refusal of an edit applied now is raised (else logged)."""
        wait = self.last + self.interval - self.clock()
        if text == self.text and self.pending is None:
            return
        if urgent or wait <= 0:
            self.pending = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            try:
                await self._apply(text)
            except BudgetShortError:
                self._hold(text)  # a live line or a countdown step: shown when there is room
            except Exception:
                if owed:
                    raise
                log.exception("could not edit a message")
            return
        if self.pending != text:
            self._failures = 0
        self.pending = text
        if self._timer is None or self._timer.done():
            self._timer = asyncio.get_running_loop().create_task(self._later(wait))

    def offer(self, text: str) -> None:
        """A live change, never awaited by the caller: applied at the end of the interval (at once if it
        is over) by a task of its own, the latest text offered winning."""
        if text == self.text and self.pending is None:
            return
        self.pending = text
        if self._timer is None or self._timer.done():
            wait = max(0.0, self.last + self.interval - self.clock())
            self._timer = asyncio.get_running_loop().create_task(self._later(wait))

    async def _later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        # a clock that is not the loop's (tests drive it); one set back (a wall clock) waits no longer;
        # an edit under way is waited for, and its interval counted from its end
        while self._lock.locked() or 0 < (left := self.last + self.interval - self.clock()) <= self.interval:
            await asyncio.sleep(POLL_SECONDS if self._lock.locked() else min(left, POLL_SECONDS))
        self._timer = None  # from here on, never cancelled: discord.py must not be interrupted mid-request
        text, self.pending = self.pending, None
        if text is None or self.closed:
            return
        try:
            await self._apply(text)
        except BudgetShortError:
            self._hold(text)
        except Exception:  # tried again at the next interval, unless a newer text came meanwhile
            self._failures += 1
            self.last = self.clock()  # the next try waits an interval
            if self._failures >= DEFERRED_TRIES:
                log.exception("could not edit a message (%d tries): given up", self._failures)
                self._failures = 0
                return
            log.warning("could not edit a message (try %d), trying again", self._failures, exc_info=True)
            if self.pending is None and not self.closed:
                self.pending = text
            if self.pending is not None and (self._timer is None or self._timer.done()):
                self._timer = asyncio.get_running_loop().create_task(self._later(self.interval))

    def _hold(self, text: str) -> None:
        """Try ``text`` again an interval from now (unless a newer text comes meanwhile)."""
        if self.closed:
            return
        self.last = self.clock()
        if self.pending is None:
            self.pending = text
        if self._timer is None or self._timer.done():
            self._timer = asyncio.get_running_loop().create_task(self._later(self.interval))

    async def _apply(self, text: str) -> None:
        """Edit the message to ``text``; raises what the platform answered (the text shown is unchanged)."""
        async with self._lock:
            if text == self.text:
                return
            await self._edit(text)
            self.text = text
            self.last = self.clock()
            self._failures = 0

    def close(self) -> None:
        """No more edits (a countdown stops at its next step; an edit under way completes)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class TrackedMessages:
    """Messages by ``edit_key``, the oldest forgotten past ``size``."""

    def __init__(self, size: int = 500) -> None:
        self.size = size
        self._items: OrderedDict[str, TrackedMessage] = OrderedDict()

    def get(self, key: str | None) -> TrackedMessage | None:
        if key is None:
            return None
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def values(self) -> list[TrackedMessage]:
        """The messages tracked now, the least recently used first."""
        return list(self._items.values())

    def add(self, key: str, item: TrackedMessage) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            old.close()
        self._items[key] = item
        while len(self._items) > self.size:
            _, dropped = self._items.popitem(last=False)
            dropped.close()

    def close(self) -> None:
        for item in self._items.values():
            item.close()
        self._items.clear()
