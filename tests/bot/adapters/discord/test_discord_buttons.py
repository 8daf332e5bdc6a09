"""Discord as its users expect it (issue 39): the replies' actions as buttons and select menus; a press (an
interaction of type 3) runs its line as its user typing it and is answered like a slash command; the
duplicate answer's form as a modal answered ephemerally in the channel itself, 20 players through it beside
a typed /play; a confirmation shown only to its presser; a guild whose preferred locale is English gets an
English room. Real discord.py against the fake Discord, a real SQLite file."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.discord_forms import form_options
from tests.fakes import DiscordUser, FakeDiscord, SentMessage, running_bot
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()


def components(record: SentMessage) -> dict[str, dict[str, Any]]:
    """A sent message's buttons and selects, by custom id."""
    return {c["custom_id"]: c for row in record.reply_markup or [] for c in row["components"]}


async def slash(dc: ClubDiscord, name: str, args: str | None = None, *, user: DiscordUser | None = None) -> int:
    command, options = form_options(name, args)
    return await dc.send_interaction(command, options, user=user or dc.ana, channel_id=dc.channel)


async def shown(dc: FakeDiscord, iid: int) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: r.text != "…")


@pytest.mark.asyncio
async def test_a_classic_game_joined_and_a_move_challenged_with_buttons(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    created = await shown(dc, await slash(dc, "new", "Ana"))
    assert set(components(created)) == {"cmd:/rejoindre"}
    joined = await shown(dc, await dc.press(created.message_id or 0, "cmd:/rejoindre", dc.ben))
    assert "Ben rejoint la partie" in joined.text
    scored = await shown(dc, await slash(dc, "score", "H8 VAGUE"))
    assert set(components(scored)) == {"ask:/conteste"}  # a lost challenge costs a turn: asked first
    asked = await shown(dc, await dc.press(scored.message_id or 0, "ask:/conteste", dc.ben))
    assert asked.ephemeral
    assert set(components(asked)) == {"cmd:/conteste", "x"}
    challenged = await shown(dc, await dc.press(asked.message_id or 0, "cmd:/conteste", dc.ben))
    assert "Ben perd son tour" in challenged.text


@pytest.mark.asyncio
async def test_settings_are_chosen_from_a_select_menu(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    settings = await shown(dc, await slash(dc, "settings"))
    menu = components(settings)["menu:langue"]
    assert [o["value"] for o in menu["options"]] == ["/reglages langue en"]
    chosen = await dc.press(settings.message_id or 0, "menu:langue", dc.ana, values=["/reglages langue en"])
    changed = await shown(dc, chosen)
    assert changed.text.startswith("Settings: language en")


@pytest.mark.asyncio
async def test_a_duplicate_round_answered_by_20_players_through_the_modal_and_one_typed_play(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    players = [dc.member(f"p{n}", f"P{n}") for n in range(20)]
    await shown(dc, await slash(dc, "duplicate", "3 manuel"))
    draw = await shown(dc, await slash(dc, "draw", "ACEHNTZ"))
    assert "form:/jouer" in components(draw)
    for number, player in enumerate(players):
        pressed = await dc.press(draw.message_id or 0, "form:/jouer", player)
        await dc.wait_for_response(pressed, actions=("modal",))
        modal = dc.modal_of(pressed)
        assert modal is not None
        assert modal["title"] == "Votre coup"
        word = "CHANTEZ" if number % 2 else "CHANTE"
        submitted = await dc.submit_modal(pressed, {"ref": "H4", "word": word})
        answer = await shown(dc, submitted)
        assert answer.ephemeral  # only the player sees it, in the channel itself
        assert answer.text.startswith(f"Reçu pour le coup 1 : H4 {word}")
    typed = await shown(dc, await slash(dc, "play", "H4 CHANTEZ", user=dc.ben))
    assert typed.ephemeral
    assert typed.text.startswith("Reçu pour le coup 1 : H4 CHANTEZ")
    await slash(dc, "close")
    closed = await dc.wait_for_message(lambda r: (r.text or "").startswith("Coup 1 clos"), channel_id=dc.channel)
    assert closed.text.startswith("Coup 1 clos : 21 joueurs sur 21 ont joué.")
    assert draw.message_id is not None
    await dc.wait_for_edit(lambda r: r.message_id == draw.message_id and not r.reply_markup)
    assert not dc.messages[draw.message_id].get("components")  # the round closed: no Play button any more


@pytest.mark.asyncio
async def test_a_guild_whose_preferred_locale_is_english_gets_english_and_the_english_edition(
    storage: SQLiteStorage,
) -> None:
    async with FakeDiscord() as dc:
        guild = dc.add_guild(name="Family", channels=("games",))
        guild.preferred_locale = "en-US"
        mom = dc.add_user(username="mom", global_name="Mom")
        dc.add_member(guild, mom, admin=True)
        adapter = DiscordAdapter(Referee(storage, LEXICONS), message_content=True, tick_seconds=0.05)
        async with running_bot(dc, adapter.client):
            await adapter.sync(guild.id)
            iid = await dc.send_interaction("settings show", None, user=mom, channel_id=guild.channel_id)
            answer = await dc.wait_for_response(iid, lambda r: r.text != "…")
            assert answer.text.startswith("Settings: language en, edition en, notation gcg, rules box-en")
