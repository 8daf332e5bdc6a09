"""The Discord tests' shared fixtures: the club's fake Discord, and the adapter as deployed on it (its commands
registered in the club's server). A test file that needs another setting defines its own of the same name."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import running_bot
from tests.ready_lists import ready_registry


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[ClubDiscord]:
    async with ClubDiscord() as fake:
        yield fake


@pytest_asyncio.fixture
async def adapter(dc: ClubDiscord, storage: SQLiteStorage) -> AsyncIterator[DiscordAdapter]:
    adapter = DiscordAdapter(
        Referee(storage, ready_registry()), message_content=True, edit_interval=0.2, tick_seconds=0.05
    )
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        yield adapter
