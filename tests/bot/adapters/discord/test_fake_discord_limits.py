"""The fake Discord's rate limits (tests/fakes/discord_limits.py) against raw requests and the real discord.py:
per-channel and per-token buckets whose headers predict the 429s, the global limit with the interaction routes
outside it, the 429s counted, and the 3-second deadline of an interaction's first answer."""

from __future__ import annotations

import math

import discord
import pytest
from discord.ext import commands

from tests.bot.adapters.discord.fake_discord_bot import api
from tests.fakes import FakeDiscord, running_bot
from tests.fakes.discord_global import GLOBAL_LIMIT
from tests.fakes.discord_limits import CHANNEL_MESSAGES, INTERACTION_WEBHOOK
from tests.loop_time import LoopTime

COMMAND = {"name": "late", "type": 1, "description": "Never answered by a bot"}


class World(FakeDiscord):
    """The fake with a server of two channels, ``partie`` and ``autre``, and Alice, its member."""

    def __init__(self) -> None:
        super().__init__()
        self.guild = self.add_guild(name="Club", channels=("partie", "autre"))
        self.alice = self.add_user(username="alice")
        self.add_member(self.guild, self.alice)


async def world() -> World:
    return await World().start()


@pytest.mark.asyncio
async def test_posts_and_edits_in_a_channel_share_five_per_five_seconds_and_the_headers_say_so() -> None:
    dc = await world()
    try:
        channel, other = dc.guild.channel_id, dc.guild.channel_named("autre")
        messages = f"/channels/{channel}/messages"
        first = await api(dc, "POST", messages, {"content": "1"})
        remaining = [int(first[2]["X-RateLimit-Remaining"])]
        for n in range(2, 5):
            remaining.append(int((await api(dc, "POST", messages, {"content": str(n)}))[2]["X-RateLimit-Remaining"]))
        edit = await api(dc, "PATCH", f"{messages}/{first[1]['id']}", {"content": "edited"})
        assert edit[0] == 200
        assert edit[2]["X-RateLimit-Bucket"] == first[2]["X-RateLimit-Bucket"]
        assert remaining + [int(edit[2]["X-RateLimit-Remaining"])] == [4, 3, 2, 1, 0]
        assert first[2]["X-RateLimit-Limit"] == str(CHANNEL_MESSAGES.limit)
        assert 0 < float(edit[2]["X-RateLimit-Reset-After"]) <= CHANNEL_MESSAGES.window
        # the sixth is refused as the headers predicted: Discord's 429, with what discord.py needs to retry it
        status, body, headers = await api(dc, "POST", messages, {"content": "6"})
        assert status == 429
        assert body["global"] is False
        assert 0 < body["retry_after"] <= CHANNEL_MESSAGES.window
        assert headers["X-RateLimit-Scope"] == "user"
        assert headers["Via"]
        assert headers["X-RateLimit-Remaining"] == "0"
        assert int(headers["Retry-After"]) == math.ceil(body["retry_after"])
        assert abs(float(headers["X-RateLimit-Reset-After"]) - body["retry_after"]) < 0.01
        assert [m.text for m in dc.messages_in(channel)][-1] == "4"  # the refused post was not made
        # another channel is another bucket (Topics > Rate Limits: top-level resources)
        assert (await api(dc, "POST", f"/channels/{other}/messages", {"content": "elsewhere"}))[0] == 200
        assert [(t.scope, t.method, t.resource) for t in dc.throttled] == [("user", "POST", str(channel))]
    finally:
        await dc.stop()


@pytest.mark.asyncio
async def test_the_global_limit_counts_every_route_but_the_interaction_ones() -> None:
    assert GLOBAL_LIMIT == (50, 1.0)  # Topics > Rate Limits > Global Rate Limit: 50 requests per second
    dc = await world()
    try:
        dc.limits.global_limit = (6, 60.0)  # narrower and longer here: the test's own pace never matters
        await api(dc, "PUT", f"/applications/{dc.application_id}/guilds/{dc.guild.id}/commands", [COMMAND])
        statuses = [(await api(dc, "GET", path))[0] for path in ["/users/@me"] * 3 + ["/gateway/bot"] * 2]
        assert statuses == [200] * 5  # three routes, each far from its own bucket's end: six requests in all
        status, body, headers = await api(dc, "GET", f"/channels/{dc.guild.channel_id}")
        assert status == 429
        assert body["global"] is True
        assert headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        assert "X-RateLimit-Bucket" not in headers
        assert headers["Via"]
        # Interactions > Receiving and Responding > Endpoints: not bound to the global limit
        iid = await dc.send_interaction("late", user=dc.alice, channel_id=dc.guild.channel_id)
        token = dc.interaction_payload(iid)["token"]
        callback = f"/interactions/{iid}/{token}/callback"
        assert (await api(dc, "POST", callback, {"type": 4, "data": {"content": "hi"}}, auth=False))[0] == 204
        followup = f"/webhooks/{dc.application_id}/{token}"
        assert (await api(dc, "POST", followup, {"content": "more"}, auth=False))[0] == 204
        assert [t.scope for t in dc.throttled] == ["global"]
    finally:
        await dc.stop()


