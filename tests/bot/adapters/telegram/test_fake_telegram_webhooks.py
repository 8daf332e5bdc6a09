"""The fake Bot API's webhooks (setWebhook, getWebhookInfo, deleteWebhook): what it refuses, updates posted with the
secret token and retried, in order per chat, pending updates kept, and python-telegram-bot's webhook server fed by
it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import pytest_asyncio
from aiohttp import web

from tests.fakes import SECRET_HEADER, FakeTelegram
from tests.fakes._common import free_port
from tests.waiting import eventually

if TYPE_CHECKING:
    pass
from tests.bot.adapters.telegram.fake_bot import (
    GROUP,
    build_app,
    call,
)
from tests.bot.adapters.telegram.fake_bot import tg as tg  # a fake Bot API of its own per test

# --- webhooks (setWebhook, getWebhookInfo, deleteWebhook) ------------------------------------------


class Receiver:
    """A webhook endpoint of the test's own: records what it was sent, answers ``statuses`` in turn
    (then 200), and holds a chat's requests while that chat is in ``held``."""

    def __init__(self, *statuses: int) -> None:
        self.statuses = list(statuses)
        self.got: list[tuple[dict[str, Any], str | None]] = []
        self.held: set[int] = set()
        self.open = 0
        self.most_open = 0
        self.changed = asyncio.Event()

    async def handle(self, request: web.Request) -> web.Response:
        update = await request.json()
        self.open += 1
        self.most_open = max(self.most_open, self.open)
        try:
            while update["message"]["chat"]["id"] in self.held:
                await asyncio.sleep(0.01)
            self.got.append((update, request.headers.get(SECRET_HEADER)))
            self.changed.set()
            return web.Response(status=self.statuses.pop(0) if self.statuses else 200)
        finally:
            self.open -= 1

    async def wait_for(self, count: int, timeout: float = 2.0) -> None:
        async def enough() -> None:
            while len(self.got) < count:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(enough(), timeout)


