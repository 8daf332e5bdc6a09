"""Handshake canaries for the fake Telegram Bot API: a real PTB Application must work against it.

If one of these fails after a python-telegram-bot upgrade, fix tests/fakes/telegram_server.py first.
"""

from __future__ import annotations

import asyncio
import json
import struct
import threading
import time
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import pytest_asyncio
from aiohttp import web
from telegram import (
    ChatMember,
    ChatMemberAdministrator,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    ChatMemberRestricted,
    Message,
    Update,
)
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter
from telegram.ext import AIORateLimiter, CommandHandler, ContextTypes, MessageHandler, filters

from tests.fakes import SECRET_HEADER, BotErrors, FakeTelegram, command_entities, running_application
from tests.fakes._common import free_port

if TYPE_CHECKING:
    from tests.fakes.telegram_server import AnyApplication


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PNG = tiny_png()
GROUP = -4_000_000_123


def message_of(update: Update) -> Message:
    """The message an update carries (every update these handlers get has one)."""
    assert update.effective_message is not None
    return update.effective_message


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await message_of(update).reply_text("Bienvenue")


async def score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.args is not None
    position, word = context.args
    await message_of(update).reply_text(f"{word} at {position}")


async def board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await message_of(update).reply_photo(PNG, caption="board", filename="board.png")
    await message_of(update).reply_document(PNG, filename="board.png", caption="lossless")


async def crash(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    raise RuntimeError("handler failed")


async def set_commands(application: AnyApplication) -> None:
    await application.bot.set_my_commands([("start", "Start"), ("score", "Score a move")])


def build_app(tg: FakeTelegram, **limiter: int) -> AnyApplication:
    app = tg.application_builder().rate_limiter(AIORateLimiter(**limiter)).post_init(set_commands).build()
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("score", score))
    app.add_handler(CommandHandler("board", board))
    app.add_handler(CommandHandler("crash", crash))
    return app


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="TestBot") as fake:
        yield fake


@pytest_asyncio.fixture
async def app(tg: FakeTelegram) -> AsyncIterator[AnyApplication]:
    app = build_app(tg, max_retries=2)
    async with running_application(app, tg):
        yield app


def test_entities_use_utf16_offsets() -> None:
    text = "🎲 /score@TestBot H8 VAGUE"
    assert command_entities(text) == [{"type": "bot_command", "offset": 3, "length": 14}]
    assert command_entities("/start")[0] == {"type": "bot_command", "offset": 0, "length": 6}


@pytest.mark.asyncio
async def test_group_commands_with_and_without_bot_name() -> None:
    async with FakeTelegram(bot_username="TestBot", privacy_mode=False) as tg:
        app = build_app(tg)
        async with running_application(app, tg):
            assert app.bot.username == "TestBot"
            assert [c["command"] for c in tg.commands["default"]] == ["start", "score"]  # post_init ran
            alice = tg.add_user(first_name="Alice", username="alice")

            sent = await tg.send_user_message(GROUP, alice, "/start")
            reply = await tg.wait_for_message(chat_id=GROUP)
            assert reply.text == "Bienvenue"
            assert reply.reply_to == sent["message_id"]

            sent = await tg.send_user_message(GROUP, alice, "/score@TestBot H8 VAGUE")
            assert sent["entities"] == [{"type": "bot_command", "offset": 0, "length": 14}]
            reply = await tg.wait_for_message(chat_id=GROUP)
            assert reply.text == "VAGUE at H8"

            other = await tg.send_user_message(GROUP, alice, "/score@OtherBot H8 VAGUE")
            assert tg.delivered(other)  # privacy mode off: PTB itself must ignore it
            await tg.send_user_message(GROUP, alice, "/start")  # PTB handles a chat's updates in order
            assert (await tg.wait_for_message(chat_id=GROUP)).text == "Bienvenue"


@pytest.mark.asyncio
async def test_privacy_mode_hides_plain_group_text(tg: FakeTelegram, app: AnyApplication) -> None:
    seen: list[str] = []

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(message_of(update).text or "")

    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, record))
    alice = tg.add_user(first_name="Alice")
    hidden = await tg.send_user_message(GROUP, alice, "just chatting")
    other = await tg.send_user_message(GROUP, alice, "/score@OtherBot H8 VAGUE")
    mention = await tg.send_user_message(GROUP, alice, "hey @TestBot")
    private = await tg.send_user_message(None, alice, "hello bot", chat_type="private")
    assert not tg.delivered(hidden)
    assert not tg.delivered(other)
    assert tg.delivered(mention)
    assert tg.delivered(private)
    for _ in range(100):
        if len(seen) == 2:
            break
        await asyncio.sleep(0.005)
    assert seen == ["hey @TestBot", "hello bot"]