@pytest.mark.asyncio
async def test_an_interaction_token_is_a_webhook_bucket_of_its_own() -> None:
    dc = await world()
    try:
        await api(dc, "PUT", f"/applications/{dc.application_id}/guilds/{dc.guild.id}/commands", [COMMAND])
        iid = await dc.send_interaction("late", user=dc.alice, channel_id=dc.guild.channel_id)
        token = dc.interaction_payload(iid)["token"]
        await api(dc, "POST", f"/interactions/{iid}/{token}/callback", {"type": 4, "data": {"content": "0"}})
        followup = f"/webhooks/{dc.application_id}/{token}"
        answers = [await api(dc, "POST", followup + "?wait=true", {"content": str(n)}, auth=False) for n in range(4)]
        edit = await api(dc, "PATCH", f"{followup}/messages/{answers[0][1]['id']}", {"content": "e"}, auth=False)
        assert [int(a[2]["X-RateLimit-Remaining"]) for a in [*answers, edit]] == [4, 3, 2, 1, 0]
        assert edit[2]["X-RateLimit-Limit"] == str(INTERACTION_WEBHOOK.limit)
        status, body, _ = await api(dc, "POST", followup, {"content": "sixth"}, auth=False)
        assert status == 429
        assert body["retry_after"] > 0
        # the channel's bucket is untouched by what went through the token
        posted = await api(dc, "POST", f"/channels/{dc.guild.channel_id}/messages", {"content": "channel"})
        assert posted[2]["X-RateLimit-Remaining"] == str(CHANNEL_MESSAGES.limit - 1)
    finally:
        await dc.stop()


@pytest.mark.asyncio
async def test_a_first_answer_after_three_seconds_is_unknown_interaction() -> None:
    dc = await world()
    try:
        await api(dc, "PUT", f"/applications/{dc.application_id}/guilds/{dc.guild.id}/commands", [COMMAND])
        iid = await dc.send_interaction("late", user=dc.alice, channel_id=dc.guild.channel_id)
        token = dc.interaction_payload(iid)["token"]
        dc.advance(3.1)  # Receiving and Responding: "you must send an initial response within 3 seconds"
        status, body, _ = await api(dc, "POST", f"/interactions/{iid}/{token}/callback", {"type": 5}, auth=False)
        assert (status, body["code"], body["message"]) == (404, 10062, "Unknown interaction")
        on_time = await dc.send_interaction("late", user=dc.alice, channel_id=dc.guild.channel_id)
        dc.advance(2.5)
        token = dc.interaction_payload(on_time)["token"]
        assert (await api(dc, "POST", f"/interactions/{on_time}/{token}/callback", {"type": 5}, auth=False))[0] == 204
    finally:
        await dc.stop()


@pytest.mark.asyncio
async def test_discord_py_waits_out_the_channel_bucket_the_headers_describe_without_a_429() -> None:
    dc = await world()
    try:
        intents = discord.Intents.default()
        bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
        async with running_bot(dc, bot):
            channel = bot.get_partial_messageable(dc.guild.channel_id)

            async def send_all() -> list[discord.Message]:
                return [await channel.send(str(n)) for n in range(CHANNEL_MESSAGES.limit + 1)]

            loop_time = LoopTime()  # discord.py's wait for the window, and the fake's window, on a hurried clock
            try:
                sent = await loop_time.hurried(send_all(), at_most=CHANNEL_MESSAGES.window)
            finally:
                loop_time.close()
            assert [m.content for m in sent] == [str(n) for n in range(CHANNEL_MESSAGES.limit + 1)]
            assert not dc.throttled  # discord.py read Remaining: 0 and waited for the window instead
            assert [t.remaining for t in dc.limits.taken if t.bucket == CHANNEL_MESSAGES.name] == [4, 3, 2, 1, 0, 4]
    finally:
        await dc.stop()
