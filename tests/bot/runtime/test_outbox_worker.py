"""The outbox worker delivers each channel's messages in order and the channels side by side (issue 36): a
room whose delivery waits (a rate limit's window) holds up no other room's messages.

Found with ten Discord rooms closing together: results left to the worker behind a counter's update went out
in one pass over the rooms, one after another, and a room behind one waiting out its channel's bucket posted
its results 5.0-5.9 s after the deadline. The real service and referee on a real SQLite file; the platform a
``deliver`` the test holds for one room."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.chat import Reply
from bot.outbox import Undelivered
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage import SQLiteStorage
from tests.ready_lists import ready_registry
from tests.waiting import eventually

START = 1_800_000_000.0
SLOW, OTHERS = "discord:1", ["discord:2", "discord:3", "discord:4"]


class Platform:
    """Takes every message at once, but those to ``held`` until the test opens it."""

    def __init__(self, held: str) -> None:
        self.held = held
        self.open = asyncio.Event()
        self.delivered: list[Reply] = []
        self.waiting = 0

    async def deliver(self, replies: list[Reply]) -> Sequence[Reply | Undelivered] | None:
        if any(r.channel == self.held for r in replies):
            self.waiting += 1
            await self.open.wait()
            self.waiting -= 1
        self.delivered += replies
        return None


@pytest.mark.asyncio
async def test_a_room_waiting_for_its_platform_holds_up_no_other_rooms_messages(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    now = [START]
    referee = Referee(storage, ready_registry(), now=lambda: now[0], images=False)
    platform = Platform(SLOW)
    service = RefereeService(referee, platform.deliver)
    try:
        # left to the worker, the slow room's first: in one pass, the others came after it
        stored = referee.outbox.enqueue(
            [Reply("results 1", channel=SLOW), Reply("more 1", channel=SLOW)]
            + [Reply(f"results {room}", channel=room) for room in OTHERS]
        )
        now[0] += 60.0  # their senders never handed them over: the worker's, past the grace
        flushing = asyncio.ensure_future(service.flush_outbox(everything=True))
        await eventually(lambda: platform.waiting == 1)  # the slow room's delivery at the platform
        await eventually(lambda: {r.channel for r in platform.delivered} == set(OTHERS))  # the others' delivered
        others = [r.outbox_id or 0 for r in stored if r.channel != SLOW]
        await eventually(lambda: all(storage.outbox_state(n) == "delivered" for n in others))  # marked, in a thread
        assert not flushing.done()
        assert platform.waiting == 1
        platform.open.set()
        assert await flushing == len(stored)
        assert [r.text for r in platform.delivered if r.channel == SLOW] == ["results 1", "more 1"]  # in order
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()
