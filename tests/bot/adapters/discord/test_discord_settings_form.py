"""/settings (/reglages) as a subcommand per setting (issue 39): each setting's value is a choice, a number
within its range or words offered while typed, and the form reaches the same command as the typed line
(``/reglages pendule chrono 90``, still typed on Telegram and the console). Real discord.py against the fake
Discord (its client refusing a missing value, a value out of range or not a choice), a real SQLite file."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import CommandUnavailable, SentMessage


async def shown(dc: ClubDiscord, iid: int) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: r.text != "…", timeout=15)


async def formed(dc: ClubDiscord, name: str, options: dict[str, Any] | None = None) -> str:
    """The answer to the settings' form filled in by Ana, the channel's admin."""
    return (await shown(dc, await dc.send_interaction(name, options, user=dc.ana, channel_id=dc.channel))).text


async def typed(dc: ClubDiscord, line: str) -> str:
    """The answer to the line Ana types in the channel."""
    await dc.send_message(dc.channel, dc.ana, line)
    return (await dc.wait_for_message(lambda r: not r.interaction_id, channel_id=dc.channel)).text


@pytest.mark.asyncio
async def test_each_channel_setting_has_its_subcommand_and_reads_as_typed(
    dc: ClubDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    for name, options, line in (
        ("settings minutes", {"value": 0.5}, "!reglages minutes 0,5"),
        ("settings notation", {"value": "gcg"}, "!reglages notation gcg"),
        ("settings timezone", {"value": "America/Montreal"}, "!reglages fuseau America/Montreal"),
        ("settings rules", {"value": "fisf"}, "!reglages regles fisf"),
        ("settings language", {"value": "fr"}, "!settings language fr"),
    ):
        assert await formed(dc, name, options) == await typed(dc, line), name
    settings = storage.channel(f"discord:{dc.channel}")
    assert (settings.minutes, settings.notation, settings.zone, settings.rules) == (
        0.5,
        "gcg",
        "America/Montreal",
        "fisf",
    )
    assert await formed(dc, "settings show") == await typed(dc, "!reglages")


@pytest.mark.asyncio
async def test_a_running_classic_game_s_clock_and_challenges_through_the_form(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    await formed(dc, "new", {"players": "Ana Ben"})
    stopwatch = await formed(dc, "settings clock", {"clock": "stopwatch", "time": 90})
    assert "90" in stopwatch
    assert stopwatch == await typed(dc, "!reglages pendule chrono 90")
    chess = await formed(dc, "settings clock", {"clock": "on", "time": 25})
    assert "25" in chess
    assert chess == await typed(dc, "!reglages pendule oui 25") == await typed(dc, "!reglages pendule 25")
    assert await formed(dc, "settings clock", {"clock": "off"}) == await typed(dc, "!reglages pendule non")
    assert await formed(dc, "settings penalty", {"value": 10}) == await typed(dc, "!reglages penalite 10")
    assert await formed(dc, "settings double", {"value": "yes"}) == await typed(dc, "!reglages double oui")
    assert await formed(dc, "settings void", {"value": "no"}) == await typed(dc, "!reglages nulle non")
    # a value the game refuses for its mode (a stopwatch of 5 s) is the command's to refuse, politely, quoting
    # the words a French room types for it, not the grammar's English words the form wrote
    refused = await shown(
        dc,
        await dc.send_interaction(
            "settings clock", {"clock": "stopwatch", "time": 5}, user=dc.ana, channel_id=dc.channel
        ),
    )
    assert refused.ephemeral
    assert refused.text.startswith("Pendule : « chrono 5 » impossible.")
    assert (
        refused.text
        == await typed(dc, "!reglages pendule chrono 5")
        == await typed(dc, "!reglages pendule stopwatch 5")
    )


@pytest.mark.asyncio
async def test_an_english_room_s_refusal_quotes_english_words(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    await formed(dc, "settings language", {"value": "en"})
    await formed(dc, "new", {"players": "Ana Ben"})
    refused = await formed(dc, "settings clock", {"clock": "stopwatch", "time": 5})
    assert refused.startswith('Clock: "stopwatch 5" is not possible.')
    assert refused == await typed(dc, "!settings clock stopwatch 5") == await typed(dc, "!settings clock chrono 5")
    too_long = await formed(dc, "settings clock", {"clock": "on", "time": 601})  # a chess clock: 600 min at most
    assert too_long.startswith('Clock: "yes 601" is not possible.')
    assert too_long == await typed(dc, "!settings clock oui 601")


@pytest.mark.asyncio
async def test_a_missing_value_one_out_of_range_or_not_a_choice_is_refused_by_the_client(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    for name, options, reason in (
        ("settings minutes", {"value": 20}, "above max_value 10"),
        ("settings minutes", {"value": 0.01}, "below min_value 0.05"),
        ("settings penalty", {"value": 80}, "above max_value 50"),
        ("settings edition", {"value": "klingon"}, "not one of the choices"),
        ("settings double", {"value": "maybe"}, "not one of the choices"),
        ("settings clock", {"time": 25}, "required option clock not given"),
        ("settings timezone", None, "required option value not given"),
    ):
        with pytest.raises(CommandUnavailable, match=reason):
            await dc.send_interaction(name, options, user=dc.ana, channel_id=dc.channel)
    assert not [r for r in dc.log.records if r.action == "send"]  # the bot never heard any of them
    with pytest.raises(CommandUnavailable, match="no option setting"):  # the free-text form is gone
        await dc.send_interaction("settings show", {"setting": "minutes"}, user=dc.ana, channel_id=dc.channel)


@pytest.mark.asyncio
async def test_the_values_are_offered_while_typed(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    lists = await dc.autocomplete(
        "settings lexicon", {"value": "f"}, focused="value", user=dc.ana, channel_id=dc.channel
    )
    assert "fr" in [c["value"] for c in lists]
    assert {c["value"]: c["name"] for c in lists}["fr"] == "fr · Français (FISF)"  # with its edition's name
    zones = await dc.autocomplete(
        "settings timezone", {"value": "montreal"}, focused="value", user=dc.ana, channel_id=dc.channel
    )
    assert [c["value"] for c in zones] == ["America/Montreal"]
