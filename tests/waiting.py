"""Waiting in an adapter test for what the real libraries do in their own time, and a clock the test drives."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from tests.fakes import SentMessage

if TYPE_CHECKING:
    from bot.adapters.telegrambot.pacing import FloodPacer


async def eventually(
    condition: Callable[[], object], timeout: float = 5.0, advance: Callable[[float], None] | None = None
) -> None:
    """Wait for ``condition``; ``advance(seconds)`` moves a fake clock along at each look.

    ``timeout`` is what an idle machine needs; a loaded one gets three times as long (the wait ends as soon
    as the condition holds, so only a failure takes the whole time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 3 * timeout
    while not condition():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)
        if advance is not None:
            advance(0.05)


class DrivenClock:
    """A clock that moves only when the test says (``advance``): what it paces waits however slow the
    machine, and goes as soon as the test moves it."""

    def __init__(self, at: float = 1000.0) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += seconds


async def held_again(pacer: FloodPacer) -> None:
    """Wait until ``pacer`` has looked at its clock since now and still holds a message: its second pause
    from now on (the first may follow a look made before now)."""
    before = pacer.holds
    await eventually(lambda: pacer.holds >= before + 2)


def shown(texts: Callable[[], list[str]], *parts: str) -> Callable[[], bool]:
    """A condition: one of ``texts()`` shows all of ``parts``."""
    return lambda: any(all(part in text for part in parts) for text in texts())


def saying(text: str) -> Callable[[SentMessage], bool]:
    """A message's condition: it says ``text``."""
    return lambda message: text in message.text


def starting(text: str) -> Callable[[SentMessage], bool]:
    """A message's condition: it starts with ``text``."""
    return lambda message: message.text.startswith(text)


def numbered(test: Callable[[str, int], bool], number: int) -> Callable[[SentMessage], bool]:
    """A message's condition: ``test(its text, number)`` (such as ``is_draw(text, 2)``: round 2's draw)."""
    return lambda message: test(message.text, number)
