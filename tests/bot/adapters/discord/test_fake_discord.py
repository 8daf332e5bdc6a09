"""Handshake canaries for the fake Discord: a real discord.py bot must work against it.

If one of these fails after a discord.py upgrade, fix tests/fakes/discord_server.py first.
"""

from __future__ import annotations

import asyncio
import io
import json
import struct
import zlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from multidict import CIMultiDictProxy

from tests.fakes import BotErrors, CommandUnavailable, FakeDiscord, running_bot
from tests.fakes.discord_rules import ApiError, check_autocomplete_choices, option_value_refused
from tests.loop_time import LoopTime


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


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


# --- the fake is as strict as Discord --------------------------------------------------------


@pytest.mark.asyncio
async def test_a_followup_filling_a_deferred_answer_is_served_but_recorded_as_deprecated(
    dc: CanaryDiscord, bot: CanaryBot
) -> None:
    iid = await dc.send_interaction("slow", user=dc.alice, channel_id=dc.guild.channel_id)
    filled = await dc.wait_for_response(iid)
    assert filled.text == "done thinking"
    assert len(dc.deprecations) == 1
    assert "@original" in dc.deprecations[0]


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


def slash_command(**fields: Any) -> dict[str, Any]:
    command = {"name": "score", "type": 1, "description": "Score a move"}
    command.update(fields)
    return command


def option(**fields: Any) -> dict[str, Any]:
    value = {"name": "args", "type": 3, "description": "What to score"}
    value.update(fields)
    return value


BAD_REGISTRATIONS = [
    ("uppercase name", slash_command(name="Score"), ["0", "name"]),
    ("space in a name", slash_command(name="my score"), ["0", "name"]),
    ("33-character name", slash_command(name="s" * 33), ["0", "name"]),
    ("uppercase localised name", slash_command(name_localizations={"fr": "Coup"}), ["0", "name_localizations", "fr"]),
    ("locale not Discord's", slash_command(name_localizations={"fr-FR": "coup"}), ["0", "name_localizations", "fr-FR"]),
    ("empty description", slash_command(description=""), ["0", "description"]),
    ("101-character description", slash_command(description="d" * 101), ["0", "description"]),
    (
        "101-character localised description",
        slash_command(description_localizations={"fr": "d" * 101}),
        ["0", "description_localizations", "fr"],
    ),
    ("uppercase option name", slash_command(options=[option(name="Args")]), ["0", "options", "0", "name"]),
    (
        "uppercase localised option name",
        slash_command(options=[option(name_localizations={"fr": "Arguments"})]),
        ["0", "options", "0", "name_localizations", "fr"],
    ),
    ("empty option description", slash_command(options=[option(description="")]), ["0", "options", "0", "description"]),
    ("26 options", slash_command(options=[option(name=f"o{n}") for n in range(26)]), ["0", "options"]),
    (
        "required after optional",
        slash_command(options=[option(name="a"), option(name="b", required=True)]),
        ["0", "options", "1", "required"],
    ),
    ("same option twice", slash_command(options=[option(), option()]), ["0", "options", "1", "name"]),
    (
        "101-character choice",
        slash_command(options=[option(choices=[{"name": "c" * 101, "value": "c"}])]),
        ["0", "options", "0", "choices", "0", "name"],
    ),
    (
        "26 choices",
        slash_command(options=[option(choices=[{"name": f"c{n}", "value": f"c{n}"} for n in range(26)])]),
        ["0", "options", "0", "choices"],
    ),
    (
        "empty choice name",
        slash_command(options=[option(choices=[{"name": "", "value": "c"}])]),
        ["0", "options", "0", "choices", "0", "name"],
    ),
    (
        "choice localised for a locale not Discord's",
        slash_command(options=[option(choices=[{"name": "c", "name_localizations": {"fr-FR": "c"}, "value": "c"}])]),
        ["0", "options", "0", "choices", "0", "name_localizations", "fr-FR"],
    ),
    (
        "101-character localised choice",
        slash_command(options=[option(choices=[{"name": "c", "name_localizations": {"fr": "c" * 101}, "value": "c"}])]),
        ["0", "options", "0", "choices", "0", "name_localizations", "fr"],
    ),
    ("min_value on a string", slash_command(options=[option(min_value=1)]), ["0", "options", "0"]),
    (
        "choices on a boolean",
        slash_command(options=[option(type=5, choices=[{"name": "y", "value": "y"}])]),
        ["0", "options", "0"],
    ),
    (
        "min_value above max_value",
        slash_command(options=[option(type=4, min_value=9, max_value=1)]),
        ["0", "options", "0"],
    ),
    (
        "over 8000 characters",
        slash_command(
            options=[
                option(name=f"o{n}", description="d" * 100, choices=[{"name": "c" * 100, "value": "v" * 100}] * 25)
                for n in range(2)
            ]
        ),
        ["0"],
    ),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("case", "command", "path"), BAD_REGISTRATIONS, ids=[c[0] for c in BAD_REGISTRATIONS])
