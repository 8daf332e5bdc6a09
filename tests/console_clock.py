"""A console on a clock the test drives: its sessions run in the test's process, one after the other on the same
database (as consoles started again would), and no real time passes for a round's minutes."""

from __future__ import annotations

import io
import time
from pathlib import Path

from bot.adapters.console.clock import ConsoleClock
from bot.cli import build_parser
from bot.runtime.service import MIN_TICK_SECONDS, RefereeService
from bot.tools.console import run_console


class DrivenClock(ConsoleClock):
    """A console's time that moves only when told: by ``advance`` (between two sessions), or by a script's
    ``:sleep``, which runs the clock's work due meanwhile at its own times (a warning, then a close)."""

    def __init__(self, at: float | None = None) -> None:
        self.at = time.time() if at is None else at

    def now(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.at += seconds

    async def sleep(self, seconds: float, service: RefereeService) -> None:
        """The clock goes ``seconds`` forward from one piece of the clock's work to the next (as its ticks
        would, each at least ``MIN_TICK_SECONDS`` after the last), each tick's replies printed before the next."""
        until = self.at + seconds
        while self.at < until:
            await service.tick()
            await service.drain()
            self.at = min(until, max(service.referee.next_clock_work(), self.at + MIN_TICK_SECONDS))
        await service.tick()
        await service.drain()


def run_driven(script: str, db: Path, clock: DrivenClock, *args: str) -> str:
    """The output of a console session on ``db`` that ran ``script`` to its end on ``clock``; it must exit 0."""
    parsed = build_parser("console").parse_args(["console", "--db", str(db), *args])
    out, err = io.StringIO(), io.StringIO()
    assert run_console(parsed, io.StringIO(script), out, err, clock) == 0, err.getvalue()
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return out.getvalue()
