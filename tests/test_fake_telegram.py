"""Handshake canaries for the fake Telegram Bot API: a real PTB Application must work against it.

If one of these fails after a python-telegram-bot upgrade, fix tests/fakes/telegram_server.py first.
"""

from __future__ import annotations

import asyncio
import struct
import threading
import time
import zlib

import pytest
import pytest_asyncio
from telegram import Update
from telegram.error import BadRequest, Forbidden, RetryAfter
from telegram.ext import AIORateLimiter, Application, CommandHandler, ContextTypes, MessageHandler, filters

from tests.fakes import BotErrors, FakeTelegram, command_entities, running_application


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PNG = tiny_png()
GROUP = -4_000_000_123


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.effective_message.reply_text("Bienvenue")


async def score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    position, word = context.args
    await update.effective_message.reply_text(f"{word} at {position}")


async def board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.effective_message.reply_photo(PNG, caption="board", filename="board.png")
    await update.effective_message.reply_document(PNG, filename="board.png", caption="lossless")


async def crash(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    raise RuntimeError("handler failed")


async def set_commands(application: Application) -> None:
    await application.bot.set_my_commands([("start", "Start"), ("score", "Score a move")])


def build_app(tg: FakeTelegram, **limiter: int) -> Application:
    app = tg.application_builder().rate_limiter(AIORateLimiter(**limiter)).post_init(set_commands).build()
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("score", score))
    app.add_handler(CommandHandler("board", board))
    app.add_handler(CommandHandler("crash", crash))
    return app


@pytest_asyncio.fixture
async def tg():
    async with FakeTelegram(bot_username="TestBot") as fake:
        yield fake


@pytest_asyncio.fixture
async def app(tg):
    app = build_app(tg, max_retries=2)
    async with running_application(app, tg):
        yield app


def test_entities_use_utf16_offsets():
    text = "🎲 /score@TestBot H8 VAGUE"
    assert command_entities(text) == [{"type": "bot_command", "offset": 3, "length": 14}]
    assert command_entities("/start")[0] == {"type": "bot_command", "offset": 0, "length": 6}


@pytest.mark.asyncio
async def test_group_commands_with_and_without_bot_name():
    async with FakeTelegram(bot_username="TestBot", privacy_mode=False) as tg:
        app = build_app(tg)
        async with running_application(app, tg):
            assert app.bot.username == "TestBot"
            assert [c["command"] for c in tg.commands["default"]] == ["start", "score"]  # post_init ran
            alice = tg.add_user(first_name="Alice", username="alice")

            sent = await tg.send_user_message(GROUP, alice, "/start")
            reply = await tg.wait_for_message(chat_id=GROUP)
            assert reply.text == "Bienvenue" and reply.reply_to == sent["message_id"]

            sent = await tg.send_user_message(GROUP, alice, "/score@TestBot H8 VAGUE")
            assert sent["entities"] == [{"type": "bot_command", "offset": 0, "length": 14}]
            reply = await tg.wait_for_message(chat_id=GROUP)
            assert reply.text == "VAGUE at H8"

            other = await tg.send_user_message(GROUP, alice, "/score@OtherBot H8 VAGUE")
            assert tg.delivered(other)  # privacy mode off: PTB itself must ignore it
            await tg.assert_no_message(0.05, chat_id=GROUP)


@pytest.mark.asyncio
async def test_privacy_mode_hides_plain_group_text(tg, app):
    seen: list[str] = []

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(update.effective_message.text)

    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, record))
    alice = tg.add_user(first_name="Alice")
    hidden = await tg.send_user_message(GROUP, alice, "just chatting")
    other = await tg.send_user_message(GROUP, alice, "/score@OtherBot H8 VAGUE")
    mention = await tg.send_user_message(GROUP, alice, "hey @TestBot")
    private = await tg.send_user_message(None, alice, "hello bot", chat_type="private")
    assert not tg.delivered(hidden) and not tg.delivered(other)
    assert tg.delivered(mention) and tg.delivered(private)
    for _ in range(100):
        if len(seen) == 2:
            break
        await asyncio.sleep(0.005)
    assert seen == ["hey @TestBot", "hello bot"]


@pytest.mark.asyncio
async def test_photo_and_document(tg, app):
    alice = tg.add_user(first_name="Alice")
    await tg.send_user_message(GROUP, alice, "/board@TestBot")
    photo = await tg.wait_for_message(chat_id=GROUP)
    assert photo.method == "sendPhoto" and photo.text == "board"
    assert photo.file.data == PNG and photo.file.filename == "board.png"
    stored = tg.messages[(GROUP, photo.message_id)]
    assert stored["photo"][-1]["width"] == 3
    document = await tg.wait_for_message(chat_id=GROUP)
    assert document.method == "sendDocument" and document.file.data == PNG
    # the bot can download what it sent
    file = await app.bot.get_file(stored["photo"][-1]["file_id"])
    assert bytes(await file.download_as_bytearray()) == PNG


@pytest.mark.asyncio
async def test_429_is_retried_by_rate_limiter(tg, app):
    tg.rate_limit_next("sendMessage", retry_after=0.05)
    alice = tg.add_user(first_name="Alice")
    await tg.send_user_message(GROUP, alice, "/start")
    reply = await tg.wait_for_message(chat_id=GROUP)
    assert reply.text == "Bienvenue"
    assert [m for m, _ in tg.requests].count("sendMessage") == 2


@pytest.mark.asyncio
async def test_429_body_matches_telegram(tg):
    app = tg.application_builder().build()  # no rate limiter: PTB raises RetryAfter
    async with app:
        tg.add_group(GROUP)
        tg.rate_limit_next("sendMessage")
        with pytest.raises(RetryAfter) as caught:
            await app.bot.send_message(GROUP, "hi")
        assert caught.value._retry_after.total_seconds() == 1
        await app.bot.send_message(GROUP, "hi")


@pytest.mark.asyncio
async def test_private_message_needs_start(tg, app):
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
async def test_length_limits(tg, app):
    tg.add_group(GROUP)
    with pytest.raises(BadRequest, match="(?i)message is too long"):
        await app.bot.send_message(GROUP, "x" * 4097)
    await app.bot.send_message(GROUP, "x" * 4096)
    with pytest.raises(BadRequest, match="(?i)message caption is too long"):
        await app.bot.send_photo(GROUP, PNG, caption="c" * 1025)
    with pytest.raises(BadRequest, match="(?i)can't parse entities"):
        await app.bot.send_message(GROUP, "<b>unclosed", parse_mode="HTML")


@pytest.mark.asyncio
async def test_edit_with_same_text_is_not_modified(tg, app):
    tg.add_group(GROUP)
    message = await app.bot.send_message(GROUP, "⏳ 30 s")
    edited = await message.edit_text("⏳ 20 s")
    assert edited.text == "⏳ 20 s" and edited.edit_date is not None
    assert (await tg.wait_for_edit(chat_id=GROUP)).text == "⏳ 20 s"
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await message.edit_text("⏳ 20 s")


@pytest.mark.asyncio
async def test_handler_errors_fail_the_test(tg, app):
    alice = tg.add_user(first_name="Alice")
    await tg.send_user_message(GROUP, alice, "/crash")
    with pytest.raises(BotErrors, match="handler failed"):
        await tg.wait_for_message(timeout=1)
    tg.log.errors.clear()


@pytest.mark.asyncio
async def test_run_polling_in_a_thread_stops_fast(tg):
    ready = threading.Event()
    loops: list[asyncio.AbstractEventLoop] = []

    async def post_init(application: Application) -> None:
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
