"""A mention flood on Discord (issue #11, item 4): one command with hundreds of mentions costs no REST
call and at most one gateway members request for 25 members; the command is answered."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import MENTION_LOOKUPS, DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeDiscord, running_bot
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
MEMBERS = 260


class CrowdedDiscord(FakeDiscord):
    """A big club's server (its channel ``channel``): Ana (an admin) and ``MEMBERS`` other members (``crowd``)."""

    def __init__(self) -> None:
        super().__init__()
        self.guild = self.add_guild(name="Grand club", channels=("partie",))
        self.channel = self.guild.channel_id
        self.ana = self.add_user(username="ana", global_name="Ana")
        self.add_member(self.guild, self.ana, admin=True)
        self.crowd = [self.add_user(username=f"m{n}", global_name=f"Membre{n}") for n in range(MEMBERS)]
        for user in self.crowd:
            self.add_member(self.guild, user)


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[CrowdedDiscord]:
    async with CrowdedDiscord() as fake:
        yield fake


@pytest_asyncio.fixture
async def adapter(dc: CrowdedDiscord, tmp_path: Path) -> AsyncIterator[DiscordAdapter]:
    LEXICONS.get("fr")
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    adapter = DiscordAdapter(Referee(storage, LEXICONS), message_content=True, edit_interval=0.2, tick_seconds=0.05)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        yield adapter
    storage.close()


def member_lookups(dc: CrowdedDiscord, since: int) -> list[tuple[str, str]]:
    """REST calls made since request number ``since`` that read members or users one by one."""
    return [(method, path) for method, path, _ in dc.requests[since:] if "/members/" in path or "/users/" in path]


def chunks_sent(dc: FakeDiscord) -> list[dict[str, Any]]:
    """Every GUILD_MEMBERS_CHUNK the gateway sent (one per members request)."""
    frames = [json.loads(frame) for session in dc.sessions.values() for _, frame in session.sent]
    return [frame["d"] for frame in frames if frame.get("t") == "GUILD_MEMBERS_CHUNK"]


@pytest.mark.asyncio
async def test_mention_flood_in_a_slash_command_is_one_bounded_members_request(
    dc: CrowdedDiscord, adapter: DiscordAdapter
) -> None:
    mentioned = dc.crowd[:250]
    args = " ".join(f"<@{user.id}>" for user in mentioned)
    before = len(dc.requests)
    iid = await dc.send_interaction("check", {"args": args}, user=dc.ana, channel_id=dc.channel)
    reply = await dc.wait_for_response(iid, lambda r: r.text not in (None, "…"), timeout=20)
    assert member_lookups(dc, before) == []  # no REST call per mention (there were 250 before)
    chunks = chunks_sent(dc)
    assert len(chunks) == 1
    assert len(chunks[0]["members"]) == MENTION_LOOKUPS
    asked = {int(member["user"]["id"]) for member in chunks[0]["members"]}
    assert asked == {user.id for user in mentioned[:MENTION_LOOKUPS]}  # the first 25, in order of appearance
    text = reply.text.upper()
    assert "MEMBRE0 NON VALABLE" in text
    assert "MEMBRE19 NON VALABLE" in text
    assert "Désolé" not in reply.text


@pytest.mark.asyncio
async def test_mention_flood_in_a_prefix_command_uses_the_message_mentions(
    dc: CrowdedDiscord, adapter: DiscordAdapter
) -> None:
    """A message carries its mentions' members: nothing is looked up at all."""
    mentioned = dc.crowd[79::-1]  # 80 (a message holds 2,000 characters), the last first
    before = len(dc.requests)
    await dc.send_message(dc.channel, dc.ana, "!verif " + " ".join(f"<@{user.id}>" for user in mentioned))
    reply = await dc.wait_for_message(channel_id=dc.channel, timeout=20)
    assert member_lookups(dc, before) == []
    assert chunks_sent(dc) == []
    text = reply.text.upper()
    assert "MEMBRE79 NON VALABLE" in text
    assert "MEMBRE60 NON VALABLE" in text
    assert "<@" not in text


@pytest.mark.asyncio
async def test_mention_of_someone_outside_the_guild_and_an_absurd_id_stay_as_typed(
    dc: CrowdedDiscord, adapter: DiscordAdapter
) -> None:
    stranger = dc.add_user(username="loin", global_name="Loin")  # not a member
    absurd = "9" * 5000
    args = f"{dc.crowd[0].mention} <@{stranger.id}> <@{absurd}>"
    iid = await dc.send_interaction("check", {"args": args}, user=dc.ana, channel_id=dc.channel)
    reply = await dc.wait_for_response(iid, lambda r: r.text not in (None, "…"), timeout=20)
    assert reply.text.startswith(f"MEMBRE0 non valable, <@{stranger.id}> non valable, <@999")
    assert "Désolé" not in reply.text
    chunks = chunks_sent(dc)  # one request, for the two plausible ids; the stranger is not a member
    assert len(chunks) == 1
    assert [m["user"]["id"] for m in chunks[0]["members"]] == [str(dc.crowd[0].id)]
