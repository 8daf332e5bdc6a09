"""The fake Discord's fault injection against raw requests and the real discord.py: server errors on chosen
routes (retried by discord.py), bursts of 429, connection resets, gateway reconnects, closes (4000, 4009), dropped
connections and invalid sessions that discord.py resumes or identifies again after, and outages that refuse
everything until they end."""

from __future__ import annotations

import aiohttp
import pytest

from tests.bot.adapters.discord.fake_discord_bot import (
    CanaryBot,
    CanaryDiscord,
    api,
    eventually,
    make_bot,
    text_channel,
)
from tests.bot.adapters.discord.fake_discord_bot import bot as bot
from tests.bot.adapters.discord.fake_discord_bot import dc as dc
from tests.fakes import running_bot


@pytest.mark.asyncio
async def test_fault_server_errors_on_chosen_routes_n_times(dc: CanaryDiscord) -> None:
    messages = f"/channels/{dc.guild.channel_id}/messages"
    dc.server_error_next("POST /channels/{channel_id}/messages", count=2)
    statuses = [(await api(dc, "POST", messages, {"content": "hi"}))[0] for _ in range(3)]
    assert statuses == [500, 500, 200]
    dc.server_error_next("GET *", count=1, status=502)
    assert (await api(dc, "POST", messages, {"content": "hi"}))[0] == 200  # another method: untouched
    assert (await api(dc, "GET", "/users/@me"))[0] == 502
    assert [f.kind for f in dc.faults_served] == ["5xx", "5xx", "5xx"]


@pytest.mark.asyncio
async def test_fault_server_error_is_retried_by_discord_py(dc: CanaryDiscord, bot: CanaryBot) -> None:
    dc.server_error_next("POST /channels/{channel_id}/messages", count=1)
    await text_channel(bot, dc.guild.channel_id).send("after one 500")
    assert (await dc.wait_for_message()).text == "after one 500"
    assert len(dc.faults_of("5xx")) == 1


@pytest.mark.asyncio
async def test_fault_429_burst_is_retried_by_discord_py(dc: CanaryDiscord, bot: CanaryBot) -> None:
    route = "POST /channels/{channel_id}/messages"
    dc.rate_limit_next(route, retry_after=0.05, count=3)
    channel_id = dc.guild.channel_id
    await dc.send_message(channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=channel_id, timeout=3)).text == "pong"
    assert len(dc.faults_of("429")) == 3
    dc.rate_limit_next(route, retry_after=1.5, scope="shared")
    status, body, headers = await api(dc, "POST", f"/channels/{channel_id}/messages", {"content": "x"})
    assert status == 429
    assert body["retry_after"] == 1.5
    assert headers["X-RateLimit-Scope"] == "shared"
    assert headers["Retry-After"] == "2"
    assert "Via" in headers


@pytest.mark.asyncio
async def test_fault_connection_reset(dc: CanaryDiscord, bot: CanaryBot) -> None:
    messages = f"/channels/{dc.guild.channel_id}/messages"
    dc.reset_next("POST /channels/{channel_id}/messages")
    with pytest.raises(aiohttp.ClientOSError):
        await api(dc, "POST", messages, {"content": "lost"})
    assert (await api(dc, "POST", messages, {"content": "sent"}))[0] == 200
    dc.reset_next("GET /users/{user_id}")  # aiohttp itself sends an idempotent request again once
    assert (await api(dc, "GET", f"/users/{dc.alice.id}"))[0] == 200
    dc.reset_next("POST /channels/{channel_id}/messages")
    with pytest.raises(aiohttp.ClientOSError):  # discord.py does not retry a reset on Linux
        await text_channel(bot, dc.guild.channel_id).send("lost")
    await text_channel(bot, dc.guild.channel_id).send("sent again")
    assert [r.text for r in dc.sent if r.action == "send"] == ["sent", "sent again"]
    assert len(dc.faults_of("reset")) == 3


@pytest.mark.asyncio
async def test_fault_gateway_reconnect_resumes_and_replays_missed_events(dc: CanaryDiscord, bot: CanaryBot) -> None:
    assert await dc.gateway_reconnect() == 1
    await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")  # sent while the bot reconnects
    await dc.wait_for_gateway("resumed")
    assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"
    assert dc.gateway_log.count("identify") == 1
    assert len(dc.sessions) == 1


@pytest.mark.asyncio
async def test_fault_gateway_close_4000_resumes_and_4009_identifies_again(dc: CanaryDiscord, bot: CanaryBot) -> None:
    bot.identify_at_once = True
    assert await dc.gateway_close(4000) == 1
    await dc.wait_for_gateway("resumed")
    assert dc.gateway_log.count("identify") == 1
    assert await dc.gateway_close(4009) == 1  # session timed out: its RESUME gets op 9, then IDENTIFY
    await dc.wait_for_gateway("ready", count=2)
    assert dc.gateway_log.count("resume") == 2
    assert "invalid_session:false" in dc.gateway_log
    await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"
    assert [f.kind for f in dc.faults_served] == ["gateway:4000", "gateway:4009"]


@pytest.mark.asyncio
async def test_fault_gateway_connection_reset_resumes(dc: CanaryDiscord, bot: CanaryBot) -> None:
    assert await dc.gateway_drop() == 1
    await dc.wait_for_gateway("resumed")
    await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"
    assert dc.faults_of("gateway:drop")
    assert dc.gateway_log.count("identify") == 1


@pytest.mark.asyncio
async def test_fault_invalid_session_resumable_or_not(dc: CanaryDiscord, bot: CanaryBot) -> None:
    bot.identify_at_once = True
    await dc.gateway_invalid_session(resumable=True)
    await dc.wait_for_gateway("resumed")
    await dc.gateway_invalid_session(resumable=False)
    await dc.wait_for_gateway("ready", count=2)
    assert dc.gateway_log.count("identify") == 2


@pytest.mark.asyncio
async def test_fault_outage_refuses_everything_until_it_ends(dc: CanaryDiscord) -> None:
    dc.outage(30)
    with pytest.raises(aiohttp.ClientOSError):
        await api(dc, "GET", "/users/@me")
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientError):
            await session.ws_connect(dc.gateway_url)
    dc.advance(20)  # the fake's clock is real time plus what the test advanced: 10 s to spare on a slow machine
    with pytest.raises(aiohttp.ClientOSError):
        await api(dc, "GET", "/users/@me")
    dc.advance(10)  # 30 s of the fake's clock: over
    assert (await api(dc, "GET", "/users/@me"))[0] == 200
    dc.outage(10, mode="unavailable")
    assert (await api(dc, "GET", "/users/@me"))[0] == 503
    dc.end_outage()
    assert (await api(dc, "GET", "/users/@me"))[0] == 200
    assert {f.path for f in dc.faults_of("outage")} == {"/users/@me", "/gateway"}


@pytest.mark.asyncio
async def test_fault_outage_drops_the_gateway_and_discord_py_resumes_after_it(dc: CanaryDiscord) -> None:
    bot = make_bot()
    async with running_bot(dc, bot, reconnect=True):
        dc.outage(30)
        await eventually(lambda: not dc.gateways)
        await eventually(lambda: dc.faults_of("outage"), timeout=3)  # discord.py tried again, refused
        dc.advance(30)
        await dc.wait_for_gateway("resumed", timeout=6)
        await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
        assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"
