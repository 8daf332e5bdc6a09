"""The Discord adapter in a classic game, end to end (real discord.py against the fake Discord, a real SQLite
file, the bundled French word list): slash commands answered publicly or privately, deferred then answered by
editing the original response, mentions read as display names, errors shown to their author only, commands in DMs
(they need the global sync), prefix commands with and without the message content intent, and autocompletion."""

from __future__ import annotations

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.storage import SQLiteStorage
from tests.bot.adapters.discord.discord_adapter_club import AdapterDiscord, answer, make_adapter, plays, slash
from tests.bot.adapters.discord.discord_adapter_club import adapter as adapter  # the club's adapter
from tests.bot.adapters.discord.discord_adapter_club import dc as dc  # the club's fake Discord
from tests.bot.adapters.discord.discord_adapter_club import no_logged_errors as no_logged_errors  # autouse
from tests.fakes import CommandUnavailable, running_bot

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# --- a classic game --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_classic_game_score_challenge_board(
    dc: AdapterDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    iid = await slash(dc, "new", "Ana Ben")
    assert "Joueurs : Ana, Ben" in (await answer(dc, iid)).text

    iid = await slash(dc, "score", "H8 VAGUE")
    scored = await answer(dc, iid)
    assert "VAGUE (4+1+2+1+1x2)x2 = 20" in scored.text
    assert not scored.ephemeral
    assert scored.channel_id == dc.channel

    iid = await slash(dc, "challenge", user=dc.ben)
    deferred = await dc.wait_for_response(iid, actions=("defer",))
    assert not deferred.ephemeral
    challenged = await answer(dc, iid)
    assert "VAGUE valable" in challenged.text
    assert not challenged.ephemeral

    iid = await slash(dc, "board", user=dc.ben)
    board = await answer(dc, iid)
    assert board.file is not None
    assert board.file.filename == "board.png"
    assert board.file.data.startswith(PNG_MAGIC)
    assert board.text.startswith("Coup 3 · ")
    assert board.text.count("```") == 2
    assert len(plays(storage, dc.channel)) == 1


