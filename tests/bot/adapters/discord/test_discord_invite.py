"""The invite link's permissions are those the bot uses (issue 40): a game played in a server where the bot
has exactly them draws no refusal from the fake Discord, which enforces channel permissions; without any one
of those a channel needs, something the game posts is refused. ``arbitre discord --invite`` and the start of
the real process print the link."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.operations.invite import NEEDED, SCOPES, invite_url, permissions_value
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import running_bot
from tests.processes import ROOT, cli_env, terminate
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
CHANNEL_NEEDS = ("VIEW_CHANNEL", "SEND_MESSAGES", "ATTACH_FILES")  # a thread's is not exercised here


def bot_role(fake: ClubDiscord, permissions: int) -> None:
    """As Discord does when the link is opened: @everyone may do nothing, the bot's own role what it asked."""
    guild = fake.guild
    guild.roles[0]["permissions"] = "0"
    role_id = fake.snowflake()
    guild.roles.append(
        {
            "id": str(role_id),
            "name": "Arbitre",
            "permissions": str(permissions),
            "position": 2,
            "color": 0,
            "hoist": False,
            "managed": True,
            "mentionable": False,
            "flags": 0,
        }
    )
    fake.add_member(guild, fake.bot_user)["roles"].append(str(role_id))


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[ClubDiscord]:
    async with ClubDiscord(application_id=123_456_789_012_345_678) as fake:
        yield fake


async def play_a_little(dc: ClubDiscord, storage: SQLiteStorage) -> None:
    """A classic game typed in the channel: a move's answer and the board as an image, posted to the channel."""
    adapter = DiscordAdapter(Referee(storage, LEXICONS), message_content=True)
    async with running_bot(dc, adapter.client, fail_on_errors=False):
        for text in ("!nouvelle Ana Ben", "!coup H8 VAGUE", "!grille"):
            mark = len(dc.responses)
            await dc.send_message(dc.channel, dc.ana, text)
            for _ in range(100):  # the answer (or its refusal) reaches the fake
                if any("/channels/" in path and method == "POST" for method, path, _ in dc.responses[mark:]):
                    break
                await asyncio.sleep(0.05)


def refusals(dc: ClubDiscord) -> list[tuple[str, str, int]]:
    return [response for response in dc.responses if response[2] == 403]


def test_the_link_carries_the_scopes_and_the_permissions() -> None:
    query = parse_qs(urlsplit(invite_url(42)).query)
    assert query["client_id"] == ["42"]
    assert query["scope"] == [" ".join(SCOPES)]
    assert int(query["permissions"][0]) == permissions_value() == sum(bit for bit, _ in NEEDED.values())


@pytest.mark.asyncio
async def test_the_bot_plays_with_the_invites_permissions_only(dc: ClubDiscord, tmp_path: Path) -> None:
    bot_role(dc, permissions_value())
    storage = SQLiteStorage(tmp_path / "club.sqlite")
    try:
        await play_a_little(dc, storage)
    finally:
        storage.close()
    posted = [m for m in dc.log.records if m.channel_id == dc.channel and m.action == "send"]
    assert any("VAGUE" in (m.text or "") for m in posted)
    assert any(m.files for m in posted), "the board's image"
    assert refusals(dc) == []


@pytest.mark.asyncio
@pytest.mark.parametrize("missing", CHANNEL_NEEDS)
async def test_each_permission_asked_for_is_needed(dc: ClubDiscord, tmp_path: Path, missing: str) -> None:
    bot_role(dc, permissions_value() & ~NEEDED[missing][0])
    storage = SQLiteStorage(tmp_path / "club.sqlite")
    try:
        await play_a_little(dc, storage)
    finally:
        storage.close()
    assert refusals(dc), f"nothing refused without {missing}"


@pytest.mark.long(3)
@pytest.mark.asyncio
async def test_the_process_prints_the_link_on_asking_and_at_start(dc: ClubDiscord, tmp_path: Path) -> None:
    env = cli_env(tmp_path, ARBITRE_DISCORD_API=dc.api_base, ARBITRE_DISCORD_TOKEN=dc.token)
    asked = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "discord", "--invite", cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await asyncio.wait_for(asked.communicate(), 60)
    assert asked.returncode == 0
    link = invite_url(dc.application_id)
    assert out.decode().strip() == f"add the bot to a server with {link}"
    started = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "discord",
        "--db",
        str(tmp_path / "bot.sqlite"),
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await dc.wait_until_identified(timeout=30)
    finally:
        code, err = await terminate(started)
    assert code == 0, err
    assert f"arbitre discord: add the bot to a server with {link}" in err
