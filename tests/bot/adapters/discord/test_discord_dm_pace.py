"""The Discord adapter and the pace of opening direct messages (tests/fakes/discord_global.py): private replies
to more players than Discord lets a bot open DMs with at once (a round's sanction notes, sent after its close)
are kept for a later try, not mistaken for closed DMs; real discord.py against the fake Discord."""

from __future__ import annotations

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.chat import Reply
from bot.outbox import Failure
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeDiscord, running_bot
from tests.fakes.discord_global import DM_OPENS, DM_TOO_FAST
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()


@pytest.mark.asyncio
async def test_private_replies_past_the_pace_of_opening_dms_wait_for_a_later_try(storage: SQLiteStorage) -> None:
    limit, window = DM_OPENS
    async with FakeDiscord() as dc:
        guild = dc.add_guild(name="Club", channels=("partie",))
        players = [dc.add_user(username=f"joueur{n}") for n in range(limit + 2)]
        for player in players:
            dc.add_member(guild, player)
        channel = f"discord:{guild.channel_id}"
        adapter = DiscordAdapter(Referee(storage, LEXICONS), message_content=True, tick_seconds=0.05)
        async with running_bot(dc, adapter.client):
            notes = [
                Reply(f"Coup 1 : note privée {n}", to_user=f"discord:{p.id}", channel=channel)
                for n, p in enumerate(players)
            ]
            refused = await adapter.deliver(notes)  # what the close's delivery does with a round's notes
            # Discord opened `limit` DMs and refused the next ones (403 / 40003): those are owed, to be tried again
            assert [u.reply for u in refused] == notes[limit:]
            assert {u.failure for u in refused} == {Failure.TRANSIENT}
            assert [r.recipient for r in dc.dm_openings.refused] == [p.id for p in players[limit:]]
            assert {i.status for i in dc.invalid_requests.counted} == {403}
            # the players' DMs are open: no "DMs closed" pointer in the channel (before: one per refused player,
            # and their notes lost)
            assert dc.messages_in(guild.channel_id) == []
            dc.advance(window)  # Discord's minute passes: the outbox's next try goes through
            assert await adapter.deliver([u.reply for u in refused]) == []
            for number, player in enumerate(players):  # each note once
                assert [m.text for m in dc.log.select(dc.dm_channel_id(player))] == [f"Coup 1 : note privée {number}"]
            assert dc.messages_in(guild.channel_id) == []
            assert len(dc.dm_openings.refused) == len(players) - limit
            assert DM_TOO_FAST == 40003
