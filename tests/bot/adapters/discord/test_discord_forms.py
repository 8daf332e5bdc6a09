"""Discord commands as forms (issue 39, item 1): what is registered (typed options with ranges and choices,
members, subcommands, autocompletion, default member permissions, contexts, French names), and that a form
filled in reaches the same command as the typed line: the same answer, a member picked for the seat, a
value out of range refused by the client before the bot hears it. Real discord.py against the fake
Discord, a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.messages import languages
from bot.referee import Referee
from bot.storage import SQLiteStorage
from core.edition import EDITIONS
from tests.discord_club import ClubDiscord
from tests.fakes import CommandUnavailable, SentMessage, running_bot
from tests.fakes.discord_rules import validate_command
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
MANAGE_GUILD = 1 << 5  # Permissions: MANAGE_GUILD


@pytest_asyncio.fixture
async def adapter(dc: ClubDiscord, storage: SQLiteStorage) -> AsyncIterator[DiscordAdapter]:
    adapter = DiscordAdapter(Referee(storage, LEXICONS), message_content=True, edit_interval=0.2, tick_seconds=0.05)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        await adapter.sync()  # global too: the DM tests
        yield adapter


async def shown(dc: ClubDiscord, iid: int) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: r.text != "…")


def option(command: dict[str, Any], *path: str) -> dict[str, Any]:
    """The registered option (or subcommand) at ``path``."""
    found = command
    for name in path:
        found = next(o for o in found.get("options", []) if o["name"] == name)
    return found


@pytest.mark.asyncio
async def test_the_registered_commands_have_typed_options_choices_subcommands_and_permissions(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    registered = dc.guild_commands[dc.guild.id]
    for index, command in enumerate(registered.values()):
        validate_command(command, index)  # Discord's limits (the fake's rules, each citing the docs)
    assert all(option(c, o["name"]) for c in registered.values() for o in c.get("options", []))
    duplicate = registered["duplicate"]
    minutes = option(duplicate, "minutes")
    assert (minutes["type"], minutes["min_value"], minutes["max_value"]) == (4, 1, 10)
    assert [c["value"] for c in option(duplicate, "format")["choices"]] == ["joker", "7of8", "7and8", "topping"]
    seven = option(duplicate, "format")["choices"][1]
    assert (seven["name"], seven["name_localizations"]) == ("7 of 8", {"fr": "7 sur 8"})  # the labels, localised
    assert option(duplicate, "manual")["type"] == 5  # yes/no
    assert [c["value"] for c in option(registered["new"], "rules")["choices"]] == [
        "box-fr",
        "box-en",
        "fisf",
        "naspa",
        "wespa",
    ]
    assert option(registered["score"], "player")["type"] == 6  # a member picker for @PLAYER
    assert option(registered["sheet"], "game")["autocomplete"] is True
    assert option(registered["penalty"], "player")["autocomplete"] is True
    subs = {o["name"]: o for o in registered["simultane"]["options"]}
    assert {"create", "join", "start", "ranking", "admit", "refuse", "export", "status", "show"} <= set(subs)
    assert all(o["type"] == 1 for o in subs.values())  # subcommands
    assert subs["join"]["name_localizations"] == {"fr": "rejoindre"}
    assert option(registered["simultane"], "join", "code")["required"] is True
    assert {o["name"] for o in registered["series"]["options"]} == {"show", "new", "add", "remove", "end", "export"}
    settings = registered["settings"]
    assert [o["name"] for o in settings["options"]] == [
        *("show", "language", "edition", "notation", "rules", "lexicon", "minutes", "timezone"),
        *("penalty", "double", "void", "zeros", "clock"),  # a running classic game's
    ]
    assert option(settings, "timezone")["name_localizations"] == {"fr": "fuseau"}
    assert [c["value"] for c in option(settings, "edition", "value")["choices"]][:2] == ["fr", "en"]
    double = option(settings, "double", "value")["choices"]
    assert [(c["value"], c["name"], c["name_localizations"]["fr"]) for c in double] == [
        ("yes", "yes", "oui"),
        ("no", "no", "non"),
    ]
    assert option(settings, "lexicon", "value")["autocomplete"] is True
    assert option(settings, "timezone", "value")["autocomplete"] is True
    minutes = option(settings, "minutes", "value")
    assert (minutes["type"], minutes["min_value"], minutes["max_value"], minutes["required"]) == (10, 0.05, 10, True)
    assert (option(settings, "penalty", "value")["type"], option(settings, "penalty", "value")["max_value"]) == (4, 50)
    clock = option(settings, "clock", "clock")
    assert [(c["value"], c["name_localizations"]["fr"]) for c in clock["choices"]] == [
        ("on", "pendule"),
        ("stopwatch", "chrono"),
        ("off", "aucune"),
    ]
    assert int(registered["words"]["default_member_permissions"]) == MANAGE_GUILD  # admins only
    assert registered["score"]["default_member_permissions"] is None
    assert registered["view"]["contexts"] == [0]  # a room's live page: guilds only
    assert option(registered["play"], "word")["name_localizations"] == {"fr": "mot"}
    assert option(registered["play"], "word")["description_localizations"]["fr"].startswith("Le mot")


def labels(choices: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """Each choice's value, its name and its French name."""
    return [(c["value"], c["name"], c.get("name_localizations", {}).get("fr", c["name"])) for c in choices]