@pytest.mark.asyncio
async def test_mentions_become_display_names(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    iid = await slash(dc, "new", f"{dc.ana.mention} <@!{dc.ben.id}>")
    assert "Joueurs : Ana, Ben" in (await answer(dc, iid)).text
    await dc.send_message(dc.channel, dc.ana, f"!nouvelle {dc.cleo.mention} {dc.ben.mention} !")
    assert "Joueurs : Cleo, Ben" in (await dc.wait_for_message(channel_id=dc.channel)).text


@pytest.mark.asyncio
async def test_errors_answer_only_the_user(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    # /challenge is deferred publicly; its error is private: the placeholder goes, the error is ephemeral
    iid = await slash(dc, "challenge", user=dc.ben)
    error = await dc.wait_for_response(iid, lambda r: r.ephemeral)
    assert "Aucune partie classique" in error.text
    assert [r.action for r in dc.log.select(None, ("delete",))] == ["delete"]

    iid = await slash(dc, "settings", "minutes 2", user=dc.ben)  # not an admin, no game
    refused = await answer(dc, iid)
    assert refused.ephemeral
    assert "administrateur" in refused.text
    iid = await slash(dc, "settings", "minutes 2", user=dc.ana)  # Administrator permission
    assert ", 2 min par coup" in (await answer(dc, iid)).text


@pytest.mark.asyncio
async def test_a_command_slower_than_the_watchdog_is_deferred_then_answered(
    dc: AdapterDiscord, adapter: DiscordAdapter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.adapters.discordbot.adapter.DEFER_AFTER", 0.0)
    iid = await slash(dc, "calc", "H8 VAGUE", user=dc.ben)  # a public answer
    deferred = await dc.wait_for_response(iid, actions=("defer",))
    assert not deferred.ephemeral
    reply = await answer(dc, iid)
    assert "VAGUE" in reply.text
    assert reply.message_id == deferred.message_id
    assert reply.method == EDIT_ORIGINAL


EDIT_ORIGINAL = "PATCH /webhooks/{application_id}/{interaction_token}/messages/{message_id}"


@pytest.mark.asyncio
async def test_deferred_answers_edit_the_original_response(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    iid = await slash(dc, "play", "H8 VAGUE", user=dc.ben)  # deferred ephemerally, answered privately
    deferred = await dc.wait_for_response(iid, actions=("defer",))
    reply = await answer(dc, iid)
    assert deferred.ephemeral
    assert reply.ephemeral
    assert reply.message_id == deferred.message_id
    assert reply.method == EDIT_ORIGINAL
    await answer(dc, await slash(dc, "new", "Ana Ben"))
    iid = await slash(dc, "board", user=dc.ben)  # deferred publicly, answered with an image
    deferred = await dc.wait_for_response(iid, actions=("defer",))
    reply = await answer(dc, iid)
    assert reply.message_id == deferred.message_id
    assert reply.method == EDIT_ORIGINAL
    assert reply.file is not None
    assert reply.file.data.startswith(PNG_MAGIC)
    webhook_posts = [r for r in dc.requests if r[0] == "POST" and r[1].startswith("/webhooks/")]
    assert webhook_posts == []  # no follow-up filled a placeholder


@pytest.mark.asyncio
async def test_a_command_in_a_dm_needs_the_global_sync(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    dm = dc.dm_channel_id(dc.ben)
    # the fixture synced in the server only: a Discord client offers no /check in a DM
    with pytest.raises(CommandUnavailable) as refused:
        await slash(dc, "check", "vague", user=dc.ben, channel=dm)
    message = str(refused.value)
    assert f"server {dc.guild.id} only" in message
    assert "DMs with the bot need the global sync" in message
    # what the client sends instead is the text itself, which the bot reads in DMs
    await dc.send_message(dm, dc.ben, "/verif vague")
    assert "VAGUE valable" in (await dc.wait_for_dm(dc.ben)).text
    await adapter.sync()  # `arbitre discord --sync`: every server and DMs
    iid = await slash(dc, "check", "vague", user=dc.ben, channel=dm)
    reply = await answer(dc, iid)
    assert "VAGUE valable" in reply.text
    assert reply.channel_id == dm


@pytest.mark.asyncio
async def test_prefix_commands_with_message_content(
    dc: AdapterDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    await dc.send_message(dc.channel, dc.ana, "!nouvelle Ana Ben")
    assert "Joueurs : Ana, Ben" in (await dc.wait_for_message(channel_id=dc.channel)).text
    await dc.send_message(dc.channel, dc.ana, "!coup H8 VAGUE")
    reply = await dc.wait_for_message(channel_id=dc.channel)
    assert "= 20" in reply.text
    assert reply.payload["allowed_mentions"]["parse"] == []
    await dc.send_message(dc.channel, dc.ben, "!roll 2d6")  # another bot's command: not ours
    await dc.send_message(dc.channel, dc.ben, "just chatting")
    # nothing said to them: the channel's next message answers the next command (a channel's commands are
    # answered in order)
    await dc.send_message(dc.channel, dc.ben, "!verif vague")
    assert "VAGUE valable" in (await dc.wait_for_message(channel_id=dc.channel)).text
    # in a DM, "/" works too and no intent is needed
    await dc.send_message(dc.dm_channel_id(dc.ben), dc.ben, "/verif vague zzz")
    dm = await dc.wait_for_dm(dc.ben)
    assert "VAGUE valable" in dm.text
    assert "ZZZ non valable" in dm.text
    assert len(plays(storage, dc.channel)) == 1


@pytest.mark.asyncio
async def test_without_the_intent_prefix_commands_are_not_read(dc: AdapterDiscord, storage: SQLiteStorage) -> None:
    adapter = make_adapter(storage, message_content=False)
    async with running_bot(dc, adapter.client):
        assert not adapter.client.intents.message_content
        await dc.send_message(dc.channel, dc.ana, "!aide")
        await dc.send_message(dc.dm_channel_id(dc.ana), dc.ana, "!aide")  # DMs need no intent
        assert "/coup" in (await dc.wait_for_dm(dc.ana)).text
        # an account's commands are answered in order: had the channel's been read, its answer came first
        assert dc.messages_in(dc.channel) == []


# --- autocompletion --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_autocomplete_offers_the_game_s_players_and_the_setting_s_lists(
    dc: AdapterDiscord, adapter: DiscordAdapter
) -> None:
    choices = await dc.autocomplete("settings lexicon", None, focused="value", user=dc.ana, channel_id=dc.channel)
    assert {"fr", "en"} <= {c["value"] for c in choices}
    iid = await dc.send_interaction("new", {"players": "Ana Benoît"}, user=dc.ana, channel_id=dc.channel)
    await answer(dc, iid)
    choices = await dc.autocomplete("penalty", {"player": "be"}, focused="player", user=dc.ana, channel_id=dc.channel)
    assert [c["value"] for c in choices] == ["Benoît"]
