"""Helpers shared by the chat adapters: splitting long text, tracked (editable) messages, ids, names."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence

from core.edition import fold_accents

from ..chat import Reply
from ..commands.registry import CommandSpec
from ..messages import language_of_locale as language_of_locale  # the adapters import it from here
from ..messages import languages

log = logging.getLogger("arbitre.adapters")

FENCE = "```"


def split_text(text: str, limit: int, measure: Callable[[str], int] = len) -> list[str]:
    """``text`` in pieces of at most ``limit`` (as ``measure`` counts), cut on line boundaries.

    A code block cut in two is closed at the end of one piece and reopened at the start of
    the next, so every piece has balanced ``` fences. A line longer than a piece is cut.
    """
    text = text.strip("\n")
    if not text.strip():
        return []
    if measure(text) <= limit:
        return [text]
    close = "\n" + FENCE
    piece = max(limit // 2, limit - 64)  # room left for fences around a cut line
    lines: list[tuple[str, bool]] = []  # (line, continues the line before: must start a piece)
    for line in text.split("\n"):
        continued = False
        while measure(line) > piece:
            cut = piece
            while cut > 1 and measure(line[:cut]) > piece:
                cut -= max(1, (measure(line[:cut]) - piece))
            lines.append((line[:cut], continued))
            line, continued = line[cut:], True
        lines.append((line, continued))

    chunks: list[str] = []
    current: list[str] = []
    size = 0
    fence: str | None = None  # the line that opened the code block we are in
    opened_at = -1  # its index in ``current``

    def flush() -> None:
        nonlocal current, size, opened_at
        carry: list[str] = []
        body_lines = current
        if fence is not None and opened_at == len(current) - 1:
            body_lines, carry = current[:-1], current[-1:]  # a block opening right at the cut
        elif fence is not None:
            body_lines = current + [FENCE]
        body = "\n".join(body_lines).strip("\n")
        if body.strip() and body.strip() != FENCE:
            chunks.append(body)
        current = carry or ([fence] if fence is not None else [])
        opened_at = 0 if fence is not None else -1
        size = measure("\n".join(current)) if current else 0

    for line, continued in lines:
        is_fence = line.strip().startswith(FENCE)
        after = fence
        if is_fence:
            after = None if fence is not None else line.strip()
        cost = measure(line) + (1 if current else 0)
        reserve = measure(close) if after is not None else 0
        if current and (continued or size + cost + reserve > limit):
            flush()
            cost = measure(line) + (1 if current else 0)
        current.append(line)
        size += cost
        if is_fence and fence is None:
            opened_at = len(current) - 1
        fence = after
    if fence is not None:
        opened_at = -1  # the text ends inside a block: close it
    flush()
    return chunks


POLL_SECONDS = 0.25  # how often a pending edit looks at a clock the event loop does not follow (tests')


DEFERRED_TRIES = 12  # an edit held for its interval that keeps failing is given up after this many tries


def first_things_first(replies: Sequence[Reply], is_tracked: Callable[[Reply], bool]) -> list[Reply]:
    """The replies in the order players need them when a chat's budget is short (both platforms): new draws
    and deadlines, then warnings, then the rest (results, standings, edits), each kind in its own order.
    ``is_tracked``: whether a reply edits a message already sent."""

    def rank(reply: Reply) -> int:
        if reply.live:
            return 2
        if reply.deadline is not None and not is_tracked(reply):
            return 0
        return 1 if reply.expires is not None else 2

    return sorted(replies, key=rank)


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


def platform_id(key: str | None, platform: str) -> int | None:
    """``"discord:123"`` -> 123 (None for another platform's id or no id)."""
    if not key:
        return None
    prefix, _, rest = key.partition(":")
    if prefix != platform:
        return None
    try:
        return int(rest)
    except ValueError:
        return None


def short_text(text: str, limit: int) -> str:
    """A description of at most ``limit`` characters: the whole text, its first sentence, or cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    first = text.split(". ")[0].rstrip(".") + "."
    if len(first) <= limit:
        return first
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


DEFAULT_LANGUAGE = "en"  # the language of the platforms' default command names and descriptions


def platform_word(text: str, fallback: str) -> str:
    """A word as a platform command or option name: lowercase ASCII letters, digits and ``_``, 1-32
    characters (``fallback`` when nothing is left)."""
    folded = fold_accents(text).lower().replace(" ", "_")
    return "".join(c for c in folded if c.isascii() and (c.isalnum() or c == "_"))[:32] or fallback


def platform_name(spec: CommandSpec, lang: str) -> str:
    """The command's name in ``lang`` as a platform command name (its English name when none is left)."""
    return platform_word(spec.name_in(lang), spec.name)


def platform_names(spec: CommandSpec) -> list[str]:
    """The command's names in every language, as platform command names, each once."""
    return sorted({spec.name, *(platform_name(spec, lang) for lang in languages())})


PLATFORM_TIME_SPAN = 60.0  # seconds: a platform's time further back than this is another clock's (a test's)


def platform_received(now: float, local: float, platform: float | None) -> float | None:
    """When a message reached the platform, on the referee's clock (``now``; ``Incoming.received``): its
    age by the platform's own time (``platform``, on the adapter's clock ``local``; never negative), so
    that an answer queued on its way (a crowd, a process behind) is timed when it was handed in; None (the
    service stamps its arrival) without a platform time, or with one too far back to be of the same clock."""
    if platform is None or not local - PLATFORM_TIME_SPAN <= platform:
        return None
    return now - max(0.0, local - platform)
