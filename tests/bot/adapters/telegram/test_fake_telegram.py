"""Handshake canaries for the fake Telegram Bot API: a real PTB Application must work against it.

If one of these fails after a python-telegram-bot upgrade, fix tests/fakes/telegram_server.py first.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import pytest_asyncio
from telegram import (
    ChatMember,
    ChatMemberAdministrator,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    ChatMemberRestricted,
    Update,
)
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter
from telegram.ext import AIORateLimiter, CommandHandler, ContextTypes, MessageHandler, filters

from tests.fakes import BotErrors, FakeTelegram, command_entities, running_application
from tests.waiting import eventually

if TYPE_CHECKING:
    from tests.fakes.telegram_server import AnyApplication
from tests.bot.adapters.telegram.fake_bot import (
    GROUP,
    PNG,
    build_app,
    call,
    message_of,
    start,
)
from tests.bot.adapters.telegram.fake_bot import tg as tg  # a fake Bot API of its own per test


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
    await eventually(lambda: tg.long_polling)  # the updater is back in its long poll
    tg.outage(30)
    await tg.send_user_message(GROUP, alice, "/start")  # during the outage: kept, not lost
    tg.advance(30)
    assert (await tg.wait_for_message(chat_id=GROUP, timeout=4)).text == "Bienvenue"
    assert tg.faults_of("outage")
