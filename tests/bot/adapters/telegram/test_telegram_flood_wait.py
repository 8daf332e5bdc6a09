"""The Telegram adapter recovering from a long flood wait: real python-telegram-bot with the adapter's production
settings (its pacer, then python-telegram-bot's ``AIORateLimiter(max_retries=3)``, whose buckets leak by the fake's
clock) against the fake Bot API, which answers the group's first message "Too Many Requests: retry after 35" and
holds the group for those 35 s (tests/fakes/telegram_limits.py: a request during the wait would be refused and
double it). The 35 s pass on the fake's clock and the event loop's together (the library sleeps out a
``retry_after`` on the loop), never in real time. The draw reaches the group once, after the wait, and nothing
is sent to the group during it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeTelegram, running_application
from tests.fakes.telegram_limits import COUNTED_METHODS, FloodControl, fake_clock_rate_limiter
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry
from tests.waiting import eventually

LEXICONS = ready_registry()
GROUP = -4_000_000_135
FLOOD_WAIT = 35  # seconds: a long wait, as Telegram serves a bot that overran a group


def flood(tg: FakeTelegram) -> FloodControl:
    """The fake's flood control (on by default)."""
    assert tg.flood is not None
    return tg.flood


def is_draw(text: str) -> bool:
    return "Coup 1 — tirage" in text and "Fin dans" in text


async def ticked(adapter: TelegramAdapter) -> None:
    """Wait until the service's clock has ended a tick begun since now (its second from now on)."""
    before = adapter.service.ticks
    await eventually(lambda: adapter.service.ticks >= before + 2)


def to_group(requests: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The messages and edits among ``requests`` that name the group (what its flood wait holds)."""
    return [m for m, p in requests if m.lower() in COUNTED_METHODS and str(p.get("chat_id")) == str(GROUP)]


@pytest.mark.long(5)
@pytest.mark.asyncio
async def test_a_35_second_flood_wait_is_waited_out_once_then_the_draw_goes(
    storage: SQLiteStorage, loop_time: LoopTime
) -> None:
    async with FakeTelegram(bot_username="TestBot") as tg:
        tg.add_group(GROUP, "Club")
        referee = tg.add_user(first_name="Arbitre", started=True)
        tg.set_member(GROUP, referee, "creator")
        player = tg.add_user(first_name="Ana", started=True)
        adapter = TelegramAdapter(  # the production settings, but the clock's tick (0.05 s, not 0.5)
            Referee(storage, LEXICONS, now=tg.now),
            tg.token,
            base_url=tg.base_url,
            tick_seconds=0.05,
            clock=tg.now,
            rate_limiter=fake_clock_rate_limiter(tg.now, max_retries=3),
        )
        async with running_application(adapter.application, tg):
            tg.flood_wait(FLOOD_WAIT, chat_id=GROUP)  # the group's next message trips a 35 s flood wait
            await tg.send_user_message(GROUP, referee, "/duplicate 1")
            for _ in range(1000):  # 10 s at most of real time: the game opens, its draw is refused
                if flood(tg).refused:
                    break
                await asyncio.sleep(0.01)
            [refusal] = flood(tg).refused
            assert (refusal.chat_id, refusal.retry_after, refusal.injected) == (GROUP, FLOOD_WAIT, True)
            refused_at = next(i for i, request in enumerate(tg.requests) if to_group([request]))  # the refused one
            # meanwhile a player asks for help in private: Telegram holds the group only (observed, not asserted:
            # python-telegram-bot's limiter stops every request while it sleeps out a retry_after)
            await tg.send_user_message(None, player, "/aide", chat_type="private")
            # the wait, less a tenth of a second, on both clocks: nothing goes to the group
            while tg.now() < refusal.at + FLOOD_WAIT - 0.1:
                step = min(0.5, refusal.at + FLOOD_WAIT - 0.1 - tg.now())
                tg.advance(step)
                loop_time.jump(step)
                await ticked(adapter)  # the bot's clock has run at the new time
            # what reached Telegram before the wait's end by its own clock (a loaded machine's real time moves both
            # clocks on while the bot ticks: the library's retry may come once the wait is over, and rightly)
            ended = refusal.at + FLOOD_WAIT
            during = [r for r, at in zip(tg.requests, tg.requested_at, strict=True) if at < ended][refused_at + 1 :]
            assert to_group(during) == [], during
            helped = [r.at for r in tg.log.records if r.chat_id == player.id and r.action == "send"]
            # and the end of the wait: the library retries once, the draw goes
            tg.advance(0.5)
            loop_time.jump(0.5)
            draw = await tg.wait_for_message(lambda m: is_draw(m.text or ""), chat_id=GROUP, timeout=10)
            assert draw.at >= refusal.at + FLOOD_WAIT
            help_at = (await tg.wait_for_message(chat_id=player.id, timeout=10)).at
        # once: no message lost, none sent twice, no request during the wait, so no longer wait
        texts = [r.text or "" for r in tg.messages_in(GROUP)]
        assert texts[0].startswith("Partie duplicate")
        assert [t for t in texts if is_draw(t)] == [draw.text]
        assert len(texts) == len(set(texts)), texts
        assert flood(tg).escalations == []
        assert len(flood(tg).refused) == 1
        first_messages = to_group(tg.requests[: refused_at + 1])
        assert len(first_messages) == 1  # the refused one; then nothing until the wait was over
        print(
            f"flood wait {FLOOD_WAIT} s: draw {draw.at - refusal.at:.1f} s after the refusal; "
            f"a private /aide asked during the wait answered {help_at - refusal.at:.1f} s after the refusal "
            f"({'during' if helped else 'after'} the wait)"
        )
