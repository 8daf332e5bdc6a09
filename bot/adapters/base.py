"""The contract every chat adapter keeps, and the behaviour they share.

An adapter is the edge between one platform and a ``RefereeService``: it turns the platform's events
into ``Incoming`` messages, each in its account's turn (``ordering``), and delivers the ``Reply``s the
service hands it, returning those the platform did not take (``Undelivered``: try again, or never).
It declares what the platform can show (``Capabilities``).

``AdapterBase`` holds what the platforms share: the service, the arrival order, the command being
answered while its replies are delivered, the messages that later replies edit (``tracking``), the
order a batch of replies goes in, and what a refusal means. A platform says how to post one message,
how to edit one, and what its errors mean; ``bot.adapters.memory`` is the smallest such platform.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import time
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast, runtime_checkable

from ..chat import Incoming, Reply
from ..operations.metrics import Metrics
from ..outbox import Failure, Undelivered
from ..referee import Referee
from ..runtime.service import RefereeService
from .names import DEFAULT_LANGUAGE
from .ordering import ArrivalOrder, Turn, shown_first
from .text import split_text
from .tracking import TrackedMessage, TrackedMessages


class Countdown(Enum):
    """How a platform shows the time left to a deadline."""

    NATIVE = "native"  # the client draws it from the deadline (Discord's ``<t:UNIX:R>``)
    EDITED = "edited"  # the adapter edits the message at steps (Telegram)
    PRINTED = "printed"  # shown once, as the reply's text says it (the console)


class PrivateReplies(Enum):
    """Where a reply to one player goes."""

    EPHEMERAL = "ephemeral"  # seen by that player only, in the channel (an interaction), else a direct message
    PRIVATE_CHAT = "private chat"  # the player's private chat with the bot, once they opened it
    NAMED = "named"  # in the room's output, marked with the player's name (the console)


@dataclass(frozen=True)
class Capabilities:
    """What a platform can show: how long a message may be (None: no limit), images, attached files, edits of
    a message already sent, the time left to a deadline, and where private replies go. A reply carrying what
    its platform cannot show is delivered without it (its text always goes)."""

    text_limit: int | None
    images: bool
    documents: bool
    edits: bool
    countdowns: Countdown
    private: PrivateReplies


@runtime_checkable
class Adapter(Protocol):
    """One platform's edge: events in as ``Incoming`` to ``service``, replies out through :meth:`deliver`."""

    platform: ClassVar[str]  # the prefix of its channel and account ids: ``discord`` in ``discord:123``
    capabilities: Capabilities
    service: RefereeService

    async def deliver(self, replies: list[Reply]) -> Sequence[Reply | Undelivered]:
        """Show ``replies``; those the platform did not take (never raises)."""
        ...

    def connection(self) -> str | None:
        """None while the platform is reachable (the health check); else why not."""
        ...


@dataclass(frozen=True)
class Post:
    """One message to send, and the replies it carries (itself, and any notes merged into it)."""

    reply: Reply
    carries: tuple[Reply, ...]


def one_each(replies: Sequence[Reply]) -> list[Post]:
    """Each reply its own message."""
    return [Post(reply, (reply,)) for reply in replies]


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


PLATFORM_TIME_SPAN = 60.0  # seconds: a platform's time further back than this is another clock's (a test's)


def platform_received(now: float, local: float, platform: float | None) -> float | None:
    """When a message reached the platform, on the referee's clock (``now``; ``Incoming.received``): its
    age by the platform's own time (``platform``, on the adapter's clock ``local``; never negative), so
    that an answer queued on its way (a crowd, a process behind) is timed when it was handed in; None (the
    service stamps its arrival) without a platform time, or with one too far back to be of the same clock."""
    if platform is None or not local - PLATFORM_TIME_SPAN <= platform:
        return None
    return now - max(0.0, local - platform)


TurnT = TypeVar("TurnT")  # what a platform keeps of the command being answered (an interaction, a chat)

