"""Reconnection to the gateway is bounded by the adapter: after an outage of any length the bot is back soon
after Discord is (bot/adapters/discordbot/reconnect.py).

discord.py's own backoff doubles up to 1024 s; the test makes the adapter's bound small (discord.py sleeps
real time, which a fake clock cannot shorten) and checks the production values' arithmetic separately.
Real discord.py against the fake Discord, whose outage resets every connection until it ends.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.discordbot.reconnect import CONNECT_TIMEOUT, RECONNECT_CAP, BoundedBackoff, back_within
from bot.adapters.discordbot.shards import ShardRange
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import identify_at_once
from tests.fakes import FakeDiscord, running_bot
from tests.ready_lists import ready_registry
from tests.waiting import eventually

LEXICONS = ready_registry()
TEST_CAP = 0.2  # seconds: the test's bound on the waits between two attempts
REFUSED_ATTEMPTS = 12  # discord.py's own backoff needs about 1000 s to make this many attempts


def test_the_production_bound() -> None:
    backoff = BoundedBackoff(RECONNECT_CAP, rand=random.Random(21))
    ceilings, delays = [], []
    for _ in range(200):  # an outage of hours
        ceilings.append(backoff.ceiling())
        delays.append(backoff.delay())
    assert ceilings[:6] == [2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert set(ceilings[4:]) == {30.0}
    assert all(0.0 <= d <= RECONNECT_CAP for d in delays)
    assert len({round(d, 3) for d in delays}) == len(delays)  # jittered: processes do not come back in step
    backoff.reset()  # connected again: the next fault waits little
    assert backoff.ceiling() == 2.0
    # Back within the wait under way, one attempt that may hang until its timeout, and the IDENTIFY wait:
    assert back_within() == RECONNECT_CAP + CONNECT_TIMEOUT + 5.0 == 55.0
    assert back_within(hanging=False) == 35.0  # attempts refused at once, as in an outage that resets them


def refused_connections(dc: FakeDiscord) -> int:
    """Attempts to open a gateway connection the outage refused."""
    return sum(1 for fault in dc.faults_of("outage") if fault.path == "/gateway")


def reconnect_waits(caplog: pytest.LogCaptureFixture) -> list[float]:
    """The waits between two attempts the log announced (the adapter's, or discord.py's own)."""
    found = re.compile(r"reconnect (?:for shard ID \d+ )?in ([0-9.]+)s")
    return [float(m.group(1)) for r in caplog.records if (m := found.search(r.getMessage()))]


@pytest.mark.asyncio
@pytest.mark.parametrize("sharded", [False, True], ids=["one session", "two shards"])
async def test_after_a_long_outage_the_bot_is_back_within_the_bound(
    storage: SQLiteStorage, caplog: pytest.LogCaptureFixture, sharded: bool
) -> None:
    caplog.set_level("INFO")
    async with FakeDiscord() as dc:
        guilds = [dc.add_guild(name=f"Club {n}", shard=(n, 2) if sharded else None) for n in range(2 if sharded else 1)]
        ana = dc.add_user(username="ana", global_name="Ana")
        for guild in guilds:
            dc.add_member(guild, ana, admin=True)
        referee = Referee(storage, LEXICONS, now=dc.now, images=False)
        adapter = DiscordAdapter(
            referee,
            tick_seconds=0.05,
            clock=dc.now,
            reconnect_cap=TEST_CAP,
            shards=ShardRange(2, (0, 1)) if sharded else None,
        )
        identify_at_once(adapter.client)
        async with running_bot(dc, adapter.client, reconnect=True, fail_on_errors=False):
            await adapter.sync()
            dc.outage(24 * 3600)  # a day of the fake's clock: every connection is reset until it ends
            await eventually(lambda: not adapter.gateway_up)
            await eventually(lambda: len(reconnect_waits(caplog)) >= REFUSED_ATTEMPTS * len(guilds), 10)
            assert not adapter.gateway_up
            assert refused_connections(dc) >= REFUSED_ATTEMPTS * len(guilds)
            dc.end_outage()
            await eventually(lambda: adapter.gateway_up, 5)
            for guild in guilds:  # commands reach the bot again
                iid = await dc.send_interaction("settings show", None, user=ana, channel_id=guild.channel_id)
                assert "langue" in (await dc.wait_for_response(iid)).text
        waits = reconnect_waits(caplog)
        assert len(waits) >= REFUSED_ATTEMPTS * len(guilds), waits
        assert max(waits) <= TEST_CAP, waits
