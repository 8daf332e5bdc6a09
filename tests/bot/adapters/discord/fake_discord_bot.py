"""What the fake Discord's test modules share: a tiny PNG, ``eventually`` (wait for a condition), ``CanaryBot``
and ``make_bot`` (a real discord.py bot with a few prefix and slash commands), ``CanaryDiscord`` (the fake with a
server of two channels, Alice and Bob), the ``dc`` and ``bot`` fixtures that run them, ``text_channel`` and ``api`` (a
raw REST call to the fake). Not a test module: the test modules import its fixtures as ``dc as dc``."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from multidict import CIMultiDictProxy

from tests.fakes import FakeDiscord, running_bot
from tests.tiny_png import tiny_png

PNG = tiny_png()


async def eventually(condition: Callable[[], object], timeout: float = 1.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            pytest.fail("condition not met in time")
        await asyncio.sleep(0.005)


class CanaryBot(commands.Bot):
    """A discord.py bot that notes when it was ready and the ids its /board answer was given, and may
    identify again at once."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(
            command_prefix="!",
            intents=intents,
            guild_ready_timeout=0.05,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.ready_seen = asyncio.Event()
        self.board_ids: tuple[int | None, int, str] | None = None
        self.identify_at_once = False  # True: no wait before an IDENTIFY (discord.py waits 5 s before a second)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not self.identify_at_once:
            await super().before_identify_hook(shard_id, initial=initial)


def text_channel(bot: commands.Bot, channel_id: int) -> discord.TextChannel:
    """The bot's text channel ``channel_id``."""
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def make_bot(*, message_content: bool = True) -> CanaryBot:
    intents = discord.Intents.default()
    intents.message_content = message_content
    bot = CanaryBot(intents)

    @bot.event
    async def on_ready() -> None:
        bot.ready_seen.set()

    @bot.command()
    async def ping(ctx: commands.Context[commands.Bot]) -> None:
        await ctx.send("pong")

    @bot.command()
    async def ok(ctx: commands.Context[commands.Bot]) -> None:
        await ctx.message.add_reaction("✅")
        await ctx.reply("noted", mention_author=False)

    @bot.command()
    async def boom(ctx: commands.Context[commands.Bot]) -> None:
        raise RuntimeError("prefix command failed")

    @bot.tree.command(name="score", description="Score a move")
    async def score(interaction: discord.Interaction, position: str, word: str, bonus: int = 0) -> None:
        await interaction.response.send_message(f"{word} at {position} (+{bonus})")

    @score.autocomplete("word")
    async def score_word(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=w, value=w)
            for w in ("VAGUE", "VAGUER", "VAGUEST")
            if w.startswith(current.upper())
        ]

    @bot.tree.command(name="secret", description="Private answer")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    @bot.tree.command(name="board", description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        callback = await interaction.response.send_message("board:", file=discord.File(io.BytesIO(PNG), "board.png"))
        original = await interaction.original_response()
        bot.board_ids = (callback.message_id, original.id, original.attachments[0].filename)

    @bot.tree.command(name="slow", description="Deferred answer")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("done thinking")
        await interaction.edit_original_response(content="done thinking (edited)")

    @bot.tree.command(name="crash", description="Raises")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("slash command failed")

    return bot


class CanaryDiscord(FakeDiscord):
    """The fake with a server of two channels, whose members are Alice and Bob (his DMs closed)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.guild = self.add_guild(name="Scrabble club", channels=("general", "games"))
        self.alice = self.add_user(username="alice")
        self.bob = self.add_user(username="bob", dms_open=False)
        self.add_member(self.guild, self.alice)
        self.add_member(self.guild, self.bob)


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[CanaryDiscord]:
    async with CanaryDiscord() as fake:
        yield fake


@pytest_asyncio.fixture
async def bot(dc: CanaryDiscord) -> AsyncIterator[CanaryBot]:
    bot = make_bot()
    async with running_bot(dc, bot):
        await bot.tree.sync()  # global: usable in the guild and in DMs
        yield bot


async def api(
    dc: FakeDiscord, method: str, path: str, body: object = None, *, auth: bool = True
) -> tuple[int, Any, CIMultiDictProxy[str]]:
    """A raw REST call to the fake: (status, JSON body or None, headers)."""
    headers = {"Authorization": f"Bot {dc.token}"} if auth else {}
    async with aiohttp.ClientSession() as session:
        async with session.request(method, dc.api_base + path, json=body, headers=headers) as response:
            text = await response.text()
            data = json.loads(text) if response.content_type == "application/json" and text else None
            return response.status, data, response.headers
