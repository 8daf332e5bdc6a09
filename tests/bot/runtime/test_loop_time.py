"""The loop clock a test moves (tests/loop_time.py): timers and waits on the loop see the jumps."""

from __future__ import annotations

import asyncio

import pytest

from tests.loop_time import LoopTime


@pytest.mark.asyncio
async def test_a_timer_a_minute_away_fires_once_the_loop_clock_jumped_a_minute() -> None:
    loop = asyncio.get_running_loop()
    clock = LoopTime(loop)
    try:
        fired = asyncio.Event()
        loop.call_later(60.0, fired.set)
        await asyncio.sleep(0)
        assert not fired.is_set()
        clock.jump(60.0)
        await asyncio.wait_for(fired.wait(), timeout=1.0)  # on the jumped clock: a real second at most
        with pytest.raises(ValueError):
            clock.jump(-1.0)
    finally:
        clock.close()
    assert loop.time() < clock.now()  # the loop's own clock again


@pytest.mark.asyncio
async def test_a_hurried_wait_ends_once_its_loop_time_has_passed() -> None:
    clock = LoopTime()
    try:
        slept = await clock.hurried(asyncio.sleep(5.0, result="slept"), at_most=5.0)
        assert slept == "slept"
        assert 0.0 < clock.offset <= 5.0  # the clock jumped while it waited, never past ``at_most``
    finally:
        clock.close()
