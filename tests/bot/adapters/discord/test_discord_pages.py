"""Long views read page by page through Discord (issue 39, item 2): /games, a duplicate's /standings and
/moves, and a classic game's /moves offer *Previous* and *Next* buttons when they are long, a press shows the
page before or after; /help answers its asker alone. Real discord.py against the fake Discord, a real SQLite
file."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.chat import Incoming
from tests.discord_club import ClubDiscord
from tests.fakes import DiscordUser, SentMessage


async def shown(dc: ClubDiscord, iid: int, timeout: float = 2.0) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: r.text != "…", timeout=timeout)


def buttons(record: SentMessage) -> dict[str, dict[str, Any]]:
    """A sent message's buttons, by label."""
    return {c["label"]: c for row in record.reply_markup or [] for c in row["components"] if "label" in c}


@pytest.mark.asyncio
async def test_a_long_list_of_games_is_read_page_by_page(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    for _ in range(23):
        options = {"players": "Ana Ben", "confirm": True}  # each replaces the one before
        await shown(dc, await dc.send_interaction("new", options, user=dc.ana, channel_id=dc.channel))
    listed = await shown(dc, await dc.send_interaction("games", None, user=dc.ben, channel_id=dc.channel))
    assert "Lignes 21 à 23 sur 23 (page 2/2)." in listed.text  # the latest games first
    assert "n°23 ·" in listed.text
    assert "n°20 ·" not in listed.text
    assert set(buttons(listed)) == {"Page précédente"}
    before = buttons(listed)["Page précédente"]["custom_id"]
    assert before == "cmd:/parties p1"
    earlier = await shown(dc, await dc.press(listed.message_id or 0, before, dc.ben))
    assert "Lignes 1 à 20 sur 23 (page 1/2)." in earlier.text
    assert set(buttons(earlier)) == {"Page suivante"}
    refused = await shown(dc, await dc.send_interaction("games", None, user=dc.ben, channel_id=dc.channel))
    assert refused.text == listed.text


@pytest.mark.long(6)
@pytest.mark.asyncio
async def test_a_crowded_duplicate_s_standings_and_moves_are_paged(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    players = [dc.member(f"p{n}", f"P{n:02d}") for n in range(27)]
    await shown(
        dc, await dc.send_interaction("duplicate", {"minutes": 3, "manual": True}, user=dc.ana, channel_id=dc.channel)
    )
    await shown(dc, await dc.send_interaction("draw", {"letters": "ACEHNTZ"}, user=dc.ana, channel_id=dc.channel))
    for player in players:
        move = {"position": "H4", "word": "CHANTEZ"}
        await shown(dc, await dc.send_interaction("play", move, user=player, channel_id=dc.channel), timeout=30)
    await dc.send_interaction("close", None, user=dc.ana, channel_id=dc.channel)
    await dc.wait_for_message(lambda r: (r.text or "").startswith("Coup 1 clos"), channel_id=dc.channel)
    asked = await dc.send_interaction("standings", None, user=dc.ben, channel_id=dc.channel)
    standings = await shown(dc, asked, timeout=30)  # with its image
    assert "Lignes 1 à 25 sur 27 (page 1/2)." in standings.text
    assert "P24" in standings.text
    assert "P26" not in standings.text
    following = buttons(standings)["Page suivante"]["custom_id"]
    assert following == "cmd:/classement p2"
    await dc.press(standings.message_id or 0, following, dc.ben)  # a public view: posted in the channel
    rest = await dc.wait_for_message(lambda r: "(page 2/2)" in (r.text or ""), channel_id=dc.channel, timeout=30)
    assert "Lignes 26 à 27 sur 27 (page 2/2)." in rest.text
    assert "P26" in rest.text
    with pytest.raises(AssertionError):  # one round: a player's moves fit on one page, no buttons
        await dc.wait_for_response(
            await dc.send_interaction("moves", {"player": "P01"}, user=dc.ben, channel_id=dc.channel),
            lambda r: bool(r.reply_markup),
            timeout=0.5,
        )


@pytest.mark.asyncio
async def test_a_classic_player_s_long_list_of_moves_is_paged_the_latest_first(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    channel = f"discord:{dc.channel}"

    def typed(user: DiscordUser, line: str) -> None:
        """A line typed in the room as any platform takes it, its answers taken as read (the console's way):
        the view asked next waits behind none of them."""
        incoming = Incoming(channel, f"discord:{user.id}", user.global_name or "", line, admin=True)
        adapter.referee.outbox.sent(adapter.referee.handle(incoming), [])

    typed(dc.ana, "/nouvelle Ana Ben")
    typed(dc.ana, "/reglages zeros non")  # passes never end this game
    for _ in range(21):
        typed(dc.ana, "/passe")
        typed(dc.ben, "/passe")
    await dc.send_interaction("moves", {"player": "Ana"}, user=dc.ben, channel_id=dc.channel)
    listed = await dc.wait_for_message(lambda r: "(page 2/2)" in (r.text or ""), channel_id=dc.channel)
    assert "Lignes 21 à 21 sur 21 (page 2/2)." in listed.text  # the latest line, as /sheet shows its last page
    assert "Total 0 · 0 mot posé" in listed.text  # the whole game's summary under every page
    assert set(buttons(listed)) == {"Page précédente"}
    before = buttons(listed)["Page précédente"]["custom_id"]
    assert before == "cmd:/coups Ana p1"
    await dc.press(listed.message_id or 0, before, dc.ben)  # a public view: posted in the channel
    earlier = await dc.wait_for_message(lambda r: "(page 1/2)" in (r.text or ""), channel_id=dc.channel)
    assert "Lignes 1 à 20 sur 21 (page 1/2)." in earlier.text
    assert set(buttons(earlier)) == {"Page suivante"}


@pytest.mark.asyncio
async def test_help_answers_its_asker_alone_with_its_section_buttons(dc: ClubDiscord, adapter: DiscordAdapter) -> None:
    asked = await dc.send_interaction("help", None, user=dc.ben, channel_id=dc.channel)
    helped = await shown(dc, asked)
    assert helped.ephemeral
    assert "/coup" in helped.text
    last = await dc.wait_for_response(asked, lambda r: bool(r.reply_markup))  # under the last piece
    assert last.ephemeral
    section = next(c for label, c in buttons(last).items() if "uplicate" in label)
    pressed = await shown(dc, await dc.press(last.message_id or 0, section["custom_id"], dc.ben))
    assert pressed.ephemeral
    assert "/jouer" in pressed.text
    assert not [r for r in dc.log.records if r.action == "send" and not r.ephemeral]
