"""The fake Discord is as strict as Discord: a followup filling a deferred answer recorded as deprecated, the
command registrations Discord refuses and accepts, option values and autocomplete choices it takes, commands usable
only where registered, the 15-minute interaction token, channel permissions refusing the bot's sends, the rate-limit
headers and a bucket's 429, and the zlib-stream compressed gateway."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from tests.bot.adapters.discord.fake_discord_bot import (
    PNG,
    CanaryBot,
    CanaryDiscord,
    api,
    eventually,
    text_channel,
)
from tests.bot.adapters.discord.fake_discord_bot import bot as bot
from tests.bot.adapters.discord.fake_discord_bot import dc as dc
from tests.fakes import CommandUnavailable, FakeDiscord
from tests.fakes.discord_rules import ApiError, check_autocomplete_choices, option_value_refused
from tests.loop_time import LoopTime


@pytest.mark.asyncio
async def test_a_followup_filling_a_deferred_answer_is_served_but_recorded_as_deprecated(
    dc: CanaryDiscord, bot: CanaryBot
) -> None:
    iid = await dc.send_interaction("slow", user=dc.alice, channel_id=dc.guild.channel_id)
    filled = await dc.wait_for_response(iid)
    assert filled.text == "done thinking"
    assert len(dc.deprecations) == 1
    assert "@original" in dc.deprecations[0]


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
