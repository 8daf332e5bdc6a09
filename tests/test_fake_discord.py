"""Handshake canaries for the fake Discord: a real discord.py bot must work against it.

If one of these fails after a discord.py upgrade, fix tests/fakes/discord_server.py first.
"""

from __future__ import annotations

import asyncio
import io
import struct
import zlib

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.fakes import BotErrors, FakeDiscord, running_bot


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PNG = tiny_png()


async def eventually(condition, timeout: float = 1.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            pytest.fail("condition not met in time")
        await asyncio.sleep(0.005)


def make_bot(*, message_content: bool = True) -> commands.Bot:
    intents = discord.Intents.default()
    intents.message_content = message_content
    bot = commands.Bot(
        command_prefix="!",
        intents=intents,
        guild_ready_timeout=0.05,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    bot.ready_seen = asyncio.Event()

    @bot.event
    async def on_ready() -> None:
        bot.ready_seen.set()

    @bot.command()
    async def ping(ctx: commands.Context) -> None:
        await ctx.send("pong")

    @bot.command()
    async def ok(ctx: commands.Context) -> None:
        await ctx.message.add_reaction("✅")
        await ctx.reply("noted", mention_author=False)

    @bot.command()
    async def boom(ctx: commands.Context) -> None:
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


@pytest_asyncio.fixture
async def dc():
    async with FakeDiscord() as fake:
        fake.guild = fake.add_guild(name="Scrabble club", channels=("general", "games"))
        fake.alice = fake.add_user(username="alice")
        fake.bob = fake.add_user(username="bob", dms_open=False)
        fake.add_member(fake.guild, fake.alice)
        fake.add_member(fake.guild, fake.bob)
        yield fake


@pytest_asyncio.fixture
async def bot(dc):
    bot = make_bot()
    async with running_bot(dc, bot):
        await bot.tree.sync()  # global: usable in the guild and in DMs
        yield bot


@pytest.mark.asyncio
async def test_login_ready_and_prefix_command(dc, bot):
    assert bot.user is not None and bot.user.id == dc.bot_user.id
    assert bot.ready_seen.is_set()
    guild = bot.get_guild(dc.guild.id)
    assert guild is not None and guild.name == "Scrabble club"
    assert {c.name for c in guild.text_channels} == {"general", "games"}
    assert bot.application_id == dc.application_id

    channel_id = dc.guild.channel_id
    await dc.send_message(channel_id, dc.alice, "!ping")
    reply = await dc.wait_for_message(channel_id=channel_id)
    assert reply.text == "pong"
    assert reply.method == "POST /channels/{channel_id}/messages"
    assert reply.payload["allowed_mentions"]["parse"] == []
    # discord.py receives its own message back through the gateway, like on Discord
    await eventually(lambda: any(m.id == reply.message_id and m.author == bot.user for m in bot.cached_messages))


@pytest.mark.asyncio
async def test_slash_command_with_options_and_autocomplete(dc, bot):
    channel_id = dc.guild.channel_id
    iid = await dc.send_interaction(
        "score", {"position": "H8", "word": "VAGUE", "bonus": 2}, user=dc.alice, channel_id=channel_id
    )
    response = await dc.wait_for_response(iid)
    assert response.text == "VAGUE at H8 (+2)"
    assert not response.ephemeral
    assert response.channel_id == channel_id

    choices = await dc.autocomplete(
        "score", {"position": "H8", "word": "vague"}, focused="word", user=dc.alice, channel_id=channel_id
    )
    assert [c["value"] for c in choices] == ["VAGUE", "VAGUER", "VAGUEST"]


@pytest.mark.asyncio
async def test_ephemeral_file_and_deferred_responses(dc, bot):
    channel_id = dc.guild.channel_id
    iid = await dc.send_interaction("secret", user=dc.alice, channel_id=channel_id)
    secret = await dc.wait_for_response(iid)
    assert secret.ephemeral and secret.text == "only you"

    iid = await dc.send_interaction("board", user=dc.alice, channel_id=channel_id)
    board = await dc.wait_for_response(iid)
    assert board.text == "board:"
    assert board.file is not None and board.file.filename == "board.png" and board.file.data == PNG
    stored = dc.messages[board.message_id]
    assert stored["attachments"][0]["width"] == 3
    await eventually(lambda: hasattr(bot, "board_ids"))
    assert bot.board_ids == (board.message_id, board.message_id, "board.png")

    iid = await dc.send_interaction("slow", user=dc.alice, channel_id=channel_id)
    deferred = await dc.wait_for_response(iid, actions=("defer",))
    assert deferred.ephemeral
    filled = await dc.wait_for_response(iid)
    assert filled.text == "done thinking" and filled.ephemeral and filled.message_id == deferred.message_id
    edited = await dc.wait_for_edit(channel_id=channel_id)
    assert edited.text == "done thinking (edited)"


@pytest.mark.asyncio
async def test_guild_sync_then_guild_command(dc, bot):
    guild = discord.Object(dc.guild.id)
    bot.tree.copy_global_to(guild=guild)
    synced = await bot.tree.sync(guild=guild)
    assert {c.name for c in synced} == set(dc.guild_commands[dc.guild.id])
    score = dc.guild_commands[dc.guild.id]["score"]
    assert [o["name"] for o in score["options"]] == ["position", "word", "bonus"]
    iid = await dc.send_interaction(
        "score", {"position": "A1", "word": "ZA"}, user=dc.alice, channel_id=dc.guild.channel_id
    )
    sent_data = dc.interaction_payload(iid)["data"]
    assert sent_data["guild_id"] == str(dc.guild.id)
    assert (await dc.wait_for_response(iid)).text == "ZA at A1 (+0)"


@pytest.mark.asyncio
async def test_dm_to_user_with_closed_dms_is_forbidden(dc, bot):
    alice = await bot.fetch_user(dc.alice.id)
    await alice.send("your rack: AEIRST?")
    dm = await dc.wait_for_dm(dc.alice)
    assert dm.text == "your rack: AEIRST?"

    bob = await bot.fetch_user(dc.bob.id)
    with pytest.raises(discord.Forbidden) as caught:
        await bob.send("your rack")
    assert caught.value.code == 50007 and caught.value.status == 403


@pytest.mark.asyncio
async def test_dm_prefix_command_slash_command_and_reaction(dc, bot):
    dm_channel = dc.dm_channel_id(dc.alice)
    await dc.send_message(dm_channel, dc.alice, "!ping")
    assert (await dc.wait_for_dm(dc.alice)).text == "pong"

    iid = await dc.send_interaction("secret", user=dc.alice, channel_id=dm_channel)
    assert "guild_id" not in dc.interaction_payload(iid)
    assert (await dc.wait_for_response(iid)).text == "only you"

    sent = await dc.send_message(dc.guild.channel_id, dc.alice, "!ok")
    reaction = await dc.wait_for_action("react")
    assert reaction.text == "✅" and reaction.message_id == int(sent["id"])
    reply = await dc.wait_for_message(channel_id=dc.guild.channel_id)
    assert reply.text == "noted" and reply.reply_to == int(sent["id"])


@pytest.mark.asyncio
async def test_rate_limited_request_is_retried(dc, bot):
    dc.rate_limit_next("POST /channels/{channel_id}/messages", retry_after=0.05)
    channel_id = dc.guild.channel_id
    await dc.send_message(channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=channel_id)).text == "pong"
    posts = [r for r in dc.requests if r[0] == "POST" and r[1] == f"/channels/{channel_id}/messages"]
    assert len(posts) == 2


@pytest.mark.asyncio
async def test_content_over_2000_chars_is_rejected(dc, bot):
    channel = bot.get_channel(dc.guild.channel_id)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert caught.value.status == 400 and caught.value.code == 50035
    await channel.send("x" * 2000)
    assert len((await dc.wait_for_message()).text) == 2000


@pytest.mark.asyncio
async def test_command_errors_fail_the_test(dc, bot):
    await dc.send_message(dc.guild.channel_id, dc.alice, "!boom")
    with pytest.raises(BotErrors, match="prefix command failed"):
        await dc.wait_for_message(timeout=1)
    dc.log.errors.clear()

    await dc.send_interaction("crash", user=dc.alice, channel_id=dc.guild.channel_id)
    with pytest.raises(BotErrors, match="slash command failed"):
        await dc.wait_for_message(timeout=1)
    dc.log.errors.clear()


@pytest.mark.asyncio
async def test_without_message_content_intent_prefix_commands_are_blind(dc):
    bot = make_bot(message_content=False)
    async with running_bot(dc, bot):
        await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
        await dc.assert_no_message(0.05)
        # a mention makes the content visible, like on Discord
        seen = asyncio.get_running_loop().create_task(
            bot.wait_for("message", check=lambda m: m.author.id == dc.alice.id, timeout=1)
        )
        await asyncio.sleep(0)
        await dc.send_message(dc.guild.channel_id, dc.alice, f"{dc.bot_user.mention} hello")
        message = await seen
        assert message.content.endswith("hello") and bot.user in message.mentions
