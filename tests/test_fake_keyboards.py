"""The fakes know buttons as the platforms define them (issue 39, item 8): Telegram's inline keyboards
(a button uses exactly one optional field; ``callback_data`` is 1-64 bytes; a user presses only a button the
message shows; the press is a ``callback_query`` answered with ``answerCallbackQuery``), held against the Bot
API through the real python-telegram-bot."""

from __future__ import annotations

import pytest
import pytest_asyncio
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest
from telegram.ext import CallbackQueryHandler, ContextTypes

from tests.fakes import FakeTelegram, running_application

GROUP = -4_000_000_321


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer(f"pressed {query.data}")


@pytest_asyncio.fixture
async def tg():
    async with FakeTelegram(bot_username="TestBot") as fake:
        yield fake


@pytest_asyncio.fixture
async def app(tg):
    application = tg.application_builder().build()
    application.add_handler(CallbackQueryHandler(pressed))
    async with running_application(application, tg, allowed_updates=["message", "callback_query"]):
        yield application


@pytest.mark.asyncio
async def test_a_pressed_inline_button_is_a_callback_query_the_bot_answers(tg, app):
    tg.add_group(GROUP)
    ana = tg.add_user(first_name="Ana")
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Rejoindre", callback_data="/rejoindre")]])
    message = await app.bot.send_message(GROUP, "Nouvelle partie", reply_markup=keyboard)
    query = await tg.send_callback_query(GROUP, ana, message.message_id, "/rejoindre")
    answer = await tg.wait_for_action("answer_callback")
    assert answer.text == "pressed /rejoindre"
    assert tg.callback_answers[query]["text"] == "pressed /rejoindre"
    with pytest.raises(ValueError, match="no button"):
        await tg.send_callback_query(GROUP, ana, message.message_id, "/fin !")


@pytest.mark.asyncio
async def test_a_button_the_bot_api_refuses_is_refused(tg, app):
    tg.add_group(GROUP)
    too_long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="/" + "a" * 64)]])
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        await app.bot.send_message(GROUP, "x", reply_markup=too_long)
    bad_url = InlineKeyboardMarkup([[InlineKeyboardButton("x", url="ftp://example.org")]])
    with pytest.raises(BadRequest, match="(?i)button_url_invalid"):
        await app.bot.send_message(GROUP, "x", reply_markup=bad_url)
    fine = InlineKeyboardMarkup([[InlineKeyboardButton("Jouer", url="https://t.me/TestBot?start=play")]])
    message = await app.bot.send_message(GROUP, "Tirage", reply_markup=fine)
    assert message.reply_markup == fine
