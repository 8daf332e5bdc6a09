"""A channel's posts and edits go one request at a time (bot/adapters/discordbot/channel_requests.py).

discord.py counts a channel's bucket from each answer's ``X-RateLimit-Remaining``, keeping
``min(Remaining, limit - outgoing)`` once a window has begun. With two requests of one channel under way
together, an answer read after a later one's raises that count above the bucket's: Discord takes an edit
then a post (4 then 3 left), the post's answer is read first (3) and the edit's next (``min(4, 5 - 0)``:
4). Requests sent together next (five posts) then get one more into the window than Discord takes: a 429.
Seen under load in tests/bot/games/duplicate/test_closes_across_rooms.py (one or two 429s on edits in about one
run in four);
here the order of the answers is made certain: the fake holds the edit's answer until the post's is out.
Real discord.py against the fake with Discord's rate limits; the loop's clock is the test's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
from aiohttp import web
from discord.http import Route

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.discordbot.channel_requests import channel_bucket
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeDiscord, running_bot
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry

HOLD = 1.0  # the longest the fake holds the edit's answer, in seconds of the loop's clock


class EditAnsweredAfterPost:
    """The fake's answer to the next edit in one channel, once armed, held until that channel's next post
    has been answered (or ``HOLD`` seconds of the loop's clock)."""

    def __init__(self, dc: FakeDiscord, channel_id: int) -> None:
        self.prefix = f"/channels/{channel_id}/messages"
        self.armed = False
        self.held = 0
        self._post_answered = asyncio.Event()
        answer: Callable[..., Awaitable[web.StreamResponse]] = dc._answer

        async def held(request: web.Request, handler: Any, path: str) -> web.StreamResponse:
            response = await answer(request, handler, path)
            if not path.startswith(self.prefix):
                return response
            if request.method == "POST":
                self._post_answered.set()
            elif self.armed and request.method == "PATCH":
                self.armed = False
                self.held += 1
                try:
                    await asyncio.wait_for(self._post_answered.wait(), HOLD)
                except TimeoutError:
                    pass
                for _ in range(20):  # the post's answer read first
                    await asyncio.sleep(0)
            return response

        dc._answer = held  # type: ignore[method-assign]

    def arm(self) -> None:
        self.armed = True
        self._post_answered.clear()


@pytest.mark.asyncio
async def test_an_edit_and_a_post_under_way_together_never_let_a_sixth_request_into_a_window(
    storage: SQLiteStorage,
) -> None:
    loop_time = LoopTime()
    try:
        async with FakeDiscord() as dc:
            guild = dc.add_guild(name="Club", channels=("partie",))
            hold = EditAnsweredAfterPost(dc, guild.channel_id)
            adapter = DiscordAdapter(Referee(storage, ready_registry()), tick_seconds=60.0, live_interval=0.0)
            async with running_bot(dc, adapter.client):
                channel = adapter.client.get_partial_messageable(guild.channel_id)
                counter = await channel.send("0 played")  # discord.py learns the channel's bucket, for posts
                await counter.edit(content="0 played, really")  # and for edits
                loop_time.jump(5.5)  # that window over: the next request opens a new one
                hold.arm()
                await loop_time.hurried(
                    asyncio.gather(counter.edit(content="1 played"), channel.send("a note")), at_most=10.0
                )
                assert hold.held == 1
                posts = (channel.send(f"post {n}") for n in range(5))  # three fit in the window, two wait
                await loop_time.hurried(asyncio.gather(*posts), at_most=10.0)
            mine = str(guild.channel_id)
            taken = [(t.method, t.remaining) for t in dc.limits.taken if t.resource == mine]
            assert len(taken) == 9, taken  # nothing refused and sent again
            assert not dc.throttled, dc.throttled
    finally:
        loop_time.close()


def test_only_the_message_routes_of_a_channel_are_one_at_a_time() -> None:
    assert channel_bucket(Route("POST", "/channels/{channel_id}/messages", channel_id=7)) == "7"
    edit = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=7, message_id=9)
    assert channel_bucket(edit) == "7"
    reaction = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
    assert channel_bucket(Route("PUT", reaction, channel_id=7, message_id=9, emoji="x")) is None
    assert channel_bucket(Route("GET", "/channels/{channel_id}", channel_id=7)) is None
    assert channel_bucket(Route("GET", "/guilds/{guild_id}/members", guild_id=3)) is None
    assert callable(discord.http.HTTPClient.request)  # the method the adapter wraps