@pytest.mark.asyncio
async def test_photo_and_document(tg: FakeTelegram, app: AnyApplication) -> None:
    alice = tg.add_user(first_name="Alice")
    await tg.send_user_message(GROUP, alice, "/board@TestBot")
    photo = await tg.wait_for_message(chat_id=GROUP)
    assert photo.method == "sendPhoto"
    assert photo.text == "board"
    assert photo.file is not None
    assert photo.file.data == PNG
    assert photo.file.filename == "board.png"
    assert photo.message_id is not None
    stored = tg.messages[(GROUP, photo.message_id)]
    assert stored["photo"][-1]["width"] == 3
    document = await tg.wait_for_message(chat_id=GROUP)
    assert document.method == "sendDocument"
    assert document.file is not None
    assert document.file.data == PNG
    # the bot can download what it sent
    file = await app.bot.get_file(stored["photo"][-1]["file_id"])
    assert bytes(await file.download_as_bytearray()) == PNG


@pytest.mark.asyncio
async def test_429_is_retried_by_rate_limiter(tg: FakeTelegram, app: AnyApplication) -> None:
    tg.rate_limit_next("sendMessage", retry_after=1)  # whole seconds, as Telegram says
    alice = tg.add_user(first_name="Alice")
    await tg.send_user_message(GROUP, alice, "/start")
    reply = await tg.wait_for_message(chat_id=GROUP)
    assert reply.text == "Bienvenue"
    assert [m for m, _ in tg.requests].count("sendMessage") == 2


@pytest.mark.asyncio
async def test_429_body_matches_telegram(tg: FakeTelegram) -> None:
    app = tg.application_builder().build()  # no rate limiter: PTB raises RetryAfter
    async with app:
        tg.add_group(GROUP)
        tg.rate_limit_next("sendMessage")
        with pytest.raises(RetryAfter) as caught:
            await app.bot.send_message(GROUP, "hi")
        assert caught.value._retry_after.total_seconds() == 1
        await app.bot.send_message(GROUP, "hi")


@pytest.mark.asyncio
async def test_private_message_needs_start(tg: FakeTelegram, app: AnyApplication) -> None:
    bob = tg.add_user(first_name="Bob")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await app.bot.send_message(bob.id, "your rack")
    await tg.send_user_message(None, bob, "/start", chat_type="private")
    assert (await tg.wait_for_message(chat_id=bob.id)).text == "Bienvenue"
    await app.bot.send_message(bob.id, "your rack")
    assert (await tg.wait_for_message(chat_id=bob.id)).text == "your rack"
    with pytest.raises(BadRequest, match="[Cc]hat not found"):
        await app.bot.send_message(999_999_999, "nobody")


@pytest.mark.asyncio
async def test_length_limits(tg: FakeTelegram, app: AnyApplication) -> None:
    tg.add_group(GROUP)
    with pytest.raises(BadRequest, match="(?i)message is too long"):
        await app.bot.send_message(GROUP, "x" * 4097)
    await app.bot.send_message(GROUP, "x" * 4096)
    with pytest.raises(BadRequest, match="(?i)message caption is too long"):
        await app.bot.send_photo(GROUP, PNG, caption="c" * 1025)
    with pytest.raises(BadRequest, match="(?i)can't parse entities"):
        await app.bot.send_message(GROUP, "<b>unclosed", parse_mode="HTML")


@pytest.mark.asyncio
async def test_edit_with_same_text_is_not_modified(tg: FakeTelegram, app: AnyApplication) -> None:
    tg.add_group(GROUP)
    message = await app.bot.send_message(GROUP, "⏳ 30 s")
    edited = await message.edit_text("⏳ 20 s")
    assert edited.text == "⏳ 20 s"
    assert edited.edit_date is not None
    assert (await tg.wait_for_edit(chat_id=GROUP)).text == "⏳ 20 s"
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await message.edit_text("⏳ 20 s")


@pytest.mark.asyncio
async def test_handler_errors_fail_the_test(tg: FakeTelegram, app: AnyApplication) -> None:
    alice = tg.add_user(first_name="Alice")
    await tg.send_user_message(GROUP, alice, "/crash")
    with pytest.raises(BotErrors, match="handler failed"):
        await tg.wait_for_message(timeout=1)
    tg.log.errors.clear()


