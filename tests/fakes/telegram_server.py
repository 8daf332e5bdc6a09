"""A fake Telegram Bot API server for driving a real python-telegram-bot ``Application`` offline.

Usage (inside a test's event loop)::

    async with FakeTelegram(bot_username="TestBot") as tg:
        app = tg.application_builder().rate_limiter(AIORateLimiter(max_retries=2)).build()
        app.add_handler(CommandHandler("start", start))
        async with running_application(app, tg):
            alice = tg.add_user(first_name="Alice")
            await tg.send_user_message(-100, alice, "/start@TestBot")
            reply = await tg.wait_for_message(chat_id=-100)
            assert reply.text == "hello"

The server listens on 127.0.0.1 on a random free port. It implements the methods a
referee bot needs (see ``_METHODS``); unknown methods answer 404 and are listed in
:attr:`FakeTelegram.unhandled`.

As strict as the Bot API (https://core.telegram.org/bots/api) where a bot could go wrong, each
rule next to the section it follows: ``retry_after`` is whole seconds (ResponseParameters),
``setMyCommands`` takes two-letter ISO 639-1 language codes, ``getChatMember`` answers every
ChatMember status in its documented shape. Faults: :meth:`FakeTelegram.server_error_next`,
:meth:`~FakeTelegram.rate_limit_next`, :meth:`~FakeTelegram.flood_wait` (a wait held, tens of
seconds), :meth:`~FakeTelegram.reset_next`,
:meth:`~FakeTelegram.outage` (ended by :meth:`~FakeTelegram.advance` or
:meth:`~FakeTelegram.end_outage`); what was served is in ``faults_served``.

Webhooks (setWebhook, deleteWebhook, getWebhookInfo): once one is set, updates are POSTed to it
with the secret token header and retried while it answers an error (see
:mod:`tests.fakes.telegram_webhook`; every request is in ``webhook_attempts``), and getUpdates
is refused with 409. Flood control (:mod:`tests.fakes.telegram_limits`) is on by default: a bot
over Telegram's documented limits gets 429s, counted in ``flood``. ``local_mode=True`` is a
self-hosted Bot API server started with ``--local``: an HTTP webhook on any port.

The fake is made of parts, one module each, :class:`FakeTelegram` joining them: its state, clock and
queue of updates (``telegram_state``); users, chats and members (``telegram_world``); faults
(``telegram_faults``); users' messages and button presses, the records and waits (``telegram_users``);
the Bot API methods (``telegram_methods``, with their message helpers in ``telegram_bot_messages``); the
HTTP server (``telegram_http``); text and markup rules (``telegram_text``); shared objects
(``telegram_objects``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from .telegram_http import TelegramHttp
from .telegram_methods import ISO_639_1, TelegramMethods
from .telegram_objects import CHAT_MEMBER_FIELDS, TgUser, UserLike
from .telegram_text import (
    CALLBACK_DATA_BYTES,
    CAPTION_LIMIT,
    TEXT_LIMIT,
    callback_data_of,
    check_inline_keyboard,
    command_entities,
    utf16_len,
)
from .telegram_users import TelegramUsers

if TYPE_CHECKING:
    from telegram.ext import Application

    AnyApplication = Application[Any, Any, Any, Any, Any, Any]  # as the Telegram adapter types its own

__all__ = [
    "CALLBACK_DATA_BYTES",
    "CAPTION_LIMIT",
    "CHAT_MEMBER_FIELDS",
    "ISO_639_1",
    "TEXT_LIMIT",
    "FakeTelegram",
    "TgUser",
    "UserLike",
    "callback_data_of",
    "check_inline_keyboard",
    "command_entities",
    "running_application",
    "utf16_len",
]


class FakeTelegram(TelegramHttp, TelegramMethods, TelegramUsers):
    """Fake Bot API server. Use as ``async with FakeTelegram() as tg:`` or ``await tg.start()``.

    Attributes worth knowing:

    * ``base_url`` / ``base_file_url``: pass to ``ApplicationBuilder`` (or use :meth:`application_builder`).
    * ``log``: :class:`MessageLog` of everything the bot did; ``sent`` is ``log.records``.
    * ``requests``: every API call as ``(method, params)``; ``unhandled``: calls to unknown methods.
    * ``commands``: the last ``setMyCommands`` list per scope key (``"default"``, ``"all_group_chats"``, ...).
    """


@asynccontextmanager
async def running_application(
    app: AnyApplication,
    fake: FakeTelegram,
    *,
    fail_on_errors: bool = True,
    run_post_init: bool = True,
    poll_timeout: int = 10,
    allowed_updates: list[str] | None = None,
) -> AsyncIterator[AnyApplication]:
    """Run a PTB ``Application`` against ``fake`` the way ``run_polling`` would, inside this loop.

    Calls ``post_init`` (which only ``run_polling``/``run_webhook`` call otherwise), starts the
    updater's long poll and the application, and on exit stops and shuts everything down.
    With ``fail_on_errors`` an error handler is added that makes the fake's wait helpers raise
    :class:`BotErrors` as soon as a handler raises. ``allowed_updates``: the update kinds the long poll asks
    for, as ``run_polling(allowed_updates=...)`` would (None: Telegram's default, which leaves out
    ``chat_member``).
    """
    if fail_on_errors:

        async def _report(update: object, context: Any) -> None:
            fake.log.report_error(context.error)

        app.add_error_handler(_report)
    await app.initialize()
    try:
        if run_post_init and app.post_init:
            await app.post_init(app)
        assert app.updater is not None, "an application built with an updater"
        await app.updater.start_polling(poll_interval=0, timeout=poll_timeout, allowed_updates=allowed_updates)
        await app.start()
        try:
            yield app
        finally:
            if app.updater.running:
                await app.updater.stop()
            if app.running:
                await app.stop()
                if app.post_stop:
                    await app.post_stop(app)
    finally:
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)
