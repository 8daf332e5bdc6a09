"""The fake Discord's sharding (Topics > Gateway > Sharding): a guild's shard from its id, ``/gateway/bot`` with
the recommended shards and the session start limit, each shard session given only its own guilds and their events
(direct messages on shard 0), one process running every shard, and the gateway closing an invalid shard (4010) or a
session with too many guilds (4011)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord.ext import commands

from tests.bot.adapters.discord.fake_discord_bot import api, eventually, make_bot
from tests.fakes import FakeDiscord, running_bot


class ShardedCanary(commands.AutoShardedBot):
    """A sharded discord.py bot that notes the channels its ``!ping`` was answered in."""

    def __init__(self, shard_ids: list[int], shard_count: int) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(
            command_prefix="!", intents=intents, shard_ids=shard_ids, shard_count=shard_count, guild_ready_timeout=0.05
        )
        self.answered: list[int] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No wait before an IDENTIFY (discord.py's own waits 5 s before a second one)."""


def make_sharded_bot(shard_ids: list[int], shard_count: int) -> ShardedCanary:
    bot = ShardedCanary(shard_ids, shard_count)

    @bot.command()
    async def ping(ctx: commands.Context[commands.Bot]) -> None:
        bot.answered.append(ctx.channel.id)
        await ctx.send(f"pong from shard {ctx.guild.shard_id if ctx.guild else 0}")

    @bot.tree.command(name="where", description="Which shard answers")
    async def where(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"shard {interaction.guild.shard_id if interaction.guild else 0}")

    return bot


class ShardedDiscord(FakeDiscord):
    """The fake with Alice, member of three servers (``homes``): two on shard 0 of 2, one on shard 1."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.alice = self.add_user(username="alice")
        self.homes = [self.add_guild(name=f"shard {s} club", shard=(s, 2)) for s in (0, 0, 1)]
        for guild in self.homes:
            self.add_member(guild, self.alice)


def unsharded_first(shard: tuple[int, int] | None) -> tuple[int, int]:
    """A session's shard as it sorts: an unsharded session (None) first."""
    return (-1, 0) if shard is None else shard


@pytest_asyncio.fixture
async def shards() -> AsyncIterator[ShardedDiscord]:
    """Two servers on shard 0 of 2, one on shard 1."""
    async with ShardedDiscord(max_concurrency=2) as fake:
        yield fake


@pytest.mark.parametrize(
    ("guild_id", "count", "shard"),
    [(0, 1, 0), (1 << 22, 2, 1), (2 << 22, 2, 0), ((7 << 22) | 0x3FFFFF, 4, 3), ((5 << 22) + 12345, 3, 2)],
)
def test_a_guild_belongs_to_the_shard_of_its_timestamp_bits(guild_id: int, count: int, shard: int) -> None:
    from tests.fakes.discord_rules import shard_of

    assert shard_of(guild_id, count) == shard


@pytest.mark.asyncio
async def test_gateway_bot_gives_the_recommended_shards_and_the_session_start_limit(shards: ShardedDiscord) -> None:
    status, data, _ = await api(shards, "GET", "/gateway/bot")
    limit = data["session_start_limit"]
    assert status == 200
    assert data["url"] == shards.gateway_url
    assert data["shards"] == 1
    assert limit == {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 2}
    bot = make_sharded_bot([0, 1], 2)
    async with running_bot(shards, bot):
        _, data, _ = await api(shards, "GET", "/gateway/bot")
    assert data["session_start_limit"]["remaining"] == 998  # one IDENTIFY per shard
    assert (await api(shards, "GET", "/gateway"))[1] == {"url": shards.gateway_url}