@pytest.mark.asyncio
async def test_run_polling_in_a_thread_stops_fast(tg: FakeTelegram) -> None:
    ready = threading.Event()
    loops: list[asyncio.AbstractEventLoop] = []

    async def post_init(application: AnyApplication) -> None:
        loops.append(asyncio.get_running_loop())
        ready.set()

    app = tg.application_builder().rate_limiter(AIORateLimiter()).post_init(post_init).build()
    app.add_handler(CommandHandler("start", start))
    thread = threading.Thread(target=lambda: app.run_polling(stop_signals=None), daemon=True)
    thread.start()
    try:
        assert await asyncio.to_thread(ready.wait, 2), "post_init did not run"
        alice = tg.add_user(first_name="Alice")
        await tg.send_user_message(None, alice, "/start", chat_type="private")
        assert (await tg.wait_for_message(chat_id=alice.id)).text == "Bienvenue"
    finally:
        if loops:
            loops[0].call_soon_threadsafe(app.stop_running)
        began = time.monotonic()
        await asyncio.to_thread(thread.join, 5)
    assert not thread.is_alive()
    assert time.monotonic() - began < 1.0


# --- the fake is as strict as the Bot API ------------------------------------------------------


def test_retry_after_is_whole_seconds_of_at_least_one() -> None:
    tg = FakeTelegram()
    wrong_values: tuple[Any, ...] = (0.05, 0, 1.5, True)  # not whole seconds, or not numbers of seconds
    for wrong in wrong_values:
        with pytest.raises(ValueError, match="whole number of seconds"):
            tg.rate_limit_next("sendMessage", retry_after=wrong)
    tg.rate_limit_next("sendMessage", retry_after=2)


@pytest.mark.asyncio
async def test_command_menu_language_codes_are_iso_639_1(tg: FakeTelegram) -> None:
    app = tg.application_builder().build()
    async with app:
        for code in ("fr-FR", "french", "FR", "zz"):
            with pytest.raises(BadRequest, match="(?i)invalid language code"):
                await app.bot.set_my_commands([("coup", "Jouer un coup")], language_code=code)
        assert tg.commands == {}
        await app.bot.set_my_commands([("coup", "Jouer un coup")], language_code="fr")
        await app.bot.set_my_commands([("score", "Score a move")])
        assert set(tg.commands) == {"default/fr", "default"}
        assert [c.command for c in await app.bot.get_my_commands(language_code="fr")] == ["coup"]


@pytest.mark.asyncio
async def test_every_chat_member_status_in_its_documented_shape(tg: FakeTelegram) -> None:
    app = tg.application_builder().build()
    async with app:
        tg.add_group(GROUP)
        expected: dict[str, type[ChatMember]] = {
            "creator": ChatMemberOwner,
            "administrator": ChatMemberAdministrator,
            "member": ChatMemberMember,
            "restricted": ChatMemberRestricted,
            "left": ChatMemberLeft,
            "kicked": ChatMemberBanned,
        }
        users = {}
        for status in expected:
            users[status] = tg.add_user(first_name=status.title())
            tg.set_member(GROUP, users[status], status)
        tg.set_member(GROUP, users["administrator"], "administrator", custom_title="Arbitre", can_promote_members=True)
        for status, kind in expected.items():
            member = await app.bot.get_chat_member(GROUP, users[status].id)
            assert type(member) is kind
            assert member.status == status
            assert member.user.id == users[status].id
        admin = await app.bot.get_chat_member(GROUP, users["administrator"].id)
        assert isinstance(admin, ChatMemberAdministrator)
        assert admin.custom_title == "Arbitre"
        assert admin.can_promote_members
        assert admin.can_manage_chat
        stranger = tg.add_user(first_name="Stranger")  # never in the group
        assert (await app.bot.get_chat_member(GROUP, stranger.id)).status == "left"
        with pytest.raises(BadRequest, match="(?i)user not found"):
            await app.bot.get_chat_member(GROUP, 424242)
        admins = await app.bot.get_chat_administrators(GROUP)
        assert sorted(m.status for m in admins) == ["administrator", "creator"]
        with pytest.raises(ValueError):
            tg.set_member(GROUP, stranger, "owner")


# --- fault injection ---------------------------------------------------------------------------


