"""Simultanés played together at a set time (issue 25, "together at a set time"): every joined room's game
is started by the clock at that time, all at once, exactly once per room (also with two processes on one
PostgreSQL database); rooms are told the time in their own language when they join; a room joining after
the start, or one trying to start early, is refused politely; a room whose own game is running at the time
is told it started without it. A window's rooms start themselves, inside the window only."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.chat import Reply
from bot.referee import Referee
from bot.storage import SQLiteStorage, StoredEvent
from tests.bot.games.simultane.rooms_played import (
    CONSOLE,
    DISCORD,
    GROUP,
    ROOMS,
    START,
    TELEGRAM,
    Process,
    code_of,
    eventually,
    telegram_texts,
)
from tests.bot.games.simultane.rooms_played import tg as tg  # the Telegram group fixture
from tests.club import Club
from tests.fakes import running_application
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram

TEN = START + 3600  # the club's clock is 09:00 in Paris: the simultané starts at 10:00
STARTED = "la partie du salon commence"


def texts(replies: list[Reply], channel: str) -> list[str]:
    return [r.text for r in replies if r.channel == channel and r.to_user is None]


def test_the_clock_starts_every_room_at_the_set_time_once(club: Club) -> None:
    club.ok("Boss", "/reglages langue en", channel=CONSOLE, admin=True)
    created = club.ok("Org", "/simultane creer 1 10:00 tirages ACEHNTZ", channel=DISCORD, admin=True)
    code = code_of(created)
    assert "tous ensemble le 2027-01-15 10:00 (Europe/Paris), la partie commençant toute seule" in created
    for channel in ROOMS:
        joined = club.ok("Boss", f"/simultane rejoindre {code}", channel=channel, admin=True)
        assert "ACEHNTZ" not in joined
        if channel == CONSOLE:  # told in the room's language, at the time of its zone (English: UTC)
            assert f"Simultané {code} will start by itself at 2027-01-15 09:00 (UTC)" in joined
        else:
            assert f"Le simultané {code} commencera tout seul le 2027-01-15 10:00 (Europe/Paris)" in joined
    early = club.refused("Boss", "/simultane commencer", channel=TELEGRAM, admin=True)
    assert early == (
        f"Le simultané {code} commence tout seul le 2027-01-15 10:00 (Europe/Paris), dans tous les salons à la fois :"
        " rien à taper."
    )
    club.now = TEN - 2
    assert club.tick(1) == []  # 09:59:59: nothing yet
    assert all(club.storage.games(channel) == [] for channel in ROOMS)
    ticked = club.tick(1)  # 10:00
    for channel in ROOMS:
        said = texts(ticked, channel)
        assert len(said) == 2, said
        assert "Coup 1 — tirage : ACEHNTZ" in said[1] or "Move 1 — draw: ACEHNTZ" in said[1], said
        assert len(club.storage.games(channel)) == 1
    assert "commence" in texts(ticked, DISCORD)[0]
    assert "starts" in texts(ticked, CONSOLE)[0]
    assert not any("commence" in t or "starts" in t for t in texts(club.tick(1), DISCORD))  # started once
    assert all(len(club.storage.games(channel)) == 1 for channel in ROOMS)
    late = club.refused("Late", f"/simultane rejoindre {code}", channel="telegram:-333", admin=True)
    assert late == (
        f"Le simultané {code} a commencé le 2027-01-15 10:00 (Europe/Paris), dans tous les salons à la fois :"
        " il est trop tard pour le rejoindre."
    )
    again = club.refused("Boss", "/simultane commencer", channel=TELEGRAM, admin=True)
    assert again.startswith(f"Ce salon a déjà commencé le simultané {code}")


def test_a_room_whose_own_game_runs_at_the_time_is_left_out_and_told(club: Club) -> None:
    code = code_of(club.ok("Org", "/simultane creer 10:00", channel=DISCORD, admin=True))
    for channel in (DISCORD, TELEGRAM):
        club.ok("Boss", f"/simultane rejoindre {code}", channel=channel, admin=True)
    club.ok("Ref", "/duplicate 1 manuel", channel=TELEGRAM)  # the room's own game
    own = club.storage.active_game(TELEGRAM)
    club.now = TEN - 1
    ticked = club.tick(1)
    assert texts(ticked, TELEGRAM) == [
        f"Le simultané {code} a commencé sans ce salon : une partie duplicate y était en cours."
    ]
    assert club.storage.active_game(TELEGRAM) == own  # its game goes on, untouched
    record = club.storage.simultane(code)
    assert record is not None
    assert [r.channel for r in club.storage.simultane_rooms(record.id)] == [DISCORD]
    assert any(STARTED in t for t in texts(ticked, DISCORD))
    assert texts(club.tick(1), TELEGRAM) == []  # told once
    status = club.ok("Zoé", f"/simultane etat {code}", channel=DISCORD)
    assert "Salons : 1 (1 en jeu ou fini, 0 pas encore commencé)" in status


def test_a_set_time_must_be_to_come_and_a_window_s_rooms_start_inside_it(club: Club) -> None:
    past = club.refused("Org", "/simultane creer 08:30", channel=DISCORD, admin=True)
    assert past.startswith("Le 2027-01-15 08:30 (Europe/Paris) est déjà passé")
    code = code_of(club.ok("Org", "/simultane creer 10:00 11:00", channel=DISCORD, admin=True))
    club.ok("Boss", f"/simultane rejoindre {code}", channel=TELEGRAM, admin=True)
    club.ok("Org", f"/simultane admettre {code} 1", channel=DISCORD, admin=True)
    club.now = TEN - 1
    assert texts(club.tick(1), TELEGRAM) == []  # a window: the clock starts nothing
    club.now = TEN + 3600  # 11:00: the window has ended
    over = club.refused("Boss", "/simultane commencer", channel=TELEGRAM, admin=True)
    assert over == f"La fenêtre du simultané {code} est close depuis le 2027-01-15 11:00 (Europe/Paris)."
    club.now = TEN + 1800
    assert "Coup 1 — tirage" in club.ok("Boss", "/simultane commencer", channel=TELEGRAM, admin=True)


def test_two_processes_start_each_room_once_and_search_each_top_once(postgres_url: str) -> None:
    clock = [START]
    discord = Process(postgres_url, "shard-0", "discord:", clock)  # a Discord shard: its channels' clocks
    other = Process(postgres_url, "worker-1", "", clock)  # a Telegram webhook worker and the console
    code = code_of(discord.send(DISCORD, "Org", "/simultane creer 1 10:00 tirages ACEHNTZ", admin=True))
    discord.send(DISCORD, "Boss", f"/simultane rejoindre {code}", admin=True)
    for channel in (TELEGRAM, CONSOLE):
        assert "commencera tout seul" in other.send(channel, "Boss", f"/simultane rejoindre {code}", admin=True)
    clock[0] = TEN
    said: list[Reply] = []
    for _ in range(3):  # both processes tick at 10:00 (the worker looks after every channel)
        for process in (other, discord):
            said += process.referee.tick(clock[0])
    for channel in ROOMS:
        assert sum(STARTED in t for t in texts(said, channel)) == 1, texts(said, channel)
        assert sum("Coup 1 — tirage : ACEHNTZ" in t for t in texts(said, channel)) == 1
        assert len(discord.storage.games(channel)) == 1
    for minute in range(1, 4):  # three rounds closed by the clocks, each room's once
        clock[0] = TEN + minute * 61
        for _ in range(2):
            for process in (discord, other):
                said += process.referee.tick(clock[0])
            clock[0] += 1
    for process in (discord, other):  # the searches of the round now open are over
        for search in list(process.referee.clock.tops.values()):
            search.result()
    closes = {c: [e.data["top"] for e in events(discord, c) if e.data["kind"] == "close"] for c in ROOMS}
    assert all(len(tops) == 3 for tops in closes.values())
    assert closes[DISCORD] == closes[TELEGRAM] == closes[CONSOLE]
    assert closes[DISCORD][0] == "H6 CHANTEZ"
    moves = len(closes[DISCORD]) + 1  # the rounds closed and the one open now
    searched = discord.referee.clock.simultane_searches + other.referee.clock.simultane_searches
    assert searched == moves  # one search per move for the three rooms of both processes
    # the organiser's room: the overall ranking after each round, posted once
    posts = [t for t in texts(said, DISCORD) if "le classement de tous les salons après" in t]
    assert [p.split("après ")[1][:1] for p in posts] == ["1", "2", "3"], posts
    discord.close()
    other.close()


def events(process: Process, channel: str) -> list[StoredEvent]:
    return process.storage.events(process.storage.games(channel)[-1].id)


@pytest.mark.asyncio
async def test_a_telegram_group_is_started_by_the_clock(tg: ClubTelegram, storage: SQLiteStorage) -> None:
    # the real python-telegram-bot against the fake: the tick's replies reach the group by themselves
    referee = Referee(storage, ready_registry(), now=tg.now, images=False)
    telegram = TelegramAdapter(referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
    telegram.service.outbox_seconds = 0.05
    at = dt.datetime.fromtimestamp(tg.now() + 120, zoneinfo.ZoneInfo("Europe/Paris"))
    async with running_application(telegram.application, tg):
        await tg.send_user_message(GROUP, tg.ana, f"/simultane creer 1 {at:%Y-%m-%dT%H:%M} tirages ACEHNTZ")
        await eventually(lambda: any("Simultané créé, code" in t for t in telegram_texts(tg)))
        code = code_of(next(t for t in telegram_texts(tg) if "Simultané créé, code" in t))
        await tg.send_user_message(GROUP, tg.ana, f"/simultane rejoindre {code}")
        await eventually(lambda: any("commencera tout seul" in t for t in telegram_texts(tg)))
        assert not any("ACEHNTZ" in t for t in telegram_texts(tg) if not t.startswith("/"))  # the bot shows none
        tg.advance(120)  # the bot's clock reaches the set time: its tick starts the group's game
        await eventually(lambda: any("Coup 1 — tirage : ACEHNTZ" in t for t in telegram_texts(tg)))
        assert sum(STARTED in t for t in telegram_texts(tg)) == 1
