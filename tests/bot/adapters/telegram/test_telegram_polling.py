"""After an outage of any length the Telegram adapter's long poll is back soon after the Bot API is
(bot/adapters/telegrambot/transport.py): python-telegram-bot's polling loop waits up to 30 s after a network
error, 1.5 times longer at each one in a row; the adapter's poll tries again itself, at most ``cap`` apart.

Real python-telegram-bot against the fake Bot API, whose outage resets every connection until it ends.
The test makes the bound small (the library sleeps real time) and checks the production value separately.
"""

from __future__ import annotations

import random

import pytest

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.adapters.telegrambot.transport import POLL_RETRY_CAP, PollingRequest
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeTelegram, running_application
from tests.ready_lists import ready_registry
from tests.waiting import eventually

LEXICONS = ready_registry()
GROUP = -1001234567
TEST_CAP = 0.2  # seconds: the test's bound on the waits between two long polls
REFUSED_POLLS = 12  # python-telegram-bot's own waits add up to about 80 s before the 12th


def test_the_production_bound() -> None:
    request = PollingRequest(None, rand=random.Random(21))
    ceilings = [request.ceiling(failures) for failures in range(1, 200)]  # an outage of hours
    assert ceilings[:5] == [2.0, 4.0, 8.0, 10.0, 10.0]
    assert max(ceilings) == POLL_RETRY_CAP == 10.0


def refused_polls(tg: FakeTelegram) -> int:
    return sum(1 for fault in tg.faults_of("outage") if fault.method == "getUpdates")


@pytest.mark.asyncio
async def test_after_a_long_outage_the_long_poll_is_back_within_the_bound(storage: SQLiteStorage) -> None:
    async with FakeTelegram(bot_username="TestBot") as tg:
        tg.add_group(GROUP, "Club de Scrabble")
        ana = tg.add_user(first_name="Ana")
        tg.set_member(GROUP, ana, "creator")
        referee = Referee(storage, LEXICONS, now=tg.now, images=False)
        adapter = TelegramAdapter(
            referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now, poll_retry_cap=TEST_CAP
        )
        async with running_application(adapter.application, tg):
            tg.outage(24 * 3600)  # a day of the fake's clock: every connection is reset until it ends
            await eventually(lambda: refused_polls(tg) >= REFUSED_POLLS, 10)
            assert adapter.connection() is not None  # the health check says so meanwhile
            tg.end_outage()
            await tg.send_user_message(GROUP, ana, "/aide")  # the next long poll takes it
            await eventually(lambda: any("/jouer" in (r.text or "") for r in tg.log.records if r.action == "send"), 5)
            await eventually(lambda: adapter.connection() is None, 5)
