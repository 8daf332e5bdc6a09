"""The fake Bot API's flood control (tests/fakes/telegram_limits.py): each limit of the Bot API FAQ answers the
documented 429, a wait ignored grows, and the limits refill with the fake's clock; python-telegram-bot's limiter
on the fake's clock (the canary of the two internals it relies on)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from telegram import Bot
from telegram.error import RetryAfter
from telegram.ext import ExtBot

from tests.fakes import FakeTelegram
from tests.fakes.telegram_limits import FloodLimits, fake_clock_rate_limiter

GROUP = -4_000_000_555


async def call(client: httpx.AsyncClient, tg: FakeTelegram, method: str, **params: object) -> httpx.Response:
    return await client.post(f"{tg.base_url}{tg.token}/{method}", json=params)


def assert_too_many(response: httpx.Response, retry_after: int) -> None:
    assert response.status_code == 429
    assert response.json() == {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {retry_after}",
        "parameters": {"retry_after": retry_after},
    }


@pytest.mark.asyncio
async def test_twenty_messages_a_minute_to_a_group() -> None:
    async with FakeTelegram() as tg, httpx.AsyncClient() as client:
        tg.add_group(GROUP)
        for _ in range(20):  # one a second: the chat's pace is kept, the group's minute fills
            assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="hi")).status_code == 200
            tg.advance(1.0)
        # the 21st, 20 s after the first: the oldest leaves the minute in 40 s
        assert_too_many(await call(client, tg, "editMessageText", chat_id=GROUP, message_id=1, text="ho"), 40)
        assert [(r.scope, r.escalated) for r in tg.flood_control().refused] == [("group", False)]
        tg.advance(40.0)
        assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="again")).status_code == 200
        assert tg.flood_control().escalations == []


@pytest.mark.asyncio
async def test_one_message_a_second_per_chat_with_a_short_burst() -> None:
    async with FakeTelegram(flood_limits=FloodLimits(chat_burst=3)) as tg, httpx.AsyncClient() as client:
        user = tg.add_user(first_name="Ana", started=True)
        for _ in range(3):
            assert (await call(client, tg, "sendMessage", chat_id=user.id, text="hi")).status_code == 200
        assert_too_many(await call(client, tg, "sendMessage", chat_id=user.id, text="hi"), 1)
        assert tg.flood_control().refused_in(user.id)[0].scope == "chat"
        tg.advance(1.0)  # one more message's worth
        assert (await call(client, tg, "sendMessage", chat_id=user.id, text="hi")).status_code == 200
        assert_too_many(await call(client, tg, "sendMessage", chat_id=user.id, text="hi"), 1)
        tg.advance(10.0)  # the burst refills, no further
        for _ in range(3):
            assert (await call(client, tg, "sendMessage", chat_id=user.id, text="hi")).status_code == 200
        assert (await call(client, tg, "sendMessage", chat_id=user.id, text="hi")).status_code == 429


@pytest.mark.asyncio
async def test_thirty_messages_a_second_overall() -> None:
    async with FakeTelegram() as tg, httpx.AsyncClient() as client:
        users = [tg.add_user(started=True) for _ in range(31)]
        answers = [await call(client, tg, "sendMessage", chat_id=u.id, text="hi") for u in users]
        assert [a.status_code for a in answers[:30]] == [200] * 30
        assert_too_many(answers[30], 1)
        assert tg.flood_control().refused[0].scope == "overall"
        # the bot as a whole waits: another chat is refused too, and that request grows the wait
        assert_too_many(await call(client, tg, "sendMessage", chat_id=users[0].id, text="hi"), 2)
        tg.advance(2.0)
        assert (await call(client, tg, "sendMessage", chat_id=users[30].id, text="hi")).status_code == 200


@pytest.mark.asyncio
async def test_a_flood_wait_ignored_grows() -> None:
    async with FakeTelegram(flood_limits=FloodLimits(chat_burst=1)) as tg, httpx.AsyncClient() as client:
        tg.add_group(GROUP)
        assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="one")).status_code == 200
        assert_too_many(await call(client, tg, "sendPhoto", chat_id=GROUP, photo="x"), 1)
        assert_too_many(await call(client, tg, "sendMessage", chat_id=GROUP, text="two"), 2)  # during the wait
        assert_too_many(await call(client, tg, "sendMessage", chat_id=GROUP, text="two"), 4)
        tg.advance(1.5)  # the first wait is over, not the grown one
        assert_too_many(await call(client, tg, "sendMessage", chat_id=GROUP, text="two"), 8)
        tg.advance(8.0)
        assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="two")).status_code == 200
        assert [r.retry_after for r in tg.flood_control().escalations] == [2, 4, 8]
        assert tg.flood_control().per_chat() == {GROUP: 4}


@pytest.mark.asyncio
async def test_reads_and_chat_actions_are_not_messages() -> None:
    async with FakeTelegram(flood_limits=FloodLimits(chat_burst=1)) as tg, httpx.AsyncClient() as client:
        tg.add_group(GROUP)
        member = tg.add_user(first_name="Ben")
        tg.set_member(GROUP, member, "member")
        assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="one")).status_code == 200
        reads: list[tuple[str, dict[str, object]]] = [
            ("getChatMember", {"user_id": member.id}),
            ("getChatAdministrators", {}),
            ("sendChatAction", {"action": "typing"}),
        ]
        for method, params in reads:
            for _ in range(25):
                assert (await call(client, tg, method, chat_id=GROUP, **params)).status_code == 200
        assert tg.flood_control().refused == []
        assert tg.flood_control().counted[GROUP] == 1


@pytest.mark.asyncio
async def test_flood_control_can_be_turned_off() -> None:
    async with FakeTelegram(flood_control=False) as tg, httpx.AsyncClient() as client:
        tg.add_group(GROUP)
        answers = [await call(client, tg, "sendMessage", chat_id=GROUP, text="hi") for _ in range(40)]
        assert {a.status_code for a in answers} == {200}
        assert tg.flood is None


@pytest.mark.asyncio
async def test_the_library_reads_the_429() -> None:
    async with FakeTelegram(flood_limits=FloodLimits(chat_burst=1)) as tg:
        tg.add_group(GROUP)
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            await bot.send_message(GROUP, "one")
            with pytest.raises(RetryAfter) as raised:
                await bot.send_message(GROUP, "two")
        assert str(raised.value) in (
            "Flood control exceeded. Retry in 1 seconds",
            "Flood control exceeded. Retry in 0:00:01",
        )
        assert tg.flood_control().refused[0].retry_after == 1


@pytest.mark.asyncio
async def test_the_library_limiter_on_the_fake_clock_waits_for_the_group_minute() -> None:
    """AIORateLimiter's production rates (20 a minute per group, a leaky bucket): the 21st message of a burst
    waits until the fake's clock gives the group's bucket room (3 s), never for real seconds. The fake reads
    the FAQ's "not more than 20 messages per minute" strictly (any 60 s), so that message is still refused:
    the library's bucket lets up to 40 through in a minute after a burst, and the bot's own pacing has to
    keep a group under 20 (max_retries=0 here: a retry would sleep the 57 s out in real time)."""
    async with FakeTelegram(flood_limits=FloodLimits(chat_burst=30)) as tg:
        tg.add_group(GROUP)
        limiter = fake_clock_rate_limiter(tg.now, max_retries=0)
        async with ExtBot(tg.token, base_url=tg.base_url, rate_limiter=limiter) as bot:
            before_first = tg.now()
            for number in range(20):
                await bot.send_message(GROUP, f"m{number}")
                if number == 0:
                    after_first = tg.now()
            late = asyncio.ensure_future(bot.send_message(GROUP, "m20"))
            await asyncio.sleep(0.3)  # real time: the group's bucket is still full
            assert not late.done()
            assert len(tg.flood_control().refused) == 0
            tg.advance(3.0)
            with pytest.raises(RetryAfter):
                await asyncio.wait_for(late, 2.0)
        assert len(tg.messages_in(GROUP)) == 20
        # 57 s when no real time passes: the minute since the first message, less the 3 s advanced (the
        # fake's clock also runs in real time, which a loaded machine makes a second or two)
        [refusal] = tg.flood_control().refused
        assert refusal.scope == "group"
        assert before_first + 60 - refusal.at <= refusal.retry_after <= after_first + 60 - refusal.at + 1
        assert refusal.retry_after <= 57