async def test_command_registrations_discord_refuses(
    dc: CanaryDiscord, case: str, command: dict[str, Any], path: list[str]
) -> None:
    status, body, _ = await api(dc, "PUT", f"/applications/{dc.application_id}/commands", [command])
    assert status == 400
    assert body["code"] == 50035
    errors = body["errors"]
    for key in path:
        errors = errors[key]
    assert errors["_errors"], case
    assert dc.commands == {}  # nothing registered


def test_the_client_sends_only_values_an_option_takes() -> None:
    # Application Command Option Structure: choices are "the only valid values for a user to pick", and an
    # INTEGER or NUMBER option's min_value/max_value bound what the client lets a user send
    minutes = option(name="minutes", type=4, min_value=1, max_value=10)
    assert option_value_refused(minutes, 3) is None
    assert option_value_refused(minutes, 11) == "11 is above max_value 10"
    assert option_value_refused(minutes, 0) == "0 is below min_value 1"
    assert option_value_refused(minutes, "3") == "'3' is not a whole number"
    assert option_value_refused(minutes, True) == "True is not a whole number"
    rules = option(name="rules", choices=[{"name": "fisf", "value": "fisf"}])
    assert option_value_refused(rules, "fisf") is None
    assert option_value_refused(rules, "scrabble") == "'scrabble' is not one of the choices"
    assert option_value_refused(option(type=5), "yes") == "'yes' is not true or false"


def test_an_autocomplete_answer_holds_choices_discord_takes() -> None:
    # Interaction Response Structure > Autocomplete: at most 25 choices, each an Option Choice (name 1-100)
    check_autocomplete_choices([{"name": "c" * 100, "value": "c", "name_localizations": {"fr": "ç"}}] * 25)
    for choices in (
        [{"name": "c", "value": "c"}] * 26,
        [{"name": "c" * 101, "value": "c"}],
        [{"name": "c", "value": "c", "name_localizations": {"fr-FR": "c"}}],
    ):
        with pytest.raises(ApiError) as refused:
            check_autocomplete_choices(choices)
        assert refused.value.body["code"] == 50035


@pytest.mark.asyncio
async def test_command_registrations_discord_accepts(dc: CanaryDiscord) -> None:
    commands = [
        slash_command(name="café", name_localizations={"fr": "coup", "en-GB": "score", "es-419": "jugada"}),
        slash_command(name="d-_'9", options=[option(required=True), option(name="more", choices=[])]),
        slash_command(name="ทดสอบ"),  # Thai: uncased letters and marks
        {"name": "Show Board", "type": 2, "description": ""},  # USER commands: mixed case, spaces
    ]
    status, body, _ = await api(dc, "PUT", f"/applications/{dc.application_id}/commands", commands)
    assert status == 200, body
    assert set(dc.commands) == {"café", "d-_'9", "ทดสอบ", "Show Board"}


