"""A simultané across processes and platforms: two bot processes on one PostgreSQL database (each clock run
once), and a Discord channel and a Telegram group with the real libraries against the fakes."""

from __future__ import annotations

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.bot.games.simultane.rooms_played import (
    A_MOVES,
    B_MOVES,
    C_MOVES,
    CONSOLE,
    DISCORD,
    GROUP,
    OVERALL_AFTER_ONE,
    ROOMS,
    START,
    TELEGRAM,
    Process,
    code_of,
    discord_texts,
    events_of,
    eventually,
    table_rows,
    telegram_texts,
)
from tests.bot.games.simultane.rooms_played import tg as tg  # the Telegram group fixture
from tests.discord_club import ClubDiscord
from tests.fakes import running_application, running_bot
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram

# --- two bot processes on one PostgreSQL database -------------------------------------------------------


def test_two_processes_on_postgres_play_one_simultane_each_clock_run_once(postgres_url: str) -> None:
    clock = [START]
    discord = Process(postgres_url, "shard-0", "discord:", clock)  # a Discord shard: its channels' clocks
    other = Process(postgres_url, "worker-1", "", clock)  # a Telegram webhook worker and the console
    # a chosen seed: a random one sometimes makes a draw the rules refuse, drawn again (one more draw event)
    created = discord.send(DISCORD, "Org", "/simultane creer 1 graine pg tirages ACEHNTZ", admin=True)
    code = code_of(created)
    assert "ACEHNTZ" not in created
    assert "Coup 1 — tirage : ACEHNTZ" in discord.send(DISCORD, "Org", f"/simultane rejoindre {code}", admin=True)
    for channel in (TELEGRAM, CONSOLE):
        assert "Coup 1 — tirage : ACEHNTZ" in other.send(channel, "Boss", f"/simultane rejoindre {code}", admin=True)
    by_room = {DISCORD: discord, TELEGRAM: other, CONSOLE: other}
    for (channel, process), moves in zip(by_room.items(), (A_MOVES, B_MOVES, C_MOVES), strict=True):
        for name, move in moves.items():
            assert "Reçu pour le coup 1" in process.send(channel, name, f"/jouer {move}", private=True)
    for channel, process in by_room.items():
        process.send(channel, "Boss", "/cloture", admin=True)
    # the console closed last and opened round 2; the two rooms that waited, each at its own process's tick
    assert not [e for e in events_of(discord.storage, DISCORD) if e.data["kind"] == "draw"][1:]
    assert "Coup 2 — tirage" in "\n".join(r.text for r in discord.referee.tick(clock[0]))
    assert "Coup 2 — tirage" in "\n".join(r.text for r in other.referee.tick(clock[0]))
    assert table_rows(other.send(CONSOLE, "Zoé", "/simultane classement")) == OVERALL_AFTER_ONE

    other.close()  # the worker stops mid-game (round 2 open everywhere) and starts again
    other = Process(postgres_url, "worker-1", "", clock)
    by_room = {DISCORD: discord, TELEGRAM: other, CONSOLE: other}
    clock[0] += 61  # round 2's minute is over: both processes' clocks tick, each room closes once
    for _ in range(2):
        for process in (discord, other):
            process.referee.tick(clock[0])
        clock[0] += 1
    closes = {c: [e.data["top"] for e in events_of(discord.storage, c) if e.data["kind"] == "close"] for c in ROOMS}
    assert all(len(tops) == 2 for tops in closes.values()), closes
    assert closes[DISCORD] == closes[TELEGRAM] == closes[CONSOLE]
    draws = {c: [e.data["draw"] for e in events_of(other.storage, c) if e.data["kind"] == "draw"] for c in ROOMS}
    assert draws[DISCORD] == draws[TELEGRAM] == draws[CONSOLE]
    assert len(draws[DISCORD]) == 3
    after_two = other.send(TELEGRAM, "Zoé", "/simultane classement")
    assert "après 2 manches" in after_two
    assert table_rows(after_two)[0][:4] == ["1", "Ana", "Salon 1", "122"]
    discord.close()
    other.close()


# --- a Discord channel and a Telegram group: the real libraries against the fakes ---------------------


@pytest.mark.long(6)
@pytest.mark.asyncio
async def test_a_discord_channel_and_a_telegram_group_play_one_simultane(
    discord_club: ClubDiscord, tg: ClubTelegram, storage: SQLiteStorage
) -> None:
    dc = discord_club
    # one file, and each bot's clock looks after its own platform's rooms (as `arbitre discord` and
    # `arbitre telegram` do): a room's held round is closed by its own bot's clock, and delivered by it
    by_discord = Referee(storage, ready_registry(), now=dc.now, images=False, clock_scope="discord:")
    by_telegram = Referee(storage, ready_registry(), now=dc.now, images=False, clock_scope="telegram:")
    discord = DiscordAdapter(by_discord, edit_interval=0.2, tick_seconds=0.05, clock=dc.now)
    telegram = TelegramAdapter(by_telegram, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
    discord.service.outbox_seconds = telegram.service.outbox_seconds = 0.05
    async with running_bot(dc, discord.client), running_application(telegram.application, tg):
        await discord.sync(dc.guild.id)
        args = {"minutes": 1, "draws": "ACEHNTZ"}  # /simultane create, as a form
        await dc.send_interaction("simultane create", args, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("Simultané créé, code" in t for t in discord_texts(dc)))
        code = code_of(next(t for t in discord_texts(dc) if "Simultané créé, code" in t))
        await dc.send_interaction("simultane join", {"code": code}, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("Coup 1 — tirage : ACEHNTZ" in t for t in discord_texts(dc)))
        assert not any("ACEHNTZ" in t for t in telegram_texts(tg))  # not opened in the group yet
        await tg.send_user_message(GROUP, tg.ana, f"/simultane rejoindre {code}")
        await eventually(lambda: any("Coup 1 — tirage : ACEHNTZ" in t for t in telegram_texts(tg)))
        await dc.send_interaction("play", {"position": "H6", "word": "CHANTEZ"}, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: any("Coup 1 : 1 joueur" in t for t in discord_texts(dc)))
        await dc.send_interaction("close", None, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("(encore en jeu : Salon 2" in t for t in discord_texts(dc)))  # paced
        await eventually(lambda: any("temps écoulé dans ce salon" in t for t in discord_texts(dc)))  # the draw's edit
        await dc.send_interaction("simultane ranking", None, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: any(f"Simultané {code} : pas encore" in t for t in discord_texts(dc)))
        assert not any("Top" in t for t in discord_texts(dc) + telegram_texts(tg))
        await tg.send_user_message(GROUP, tg.ana, "/cloture")  # the last room: the results everywhere
        await eventually(lambda: any("Top : H6 CHANTEZ" in t for t in telegram_texts(tg)))
        await eventually(lambda: any("Top : H6 CHANTEZ" in t for t in discord_texts(dc)))
        await tg.send_user_message(GROUP, tg.ana, "/simultane classement")
        await eventually(lambda: any(f"Simultané {code}, tous centres" in t for t in telegram_texts(tg)))
        overall = next(t for t in telegram_texts(tg) if f"Simultané {code}, tous centres" in t)
        assert "(2 salons, 1 joueur), après 1 manche" in overall
        assert "Ben" in overall
        assert "112" in overall
