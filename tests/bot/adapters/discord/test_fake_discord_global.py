"""The fake Discord's limits across routes (tests/fakes/discord_global.py) against raw requests and the real
discord.py: the global limit as a sliding second with the interaction endpoints outside it and other webhooks
inside, the invalid-request limit and the ban past it, and the pace of opening direct messages."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.fakes import DiscordUser, FakeDiscord, FakeGuild, running_bot
from tests.fakes.discord_global import (
    BAN_MESSAGE,
    BAN_SECONDS,
    DM_OPENS,
    DM_TOO_FAST,
    GLOBAL_LIMIT,
    INVALID_LIMIT,
    INVALID_WINDOW,
)
from tests.loop_time import LoopTime

COMMAND = {"name": "late", "type": 1, "description": "Never answered by a bot"}


async def api(dc: FakeDiscord, method: str, path: str, body: Any = None, *, auth: bool = True) -> tuple[int, Any, Any]:
    """A raw REST call to the fake: (status, JSON body or None, headers)."""
    headers = {"Authorization": f"Bot {dc.token}"} if auth else {}
    async with aiohttp.ClientSession() as session:
        async with session.request(method, dc.api_base + path, json=body, headers=headers) as response:
            data = await response.json() if response.content_type == "application/json" else None
            return response.status, data, response.headers


def populated(dc: FakeDiscord) -> tuple[FakeGuild, DiscordUser]:
    """A guild with its channel ``partie`` and a member, Alice."""
    guild = dc.add_guild(name="Club", channels=("partie",))
    alice = dc.add_user(username="alice")
    dc.add_member(guild, alice)
    return guild, alice


# --- the global limit -------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_global_limit_is_a_sliding_second_not_two_fixed_windows() -> None:
    """Fifty requests at the end of one second and fifty at the start of the next were let through by a fixed
    window: any second holds 50 at most."""
    assert GLOBAL_LIMIT == (50, 1.0)  # Topics > Rate Limits > Global Rate Limit
    loop_time = LoopTime()  # the global limit runs on the loop's clock, as discord.py's waits do
    try:
        async with FakeDiscord(rate_limits={"GET /users/@me": (1000, 1.0)}) as dc:  # the route never in the way
            assert (await api(dc, "GET", "/users/@me"))[0] == 200
            loop_time.jump(0.9)
            statuses = [(await api(dc, "GET", "/users/@me"))[0] for _ in range(49)]
            assert statuses == [200] * 49  # 50 in the second
            loop_time.jump(0.15)  # the first request's second is over, not the 49 others'
            assert (await api(dc, "GET", "/users/@me"))[0] == 200  # the first request's place
            status, body, headers = await api(dc, "GET", "/users/@me")
            assert status == 429
            assert body["global"] is True
            assert headers["X-RateLimit-Scope"] == "global"
            # the wait asked is until the oldest of the 50 leaves the second (they went at 0.9 s and after)
            assert 0 < body["retry_after"] <= 0.85
            loop_time.jump(body["retry_after"])
            assert (await api(dc, "GET", "/users/@me"))[0] == 200
            assert [t.scope for t in dc.throttled] == ["global"]
    finally:
        loop_time.close()


@pytest.mark.asyncio
async def test_a_sliding_window_refuses_what_a_fixed_one_let_through() -> None:
    loop_time = LoopTime()
    try:
        async with FakeDiscord() as dc:
            dc.limits.global_limit = (6, 60.0)  # six a minute: the test's own pace never matters
            for path in ["/users/@me", "/gateway/bot", "/users/@me"]:
                assert (await api(dc, "GET", path))[0] == 200
            loop_time.jump(40.0)
            for path in ["/users/@me", "/gateway/bot", "/users/@me"]:
                assert (await api(dc, "GET", path))[0] == 200
            loop_time.jump(30.0)  # 70 s after the first three (gone), 30 s after the last three (still there)
            for path in ["/users/@me", "/gateway/bot", "/users/@me"]:
                assert (await api(dc, "GET", path))[0] == 200
            status, body, _ = await api(dc, "GET", "/gateway/bot")  # a fixed window begun at 60 s let it through
            assert status == 429
            assert body["global"] is True
            assert 29 <= body["retry_after"] <= 30
    finally:
        loop_time.close()


@pytest.mark.asyncio
async def test_interaction_endpoints_are_outside_the_global_limit_and_other_webhooks_inside() -> None:
    async with FakeDiscord() as dc:
        guild, alice = populated(dc)
        dc.limits.global_limit = (4, 60.0)
        await api(dc, "PUT", f"/applications/{dc.application_id}/guilds/{guild.id}/commands", [COMMAND])
        iid = await dc.send_interaction("late", user=alice, channel_id=guild.channel_id)
        token = dc.interaction_payload(iid)["token"]
        # Receiving and Responding > Endpoints: the callback and the /webhooks/{application.id}/{token} routes
        assert (await api(dc, "POST", f"/interactions/{iid}/{token}/callback", {"type": 5}, auth=False))[0] == 204
        followup = f"/webhooks/{dc.application_id}/{token}"
        for number in range(4):
            assert (await api(dc, "POST", followup, {"content": str(number)}, auth=False))[0] in (200, 204)
        assert not dc.throttled
        # a channel's webhook (another id than the application's) is bound to it, answered or not
        other = f"/webhooks/{dc.snowflake()}/not-an-interaction-token"
        assert [(await api(dc, "POST", other, {"content": "x"}, auth=False))[0] for _ in range(2)] == [404, 404]
        assert (await api(dc, "GET", "/users/@me"))[0] == 200  # the fourth of the minute, with the PUT
        status, body, _ = await api(dc, "POST", other, {"content": "x"}, auth=False)
        assert status == 429
        assert body["global"] is True
        assert [(t.scope, t.method, t.route) for t in dc.throttled] == [
            ("global", "POST", "/webhooks/{application_id}/{interaction_token}")
        ]
        # and still not the interaction's own
        assert (await api(dc, "POST", followup, {"content": "late"}, auth=False))[0] in (200, 204)


# --- the invalid-request limit ----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_invalid_requests_past_the_limit_ban_the_address_for_a_while() -> None:
    assert (INVALID_LIMIT, INVALID_WINDOW) == (10_000, 600.0)  # Topics > Rate Limits > Invalid Request Limit
    async with FakeDiscord(invalid_request_limit=6) as dc:  # six, not ten thousand, for the test
        guild, alice = populated(dc)
        assert (await api(dc, "GET", "/users/@me", auth=False))[0] == 401
        dc.rate_limit_next("GET /users/@me", count=1)  # a 429 counts
        assert (await api(dc, "GET", "/users/@me"))[0] == 429
        dc.rate_limit_next("GET /users/@me", scope="shared", count=3)  # "shared" 429s are not counted against you
        assert [(await api(dc, "GET", "/users/@me"))[0] for _ in range(3)] == [429] * 3
        assert (await api(dc, "GET", f"/channels/{dc.snowflake()}"))[0] == 404  # nor are 404s
        assert [i.status for i in dc.invalid_requests.counted] == [401, 429]
        dc.advance(INVALID_WINDOW)  # ten minutes later, those two no longer count
        for _ in range(5):
            assert (await api(dc, "GET", "/users/@me", auth=False))[0] == 401
        assert not dc.invalid_requests.bans
        assert (await api(dc, "GET", "/users/@me", auth=False))[0] == 401  # the sixth in ten minutes
        [ban] = dc.invalid_requests.bans
        assert ban.until - ban.start == BAN_SECONDS
        # banned: every request, valid or not, gets Cloudflare's static answer, with nothing to retry by
        status, body, headers = await api(dc, "GET", "/users/@me")
        assert (status, body) == (429, {"code": 0, "message": BAN_MESSAGE})
        assert "Via" not in headers
        assert "Retry-After" not in headers
        assert not any(name.lower().startswith("x-ratelimit") for name in headers)
        dc.advance(BAN_SECONDS - 1)
        assert (await api(dc, "GET", "/gateway/bot"))[0] == 429
        assert dc.invalid_requests.refused == 2
        dc.advance(1)
        assert (await api(dc, "GET", "/users/@me"))[0] == 200


@pytest.mark.asyncio
async def test_discord_py_takes_the_ban_for_cloudflare_s_and_does_not_retry() -> None:
    async with FakeDiscord() as dc:
        guild, alice = populated(dc)
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        async with running_bot(dc, bot):
            dc.invalid_requests.limit = 3  # lowered here, once logged in
            channel = bot.get_partial_messageable(guild.channel_id)
            dc.deny_bot(guild.channel_id)
            for _ in range(3):
                with pytest.raises(discord.Forbidden):  # 403 Missing Permissions: an invalid request
                    await channel.send("hello")
            before = len(dc.requests)
            with pytest.raises(discord.HTTPException) as raised:
                await bot.fetch_user(alice.id)
            assert raised.value.status == 429
            assert raised.value.code == 0
            assert len(dc.requests) == before + 1  # raised at once: no retry_after, no Via
            assert dc.invalid_requests.refused == 1


# --- the pace of opening DMs ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_opening_new_dms_too_fast_is_refused_with_40003() -> None:
    limit, window = DM_OPENS
    async with FakeDiscord() as dc:
        users = [dc.add_user(username=f"u{n}") for n in range(limit + 2)]
        for user in users[:limit]:
            status, body, _ = await api(dc, "POST", "/users/@me/channels", {"recipient_id": str(user.id)})
            assert status == 200
            assert body["type"] == 1
        status, body, _ = await api(dc, "POST", "/users/@me/channels", {"recipient_id": str(users[limit].id)})
        assert (status, body["code"]) == (403, DM_TOO_FAST)
        # Create DM: "if one already exists, it will be returned instead": no new opening, not refused
        assert (await api(dc, "POST", "/users/@me/channels", {"recipient_id": str(users[0].id)}))[0] == 200
        # a user who wrote to the bot first has a DM channel already
        await dc.send_message(dc.dm_channel_id(users[limit + 1]), users[limit + 1], "hello")
        assert (await api(dc, "POST", "/users/@me/channels", {"recipient_id": str(users[limit + 1].id)}))[0] == 200
        assert [r.recipient for r in dc.dm_openings.refused] == [users[limit].id]
        assert [i.status for i in dc.invalid_requests.counted] == [403]  # a 403: an invalid request too
        dc.advance(window)
        assert (await api(dc, "POST", "/users/@me/channels", {"recipient_id": str(users[limit].id)}))[0] == 200


@pytest.mark.asyncio
async def test_discord_py_raises_forbidden_40003_when_dms_open_too_fast() -> None:
    limit, _ = DM_OPENS
    async with FakeDiscord() as dc:
        guild, alice = populated(dc)
        users = [dc.add_user(username=f"u{n}") for n in range(limit + 1)]
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        async with running_bot(dc, bot):
            for user in users[:limit]:
                await (await bot.fetch_user(user.id)).send("hello")
            late = await bot.fetch_user(users[limit].id)
            with pytest.raises(discord.Forbidden) as raised:
                await late.send("hello")
            assert raised.value.code == DM_TOO_FAST
            await (await bot.fetch_user(users[0].id)).send("again")  # an open DM is not opened again
            assert [m.text for m in dc.log.select(dc.dm_channel_id(users[0]))] == ["hello", "again"]
