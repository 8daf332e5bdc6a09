"""The Discord adapter's players are accounts: another account with a player's display name cannot play for them,
two accounts with one name keep their duplicate submissions apart, and a finished game's export comes as a file."""

from __future__ import annotations

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.storage import SQLiteStorage
from tests.bot.adapters.discord.discord_adapter_club import AdapterDiscord, answer, plays, slash, start_duplicate
from tests.bot.adapters.discord.discord_adapter_club import adapter as adapter  # the club's adapter
from tests.bot.adapters.discord.discord_adapter_club import clocked as clocked  # the adapter on the fake's clock
from tests.bot.adapters.discord.discord_adapter_club import dc as dc  # the club's fake Discord
from tests.bot.adapters.discord.discord_adapter_club import no_logged_errors as no_logged_errors  # autouse

# --- players are accounts --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_another_account_named_like_a_player_cannot_play_for_them(
    dc: AdapterDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    impostor = dc.add_user(username="ben_other", global_name="Ben")  # same display name
    dc.add_member(dc.guild, impostor)
    await answer(dc, await slash(dc, "new", "Ana Ben"))
    await answer(dc, await slash(dc, "score", "H8 VAGUE"))
    claimed = await answer(dc, await slash(dc, "score", "8H VOGUE", user=dc.ben))
    assert "La place de Ben est désormais liée à ce compte" in claimed.text
    await answer(dc, await slash(dc, "score", "10F ARGUE"))
    refused = await answer(dc, await slash(dc, "score", "I7 GUE", user=impostor))
    assert refused.ephemeral
    assert "liée à un autre compte" in refused.text
    iid = await slash(dc, "challenge", user=impostor)
    assert "ne jouez pas dans cette partie" in (await answer(dc, iid)).text
    assert [p["player"] for p in plays(storage, dc.channel)] == ["Ana", "Ben", "Ana"]


@pytest.mark.asyncio
async def test_duplicate_submissions_of_two_accounts_with_one_name_stay_apart(
    dc: AdapterDiscord, clocked: DiscordAdapter, storage: SQLiteStorage
) -> None:
    impostor = dc.add_user(username="ana_other", global_name="Ana")
    dc.add_member(dc.guild, impostor)
    await start_duplicate(dc, clocked)
    for user, word in ((dc.ana, "QWERTA"), (impostor, "QWERTZ")):
        ack = await answer(dc, await slash(dc, "play", f"H8 {word}", user=user))
        assert ack.ephemeral
        assert word in ack.text
    record = storage.active_game(f"discord:{dc.channel}")
    assert record is not None
    submitted = {(e.data["player"], e.data["move"]) for e in storage.events(record.id) if e.data["kind"] == "submit"}
    assert submitted == {("Ana", "H8 QWERTA"), ("Ana (2)", "H8 QWERTZ")}


@pytest.mark.asyncio
async def test_export_of_a_finished_game_comes_as_a_file(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    await answer(dc, await slash(dc, "new", "Ana Ben"))
    await answer(dc, await slash(dc, "score", "H8 VAGUE"))
    await answer(dc, await slash(dc, "end", "Ben=EAU !"))
    exported = await answer(dc, await slash(dc, "export", user=dc.ben))
    assert "Partie n°1 (classique" in exported.text
    assert exported.file is not None
    assert exported.file.filename == "game-1-game.gcg"
    assert b"#player1" in exported.file.data
    assert b"8H VAGUE" in exported.file.data
