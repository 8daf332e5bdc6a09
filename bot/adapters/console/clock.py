"""The time a console room runs on."""

from __future__ import annotations

import asyncio
import time

from ...runtime.service import RefereeService


class ConsoleClock:
    """The time a console room runs on: the machine's. A test may hand the room one it drives instead (its
    ``now`` for the referee, its ``sleep`` for a script's ``:sleep`` lines)."""

    def now(self) -> float:
        """The time, in Unix seconds."""
        return time.time()

    async def sleep(self, seconds: float, service: RefereeService) -> None:
        """Let ``seconds`` pass while ``service``'s clock runs (on the machine's time it runs by itself)."""
        await asyncio.sleep(seconds)