@pytest.mark.asyncio
async def test_commands_are_only_usable_where_registered(dc: CanaryDiscord, bot: CanaryBot) -> None:
    dm = dc.dm_channel_id(dc.alice)
    guild_only = {"name": "guildy", "type": 1, "description": "Guild command"}
    await api(dc, "PUT", f"/applications/{dc.application_id}/guilds/{dc.guild.id}/commands", [guild_only])
    with pytest.raises(CommandUnavailable, match="registered in server .* only"):
        await dc.send_interaction("guildy", user=dc.alice, channel_id=dm)
    dc.available_command("guildy", dc.guild.channel_id, dc.alice)  # fine in the server
    commands = [
        {"name": "serveronly", "type": 1, "description": "x", "contexts": [0]},
        {"name": "nodm", "type": 1, "description": "x", "dm_permission": False},
        {"name": "dmonly", "type": 1, "description": "x", "contexts": [1]},
        {"name": "useronly", "type": 1, "description": "x", "integration_types": [1]},
        {"name": "admins", "type": 1, "description": "x", "default_member_permissions": "32"},
        {"name": "anywhere", "type": 1, "description": "x"},
    ]
    await api(dc, "PUT", f"/applications/{dc.application_id}/commands", commands)
    for name in ("serveronly", "nodm", "useronly"):
        with pytest.raises(CommandUnavailable):
            dc.available_command(name, dm, dc.alice)
    for name in ("dmonly", "useronly", "admins"):
        with pytest.raises(CommandUnavailable):
            dc.available_command(name, dc.guild.channel_id, dc.alice)
    dc.available_command("admins", dc.guild.channel_id, dc.guild.owner_id)
    dc.available_command("anywhere", dm, dc.alice)
    stranger = dc.add_user(username="stranger")  # shares no server with the bot
    with pytest.raises(CommandUnavailable, match="shares no server"):
        dc.available_command("anywhere", dc.dm_channel_id(stranger), stranger)


@pytest.mark.asyncio
async def test_interaction_token_expires_after_15_minutes_of_the_fakes_clock(dc: CanaryDiscord, bot: CanaryBot) -> None:
    iid = await dc.send_interaction("secret", user=dc.alice, channel_id=dc.guild.channel_id)
    await dc.wait_for_response(iid)
    token = dc.interaction_payload(iid)["token"]
    original = f"/webhooks/{dc.application_id}/{token}/messages/@original"
    status, _, _ = await api(dc, "PATCH", original, {"content": "still mine"}, auth=False)
    assert status == 200
    dc.advance(15 * 60 - 5)
    assert (await api(dc, "GET", original, auth=False))[0] == 200
    dc.advance(10)
    status, body, _ = await api(dc, "PATCH", original, {"content": "too late"}, auth=False)
    assert (status, body["code"]) == (401, 50027)
    status, body, _ = await api(dc, "POST", f"/webhooks/{dc.application_id}/{token}", {"content": "x"}, auth=False)
    assert (status, body["code"]) == (401, 50027)
    # a new interaction is answered within its 3 seconds of the fake's clock, or never
    iid = await dc.send_interaction("secret", user=dc.alice, channel_id=dc.guild.channel_id)
    assert (await dc.wait_for_response(iid)).text == "only you"


@pytest.mark.asyncio
async def test_channel_permissions_refuse_the_bots_sends(dc: CanaryDiscord, bot: CanaryBot) -> None:
    channel_id = dc.guild.channel_id
    channel = text_channel(bot, channel_id)
    dc.deny_bot(channel_id)  # Send Messages
    await eventually(lambda: not channel.permissions_for(channel.guild.me).send_messages)  # CHANNEL_UPDATE
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert (refused.value.status, refused.value.code) == (403, 50013)
    iid = await dc.send_interaction("secret", user=dc.alice, channel_id=channel_id)
    assert (await dc.wait_for_response(iid)).text == "only you"  # interactions need no channel permission
    assert int(dc.interaction_payload(iid)["app_permissions"]) & (1 << 11) == 0
    dc.deny_bot(channel_id, 1 << 15)  # Attach Files only: text passes, a file does not
    await channel.send("text")
    with pytest.raises(discord.Forbidden):
        await channel.send(file=discord.File(io.BytesIO(PNG), "board.png"))
    dc.deny_bot(channel_id, 1 << 10)  # View Channel: Missing Access
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert refused.value.code == 50001
    dc.allow_bot(channel_id)
    loop_time = LoopTime()  # the refused sends spent the channel's bucket: discord.py waits out its window
    try:
        await loop_time.hurried(channel.send("back"), at_most=5.0)
    finally:
        loop_time.close()
    assert [m.text for m in dc.messages_in(channel_id) if not m.ephemeral][-2:] == ["text", "back"]


