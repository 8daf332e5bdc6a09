"""A small bot the fake Bot API's tests run against it (its handlers and its application), the fake itself as a
fixture, a tiny PNG, and a raw call of a Bot API method."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest_asyncio
from telegram import (
    Message,
    Update,
)
from telegram.ext import AIORateLimiter, CommandHandler, ContextTypes

from tests.fakes import FakeTelegram
from tests.tiny_png import tiny_png

if TYPE_CHECKING:
    from tests.fakes.telegram_server import AnyApplication


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


async def call(tg: FakeTelegram, method: str, **params: Any) -> tuple[int, str]:
    """A raw Bot API call: (HTTP status, body text)."""
    async with httpx.AsyncClient() as client:
        response = await client.post(f"{tg.base_url}{tg.token}/{method}", json=params)
        return response.status_code, response.text
