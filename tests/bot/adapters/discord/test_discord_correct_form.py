"""The duplicate arbiter's /correct (/corrige) as a form (issue 39): a subcommand for each correction (the move
judged again, its points entered, its sanction lifted), the player picked as a member or a seat without an
account typed by name, the move as a whole number, each reaching the same command as the typed line
``/corrige JOUEUR COUP ...``. Real discord.py against the fake Discord (its client refusing a missing option or
a number out of range), a real SQLite file."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import CommandUnavailable, SentMessage


async def shown(dc: ClubDiscord, iid: int) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: r.text != "…", timeout=15)


async def formed(dc: ClubDiscord, name: str, options: dict[str, Any]) -> SentMessage:
    """The answer to the form filled in by Ana, the game's referee."""
    return await shown(dc, await dc.send_interaction(name, options, user=dc.ana, channel_id=dc.channel))


async def typed(dc: ClubDiscord, line: str) -> str:
    """The answer to the line Ana types in the channel (the close's images, drawn after its results and posted
    whenever they are ready, are not it)."""
    await dc.send_message(dc.channel, dc.ana, line)
    answer = await dc.wait_for_message(
        lambda r: not r.interaction_id and not r.files, channel_id=dc.channel, timeout=15
    )
    return answer.text


async def one_closed_move(dc: ClubDiscord) -> None:
    """A duplicate game whose first move Ben answered wrongly, then closed."""
    await formed(dc, "duplicate", {"minutes": 3, "manual": True})
    await formed(dc, "draw", {"letters": "ACEHNTZ"})
    await shown(
        dc, await dc.send_interaction("play", {"position": "H4", "word": "CHANTE"}, user=dc.ben, channel_id=dc.channel)
    )
    await dc.send_interaction("close", None, user=dc.ana, channel_id=dc.channel)
    await dc.wait_for_message(lambda r: (r.text or "").startswith("Coup 1 clos"), channel_id=dc.channel, timeout=15)


@pytest.mark.asyncio
async def test_the_registered_form_has_a_subcommand_for_each_correction(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    correct = dc.guild_commands[dc.guild.id]["correct"]
    subs = {o["name"]: o for o in correct["options"]}
    assert list(subs) == ["word", "score", "lift"]
    assert all(sub["type"] == 1 for sub in subs.values())
    assert subs["lift"]["name_localizations"] == {"fr": "lever"}
    options = {o["name"]: o for o in subs["word"]["options"]}
    assert [name for name, o in options.items() if o.get("required")] == ["move", "position", "word"]
    assert options["player"]["type"] == 6  # a member picker
    assert options["seat"]["autocomplete"] is True  # a seat without an account, offered by name
    assert (options["move"]["type"], options["move"]["min_value"]) == (4, 1)
    score = {o["name"]: o for o in subs["score"]["options"]}["score"]
    assert (score["type"], score["min_value"], score["required"]) == (4, 0, True)
    assert {o["name"]: o for o in subs["lift"]["options"]}["reason"]["required"] is True


@pytest.mark.asyncio
async def test_each_correction_through_the_form_answers_as_the_typed_line(
    dc: ClubDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    await one_closed_move(dc)
    options = {"player": dc.ben, "move": 1, "position": "H4", "word": "CHANTEZ", "reason": "bulletin mal lu"}
    judged = await formed(dc, "correct word", options)
    assert "Ben" in judged.text
    assert judged.text == await typed(dc, "!corrige Ben 1 H4 CHANTEZ bulletin mal lu")
    scored = await formed(dc, "correct score", {"seat": "Ben", "move": 1, "score": 30, "reason": "relu"})
    assert "30" in scored.text
    assert scored.text == await typed(dc, "!corrige Ben 1 30 relu")
    lifted = await formed(dc, "correct lift", {"player": dc.ben, "move": 1, "reason": "horloge"})
    assert lifted.text == await typed(dc, "!corrige Ben 1 lever horloge")  # no sanction there: both refused alike
    record = storage.games(f"discord:{dc.channel}")[-1]
    corrections = [e.data for e in storage.events(record.id) if e.data.get("kind") in ("correct", "score")]
    assert len(corrections) == 4  # the form's and the typed line's, twice each


@pytest.mark.asyncio
async def test_a_missing_move_or_a_number_out_of_range_is_refused_by_the_client(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    for name, options, reason in (
        ("correct word", {"seat": "Ben", "position": "H4", "word": "CHANTEZ"}, "required option move not given"),
        ("correct word", {"seat": "Ben", "move": 1, "word": "CHANTEZ"}, "required option position not given"),
        ("correct word", {"seat": "Ben", "move": 0, "position": "H4", "word": "X"}, "below min_value 1"),
        ("correct score", {"seat": "Ben", "move": 1, "score": -5}, "below min_value 0"),
        ("correct score", {"seat": "Ben", "move": "one", "score": 5}, "not a whole number"),
        ("correct lift", {"seat": "Ben", "move": 1}, "required option reason not given"),
        ("correct", {"correction": "Ben 1 30"}, "a subcommand must be chosen"),
    ):
        with pytest.raises(CommandUnavailable, match=reason):
            await dc.send_interaction(name, options, user=dc.ana, channel_id=dc.channel)
    assert not [r for r in dc.log.records if r.action == "send"]  # the bot never heard any of them
