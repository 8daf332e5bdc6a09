"""Long flood waits in the fake Bot API (tests/fakes/telegram_limits.py): a group's minute overrun at the chat's
pace is told to wait tens of seconds, and a test can serve a flood wait of its own, which is held (refused until
it ends, longer if ignored) like the ones the limits serve."""

from __future__ import annotations

import httpx
import pytest

from tests.fakes import FakeTelegram
from tests.fakes.telegram_limits import FloodControl

GROUP = -4_000_000_777


def flood(tg: FakeTelegram) -> FloodControl:
    """The fake's flood control (on by default)."""
    assert tg.flood is not None
    return tg.flood


async def call(client: httpx.AsyncClient, tg: FakeTelegram, method: str, **params: object) -> httpx.Response:
    return await client.post(f"{tg.base_url}{tg.token}/{method}", json=params)


def retry_after(response: httpx.Response) -> int | None:
    """The 429's ``retry_after`` (None for any other answer), after checking the Bot API's shape."""
    if response.status_code != 429:
        return None
    body = response.json()
    seconds = body["parameters"]["retry_after"]
    assert body == {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {seconds}",
        "parameters": {"retry_after": seconds},
    }
    return int(seconds)


@pytest.mark.asyncio
async def test_a_group_minute_overrun_at_the_chat_pace_waits_tens_of_seconds() -> None:
    async with FakeTelegram() as tg, httpx.AsyncClient() as client:
        tg.clock.freeze()  # the seconds below exact however slow the machine
        tg.add_group(GROUP)
        for _ in range(20):  # 20 messages in 25 s: each within the chat's pace, the group's minute full
            assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="hi")).status_code == 200
            tg.advance(1.25)
        # the 21st, 25 s after the first: Telegram's "retry after 35", the minute's remainder
        assert retry_after(await call(client, tg, "sendMessage", chat_id=GROUP, text="more")) == 35
        assert [(r.scope, r.retry_after, r.injected) for r in flood(tg).refused] == [("group", 35, False)]
        tg.advance(35.0)
        assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="more")).status_code == 200


@pytest.mark.asyncio
async def test_a_flood_wait_served_on_demand_is_held_and_grows_if_ignored() -> None:
    async with FakeTelegram() as tg, httpx.AsyncClient() as client:
        tg.clock.freeze()
        tg.add_group(GROUP)
        other = tg.add_user(first_name="Ana", started=True)
        tg.flood_wait(35, chat_id=GROUP)
        assert (await call(client, tg, "getChatAdministrators", chat_id=GROUP)).status_code == 200  # not a message
        assert (await call(client, tg, "sendMessage", chat_id=other.id, text="hi")).status_code == 200  # another chat
        assert retry_after(await call(client, tg, "sendMessage", chat_id=GROUP, text="draw")) == 35
        tg.advance(20.0)
        # still in the wait: refused, and the wait grows (a client that ignores retry_after is punished)
        assert retry_after(await call(client, tg, "editMessageText", chat_id=GROUP, message_id=1, text="x")) == 70
        assert (await call(client, tg, "sendMessage", chat_id=other.id, text="hi")).status_code == 200
        tg.advance(69.0)
        assert retry_after(await call(client, tg, "sendMessage", chat_id=GROUP, text="draw")) == 140
        tg.advance(140.0)
        assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="draw")).status_code == 200
        refused = [(r.retry_after, r.escalated, r.injected) for r in flood(tg).refused]
        assert refused == [(35, False, True), (70, True, False), (140, True, False)]
        assert [m.text for m in tg.messages_in(GROUP)] == ["draw"]


@pytest.mark.asyncio
async def test_a_flood_wait_of_the_whole_bot_holds_every_chat() -> None:
    async with FakeTelegram() as tg, httpx.AsyncClient() as client:
        tg.add_group(GROUP)
        ana = tg.add_user(first_name="Ana", started=True)
        tg.flood_wait(12)  # the next message to any chat
        assert retry_after(await call(client, tg, "sendMessage", chat_id=ana.id, text="hi")) == 12
        tg.advance(12.0)
        assert (await call(client, tg, "sendMessage", chat_id=GROUP, text="hi")).status_code == 200
        assert [(r.scope, r.chat_id) for r in flood(tg).refused] == [("overall", ana.id)]


@pytest.mark.asyncio
async def test_a_flood_wait_needs_whole_seconds_and_flood_control() -> None:
    async with FakeTelegram() as tg:
        with pytest.raises(ValueError):
            tg.flood_wait(0)
        with pytest.raises(ValueError):
            tg.flood_wait(2.5)  # type: ignore[arg-type]
    async with FakeTelegram(flood_control=False) as tg:
        with pytest.raises(ValueError):
            tg.flood_wait(35)
