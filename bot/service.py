"""The referee in an event loop: commands of one channel in order, channels in parallel, the clock.

Adapters give incoming messages to ``handle`` and receive every reply through
their ``deliver`` coroutine: replies to a command and, unprompted, the clock's
warnings and round results. Work runs in threads so the loop never blocks.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable

from .chat import Incoming, Reply
from .referee import Referee

log = logging.getLogger("arbitre")

Deliver = Callable[[list[Reply]], Awaitable[None]]


class RefereeService:
    """Serialises each channel's commands, runs the clock, and sends what they produce."""

    def __init__(self, referee: Referee, deliver: Deliver, *, tick_seconds: float = 0.5) -> None:
        self.referee = referee
        self.deliver = deliver
        self.tick_seconds = tick_seconds
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._clock: asyncio.Task[None] | None = None
        self._clock_lock = asyncio.Lock()
        self._tick_future: asyncio.Future[list[Reply]] | None = None

    async def handle(self, message: Incoming) -> list[Reply]:
        """Run one command (after the channel's earlier ones) and deliver its replies."""
        async with self._locks[message.channel]:  # replies leave in the order of the commands
            replies = await asyncio.to_thread(self.referee.handle, message)
            if replies:
                await self.deliver(replies)
        return replies

    async def tick(self) -> list[Reply]:
        """Run the clock once and deliver what it produced."""
        async with self._clock_lock:
            # shielded: a stop waits for a tick under way instead of leaving its thread running
            self._tick_future = asyncio.get_running_loop().run_in_executor(None, self.referee.tick)
            replies = await asyncio.shield(self._tick_future)
        if replies:
            await self.deliver(replies)
        return replies

    async def _run_clock(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # the clock must outlive any single failure
                log.exception("clock failed")
            await asyncio.sleep(self.tick_seconds)

    def start(self) -> None:
        """Start the clock (resumes open duplicate rounds, closes those whose deadline passed)."""
        if self._clock is None:
            self._clock = asyncio.get_running_loop().create_task(self._run_clock())

    async def stop(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            try:
                await self._clock
            except asyncio.CancelledError:
                pass
            self._clock = None
        if self._tick_future is not None and not self._tick_future.done():
            await asyncio.wait([self._tick_future])  # its thread still runs: let it finish
