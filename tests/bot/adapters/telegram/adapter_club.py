"""The club the Telegram adapter's tests play in: the fake Bot API with the club's group and its users, a message
sent by one of them, and the answer to /start in private."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

from tests.fakes import FakeTelegram, TgUser

GROUP = -4_000_000_777


class ClubTelegram(FakeTelegram):
    """The fake Bot API with the club's group, whose creator is Ana; Ben and Cleo are users. Privacy mode
    off: the bot sees every group message, so the adapter itself must ignore "/score@OtherBot" and chatter."""

    def __init__(self) -> None:
        super().__init__(bot_username="TestBot", privacy_mode=False)
        self.add_group(GROUP, "Club de Scrabble")
        self.ana = self.add_user(first_name="Ana", username="ana_s")
        self.ben = self.add_user(first_name="Ben")
        self.cleo = self.add_user(first_name="Cleo", last_name="Roy", language_code="en")  # the English speaker
        self.set_member(GROUP, self.ana, "creator")


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[ClubTelegram]:
    async with ClubTelegram() as fake:
        yield fake


async def say(tg: FakeTelegram, user: TgUser, text: str, chat: int | None = GROUP) -> dict[str, Any]:
    if chat is None:
        return await tg.send_user_message(None, user, text, chat_type="private")
    return await tg.send_user_message(chat, user, text)


START_EN = (
    "Hi! Send me your duplicate moves here: /play H8 VAGUE (or /jouer). Other commands go in the group; "
    "/help lists them."
)