# The adapter answering a command in this task, and its handle of the command: replies delivered meanwhile
# may go through it (an interaction's answer, a reply in the command's thread).
_ANSWERING: contextvars.ContextVar[tuple[object, object] | None] = contextvars.ContextVar(
    "arbitre_answering", default=None
)


class AdapterBase(Generic[TurnT]):
    """What every adapter shares; a platform subclass says how to :meth:`post` a message, how to :meth:`edit`
    one already sent, and what its errors mean (:meth:`refusal`).

    ``burst``: how many replies of a batch go in the order they came; a longer batch (a round's close) goes
    in :func:`first_things_first` order (the next draw first). None: always in the order they came."""

    platform: ClassVar[str]
    capabilities: Capabilities
    burst: int | None = None
    edits_after_posts = False  # a batch's edits wait for its new posts (a shared rate bucket)
    edit_interval = 5.0  # seconds between two edits of a message (a countdown's steps, a changed draw)
    live_interval = 5.0  # seconds between two edits of a live line (the counter, the join notice)

    def __init__(
        self,
        referee: Referee,
        *,
        tick_seconds: float = 0.5,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``clock``: the platform's time (Unix time on the real ones), for the age of the messages it
        stamps; ``metrics``: where commands are counted and the connection reported (None: metrics off)."""
        self.referee = referee
        self.clock = clock
        self.log = logging.getLogger(f"arbitre.{self.platform}")
        self.service = RefereeService(referee, self.deliver, tick_seconds=tick_seconds, metrics=metrics)
        self.tracked = TrackedMessages()
        self.arrivals = ArrivalOrder()
        self._tasks: set[asyncio.Task[None]] = set()  # the adapter's own: countdowns, notes put off
        if metrics is not None:
            metrics.watch(referee, self.connection)

    def connection(self) -> str | None:
        """None while the platform is reachable (the health check); else why not."""
        return None

    def keep(self, task: asyncio.Task[None]) -> None:
        """Hold a task of the adapter's own (a countdown, a note put off) until it ends or :meth:`stop_tasks`."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop_tasks(self) -> None:
        """Cancel the adapter's own tasks and make no more edits: the platform is going away."""
        for task in list(self._tasks):
            task.cancel()
        self.tracked.close()

    # -- incoming ---------------------------------------------------------------------

    async def arriving(self, account: Hashable, handle: Callable[[Turn], Awaitable[None]]) -> None:
        """Run ``handle`` with the command's place among the account's commands, taken before anything is
        awaited (``ordering``); the place is given up when ``handle`` ends, however it ends."""
        arrival = self.arrivals.take(account)
        try:
            await handle(arrival)
        finally:
            arrival.finish()

    async def receive(self, incoming: Incoming, arrival: Turn, answering: TurnT | None = None) -> None:
        """Hand ``incoming`` to the service once the account's earlier commands are handled; its replies
        are delivered with ``answering`` (the platform's handle of the command) as :meth:`answering`."""
        token = _ANSWERING.set((self, answering))
        try:
            async with arrival:
                await self.service.handle(incoming)
        finally:
            _ANSWERING.reset(token)

    def answering(self) -> TurnT | None:
        """The platform's handle of the command this task answers (None: the clock's or the outbox's)."""
        current = _ANSWERING.get()
        return cast(TurnT, current[1]) if current is not None and current[0] is self else None

    def received_at(self, platform_time: float | None) -> float | None:
        """When a message the platform stamped at ``platform_time`` (on :attr:`clock`) reached it, on the
        referee's clock (:func:`platform_received`)."""
        return platform_received(self.referee.now(), self.clock(), platform_time)

    def local_id(self, key: str | None) -> int | None:
        """The platform's number of a channel or account id of this platform (None: another's, or none)."""
        return platform_id(key, self.platform)

    async def language_of(self, channel: str) -> str:
        """The channel's language (the default one when storage cannot say)."""
        try:
            return await asyncio.to_thread(lambda: self.referee.storage.channel(channel).language)
        except Exception:
            self.log.exception("could not read the language of %s", channel)
            return DEFAULT_LANGUAGE

    # -- outgoing ---------------------------------------------------------------------

    def is_tracked(self, reply: Reply) -> bool:
        """Whether ``reply`` edits a message already sent."""
        return self.capabilities.edits and self.tracked.get(reply.edit_key) is not None

    def showable(self, reply: Reply) -> Reply:
        """``reply`` as the platform can show it: without an image or a file it cannot show."""
        images, documents = self.capabilities.images, self.capabilities.documents
        if (images or reply.image is None) and (documents or reply.document is None):
            return reply
        return replace(reply, image=reply.image if images else None, document=reply.document if documents else None)

    def measure(self, text: str) -> int:
        """The length of ``text`` as the platform counts it against its limit."""
        return len(text)

    def pieces(self, text: str) -> list[str]:
        """``text`` in messages of at most the platform's limit, cut on line boundaries (:func:`split_text`)."""
        return split_text(text, self.capabilities.text_limit or max(1, self.measure(text)), self.measure)

    def arrange(self, replies: Sequence[Reply], answering: TurnT | None) -> list[Post]:
        """The messages a batch becomes, in the order they go (see ``burst``)."""
        return one_each(replies if self.burst is None else shown_first(replies, self.is_tracked, self.burst))

    async def deliver(self, replies: list[Reply]) -> list[Undelivered]:
        """Post each new message and edit those already sent, in :meth:`arrange`'s order; never raises. The
        replies the platform did not take are returned, with why and whether for good (the outbox tries the
        others again)."""
        answering = self.answering()
        failed: list[Undelivered] = []
        edits: list[tuple[Post, Coroutine[Any, Any, None]]] = []
        try:
            for post in self.arrange([self.showable(reply) for reply in replies], answering):
                try:
                    tracked = self.tracked.get(post.reply.edit_key) if self.capabilities.edits else None
                    if tracked is None:
                        refused = await self.post(post, answering)
                        if refused is not None:
                            failed.extend(replace(refused, reply=reply) for reply in post.carries)
                        continue
                    edit = self.edit(tracked, post.reply)
                    if edit is None:
                        continue
                    if self.edits_after_posts:
                        edits.append((post, edit))
                    else:
                        await edit
                except Exception as error:
                    failed.extend(self.refused(post, error))
            while edits:  # after the posts: an edit that takes a bucket's last request holds up no post
                post, edit = edits.pop(0)
                try:
                    await edit
                except Exception as error:
                    failed.extend(self.refused(post, error))
        finally:
            for _, edit in edits:  # cancelled meanwhile: never started
                edit.close()
        return failed

    async def post(self, post: Post, answering: TurnT | None) -> Undelivered | None:
        """Send ``post`` as a new message (tracked for later edits when it has an ``edit_key``); an
        ``Undelivered`` when the platform says no in a way that is no error (nothing logged), or raises."""
        raise NotImplementedError

    def track(
        self, key: str, reply: Reply, text: str, edit: Callable[[str], Awaitable[None]], clock: Callable[[], float]
    ) -> TrackedMessage:
        """Keep the message just sent for ``reply`` (showing ``text``) for the replies that edit it under
        ``key``; ``edit`` changes its text on the platform, at most once an interval of ``clock``."""
        interval = self.live_interval if reply.live else self.edit_interval
        item = TrackedMessage(edit, text, interval, private=reply.to_user is not None, clock=clock)
        item.base, item.deadline = reply.text, reply.deadline
        item.newest = -1 if reply.outbox_id is None else reply.outbox_id
        self.tracked.add(key, item)
        self.start_countdown(item)
        return item

    def start_countdown(self, item: TrackedMessage) -> None:
        """Where the platform's clients draw no countdown, edit the time left into ``item`` at each step of
        the edit interval until its deadline (one countdown a message; none elsewhere)."""
        if self.capabilities.countdowns is not Countdown.EDITED or item.deadline is None or item.countdown is not None:
            return
        task = asyncio.get_running_loop().create_task(self._count_down(item))
        item.countdown = task
        self.keep(task)

    def counting_down(self) -> None:
        """Called in a countdown's own task as it starts: a platform may mark the edits it makes as giving way."""

    async def _count_down(self, item: TrackedMessage) -> None:
        """Edit the time left at each step, no more often than the edit interval (the message's own clock)."""
        self.counting_down()
        step = max(1, round(self.edit_interval))
        try:
            while item.deadline is not None and not item.closed:
                remaining = item.deadline - self.clock()
                if remaining <= 0:
                    await item.update(self.with_time_left(item.base, item.deadline), urgent=True)
                    return
                to_step = remaining - (math.ceil(remaining / step) - 1) * step
                allowed = item.last + self.edit_interval - item.clock()
                await asyncio.sleep(min(max(to_step, allowed, 0.05), remaining))
                if item.deadline is None or item.closed:
                    return
                await item.update(self.with_time_left(item.base, item.deadline))
        finally:
            item.countdown = None

    def render(self, reply: Reply) -> str:
        """The text of ``reply`` as the platform shows it (:meth:`with_time_left`)."""
        return self.with_time_left(reply.text, reply.deadline)

    def with_time_left(self, text: str, deadline: float | None) -> str:
        """``text`` with the time left to ``deadline`` under it, unless there is none or the platform only
        prints the text (which says when the time is up)."""
        if deadline is None or self.capabilities.countdowns is Countdown.PRINTED:
            return text
        return f"{text}\n{self.time_left(deadline)}"

    def time_left(self, deadline: float, now: float | None = None) -> str:
        """The time left to ``deadline`` as the platform shows it: as of ``now`` (else the adapter's clock),
        by steps of the edit interval (``⏳ 2:30``; ``⌛ 0:00`` once it is over), which its countdown edits
        bring up to date; a platform whose clients draw countdowns says how to ask them for one."""
        remaining = deadline - (self.clock() if now is None else now)
        if remaining <= 0:
            return "⌛ 0:00"
        step = max(1, round(self.edit_interval))
        shown = math.ceil(remaining / step) * step
        return f"⏳ {shown // 60}:{shown % 60:02d}"

    def edit(self, tracked: TrackedMessage, reply: Reply) -> Coroutine[Any, Any, None] | None:
        """The edit of ``tracked`` that ``reply`` asks for, None when nothing is to be awaited: a live line
        is offered (applied by its timer, the latest text winning), any other edit applied at once unless it
        carries a deadline (then at the end of the interval); a refusal is raised (owed); nothing for a text
        ``overtaken`` by a newer one."""
        if self.overtaken(tracked, reply):
            return None
        tracked.base, tracked.deadline = reply.text, reply.deadline
        self.start_countdown(tracked)
        text = self.render(reply)
        if reply.live:
            tracked.offer(text)
            return None
        return tracked.update(text, urgent=reply.deadline is None, owed=True)

    @staticmethod
    def overtaken(tracked: TrackedMessage, reply: Reply) -> bool:
        """Whether ``reply`` is older than a text ``tracked`` was given already (a lower count the outbox
        worker delivers after the close's count: showing it would take the newer one back); else it is now
        the newest."""
        if reply.outbox_id is None:
            return False
        if reply.outbox_id < tracked.newest:
            return True
        tracked.newest = reply.outbox_id
        return False

    def refusal(self, reply: Reply, error: Exception) -> Undelivered:
        """What the platform's ``error`` while delivering ``reply`` means for it (transient unless known)."""
        return Undelivered(reply, Failure.TRANSIENT, f"{self.platform}: {error!r}")

    def refused(self, post: Post, error: Exception) -> list[Undelivered]:
        """What the platform's refusal of ``post`` means for each reply it carries (logged when transient)."""
        refusal = self.refusal(post.reply, error)
        if refusal.failure is Failure.TRANSIENT:
            self.log.warning("reply not delivered, to be tried again: %s (%r)", post.reply, error)
        return [replace(refusal, reply=reply) for reply in post.carries]