@asynccontextmanager
async def receiving(receiver: Receiver) -> AsyncIterator[str]:
    """``receiver`` served on 127.0.0.1 at /hook; yields its URL."""
    app = web.Application()
    app.router.add_post("/hook", receiver.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
    finally:
        await runner.cleanup()


@pytest_asyncio.fixture
async def local() -> AsyncIterator[FakeTelegram]:
    """A self-hosted Bot API server (``--local``): HTTP webhooks on any port are accepted."""
    async with FakeTelegram(bot_username="TestBot", local_mode=True, webhook_retry_seconds=30) as fake:
        yield fake


@pytest.mark.parametrize(
    ("params", "refused"),
    [
        ({"url": "http://bot.example.org/hook"}, "An HTTPS URL must be provided"),
        ({"url": "https://bot.example.org:8080/hook"}, "ports 80, 88, 443 or 8443"),
        ({"url": "https://bot.example.org/hook", "secret_token": "not secret!"}, "secret token"),
        ({"url": "https://bot.example.org/hook", "secret_token": "x" * 257}, "secret token"),
        ({"url": "https://bot.example.org/hook", "max_connections": 101}, "max_connections"),
        ({"url": "https://bot.example.org/hook", "max_connections": 0}, "max_connections"),
    ],
)
@pytest.mark.asyncio
async def test_set_webhook_refuses_what_the_bot_api_refuses(
    tg: FakeTelegram, params: dict[str, Any], refused: str
) -> None:
    status, body = await call(tg, "setWebhook", **params)
    assert status == 400
    assert refused in json.loads(body)["description"]
    assert json.loads((await call(tg, "getWebhookInfo"))[1])["result"]["url"] == ""


@pytest.mark.asyncio
async def test_set_webhook_accepts_https_on_a_webhook_port_and_getupdates_is_refused_meanwhile(
    tg: FakeTelegram,
) -> None:
    url = "https://bot.example.org:8443/hook"
    status, _ = await call(tg, "setWebhook", url=url, secret_token="A-z_09", max_connections=5)
    assert status == 200
    info = json.loads((await call(tg, "getWebhookInfo"))[1])["result"]
    assert info["url"] == url
    assert info["max_connections"] == 5
    assert info["pending_update_count"] == 0
    status, body = await call(tg, "getUpdates")
    assert status == 409
    assert "webhook is active" in json.loads(body)["description"]
    assert (await call(tg, "setWebhook", url=""))[0] == 200  # an empty URL removes it
    assert (await call(tg, "getUpdates"))[0] == 200


@pytest.mark.asyncio
async def test_updates_are_posted_to_the_webhook_with_the_secret_token(local: FakeTelegram) -> None:
    receiver = Receiver()
    async with receiving(receiver) as url:
        assert (await call(local, "setWebhook", url=url, secret_token="s3cret-Token_1"))[0] == 200
        alice = local.add_user(first_name="Alice")
        await local.send_user_message(GROUP, alice, "/start@TestBot")
        await receiver.wait_for(1)
    ((update, secret),) = receiver.got
    assert secret == "s3cret-Token_1"
    assert update["message"]["text"] == "/start@TestBot"
    assert [a.status for a in local.webhook_attempts] == [200]
    assert local.webhook_attempts[0].secret_sent
    assert local.pending_updates == []


@pytest.mark.asyncio
async def test_a_webhook_answering_an_error_gets_the_update_again(local: FakeTelegram) -> None:
    receiver = Receiver(403, 502)
    async with receiving(receiver) as url:
        await call(local, "setWebhook", url=url)
        alice = local.add_user(first_name="Alice")
        await local.send_user_message(GROUP, alice, "/score H8 VAGUE")
        await receiver.wait_for(1)
        await eventually(lambda: len(local.webhook_attempts) == 1)  # the fake has read the bot's answer
        info = json.loads((await call(local, "getWebhookInfo"))[1])["result"]
        assert info["pending_update_count"] == 1
        assert info["last_error_message"].endswith("403 Forbidden")
        local.advance(30)  # the first retry is due 30 s later (the fake's clock)
        await receiver.wait_for(2)
        local.advance(60)  # then twice as long
        await receiver.wait_for(3)
    ids = {update["update_id"] for update, _ in receiver.got}
    assert len(ids) == 1
    assert [a.status for a in local.webhook_attempts] == [403, 502, 200]
    assert local.pending_updates == []


@pytest.mark.asyncio
async def test_a_webhook_that_does_not_answer_is_retried_and_getwebhookinfo_says_why(local: FakeTelegram) -> None:
    receiver = Receiver()
    async with receiving(receiver) as url:
        await call(local, "setWebhook", url="http://127.0.0.1:9/hook")  # nothing listens on port 9
        alice = local.add_user(first_name="Alice")
        await local.send_user_message(GROUP, alice, "/start")
        await eventually(lambda: len(local.webhook_attempts) == 1)  # the fake's try, refused
        info = json.loads((await call(local, "getWebhookInfo"))[1])["result"]
        assert info["last_error_message"] == "Connection refused"
        assert info["pending_update_count"] == 1
        await call(local, "setWebhook", url=url)  # the bot's server is back, at its address
        local.advance(30)
        await receiver.wait_for(1)
    assert [a.status for a in local.webhook_attempts] == [None, 200]


@pytest.mark.asyncio
async def test_a_chats_updates_arrive_in_order_and_chats_do_not_wait_for_each_other(local: FakeTelegram) -> None:
    receiver = Receiver()
    other = GROUP - 1
    async with receiving(receiver) as url:
        await call(local, "setWebhook", url=url, max_connections=2)
        alice = local.add_user(first_name="Alice")
        receiver.held.add(GROUP)
        for n in range(3):
            await local.send_user_message(GROUP, alice, f"/score H{n} A")
        await local.send_user_message(other, alice, "/score H8 OTHER")
        await receiver.wait_for(1)  # the other chat is not held up by the first one's request
        assert receiver.got[0][0]["message"]["chat"]["id"] == other
        receiver.held.clear()
        await receiver.wait_for(4)
    texts = [update["message"]["text"] for update, _ in receiver.got if update["message"]["chat"]["id"] == GROUP]
    assert texts == ["/score H0 A", "/score H1 A", "/score H2 A"]
    assert receiver.most_open == 2


@pytest.mark.asyncio
async def test_delete_webhook_keeps_pending_updates_for_getupdates_unless_dropped(local: FakeTelegram) -> None:
    receiver = Receiver(500)
    async with receiving(receiver) as url:
        await call(local, "setWebhook", url=url)
        alice = local.add_user(first_name="Alice")
        await local.send_user_message(GROUP, alice, "/start")
        await receiver.wait_for(1)
        await eventually(lambda: len(local.webhook_attempts) == 1)  # the fake has read the bot's 500
        assert (await call(local, "deleteWebhook"))[0] == 200
    status, body = await call(local, "getUpdates")
    assert status == 200
    assert [u["message"]["text"] for u in json.loads(body)["result"]] == ["/start"]
    await call(local, "setWebhook", url="http://127.0.0.1:9/hook", drop_pending_updates=True)
    assert json.loads((await call(local, "getWebhookInfo"))[1])["result"]["pending_update_count"] == 0


@pytest.mark.asyncio
async def test_python_telegram_bot_webhook_server_takes_updates_from_the_fake(local: FakeTelegram) -> None:
    port = free_port()
    app = build_app(local)
    async with app:
        assert app.updater is not None
        await app.updater.start_webhook(
            listen="127.0.0.1",
            port=port,
            url_path="arbitre",
            webhook_url=f"http://127.0.0.1:{port}/arbitre",
            secret_token="s3cret",
            allowed_updates=["message"],
        )
        await app.start()
        try:
            alice = local.add_user(first_name="Alice")
            await local.send_user_message(GROUP, alice, "/score H8 VAGUE")
            assert (await local.wait_for_message(chat_id=GROUP)).text == "VAGUE at H8"
            assert local.webhook_attempts[-1].status == 200
            info = json.loads((await call(local, "getWebhookInfo"))[1])["result"]
            assert info["allowed_updates"] == ["message"]
            assert info["url"].endswith(f"{port}/arbitre")
            # PTB's server refuses a request without the secret token: Telegram would try again
            async with httpx.AsyncClient() as client:
                forged = {"update_id": 1, "message": {**local.messages[(GROUP, 1)], "text": "/score A1 FORGED"}}
                response = await client.post(f"http://127.0.0.1:{port}/arbitre", json=forged)
            assert response.status_code == 403
            # never handled: the group's next message answers the next update (PTB handles them in order)
            await local.send_user_message(GROUP, alice, "/score A1 REAL")
            assert (await local.wait_for_message(chat_id=GROUP)).text == "REAL at A1"
        finally:
            await app.updater.stop()
            await app.stop()
