"""A crowd joining a Telegram group in the same second (issue 36, item 1): reads never delay what players see.

The referee types ``/duplicate 1`` and 20 or 50 players send ``/rejoindre`` at once, the bot's cache of the
group's administrators cold: real python-telegram-bot against the fake Bot API with Telegram's flood control
on, the adapter built as in production (its pacer and python-telegram-bot's limiter as it builds them), then
three one-minute rounds whose answers all come in private in the same second, the rest of each minute passing
on the driven clocks before its deadline.

Before: each of the 51 group commands read the administrators itself, and python-telegram-bot's limiter
counted those reads in the group's 20 messages a minute; everything after them left one every 3 s: round 1's
draw reached the group 99.1 s after ``/duplicate`` with 50 players (51 look-ups), 9.1 s with 20 (21 look-ups),
without a single 429. Now the commands of a group share one look-up and reads stand in no message queue.

Round 1's draw is awaited in real time with no clock moved (nothing may hold it: a wait on a limiter's bucket
would never end) and must reach the group within 2 s of ``/duplicate``. A later draw must reach it within 2 s
of its close being stored (what the pacing adds; the draw goes first); its delay from the deadline, which adds
the close's own work in real time (its top, machine-dependent), is printed, not asserted, as in
``test_message_budget``. Times are read from the fake's clock, on which the fake stamps every message.

The 50 acknowledgements of a round also showed that the pacer counted a message in Telegram's windows from
when it left, not when it arrived: the 31st of a second could arrive within the same second as the first
(429s in 3 runs of 3 with the library's own 30-a-second bucket behind the pacer, then a flood wait grown to
an hour by python-telegram-bot's retries). A message now counts until Telegram has answered it.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.adapters.telegrambot.admins import ALLOWED_UPDATES
from bot.adapters.telegrambot.pacing import FloodPacer
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.bot.adapters.test_message_budget import close_stored, club_group, drained, hurried, is_draw, is_result
from tests.fakes import FakeTelegram, TgUser, running_application
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry
from tests.waiting import numbered

LEXICONS = ready_registry()
GROUP = -4_000_000_436
ROUNDS = 3
OPENING_BOUND = 2.0  # seconds from a round's opening to its draw in the group, on the fake's clock


async def seated(storage: SQLiteStorage, count: int) -> None:
    """Until ``count`` players have joined the group's game (a join has no message of its own)."""
    for _ in range(3000):  # 30 s at most: a busy machine
        record = storage.active_game(f"telegram:{GROUP}")
        if record is not None and len(storage.players(record.id)) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} players never joined")


def acknowledged(tg: FakeTelegram, person: TgUser) -> list[str]:
    """The rounds whose answer ``person`` was acknowledged in private, one entry per acknowledgement."""
    texts = [r.text or "" for r in tg.log.records if r.chat_id == person.id and r.action == "send"]
    return [m.group(1) for t in texts if (m := re.match(r"Reçu pour le coup (\d+)", t))]


async def all_acknowledged(tg: FakeTelegram, people: list[TgUser], number: int) -> None:
    """Until every player's answer to round ``number`` is acknowledged (private replies leave at Telegram's
    30 a second: the pacer waits on the driven clocks)."""
    for _ in range(3000):
        if all(str(number) in acknowledged(tg, p) for p in people):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"round {number}: not every answer was acknowledged")


def deadline_of(storage: SQLiteStorage, number: int) -> float:
    """When round ``number`` of the group's game closes (the referee's deadline, on the fake's clock)."""
    found = [d for d in storage.deadlines() if d.channel == f"telegram:{GROUP}"]
    assert [d.round for d in found] == [number]
    return found[0].at


def admin_reads(tg: FakeTelegram) -> list[str]:
    """The reads of the group's members the bot made: one getChatAdministrators a group and period."""
    reads = ("getChatAdministrators", "getChatMember")
    return [m for m, p in tg.requests if m in reads and str(p.get("chat_id")) == str(GROUP)]


