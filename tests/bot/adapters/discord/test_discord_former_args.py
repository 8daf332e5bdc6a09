"""After an upgrade, until ``arbitre discord --sync`` registers the forms, Discord's clients still send the
commands as registered before them: one free-text option ``args`` (none when left empty). The bot reads
``args`` as the typed line, whatever the command's form is now (options, or subcommands that the client knows
nothing of), and answers as the form or the typed line would, instead of failing the command. Real discord.py
against the fake Discord, its registrations those of the release before the forms."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import CommandUnavailable, SentMessage

FORMER = ("settings", "score", "new", "moves", "correct")  # registered as the release before the forms did


def registered_before_the_forms(dc: ClubDiscord, names: tuple[str, ...]) -> None:
    """The club's server keeps these commands as they were registered before the forms: one optional
    free-text ``args`` option each (described by the command's usage), no subcommands."""
    commands = dc.guild_commands[dc.guild.id]
    for name in names:
        former = {key: value for key, value in commands[name].items() if key != "options"}
        former["options"] = [{"type": 3, "name": "args", "description": "ARGS", "required": False}]
        commands[name] = former


async def shown(dc: ClubDiscord, iid: int) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: r.text != "…", timeout=15)


async def sent(dc: ClubDiscord, name: str, args: str | None, user: Any = None) -> SentMessage:
    options = {"args": args} if args is not None else None
    return await shown(dc, await dc.send_interaction(name, options, user=user or dc.ana, channel_id=dc.channel))


async def typed(dc: ClubDiscord, line: str) -> str:
    await dc.send_message(dc.channel, dc.ana, line)
    return (await dc.wait_for_message(lambda r: not r.interaction_id, channel_id=dc.channel, timeout=15)).text


@pytest.mark.asyncio
async def test_the_former_free_text_option_is_read_as_the_typed_line(
    dc: ClubDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    registered_before_the_forms(dc, FORMER)
    with pytest.raises(CommandUnavailable, match="no subcommand minutes"):  # the client knows the former form only
        await dc.send_interaction("settings minutes", {"value": 2}, user=dc.ana, channel_id=dc.channel)
    # /settings has subcommands now: sent bare or with its former text, it still runs
    assert (await sent(dc, "settings", None)).text == await typed(dc, "!reglages")
    changed = await sent(dc, "settings", "minutes 2")
    assert ", 2 min par coup" in changed.text
    assert changed.text == await typed(dc, "!reglages minutes 2")
    # /new and /score have typed options, some required, that the client does not send
    started = await sent(dc, "new", "Ana Ben")
    assert "Ana" in started.text
    assert "Ben" in started.text
    await sent(dc, "score", "H8 VAGUE")
    await sent(dc, "score", "9H AVE @Ben")  # the referee for Ben's seat, typed
    record = storage.active_game(f"discord:{dc.channel}")
    assert record is not None
    played = [e.data for e in storage.events(record.id) if e.data.get("kind") == "play"]
    assert [p["player"] for p in played] == ["Ana", "Ben"]
    moves = await sent(dc, "moves", "Ben", user=dc.ben)
    assert "AVE" in moves.text
    # a command the form would refuse is the command's to refuse, politely, as typed
    refused = await sent(dc, "correct", "Ben 1 30")
    assert refused.ephemeral
    assert refused.text == await typed(dc, "!corrige Ben 1 30")
