"""The event loop's clock moved forward by a test: what waits on the loop (asyncio's timers, discord.py's
rate-limit buckets, the fakes' buckets) sees the time pass at once instead of in real time."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class LoopTime:
    """The running loop's ``time()`` replaced by its real clock plus what :meth:`jump` added (undone by
    :meth:`close`). Timers due within a jump fire at the loop's next turn, in their order."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop or asyncio.get_running_loop()
        self.real: Callable[[], float] = self.loop.time
        self.offset = 0.0
        self.loop.time = self.now  # type: ignore[method-assign]

    def now(self) -> float:
        return self.real() + self.offset

    def jump(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the loop's clock only moves forward")
        self.offset += seconds

    def close(self) -> None:
        del self.loop.time  # the class's own time() again

    async def hurried(self, awaitable: Awaitable[T], at_most: float, look: float = 0.02, step: float = 0.1) -> T:
        """What ``awaitable`` gives, the loop's clock going ``step`` further at each ``look`` (real
        seconds) while it waits, ``at_most`` seconds in all: a wait on the loop's clock (a rate limit
        held by the client) ends as soon as that much time would have passed, and any other as it would."""
        task = asyncio.ensure_future(awaitable)
        jumped = 0.0
        while not task.done():
            await asyncio.wait([task], timeout=look)
            if not task.done() and jumped < at_most:
                self.jump(min(step, at_most - jumped))
                jumped += step
        return task.result()