@pytest.mark.long(7)
@pytest.mark.asyncio
@pytest.mark.parametrize("players", [20, 50])
async def test_a_crowd_joining_at_once_never_delays_the_draw(
    storage: SQLiteStorage, loop_time: LoopTime, players: int
) -> None:
    async with FakeTelegram(bot_username="TestBot") as tg:  # Telegram's flood control on (telegram_limits)
        referee_user, people = club_group(tg, GROUP, players)
        adapter = TelegramAdapter(  # as in production (its pacer, its limiter), but the clock's tick
            Referee(storage, LEXICONS, now=tg.now), tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now
        )
        assert isinstance(adapter.application.bot.rate_limiter, FloodPacer)
        async with running_application(adapter.application, tg, allowed_updates=list(ALLOWED_UPDATES)):
            opened = tg.now()
            # the referee opens the game and the crowd joins in the same moment: all 1 + N commands come
            # before the group's administrators are known
            await tg.send_user_message(GROUP, referee_user, "/duplicate 1")
            for person in people:
                await tg.send_user_message(GROUP, person, "/rejoindre")
            # no clock moved: a wait on any limiter's bucket would hold the draw for good
            first = await tg.wait_for_message(lambda m: is_draw(m.text or "", 1), chat_id=GROUP, timeout=30)
            draws = [first.at - opened]
            await seated(storage, players)
            assert admin_reads(tg) == ["getChatAdministrators"]  # one look-up for the 1 + N commands
            paced: list[float] = []  # from each close being stored to its draw
            results_after: list[float] = []
            for number in range(1, ROUNDS + 1):
                for person in people:  # every answer, in private, in the same second
                    await tg.send_user_message(None, person, "/jouer H8 ZZZ", chat_type="private")
                await hurried(tg, loop_time, all_acknowledged(tg, people, number))
                deadline = deadline_of(storage, number)
                # the rest of the minute passes: the counter goes out at the group's pace, then its edits
                await hurried(tg, loop_time, drained(storage), at_most=max(0.0, deadline - tg.now() - 1.0))
                since = len(tg.log.records)
                tg.advance(max(0.0, deadline - tg.now()))  # to the deadline: the round closes, the next opens
                await close_stored(storage, number)  # its top and images, in real time
                stored = tg.now()
                draw = await hurried(tg, loop_time, tg.wait_for_message(numbered(is_draw, number + 1), timeout=20))
                results = await hurried(tg, loop_time, tg.wait_for_message(numbered(is_result, number), timeout=20))
                draws.append(draw.at - deadline)
                paced.append(draw.at - stored)
                results_after.append(results.at - deadline)
                close = [r for r in tg.log.records[since:] if r.chat_id == GROUP and r.action == "send"]
                assert close[0].seq == draw.seq, [r.short() for r in close]  # the next draw goes first
            backlog = await hurried(tg, loop_time, drained(storage))
        print(
            f"{players} players joining at once: draws after their opening {[round(d, 2) for d in draws]} s "
            f"(from the close stored: {[round(d, 2) for d in paced]} s), results after the deadline "
            f"{[round(r, 2) for r in results_after]} s (fake's clock); admin reads {len(admin_reads(tg))}; "
            f"429s {len(tg.flood_control().refused)}"
        )
        assert draws[0] <= OPENING_BOUND, draws  # before: 99.1 s with 50 players, 9.1 s with 20
        assert all(d <= OPENING_BOUND for d in paced), paced
        assert admin_reads(tg) == ["getChatAdministrators"]  # within the cache's minute: no read again
        assert tg.flood_control().refused == [], tg.flood_control().refused
        for person in people:  # every acknowledgement, once
            assert sorted(acknowledged(tg, person)) == [str(n) for n in range(1, ROUNDS + 1)], person
        assert all(b.waiting == 0 and b.dead == 0 for b in backlog), backlog
