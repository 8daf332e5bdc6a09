"""A command asked through a Discord interaction is answered through that interaction, whatever else is on its
way to its asker (issue 39: ``/help`` answered to its asker alone).

Two processes on two shards, one database: Ben's ``/help`` in his DMs reaches one process, his ``/play`` in the
server the other, at once. The outbox keeps each destination's messages in order, and a private message's
destination was its player: the second answer stored found the first still waiting (the other process was
sending it), went behind it to the outbox worker, which knows no interaction and sent it by DM, and the
second command's interaction closed with nothing in it (the shard test, two runs of five). Here the other
process is the database's rows it stores and claims (``OTHER``, alive), the driven clock is the fake's,
and the interaction is this process's: nothing depends on which process gets there first.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.chat import Reply
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import SentMessage, running_bot
from tests.ready_lists import ready_registry
from tests.waiting import eventually

OTHER = "elsewhere:1:0a0b0c0d"  # another live process on the database, on another host
ELSEWHERE = "Coup 1 : votre réponse de l'autre salon est reçue."  # its answer to Ben, on its way


@pytest_asyncio.fixture
async def adapter(dc: ClubDiscord, storage: SQLiteStorage) -> AsyncIterator[DiscordAdapter]:
    """The adapter as deployed, on the fake's clock (the other process's heartbeat is on it too)."""
    referee = Referee(storage, ready_registry(), now=dc.now, images=False)
    adapter = DiscordAdapter(referee, tick_seconds=0.05, edit_interval=0.2, clock=dc.now)
    adapter.service.outbox_seconds = 0.05
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        yield adapter


def under_way_elsewhere(dc: ClubDiscord, storage: SQLiteStorage, text: str, answers: str | None = None) -> int:
    """A private message to Ben that the other process stored and is sending (claimed by it, alive): one of
    his commands answered there (``answers``: in place, its interaction), or its clock's; its outbox number."""
    now = dc.now()
    storage.outbox_alive(OTHER, now + 600)
    reply = Reply(text, to_user=f"discord:{dc.ben.id}", channel=f"discord:{dc.channel}", answers=answers)
    return storage.enqueue([reply], now + 600, created=now, owner=OTHER)[0]


def through(dc: ClubDiscord, iid: int) -> list[SentMessage]:
    """What went through interaction ``iid`` (its deferral's "…" fill left out)."""
    return [r for r in dc.log.records if r.interaction_id == iid and r.action == "send" and r.text != "…"]


def direct_to(dc: ClubDiscord, text: str) -> list[SentMessage]:
    """The messages saying ``text`` sent to Ben's DMs directly (no interaction)."""
    dm = dc.dm_channel_id(dc.ben)
    return [r for r in dc.log.records if r.chat_id == dm and r.interaction_id is None and text in (r.text or "")]


@pytest.mark.asyncio
@pytest.mark.parametrize("answers", [None, "discord:interaction:1"], ids=["a_dm", "another_interaction"])
async def test_help_goes_through_its_own_interaction_while_another_answer_to_its_asker_waits(
    dc: ClubDiscord, adapter: DiscordAdapter, storage: SQLiteStorage, answers: str | None
) -> None:
    first = under_way_elsewhere(dc, storage, ELSEWHERE, answers)
    asked = await dc.send_interaction("help", None, user=dc.ben, channel_id=dc.channel)
    helped = await dc.wait_for_response(asked, lambda r: r.text != "…", timeout=10)
    assert "/coup" in helped.text, helped.text
    assert helped.ephemeral  # through its own interaction, to Ben alone
    assert not direct_to(dc, "/coup")  # never a DM behind the other answer
    assert storage.outbox_state(first) == "waiting"  # the other process's, left to it
    storage.forget_process(OTHER)  # it stops before sending it: this process's outbox takes it over
    await eventually(lambda: direct_to(dc, ELSEWHERE), 10)
    assert [r.text for r in through(dc, asked) if ELSEWHERE in (r.text or "")] == []  # never through /help's


@pytest.mark.asyncio
@pytest.mark.parametrize("answers", [None, "discord:interaction:2"], ids=["a_dm", "another_interaction"])
async def test_a_move_is_acknowledged_through_its_own_interaction_while_another_answer_to_its_player_waits(
    dc: ClubDiscord, adapter: DiscordAdapter, storage: SQLiteStorage, answers: str | None
) -> None:
    """The shard test's failure, the quick /play's way: its acknowledgement, stored while Ben's /help answer
    in the other process still waited, went by DM and left the /play's "thinking..." empty."""
    await dc.send_interaction("duplicate", {"minutes": 3}, user=dc.ana, channel_id=dc.channel)
    await dc.wait_for_message(lambda r: "Coup 1 — tirage" in (r.text or ""), channel_id=dc.channel)
    under_way_elsewhere(dc, storage, ELSEWHERE, answers)
    asked = await dc.send_interaction("play", {"position": "H8", "word": "QWERTY"}, user=dc.ben, channel_id=dc.channel)
    acked = await dc.wait_for_response(asked, lambda r: "Reçu pour le coup 1" in (r.text or ""), timeout=10)
    assert acked.ephemeral
    assert not direct_to(dc, "Reçu pour le coup 1")
    deferred = [r for r in dc.log.records if r.interaction_id == asked and r.action == "defer"]
    assert [r.message_id for r in deferred] == [acked.message_id]  # the "thinking..." holds the acknowledgement