@pytest.mark.asyncio
async def test_every_answer_carries_rate_limit_headers(dc: CanaryDiscord) -> None:
    seen = []
    for _ in range(3):
        status, _, headers = await api(dc, "GET", "/users/@me")
        assert status == 200
        assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After",
                "X-RateLimit-Bucket"} <= set(headers)  # fmt: skip
        seen.append(int(headers["X-RateLimit-Remaining"]))
    assert seen == sorted(seen, reverse=True)
    assert seen[0] > seen[-1]
    status, _, headers = await api(dc, "GET", f"/channels/{dc.guild.channel_id}/messages")
    assert status == 200
    assert "X-RateLimit-Bucket" in headers


@pytest.mark.asyncio
async def test_a_bucket_emptied_gets_429_with_discords_headers() -> None:
    async with FakeDiscord(rate_limits={"GET /users/@me": (2, 30.0)}) as dc:
        assert [(await api(dc, "GET", "/users/@me"))[0] for _ in range(2)] == [200, 200]
        status, body, headers = await api(dc, "GET", "/users/@me")
        assert status == 429
        assert body["retry_after"] > 0
        assert body["global"] is False
        assert headers["X-RateLimit-Remaining"] == "0"
        assert headers["X-RateLimit-Scope"] == "user"
        assert "Via" in headers
        assert int(headers["Retry-After"]) >= 1


@pytest.mark.asyncio
async def test_gateway_is_zlib_stream_compressed_when_asked(dc: CanaryDiscord, bot: CanaryBot) -> None:
    assert dc.gateways
    assert dc.gateways[0].compression == "zlib-stream"
    await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")  # events still arrive
    assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"


# --- fault injection ---------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_fault_server_errors_on_chosen_routes_n_times(dc: CanaryDiscord) -> None:
    messages = f"/channels/{dc.guild.channel_id}/messages"
    dc.server_error_next("POST /channels/{channel_id}/messages", count=2)
    statuses = [(await api(dc, "POST", messages, {"content": "hi"}))[0] for _ in range(3)]
    assert statuses == [500, 500, 200]
    dc.server_error_next("GET *", count=1, status=502)
    assert (await api(dc, "POST", messages, {"content": "hi"}))[0] == 200  # another method: untouched
    assert (await api(dc, "GET", "/users/@me"))[0] == 502
    assert [f.kind for f in dc.faults_served] == ["5xx", "5xx", "5xx"]


@pytest.mark.asyncio
async def test_fault_server_error_is_retried_by_discord_py(dc: CanaryDiscord, bot: CanaryBot) -> None:
    dc.server_error_next("POST /channels/{channel_id}/messages", count=1)
    await text_channel(bot, dc.guild.channel_id).send("after one 500")
    assert (await dc.wait_for_message()).text == "after one 500"
    assert len(dc.faults_of("5xx")) == 1


@pytest.mark.asyncio
async def test_fault_429_burst_is_retried_by_discord_py(dc: CanaryDiscord, bot: CanaryBot) -> None:
    route = "POST /channels/{channel_id}/messages"
    dc.rate_limit_next(route, retry_after=0.05, count=3)
    channel_id = dc.guild.channel_id
    await dc.send_message(channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=channel_id, timeout=3)).text == "pong"
    assert len(dc.faults_of("429")) == 3
    dc.rate_limit_next(route, retry_after=1.5, scope="shared")
    status, body, headers = await api(dc, "POST", f"/channels/{channel_id}/messages", {"content": "x"})
    assert status == 429
    assert body["retry_after"] == 1.5
    assert headers["X-RateLimit-Scope"] == "shared"
    assert headers["Retry-After"] == "2"
    assert "Via" in headers


@pytest.mark.asyncio
async def test_fault_connection_reset(dc: CanaryDiscord, bot: CanaryBot) -> None:
    messages = f"/channels/{dc.guild.channel_id}/messages"
    dc.reset_next("POST /channels/{channel_id}/messages")
    with pytest.raises(aiohttp.ClientOSError):
        await api(dc, "POST", messages, {"content": "lost"})
    assert (await api(dc, "POST", messages, {"content": "sent"}))[0] == 200
    dc.reset_next("GET /users/{user_id}")  # aiohttp itself sends an idempotent request again once
    assert (await api(dc, "GET", f"/users/{dc.alice.id}"))[0] == 200
    dc.reset_next("POST /channels/{channel_id}/messages")
    with pytest.raises(aiohttp.ClientOSError):  # discord.py does not retry a reset on Linux
        await text_channel(bot, dc.guild.channel_id).send("lost")
    await text_channel(bot, dc.guild.channel_id).send("sent again")
    assert [r.text for r in dc.sent if r.action == "send"] == ["sent", "sent again"]
    assert len(dc.faults_of("reset")) == 3


