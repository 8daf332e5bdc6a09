"""The Discord adapter sharded, and commands sent bare as Discord's client would: a sharded adapter runs each of its
shards with the same hooks (each server's interactions on its own shard, DMs answered), and /view, /series show,
/simultane show, /help and /standings can be sent without an option."""

from __future__ import annotations

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.bot.adapters.discord.discord_adapter_club import answer, make_adapter, slash
from tests.bot.adapters.discord.discord_adapter_club import no_logged_errors as no_logged_errors  # autouse
from tests.discord_club import ClubDiscord, identify_at_once
from tests.fakes import CommandUnavailable, FakeDiscord, running_bot
from tests.ready_lists import ready_registry

# --- sharding ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_sharded_adapter_runs_its_shards_with_the_same_hooks(storage: SQLiteStorage) -> None:
    from bot.adapters.discordbot.client import ArbitreClient, ShardedArbitreClient
    from bot.adapters.discordbot.shards import ShardRange

    assert isinstance(make_adapter(storage).client, ArbitreClient)
    async with FakeDiscord() as fake:
        homes = [fake.add_guild(name=f"Club {n}", shard=(n, 2)) for n in range(2)]
        ana = fake.add_user(username="ana", global_name="Ana")
        for guild in homes:
            fake.add_member(guild, ana, admin=True)
        adapter = make_adapter(storage, shards=ShardRange(2, (0, 1)))
        assert isinstance(adapter.client, ShardedArbitreClient)
        identify_at_once(adapter.client)
        async with running_bot(fake, adapter.client):
            await adapter.sync()
            assert adapter.service._tasks  # on_ready (all shards ready) started the clock
            for shard, guild in enumerate(homes):
                iid = await slash(fake, "settings", user=ana, channel=guild.channel_id)
                assert "langue" in (await answer(fake, iid)).text
                assert fake.interaction_shards(iid) == [(shard, 2)]
            await fake.send_message(fake.dm_channel_id(ana), ana, "!aide")
            assert "/coup" in (await fake.wait_for_dm(ana)).text
        assert not adapter.service._tasks  # close() stopped it


@pytest.mark.asyncio
async def test_a_bare_view_series_or_simultane_can_be_sent_as_discord_s_client_would(
    discord_club: ClubDiscord, storage: SQLiteStorage
) -> None:
    # the fake refuses, as Discord's client does, a command sent without a required option: /view, /series
    # and /simultane were registered with a required argument and could not be sent bare (issue 37, item 15)
    dc = discord_club
    referee = Referee(storage, ready_registry(), now=dc.now, images=False)
    adapter = DiscordAdapter(referee, edit_interval=0.2, tick_seconds=0.05, clock=dc.now)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        # /series and /simultane are groups now: a client sends one of their subcommands, "show" the bare one
        for name in ("view", "series show", "simultane show", "help", "standings"):
            sent = await dc.send_interaction(name, None, user=dc.ana, channel_id=dc.channel)  # accepted by the client
            answer = await dc.wait_for_response(sent, lambda r: bool(r.text), timeout=30)  # and answered
            assert "erreur" not in (answer.text or "").lower(), (name, answer.text)
        with pytest.raises(CommandUnavailable, match="required option"):
            await dc.send_interaction("score", None, user=dc.ana, channel_id=dc.channel)