@pytest.mark.asyncio
async def test_a_choice_shows_a_name_a_person_reads_its_value_the_code(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    registered = dc.guild_commands[dc.guild.id]
    settings = registered["settings"]
    # a language by the name its own catalog gives it, an edition by its name: the same to every reader
    assert labels(option(settings, "language", "value")["choices"]) == [
        ("en", "English", "English"),
        ("fr", "Français", "Français"),
    ]
    editions = labels(option(settings, "edition", "value")["choices"])
    assert editions[:3] == [
        ("fr", "Français (FISF)", "Français (FISF)"),
        ("en", "English", "English"),
        ("ca", "Català (FISC)", "Català (FISC)"),
    ]
    assert [value for value, _, _ in editions] == list(EDITIONS)
    assert labels(option(registered["new"], "language")["choices"]) == [
        ("fr", "Français (FISF)", "Français (FISF)"),
        ("en", "English", "English"),
    ]
    assert labels(option(registered["view"], "what")["choices"]) == [
        ("stop", "stop the live page", "arrêter la page en direct"),
        ("simultane", "a simultané's page", "la page d'un simultané"),
    ]
    codes = {*EDITIONS, *languages()}
    for command in registered.values():
        for choices in choices_of(command):
            shown = [name for _, *names in labels(choices) for name in names]
            assert not codes & set(shown), (command["name"], shown)  # never a bare code


def choices_of(command: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The choices of each option of a command, its subcommands' included."""
    found: list[list[dict[str, Any]]] = []
    for item in command.get("options", []):
        if item.get("choices"):
            found.append(item["choices"])
        found += choices_of(item)
    return found


@pytest.mark.asyncio
async def test_a_form_filled_in_gives_the_answer_of_the_typed_line(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    dm = dc.dm_channel_id(dc.ben)
    for options, typed in (
        ({"position": "H8", "word": "VAGUE"}, "!calcul H8 VAGUE"),
        ({"position": "8H", "word": "KAYAKS"}, "!calcul 8H KAYAKS"),
    ):
        formed = await shown(dc, await dc.send_interaction("calc", options, user=dc.ben, channel_id=dm))
        await dc.send_message(dm, dc.ben, typed)
        answered = await dc.wait_for_dm(dc.ben)
        assert formed.text == answered.text
        assert options["word"] in formed.text
    checked = await shown(dc, await dc.send_interaction("check", {"words": "VAGUE ZZZQ"}, user=dc.ben, channel_id=dm))
    await dc.send_message(dm, dc.ben, "!verif VAGUE ZZZQ")
    assert checked.text == (await dc.wait_for_dm(dc.ben)).text


@pytest.mark.asyncio
async def test_a_member_picked_in_the_form_is_the_seat_the_move_is_recorded_for(
    dc: ClubDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    started = await shown(
        dc, await dc.send_interaction("new", {"players": "Ana Ben"}, user=dc.ana, channel_id=dc.channel)
    )
    assert "Ana" in started.text
    assert "Ben" in started.text
    await shown(
        dc, await dc.send_interaction("score", {"position": "H8", "word": "VAGUE"}, user=dc.ana, channel_id=dc.channel)
    )
    options = {"position": "9H", "word": "AVE", "player": dc.ben}  # the referee, for Ben
    scored = await shown(dc, await dc.send_interaction("score", options, user=dc.ana, channel_id=dc.channel))
    assert "Ben" in scored.text
    record = storage.active_game(f"discord:{dc.channel}")
    assert record is not None
    played = [e.data for e in storage.events(record.id) if e.data.get("kind") == "play"]
    assert [p["player"] for p in played] == ["Ana", "Ben"]


@pytest.mark.asyncio
async def test_a_value_out_of_range_or_not_a_choice_is_refused_by_the_client(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    with pytest.raises(CommandUnavailable, match="above max_value 10"):
        await dc.send_interaction("duplicate", {"minutes": 90}, user=dc.ana, channel_id=dc.channel)
    with pytest.raises(CommandUnavailable, match="not one of the choices"):
        await dc.send_interaction("new", {"rules": "scrabble"}, user=dc.ana, channel_id=dc.channel)
    with pytest.raises(CommandUnavailable, match="not a whole number"):
        await dc.send_interaction("sheet", {"game": "two"}, user=dc.ana, channel_id=dc.channel)
    with pytest.raises(CommandUnavailable, match="default_member_permissions"):
        await dc.send_interaction("words add", {"words": "KWYJIBO"}, user=dc.ben, channel_id=dc.channel)
    assert not [r for r in dc.log.records if r.action == "send"]  # the bot never heard any of them
    # within range, a value the grammar refuses is still the command's to refuse, politely
    answered = await shown(dc, await dc.send_interaction("sheet", {"game": 7}, user=dc.ana, channel_id=dc.channel))
    assert answered.ephemeral
    assert "7" in answered.text


@pytest.mark.asyncio
async def test_games_and_house_words_are_offered_while_typed(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    await shown(dc, await dc.send_interaction("new", {"players": "Ana Ben"}, user=dc.ana, channel_id=dc.channel))
    games = await dc.autocomplete("sheet", focused="game", user=dc.ben, channel_id=dc.channel)
    assert [c["value"] for c in games] == [1]
    assert games[0]["name"].startswith("1 · classic · ")  # the user's language (en-US)
    added = await dc.send_interaction("words add", {"words": "KWYJIBO"}, user=dc.ana, channel_id=dc.channel)
    assert "KWYJIBO" in (await shown(dc, added)).text
    offered = await dc.autocomplete(
        "words remove", {"words": "kw"}, focused="words", user=dc.ana, channel_id=dc.channel
    )
    assert [c["value"] for c in offered] == ["KWYJIBO"]
    zones = await dc.autocomplete(
        "settings timezone", {"value": "europe/par"}, focused="value", user=dc.ana, channel_id=dc.channel
    )
    assert [c["value"] for c in zones] == ["Europe/Paris"]
    topics = await dc.autocomplete("help", {"topic": "dup"}, focused="topic", user=dc.ana, channel_id=dc.channel)
    assert "duplicate" in [c["value"] for c in topics]


@pytest.mark.asyncio
async def test_a_subcommand_runs_the_typed_line_it_stands_for(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    made = await shown(
        dc, await dc.send_interaction("series new", {"name": "Hiver"}, user=dc.ana, channel_id=dc.channel)
    )
    assert "Hiver" in made.text
    shown_series = await shown(dc, await dc.send_interaction("series show", None, user=dc.ben, channel_id=dc.channel))
    assert "Hiver" in shown_series.text
    changed = await shown(
        dc, await dc.send_interaction("settings minutes", {"value": 2}, user=dc.ana, channel_id=dc.channel)
    )
    assert ", 2 min par coup" in changed.text
