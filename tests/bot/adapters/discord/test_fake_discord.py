"""Handshake canaries for the fake Discord: a real discord.py bot must work against it, and if one of these fails
after a discord.py upgrade, fix tests/fakes/discord_server.py first. They cover login and READY, prefix and slash
commands with options and autocomplete, ephemeral, file and deferred answers, guild sync, direct messages (closed ones
refused), reactions and replies, a retried 429, the 2000-character limit, command errors failing the test, and a bot
without the message content intent."""

from __future__ import annotations

import discord
import pytest

from tests.bot.adapters.discord.fake_discord_bot import (
    PNG,
    CanaryBot,
    CanaryDiscord,
    eventually,
    make_bot,
    text_channel,
)
from tests.bot.adapters.discord.fake_discord_bot import bot as bot
from tests.bot.adapters.discord.fake_discord_bot import dc as dc
from tests.fakes import BotErrors, running_bot


@pytest.mark.asyncio
async def test_login_ready_and_prefix_command(dc: CanaryDiscord, bot: CanaryBot) -> None:
    assert bot.user is not None
    assert bot.user.id == dc.bot_user.id
    assert bot.ready_seen.is_set()
    guild = bot.get_guild(dc.guild.id)
    assert guild is not None
    assert guild.name == "Scrabble club"
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
async def test_slash_command_with_options_and_autocomplete(dc: CanaryDiscord, bot: CanaryBot) -> None:
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
async def test_ephemeral_file_and_deferred_responses(dc: CanaryDiscord, bot: CanaryBot) -> None:
    channel_id = dc.guild.channel_id
    iid = await dc.send_interaction("secret", user=dc.alice, channel_id=channel_id)
    secret = await dc.wait_for_response(iid)
    assert secret.ephemeral
    assert secret.text == "only you"

    iid = await dc.send_interaction("board", user=dc.alice, channel_id=channel_id)
    board = await dc.wait_for_response(iid)
    assert board.text == "board:"
    assert board.file is not None
    assert board.file.filename == "board.png"
    assert board.file.data == PNG
    assert board.message_id is not None
    stored = dc.messages[board.message_id]
    assert stored["attachments"][0]["width"] == 3
    await eventually(lambda: bot.board_ids is not None)
    assert bot.board_ids == (board.message_id, board.message_id, "board.png")

    iid = await dc.send_interaction("slow", user=dc.alice, channel_id=channel_id)
    deferred = await dc.wait_for_response(iid, actions=("defer",))
    assert deferred.ephemeral
    filled = await dc.wait_for_response(iid)
    assert filled.text == "done thinking"
    assert filled.ephemeral
    assert filled.message_id == deferred.message_id
    edited = await dc.wait_for_edit(channel_id=channel_id)
    assert edited.text == "done thinking (edited)"


@pytest.mark.asyncio
async def test_guild_sync_then_guild_command(dc: CanaryDiscord, bot: CanaryBot) -> None:
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
async def test_dm_to_user_with_closed_dms_is_forbidden(dc: CanaryDiscord, bot: CanaryBot) -> None:
    alice = await bot.fetch_user(dc.alice.id)
    await alice.send("your rack: AEIRST?")
    dm = await dc.wait_for_dm(dc.alice)
    assert dm.text == "your rack: AEIRST?"

    bob = await bot.fetch_user(dc.bob.id)
    with pytest.raises(discord.Forbidden) as caught:
        await bob.send("your rack")
    assert caught.value.code == 50007
    assert caught.value.status == 403


@pytest.mark.asyncio
async def test_dm_prefix_command_slash_command_and_reaction(dc: CanaryDiscord, bot: CanaryBot) -> None:
    dm_channel = dc.dm_channel_id(dc.alice)
    await dc.send_message(dm_channel, dc.alice, "!ping")
    assert (await dc.wait_for_dm(dc.alice)).text == "pong"

    iid = await dc.send_interaction("secret", user=dc.alice, channel_id=dm_channel)
    assert "guild_id" not in dc.interaction_payload(iid)
    assert (await dc.wait_for_response(iid)).text == "only you"

    sent = await dc.send_message(dc.guild.channel_id, dc.alice, "!ok")
    reaction = await dc.wait_for_action("react")
    assert reaction.text == "✅"
    assert reaction.message_id == int(sent["id"])
    reply = await dc.wait_for_message(channel_id=dc.guild.channel_id)
    assert reply.text == "noted"
    assert reply.reply_to == int(sent["id"])


@pytest.mark.asyncio
async def test_rate_limited_request_is_retried(dc: CanaryDiscord, bot: CanaryBot) -> None:
    dc.rate_limit_next("POST /channels/{channel_id}/messages", retry_after=0.05)
    channel_id = dc.guild.channel_id
    await dc.send_message(channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=channel_id)).text == "pong"
    posts = [r for r in dc.requests if r[0] == "POST" and r[1] == f"/channels/{channel_id}/messages"]
    assert len(posts) == 2


@pytest.mark.asyncio
async def test_content_over_2000_chars_is_rejected(dc: CanaryDiscord, bot: CanaryBot) -> None:
    channel = text_channel(bot, dc.guild.channel_id)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert caught.value.status == 400
    assert caught.value.code == 50035
    await channel.send("x" * 2000)
    assert len((await dc.wait_for_message()).text) == 2000


@pytest.mark.asyncio
async def test_command_errors_fail_the_test(dc: CanaryDiscord, bot: CanaryBot) -> None:
    await dc.send_message(dc.guild.channel_id, dc.alice, "!boom")
    with pytest.raises(BotErrors, match="prefix command failed"):
        await dc.wait_for_message(timeout=1)
    dc.log.errors.clear()

    await dc.send_interaction("crash", user=dc.alice, channel_id=dc.guild.channel_id)
    with pytest.raises(BotErrors, match="slash command failed"):
        await dc.wait_for_message(timeout=1)
    dc.log.errors.clear()


@pytest.mark.asyncio
async def test_without_message_content_intent_prefix_commands_are_blind(dc: CanaryDiscord) -> None:
    bot = make_bot(message_content=False)
    seen: list[discord.Message] = []

    async def note(message: discord.Message) -> None:
        seen.append(message)

    bot.add_listener(note, "on_message")
    async with running_bot(dc, bot):
        await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
        # a mention makes the content visible, like on Discord
        await dc.send_message(dc.guild.channel_id, dc.alice, f"{dc.bot_user.mention} hello")
        await eventually(lambda: len(seen) == 2)
        ping, mention = seen
        assert ping.content == ""  # the bot cannot read the command: it never runs it
        assert mention.content.endswith("hello")
        assert bot.user in mention.mentions
        assert dc.sent == []  # and nothing was answered, before the mention was seen