@pytest.mark.asyncio
async def test_fault_gateway_reconnect_resumes_and_replays_missed_events(dc: CanaryDiscord, bot: CanaryBot) -> None:
    assert await dc.gateway_reconnect() == 1
    await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")  # sent while the bot reconnects
    await dc.wait_for_gateway("resumed")
    assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"
    assert dc.gateway_log.count("identify") == 1
    assert len(dc.sessions) == 1


@pytest.mark.asyncio
async def test_fault_gateway_close_4000_resumes_and_4009_identifies_again(dc: CanaryDiscord, bot: CanaryBot) -> None:
    bot.identify_at_once = True
    assert await dc.gateway_close(4000) == 1
    await dc.wait_for_gateway("resumed")
    assert dc.gateway_log.count("identify") == 1
    assert await dc.gateway_close(4009) == 1  # session timed out: its RESUME gets op 9, then IDENTIFY
    await dc.wait_for_gateway("ready", count=2)
    assert dc.gateway_log.count("resume") == 2
    assert "invalid_session:false" in dc.gateway_log
    await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"
    assert [f.kind for f in dc.faults_served] == ["gateway:4000", "gateway:4009"]


@pytest.mark.asyncio
async def test_fault_gateway_connection_reset_resumes(dc: CanaryDiscord, bot: CanaryBot) -> None:
    assert await dc.gateway_drop() == 1
    await dc.wait_for_gateway("resumed")
    await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
    assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"
    assert dc.faults_of("gateway:drop")
    assert dc.gateway_log.count("identify") == 1


@pytest.mark.asyncio
async def test_fault_invalid_session_resumable_or_not(dc: CanaryDiscord, bot: CanaryBot) -> None:
    bot.identify_at_once = True
    await dc.gateway_invalid_session(resumable=True)
    await dc.wait_for_gateway("resumed")
    await dc.gateway_invalid_session(resumable=False)
    await dc.wait_for_gateway("ready", count=2)
    assert dc.gateway_log.count("identify") == 2


@pytest.mark.asyncio
async def test_fault_outage_refuses_everything_until_it_ends(dc: CanaryDiscord) -> None:
    dc.outage(30)
    with pytest.raises(aiohttp.ClientOSError):
        await api(dc, "GET", "/users/@me")
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientError):
            await session.ws_connect(dc.gateway_url)
    dc.advance(20)  # the fake's clock is real time plus what the test advanced: 10 s to spare on a slow machine
    with pytest.raises(aiohttp.ClientOSError):
        await api(dc, "GET", "/users/@me")
    dc.advance(10)  # 30 s of the fake's clock: over
    assert (await api(dc, "GET", "/users/@me"))[0] == 200
    dc.outage(10, mode="unavailable")
    assert (await api(dc, "GET", "/users/@me"))[0] == 503
    dc.end_outage()
    assert (await api(dc, "GET", "/users/@me"))[0] == 200
    assert {f.path for f in dc.faults_of("outage")} == {"/users/@me", "/gateway"}


@pytest.mark.asyncio
async def test_fault_outage_drops_the_gateway_and_discord_py_resumes_after_it(dc: CanaryDiscord) -> None:
    bot = make_bot()
    async with running_bot(dc, bot, reconnect=True):
        dc.outage(30)
        await eventually(lambda: not dc.gateways)
        await eventually(lambda: dc.faults_of("outage"), timeout=3)  # discord.py tried again, refused
        dc.advance(30)
        await dc.wait_for_gateway("resumed", timeout=6)
        await dc.send_message(dc.guild.channel_id, dc.alice, "!ping")
        assert (await dc.wait_for_message(channel_id=dc.guild.channel_id)).text == "pong"


# --- sharding (Topics > Gateway > Sharding) ------------------------------------------------------


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
