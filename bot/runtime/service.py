"""The referee in an event loop: commands of one channel in order, channels in parallel, the clock,
and the outbox that delivers what players are owed.

Adapters give incoming messages to ``handle`` and receive every reply through
their ``deliver`` coroutine, which returns the replies the platform did not
accept (None: all accepted). Replies are stored in the outbox before they are
sent; what fails is retried by the outbox worker with backoff, in order per
destination, also after a restart; what can never be sent becomes a dead letter,
and the destination's next messages go on. Old delivered rows are pruned. Work runs in threads so the loop never blocks.

Under overload (``bot.overload``: answers late by the dozen) what can wait is shed: the live counter and
join notices are not produced, nor the results' images drawn; the service tells its ``Overload`` of every
answer owed and when it is handed over, and looks at it at every tick.

The service beats for its process (``bot.outbox``: claims name their process): while it lives, what it
is sending is no other process's to send, however long the platform takes; once it is gone (a clean
stop, or found dead), what it claimed is due at once for the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence

from ..chat import Incoming, Reply
from ..games.duplicate.closes import ResultImages, owing
from ..games.duplicate.submissions import UsualWay
from ..operations.metrics import Metrics, command_label, platform_of
from ..outbox import HEARTBEAT_SECONDS, PRUNE_SECONDS, OutboxItem, Undelivered, undelivered
from ..overload import Overload, OverloadPolicy, Shed
from ..referee import Referee
from ..storage import ArrivalsSaid, ClockStore, StorageFullError, log_failure
from .batches import Batches

log = logging.getLogger("arbitre")

MIN_TICK_SECONDS = 0.05  # the clock's shortest pause between two ticks
ARRIVALS_SECONDS = 0.1  # the channels of messages not answered yet, said to other processes this often at most
PLAYS_AT_ONCE = 100  # private /play handled in one transaction at most (the others wait for the next)
SENT_LATELY = 10_000  # delivered numbers remembered (far more than an outbox pass reads)
IMAGES_STALE_SECONDS = 120.0  # owed images that waited longer than this to be drawn are dropped
STOP_SENDS_SECONDS = 10.0  # how long a stop waits for the sends under way (the rest go after a restart)
IMAGES_CLOSES_AT_ONCE = 2  # closes whose images one thread call draws and stores (a stop waits for one such call)
IMAGES_YIELD_SECONDS = 5.0  # how long images give way at most to commands and the clock before being drawn
IMAGES_LOOK_SECONDS = 0.02  # how often images that give way look again
IMAGES_CLOCK_LEAD_SECONDS = 1.0  # images give way to clock work due within this long (the next rooms' closes)

# what the platform did not take: bare replies (to try again), or with why and whether for good
Deliver = Callable[[list[Reply]], Awaitable[Sequence[Reply | Undelivered] | None]]


def _images(owed: list[ResultImages]) -> int:
    """How many images closes owe: each its result's, and the standings' when anyone plays."""
    return sum(1 + (o.standings is not None) for o in owed)


class RefereeService:
    """Serialises each channel's commands, runs the clock and the outbox, and sends what they produce."""

    def __init__(
        self,
        referee: Referee,
        deliver: Deliver,
        *,
        tick_seconds: float = 0.5,
        outbox_seconds: float = 0.5,
        metrics: Metrics | None = None,
        overload: OverloadPolicy | None = None,
    ) -> None:
        """``metrics``: where commands are counted and timed, and what is shed (None: nowhere); ``overload``:
        when the process is overloaded (None: ``bot.overload``'s defaults)."""
        self.referee = referee
        self.outbox = referee.outbox  # what it sends, marks, retries and beats for
        self.metrics = metrics
        self.overload = Overload(referee.now, overload, metrics)
        referee.shedding = self.overload.sheds
        self.deliver = deliver
        self.tick_seconds = tick_seconds
        self.outbox_seconds = outbox_seconds
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)  # each channel's commands
        # each channel's sends by the clock and the outbox worker, in order, never behind its queued commands
        # (the order per destination with the commands' own sends is storage's: ``Outbox.first_in_line``)
        self._send_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: list[asyncio.Task[None]] = []
        self._sending: set[asyncio.Task[None]] = set()  # sends published and not over yet (the clock's)
        self._images_lock = asyncio.Lock()  # owed images drawn one batch at a time, in order
        self._drawing: set[asyncio.Future[list[Reply]]] = set()  # images being drawn in a thread (a stop waits)
        self._stopping = False
        self._clock_lock = asyncio.Lock()
        self._tick_future: asyncio.Future[list[Reply]] | None = None
        self._wake = asyncio.Event()
        self._inflight: set[int] = set()  # outbox numbers being sent right now (never sent twice at once)
        # numbers this process delivered lately: a pass that read one before it was marked must not send it again
        self._sent_lately: OrderedDict[int, None] = OrderedDict()
        self.outbox_passes = 0  # how many times the outbox worker looked for due messages (tests count them)
        self.ticks = 0  # how many clock ticks ended (tests wait for one that began after they moved the time)
        # replies delivered, marked so in one statement with those of concurrent commands
        self._marks: Batches[list[Reply], None] = Batches(self._mark_all)
        # private /play handled together, in one transaction (``Referee.handle_plays``)
        self._plays: Batches[Incoming, list[Reply] | UsualWay | None] = Batches(referee.handle_plays, PLAYS_AT_ONCE)
        # messages received and not answered yet (the clock does not close a round they were sent in time for)
        self._arrivals: dict[int, Incoming] = {}
        self._arrivals_lock = threading.Lock()
        self._arrivals_changed = asyncio.Event()  # a channel gained or lost its last message not answered
        referee.arriving = self._arriving
        # the tops of rounds far from their close wait while answers do (bot.play.top_searches)
        referee.clock.searches.held_back = lambda: bool(self._arrivals)

    async def handle(self, message: Incoming) -> list[Reply]:
        """Run one command (after the channel's earlier ones) and deliver its replies."""
        started = time.perf_counter()
        if message.received is None:  # timed as it arrives, not when its turn comes
            message = dataclasses.replace(message, received=self.referee.now())
        key = id(message)
        with self._arrivals_lock:
            self._arrivals[key] = message
        self._arrivals_changed.set()
        self.overload.waiting(key)  # owed until its replies are handed over
        try:
            async with self._locks[message.channel]:  # replies leave in the order of the commands
                if self.referee.batches(message):
                    replies, owed = await self._handle_with_others(message)
                else:
                    replies, owed = await asyncio.to_thread(self._handle_owing, message)
                with self._arrivals_lock:  # answered: its round may close (its replies are stored)
                    self._arrivals.pop(key, None)
                self._arrivals_changed.set()
                await self._send(replies)
                if owed:  # a close's images (/cloture), drawn once its draw and results are handed over
                    self._draw_images(owed)
        finally:
            with self._arrivals_lock:
                self._arrivals.pop(key, None)
            self._arrivals_changed.set()
            self.overload.answered(key)
        if self.metrics is not None and (label := command_label(message.command)) is not None:
            self.metrics.command_done(label, platform_of(message.channel), time.perf_counter() - started)
        return replies

    def _handle_owing(self, message: Incoming, quick: bool = True) -> tuple[list[Reply], list[ResultImages]]:
        """``Referee.handle``, and the images a close it made owes (drawn later, off the command's path)."""
        with owing() as owed:
            replies = self.referee.handle(message, quick=quick)
        return replies, owed.images

    @property
    def play_batches(self) -> tuple[int, int]:
        """How many batches of private /play were handled, and how many answers they held."""
        return self._plays.runs, self._plays.items

    @property
    def mark_batches(self) -> tuple[int, int]:
        """How many statements marked replies delivered, and for how many commands' replies."""
        return self._marks.runs, self._marks.items

    def _arriving(self) -> tuple[Incoming, ...]:
        with self._arrivals_lock:
            return tuple(self._arrivals.values())

    async def _handle_with_others(self, message: Incoming) -> tuple[list[Reply], list[ResultImages]]:
        """A private /play handled with those that arrived while the previous ones were (one transaction
        for the lot: under a burst, one commit serves many answers; alone, it goes at once); and the images
        a close it made owes (a topping round's last top)."""
        replies = await self._plays.submit(message)
        if replies is None:  # not for the batch: on its own, without holding up the others
            return await asyncio.to_thread(self._handle_owing, message)
        if isinstance(replies, UsualWay):  # read, and left to the usual way: not tried the quick way again
            return await asyncio.to_thread(self._handle_owing, message, False)
        return replies, []

    async def _send(self, replies: list[Reply]) -> None:
        """Deliver stored replies now, unless older ones to the same place are still waiting."""
        if not replies:
            return
        if self.outbox.in_line_known(replies):  # a quick /play's: no storage to read, no thread to wait for
            ready = self.outbox.first_in_line(replies)
        else:
            ready = await asyncio.to_thread(self.outbox.first_in_line, replies)
        failed: Sequence[Reply | Undelivered] = []
        if ready:
            ids = {r.outbox_id for r in ready if r.outbox_id is not None}
            self._inflight |= ids
            try:
                failed = await self.deliver(ready) or []
                if failed:
                    await asyncio.to_thread(self.outbox.sent, ready, failed)
                else:
                    await self._mark_delivered(ready)
                self._remember_sent(ids - {undelivered(f).reply.outbox_id for f in failed})
            finally:
                self._inflight -= ids
        if failed or len(ready) < len(replies):
            self._wake.set()

    def _remember_sent(self, ids: Iterable[int | None]) -> None:
        for outbox_id in ids:
            if outbox_id is not None:
                self._sent_lately[outbox_id] = None
        while len(self._sent_lately) > SENT_LATELY:
            self._sent_lately.popitem(last=False)

    async def _mark_delivered(self, replies: list[Reply]) -> None:
        """Mark replies delivered (once this returns, they are), with those other channels' commands
        delivered meanwhile: one statement for the lot under a burst."""
        await self._marks.submit(replies)

    def _mark_all(self, batches: list[list[Reply]]) -> list[None]:
        self.outbox.sent([r for replies in batches for r in replies], [])
        return [None] * len(batches)

    async def tick(self) -> list[Reply]:
        """Run the clock once; what it stores is handed over as it may go (each close's notice and next draw
        at once, the results of all the tick's closes after every close of the tick is stored, never behind
        the commands queued in the channel: a close goes before their acknowledgements), each channel's in
        order, while the clock goes on. The clock never waits for a delivery: the next tick may run while the
        platforms still take this one's messages (a slow room holds no other room's clock). The results'
        images are drawn after the tick, off the clock (``_draw_images``), and sent after the results."""
        loop = asyncio.get_running_loop()
        owed: list[ResultImages] = []
        self.overload.look()  # at every tick: overload entered or left even when no command comes

        def publish(replies: list[Reply]) -> None:  # in the clock's thread
            loop.call_soon_threadsafe(self._publish, replies)

        async with self._clock_lock:
            # shielded: a stop waits for a tick under way instead of leaving its thread running
            self._tick_future = loop.run_in_executor(
                None, functools.partial(self.referee.tick, publish=publish, images=owed.extend)
            )
            replies = await asyncio.shield(self._tick_future)
            self.ticks += 1
        if owed:  # after the publishing above (scheduled before the tick's end): the images go after the results
            self._draw_images(owed)
        return replies

    def _publish(self, replies: list[Reply]) -> None:
        """Send stored replies, each channel's in a task of its own that waits for the channel's earlier sends
        (tasks take a channel's send lock in the order they are made: its order is kept); the tasks are kept
        until they end, their failures logged."""
        by_channel: dict[str, list[Reply]] = defaultdict(list)
        for reply in replies:
            by_channel[reply.channel or ""].append(reply)
        for channel, group in by_channel.items():
            self._keep(asyncio.get_running_loop().create_task(self._send_in_order(channel, group)))

    def _keep(self, task: asyncio.Task[None]) -> None:
        self._sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:  # the outbox tries them again
            log.error("sending failed", exc_info=task.exception())

    async def _send_in_order(self, channel: str, replies: list[Reply]) -> None:
        async with self._send_locks[channel]:
            # the outbox worker may have sent some meanwhile (a long tick): never twice
            replies = [r for r in replies if r.outbox_id not in self._sent_lately and r.outbox_id not in self._inflight]
            await self._send(replies)

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until what the clock published and the images owed so far are handed over (or failed), at
        most ``timeout`` seconds (None: no bound); whether nothing is left under way."""
        loop = asyncio.get_running_loop()
        end = None if timeout is None else loop.time() + timeout
        while self._sending:
            left = None if end is None else end - loop.time()
            if left is not None and left <= 0:
                return False
            await asyncio.wait(set(self._sending), timeout=left)
        return True

    def _draw_images(self, owed: list[ResultImages]) -> None:
        """Draw the images closes owe, off the clock and the commands, after what is already published; then
        send them. One batch at a time, in order; a batch that waited longer than ``IMAGES_STALE_SECONDS``
        behind others is dropped, and every batch while the process is overloaded (the results went as text):
        under a backlog, images are what gives way (both counted as shed)."""
        self._keep(asyncio.get_running_loop().create_task(self._images_in_turn(owed)))

    async def _images_in_turn(self, owed: list[ResultImages]) -> None:
        async with self._images_lock:
            fresh: list[ResultImages] = []
            stale: list[ResultImages] = []
            for o in owed:
                (fresh if time.monotonic() - o.owed_at <= IMAGES_STALE_SECONDS else stale).append(o)
            if stale:
                self.overload.dropped(Shed.IMAGES, _images(stale))
                log.warning("%d closes' images dropped: they waited more than %.0f s", len(stale),
                            IMAGES_STALE_SECONDS)
            if fresh and self.overload.sheds(Shed.IMAGES, _images(fresh)):  # overloaded: text results stand
                return
            until = asyncio.get_running_loop().time() + IMAGES_YIELD_SECONDS
            for start in range(0, len(fresh), IMAGES_CLOSES_AT_ONCE):
                await self._images_give_way(until)
                if self._stopping:  # the storage is about to close under the drawing thread: the rest is dropped
                    log.info("%d closes' images not drawn: the process stops", len(fresh) - start)
                    return
                part = fresh[start : start + IMAGES_CLOSES_AT_ONCE]
                drawing = asyncio.ensure_future(asyncio.to_thread(self.referee.draw_images, part))
                self._drawing.add(drawing)
                drawing.add_done_callback(self._drawing.discard)
                self._publish(await asyncio.shield(drawing))

    async def _images_give_way(self, until: float) -> None:
        """Wait while the clock ticks or has work due within ``IMAGES_CLOCK_LEAD_SECONDS`` (the next rooms'
        closes), until the loop's ``until`` at most (``IMAGES_YIELD_SECONDS`` after they were owed): drawing
        competes for the same cores, and images are what can wait. Not behind commands: images held through a
        burst of answers would reach the rooms with the next close, and take its place in the channels' rate
        limits."""
        loop = asyncio.get_running_loop()
        while loop.time() < until and (self._clock_lock.locked() or self._clock_work_soon()):
            await asyncio.sleep(IMAGES_LOOK_SECONDS)

    def _clock_work_soon(self) -> bool:
        """Whether the clock has a warning or a close due within ``IMAGES_CLOCK_LEAD_SECONDS``."""
        return self.referee.next_clock_work() - self.referee.now() <= IMAGES_CLOCK_LEAD_SECONDS

    async def flush_outbox(self, everything: bool = False) -> int:
        """Deliver due messages (``everything``: all that wait), each destination in order, until one
        fails or none is left; how many were delivered."""
        total = 0
        while True:
            delivered, tried = await self._outbox_pass(everything)
            total += delivered
            if not tried or delivered < tried:
                return total

    async def _outbox_pass(self, everything: bool) -> tuple[int, int]:
        """The first waiting message of each destination, tried once: (delivered, tried)."""
        self.outbox_passes += 1
        try:
            items: list[OutboxItem] = await asyncio.to_thread(self.outbox.claim_due, everything)
        except StorageFullError as error:  # nothing claimed: the next pass tries again
            log.error("outbox: could not claim the messages due: %s", error)
            return 0, 0
        items = [item for item in items if item.id not in self._inflight]
        by_channel: dict[str, list[OutboxItem]] = defaultdict(list)
        for item in items:
            by_channel[item.reply.channel or ""].append(item)
        # each channel's in order, the channels side by side: one room's slow delivery (a rate limit's wait)
        # never holds up what the worker owes the other rooms
        delivered = await asyncio.gather(*(self._deliver_claimed(c, claimed) for c, claimed in by_channel.items()))
        return sum(delivered), len(items)

    async def _deliver_claimed(self, channel: str, items: list[OutboxItem]) -> int:
        """Deliver the claimed messages of one channel, in order, each tried once; how many were delivered."""
        delivered = 0
        for item in items:
            async with self._send_locks[channel]:
                if item.id in self._inflight:  # being sent, by a command
                    continue
                if item.id in self._sent_lately:  # sent by a command, and not marked yet (or its mark failed)
                    await asyncio.to_thread(self.outbox.retried, item, None)  # else it holds its destination up
                    delivered += 1
                    continue
                self._inflight.add(item.id)
                failure: Undelivered | None = None
                try:
                    failed = await self.deliver([item.reply]) or []
                    failure = undelivered(failed[0]) if failed else None
                except Exception as exc:  # an adapter that raised: try again later
                    failure = Undelivered(item.reply, reason=repr(exc))
                finally:
                    self._inflight.discard(item.id)
                await asyncio.to_thread(self.outbox.retried, item, failure)
            delivered += failure is None
            if failure is not None:
                log.info(
                    "outbox: message %d to %s not delivered (try %d)", item.id, item.destination, item.attempts + 1
                )
        return delivered

    def beat(self) -> None:
        """Say this process lives (its claims hold another ``PROCESS_SECONDS``), and void the claims of
        processes found dead (silent too long, or gone from this host). Never raises."""
        others = self.outbox.beat()
        if others is not None:  # their answers received in time are waited for at a close
            self.referee.clock.others_alive = others

    async def _run_arrivals(self) -> None:
        """Say to the other processes the channels of the messages this one holds and has not answered yet
        (``Storage.hold_arrivals``: their rounds' closes wait for them), at most every ``ARRIVALS_SECONDS``:
        once at start, then after each change, and once each deadline the clock knows has passed (a close
        waits no longer once every process said, as of a time past its deadline, what it holds)."""
        storage: ClockStore = self.referee.storage  # the arrivals are the clock's (a close waits for them)
        clock = self.referee.clock
        said = float("-inf")
        self._arrivals_changed.set()
        while True:
            now = self.referee.now()
            if not (self._arrivals_changed.is_set() or clock.deadline_passed(said, now)):
                with contextlib.suppress(TimeoutError):  # a change, or the next deadline (looked at again)
                    async with asyncio.timeout(min(ARRIVALS_SECONDS, max(0.0, clock.next_deadline(now) - now))):
                        await self._arrivals_changed.wait()
                continue
            self._arrivals_changed.clear()
            channels = {m.channel for m in self._arriving()}  # every message received before ``now`` is here
            try:
                await asyncio.to_thread(storage.hold_arrivals, channels, ArrivalsSaid(self.outbox.owner, now))
            except Exception as error:  # said again at the next change; the close still waits for its own process's
                log_failure(log, "could not say the answers this process holds", error)
                self._arrivals_changed.set()
            else:
                said = now
            await asyncio.sleep(ARRIVALS_SECONDS)

    async def _run_heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            await asyncio.to_thread(self.beat)

    async def _run_clock(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # the clock must outlive any single failure
                log.exception("clock failed")
            # at the cadence, or sooner when a warning or a deadline comes before (a round closes on time)
            soon = self.referee.next_clock_work() - self.referee.now()
            await asyncio.sleep(max(MIN_TICK_SECONDS, min(self.tick_seconds, soon)))

    async def _run_outbox(self) -> None:
        pruned = float("-inf")
        while True:
            try:
                await self.flush_outbox()
            except Exception as error:  # delivery must outlive any single failure
                log_failure(log, "outbox failed", error)
            if self.referee.now() - pruned >= PRUNE_SECONDS:  # what was delivered long ago is deleted
                pruned = self.referee.now()
                await asyncio.to_thread(self.outbox.prune)
            try:  # asyncio.timeout, not wait_for: Python 3.11's wait_for may swallow the stop's cancellation
                async with asyncio.timeout(self.outbox_seconds):
                    await self._wake.wait()
            except TimeoutError:
                pass
            self._wake.clear()

    def start(self) -> None:
        """Start the clock (resumes open duplicate rounds, closes those whose deadline passed) and the
        outbox (resumes what was not delivered before a restart). Idempotent."""
        if not self._tasks:
            loop = asyncio.get_running_loop()
            self._stopping = False
            self.beat()  # in storage before this process claims anything (a few statements, once at start)
            self._tasks = [
                loop.create_task(self._run_clock()),
                loop.create_task(self._run_outbox()),
                loop.create_task(self._run_heartbeat()),
            ]
            if self.referee.storage.arrivals_shared:
                self._tasks.append(loop.create_task(self._run_arrivals()))

    async def stop(self, sends_seconds: float | None = STOP_SENDS_SECONDS) -> None:
        """Stop the clock and the outbox worker; wait for the sends under way and the images owed, at most
        ``sends_seconds`` (None: until they are over: the console, whose output is all there is). Images still
        to draw once the sends are over are dropped; a drawing under way in a thread is awaited (it reads the
        storage the caller closes next)."""
        for task in self._tasks:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        self._tasks = []
        if self._tick_future is not None and not self._tick_future.done():
            await asyncio.wait([self._tick_future])  # its thread still runs: let it finish
        if not await self.drain(sends_seconds):  # what is left is sent again after a restart
            for task in set(self._sending):
                task.cancel()
            await asyncio.gather(*self._sending, return_exceptions=True)
        self._stopping = True
        await asyncio.gather(*self._drawing, return_exceptions=True)
        await asyncio.to_thread(self.referee.release_clocks)  # another process takes over at once
        await asyncio.to_thread(self.outbox.stopped)  # what this process still claims is due at once elsewhere
