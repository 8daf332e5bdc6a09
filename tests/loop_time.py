"""The event loop's clock moved forward by a test: what waits on the loop (asyncio's timers, discord.py's
rate-limit buckets, the fakes' buckets) sees the time pass at once instead of in real time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


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