@pytest.mark.asyncio
async def test_each_shard_session_gets_only_its_own_guilds(shards: ShardedDiscord) -> None:
    zero, one = make_sharded_bot([0], 2), make_sharded_bot([1], 2)
    async with running_bot(shards, zero), running_bot(shards, one):
        assert {g.id for g in zero.guilds} == {g.id for g in shards.homes[:2]}
        assert {g.id for g in one.guilds} == {shards.homes[2].id}
        ready = [d for d in shards.dispatches if d.event == "READY"]
        assert sorted((d.shard, len(d.data["guilds"])) for d in ready) == [((0, 2), 2), ((1, 2), 1)]
        assert sorted(shards.shards_given("GUILD_CREATE"), key=unsharded_first) == [(0, 2), (0, 2), (1, 2)]
        # a guild added later is announced to its own shard only
        late = shards.add_guild(name="late", shard=(1, 2))
        await eventually(lambda: one.get_guild(late.id) is not None)
        assert zero.get_guild(late.id) is None


@pytest.mark.asyncio
async def test_guild_events_go_to_the_owning_shard_and_dms_to_shard_0(shards: ShardedDiscord) -> None:
    zero, one = make_sharded_bot([0], 2), make_sharded_bot([1], 2)
    async with running_bot(shards, zero), running_bot(shards, one):
        await one.tree.sync()
        for guild in shards.homes:
            await shards.send_message(guild.channel_id, shards.alice, "!ping")
            answer = await shards.wait_for_message(channel_id=guild.channel_id)
            assert answer.text == f"pong from shard {shards.homes.index(guild) // 2}"
        assert zero.answered == [g.channel_id for g in shards.homes[:2]]
        assert one.answered == [shards.homes[2].channel_id]

        iid = await shards.send_interaction("where", user=shards.alice, channel_id=shards.homes[2].channel_id)
        assert (await shards.wait_for_response(iid)).text == "shard 1"
        assert shards.interaction_shards(iid) == [(1, 2)]

        dm = shards.dm_channel_id(shards.alice)
        await shards.send_message(dm, shards.alice, "!ping")
        assert (await shards.wait_for_dm(shards.alice)).text == "pong from shard 0"
        assert shards.shards_given("MESSAGE_CREATE", lambda d: d["channel_id"] == str(dm))[0] == (0, 2)
        iid = await shards.send_interaction("where", user=shards.alice, channel_id=dm)
        assert shards.interaction_shards(iid) == [(0, 2)]
        await shards.wait_for_response(iid)


@pytest.mark.asyncio
async def test_one_process_may_run_every_shard(shards: ShardedDiscord) -> None:
    bot = make_sharded_bot([0, 1], 2)
    async with running_bot(shards, bot):
        assert {g.id for g in bot.guilds} == {g.id for g in shards.homes}
        assert sorted((d.shard for d in shards.dispatches if d.event == "READY"), key=unsharded_first) == [
            (0, 2),
            (1, 2),
        ]
        await shards.send_message(shards.homes[2].channel_id, shards.alice, "!ping")
        assert (await shards.wait_for_message()).text == "pong from shard 1"


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], "0,1", [True, 2]])
@pytest.mark.asyncio
async def test_an_invalid_shard_is_closed_with_4010(shards: ShardedDiscord, shard: object) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(shards.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": shards.token, "intents": 1, "properties": {}, "shard": shard}})
        closed = await ws.receive()
    assert closed.type == aiohttp.WSMsgType.CLOSE
    assert closed.data == 4010
    assert shards.identifies == 0


@pytest.mark.asyncio
async def test_too_many_guilds_for_one_session_is_closed_with_4011() -> None:
    async with FakeDiscord(guilds_per_shard=2) as fake:
        for shard in (0, 0, 1):
            fake.add_guild(shard=(shard, 2))
        bot = make_bot()
        with pytest.raises(discord.ConnectionClosed) as closed:
            async with running_bot(fake, bot):
                pass
        assert closed.value.code == 4011
        sharded = make_sharded_bot([0, 1], 2)  # two guilds on shard 0, one on shard 1: allowed
        async with running_bot(fake, sharded):
            assert len(sharded.guilds) == 3
