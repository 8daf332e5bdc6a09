"""A room's message budget on Telegram: 20 and 50 players in one group over three one-minute duplicate rounds,
real python-telegram-bot against the fake Bot API, the referee and the countdowns on the fake's clock.

Telegram documents about 20 messages a minute to one group (PLATFORMS.md), and python-telegram-bot's limiter
counts every request that names the group, the admin look-ups included. The test counts what the bot asks of
the group in each round (each a minute of the fake's clock), never how long anything took: before the live
lines were coalesced, 20 players made 49 a minute (one counter edit per move, one "joined" message and one
``getChatMember`` per player).
"""

from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path

import pytest
import pytest_asyncio
from telegram.ext import AIORateLimiter

from bot.adapters.telegram import LIVE_INTERVAL, TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeTelegram, running_application
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
GROUP = -4_000_000_321
GROUP_BUDGET = 20  # messages or edits a minute to one group (PLATFORMS.md)
EDIT_INTERVAL = 10.0  # the adapter's default: one countdown step
ROUND_SECONDS = 60.0
ROUNDS = 3
GROUP_METHODS = {"sendMessage", "sendPhoto", "sendDocument", "editMessageText", "getChatMember"}
GROUP_METHODS |= {"getChatAdministrators", "editMessageCaption", "deleteMessage"}


@pytest_asyncio.fixture
async def storage(tmp_path: Path):
    LEXICONS.get("fr")
    store = SQLiteStorage(tmp_path / "arbitre.sqlite")
    yield store
    store.close()


def group_requests(requests: list[tuple[str, dict]]) -> list[str]:
    """The methods of the requests that name the group (what the limiter counts against it), but the
    countdown's steps (edits showing the time left), which the test counts at their most instead."""
    return [
        m
        for m, p in requests
        if m in GROUP_METHODS
        and str(p.get("chat_id")) == str(GROUP)
        and not (m == "editMessageText" and "⏳" in str(p.get("text", "")))
    ]


async def seated(storage: SQLiteStorage, count: int) -> None:
    """Wait until ``count`` players have joined the group's game (their joins have no message of their own)."""
    for _ in range(3000):  # 30 s at most: a busy machine
        record = storage.active_game(f"telegram:{GROUP}")
        if record is not None and len(storage.players(record.id)) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} players never joined")


def is_result(text: str, number: int) -> bool:
    return text.startswith(f"Coup {number} — tirage") and ("Top :" in text or "aucun coup" in text)


def count_line(text: str) -> tuple[int, int] | None:
    found = re.search(r"(\d+) joueurs? sur (\d+) (?:a|ont) joué", text)
    return (int(found.group(1)), int(found.group(2))) if found else None


@pytest.mark.asyncio
@pytest.mark.parametrize("players", [20, 50])
async def test_a_crowded_group_stays_within_telegram_budget(storage: SQLiteStorage, players: int) -> None:
    async with FakeTelegram(bot_username="TestBot") as tg:
        tg.add_group(GROUP, "Club")
        referee_user = tg.add_user(first_name="Arbitre", started=True)
        tg.set_member(GROUP, referee_user, "creator")
        people = [tg.add_user(first_name=f"P{i + 1:02d}", started=True) for i in range(players)]
        for person in people:
            tg.set_member(GROUP, person, "member")
        adapter = TelegramAdapter(
            Referee(storage, LEXICONS, now=tg.now),
            tg.token,
            base_url=tg.base_url,
            edit_interval=EDIT_INTERVAL,
            tick_seconds=0.05,
            clock=tg.now,
            # the library's limiter, without its real-time waits: the fake's minutes pass faster
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3),
        )
        async with running_application(adapter.application, tg):
            await tg.send_user_message(GROUP, referee_user, "/duplicate 1")
            await tg.wait_for_message(lambda m: "⏳" in (m.text or ""), chat_id=GROUP, timeout=10)
            per_round: list[int] = []
            acks = 0
            start = len(tg.requests)
            for number in range(1, ROUNDS + 1):
                step = ROUND_SECONDS / (4 * players)  # half the minute: the loop's own time passes too
                if number == 1:  # everyone joins in the group during the first minute
                    for person in people:
                        tg.advance(step)
                        await tg.send_user_message(GROUP, person, "/rejoindre")
                        await seated(storage, people.index(person) + 1)
                    # one line names them all, one message edited at most once per live interval
                    lines = [r for r in tg.log.records if r.chat_id == GROUP and "rejoi" in (r.text or "")]
                    assert [r.action for r in lines].count("send") == 1
                    assert len(lines) <= 1 + math.ceil(ROUND_SECONDS / LIVE_INTERVAL), len(lines)
                for person in people:
                    tg.advance(step)
                    await tg.send_user_message(None, person, "/jouer H8 ZZZ", chat_type="private")
                    ack = await tg.wait_for_message(chat_id=person.id, timeout=10)
                    assert f"coup {number}" in (ack.text or "").lower()
                    acks += 1
                tg.advance(ROUND_SECONDS)  # past the deadline: the round closes, the next draw is shown
                if number < ROUNDS:
                    await tg.wait_for_message(
                        lambda m, n=number: f"Coup {n + 1}" in (m.text or "") and "⏳" in (m.text or ""),
                        chat_id=GROUP,
                        timeout=20,
                    )
                else:
                    await tg.wait_for_message(
                        lambda m, n=number: f"Coup {n + 1}" in (m.text or ""), chat_id=GROUP, timeout=20
                    )
                # the counter is exact at the close: its last text, before the results, counts everyone
                log = [r for r in tg.log.records if r.chat_id == GROUP]
                results = next(r for r in log if is_result(r.text or "", number))
                before = [count_line(r.text or "") for r in log if r.seq < results.seq]
                counts = [c for c in before if c is not None]  # the counter's texts, in order
                assert counts and counts[-1] == (players, players)
                if number == 1:  # and the join line, brought up to date at the close too, names everyone
                    joins = [r.text or "" for r in log if r.seq < results.seq and "rejoi" in (r.text or "")]
                    names = ", ".join(p.first_name for p in people[:-1]) + f" et {people[-1].first_name}"
                    assert joins[-1] == f"{names} rejoignent la partie au coup 1."
                per_round.append(len(group_requests(tg.requests[start:])))
                start = len(tg.requests)
            assert acks == ROUNDS * players  # every private acknowledgement arrived
        # The countdown steps by the fake's clock but sleeps on the loop's: a jumped clock skips steps, so
        # its edits are counted at their most, one per edit interval, instead of as they came.
        countdown = math.ceil(ROUND_SECONDS / EDIT_INTERVAL)
        print(f"{players} players: group requests per round {per_round}, +{countdown} countdown edits at most")
        assert all(n + countdown <= GROUP_BUDGET for n in per_round), per_round