async def call(tg: FakeTelegram, method: str, **params: Any) -> tuple[int, str]:
    """A raw Bot API call: (HTTP status, body text)."""
    async with httpx.AsyncClient() as client:
        response = await client.post(f"{tg.base_url}{tg.token}/{method}", json=params)
        return response.status_code, response.text


@pytest.mark.asyncio
async def test_fault_server_errors_on_chosen_methods_n_times(tg: FakeTelegram) -> None:
    tg.add_group(GROUP)
    tg.server_error_next("sendMessage", count=2)
    statuses = [(await call(tg, "sendMessage", chat_id=GROUP, text="hi"))[0] for _ in range(3)]
    assert statuses == [500, 500, 200]
    tg.server_error_next("*", status=502)
    status, page = await call(tg, "getMe")
    assert status == 502
    assert "Bad Gateway" in page
    app = tg.application_builder().build()
    async with app:
        tg.server_error_next("sendMessage")
        with pytest.raises(NetworkError):  # python-telegram-bot does not retry a 500 itself
            await app.bot.send_message(GROUP, "lost")
        await app.bot.send_message(GROUP, "sent")
    assert [f.kind for f in tg.faults_served] == ["5xx"] * 4


@pytest.mark.asyncio
async def test_fault_429_burst_with_whole_second_retry_after(tg: FakeTelegram) -> None:
    tg.add_group(GROUP)
    tg.rate_limit_next("sendMessage", retry_after=3, count=3)
    for _ in range(3):
        status, body = await call(tg, "sendMessage", chat_id=GROUP, text="hi")
        assert status == 429
        assert json.loads(body)["parameters"] == {"retry_after": 3}
        assert "retry after 3" in body
    assert (await call(tg, "sendMessage", chat_id=GROUP, text="hi"))[0] == 200
    app = tg.application_builder().build()
    async with app:
        tg.rate_limit_next("sendMessage", retry_after=2)
        with pytest.raises(RetryAfter) as caught:
            await app.bot.send_message(GROUP, "hi")
        assert caught.value._retry_after.total_seconds() == 2
    assert len(tg.faults_of("429")) == 4


@pytest.mark.asyncio
async def test_fault_connection_reset(tg: FakeTelegram) -> None:
    tg.add_group(GROUP)
    app = tg.application_builder().build()
    async with app:
        tg.reset_next("sendMessage")
        with pytest.raises(NetworkError):
            await app.bot.send_message(GROUP, "lost")
        await app.bot.send_message(GROUP, "sent")
    assert [r.text for r in tg.sent] == ["sent"]
    assert len(tg.faults_of("reset")) == 1


@pytest.mark.asyncio
async def test_fault_outage_refuses_everything_until_it_ends(tg: FakeTelegram) -> None:
    tg.add_group(GROUP)
    tg.outage(30)
    with pytest.raises(httpx.TransportError):
        await call(tg, "getMe")
    tg.advance(20)  # the fake's clock is real time plus what the test advanced: 10 s to spare on a slow machine
    with pytest.raises(httpx.TransportError):
        await call(tg, "sendMessage", chat_id=GROUP, text="hi")
    tg.advance(10)  # 30 s of the fake's clock: over
    assert (await call(tg, "getMe"))[0] == 200
    tg.outage(10, mode="unavailable")
    assert (await call(tg, "getMe"))[0] == 502
    tg.end_outage()
    assert (await call(tg, "getMe"))[0] == 200
    assert {f.method for f in tg.faults_of("outage")} == {"getMe", "sendMessage"}


@pytest.mark.asyncio
async def test_fault_outage_cuts_the_long_poll_and_polling_resumes_after_it(
    tg: FakeTelegram, app: AnyApplication
) -> None:
    alice = tg.add_user(first_name="Alice")
    await tg.send_user_message(GROUP, alice, "/start")
    assert (await tg.wait_for_message(chat_id=GROUP)).text == "Bienvenue"
    await asyncio.sleep(0.05)  # the updater is back in its long poll
    tg.outage(30)
    await tg.send_user_message(GROUP, alice, "/start")  # during the outage: kept, not lost
    tg.advance(30)
    assert (await tg.wait_for_message(chat_id=GROUP, timeout=4)).text == "Bienvenue"
    assert tg.faults_of("outage")


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
        await asyncio.sleep(0.05)
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
        await asyncio.sleep(0.1)
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
        await asyncio.sleep(0.05)
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
