"""Telegram as Telegram does it (issue 39): the replies' actions as inline keyboards whose presses
(``callback_query``) are answered and run as their user typing the line; a confirmation asked in place of
the button; the duplicate answer's form as a deep link to the private chat; a group greeted in the language
of who added the bot; a new group in its first speaker's language. Real python-telegram-bot against the
fake Bot API, a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeTelegram, SentMessage, running_application
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
GROUP = -4_000_000_555


class ClubTelegram(FakeTelegram):
    """The fake Bot API with a club's group created by Ana, and Ben."""

    def __init__(self) -> None:
        super().__init__(bot_username="TestBot", privacy_mode=False)
        self.add_group(GROUP, "Club")
        self.ana = self.add_user(first_name="Ana")
        self.ben = self.add_user(first_name="Ben")
        self.set_member(GROUP, self.ana, "creator")


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[ClubTelegram]:
    async with ClubTelegram() as fake:
        yield fake


@pytest_asyncio.fixture
async def adapter(tg: ClubTelegram, storage: SQLiteStorage) -> AsyncIterator[TelegramAdapter]:
    adapter = TelegramAdapter(Referee(storage, LEXICONS), tg.token, base_url=tg.base_url, tick_seconds=0.05)
    async with running_application(adapter.application, tg):
        yield adapter


def buttons(message: SentMessage) -> dict[str, dict[str, Any]]:
    """A sent message's inline buttons, by label."""
    rows = (message.reply_markup or {}).get("inline_keyboard") or []
    return {b["text"]: b for row in rows for b in row}


async def press(tg: FakeTelegram, user: Any, message: SentMessage, label: str) -> SentMessage:
    """``user`` presses the button ``label`` under ``message``; the bot's answer to the press."""
    assert message.message_id is not None
    await tg.send_callback_query(GROUP, user, message.message_id, buttons(message)[label]["callback_data"])
    return await tg.wait_for_action("answer_callback")


@pytest.mark.asyncio
async def test_a_game_joined_and_a_move_challenged_with_inline_buttons(
    tg: ClubTelegram, adapter: TelegramAdapter
) -> None:
    await tg.send_user_message(GROUP, tg.ana, "/nouvelle Ana")
    created = await tg.wait_for_message(chat_id=GROUP)
    assert buttons(created)["Rejoindre"]["callback_data"] == "/rejoindre"
    await press(tg, tg.ben, created, "Rejoindre")
    assert "Ben rejoint la partie" in (await tg.wait_for_message(chat_id=GROUP)).text
    await tg.send_user_message(GROUP, tg.ana, "/coup H8 VAGUE")
    scored = await tg.wait_for_message(chat_id=GROUP)
    await press(tg, tg.ben, scored, "Contester")  # a lost challenge costs a turn here: asked first
    await tg.wait_for_action("edit", lambda m: m.method == "editMessageReplyMarkup")
    assert buttons_of(tg, scored) == {"✓ Contester", "Annuler"}
    assert scored.message_id is not None
    await tg.send_callback_query(GROUP, tg.ben, scored.message_id, "/conteste")
    assert "Ben perd son tour" in (await tg.wait_for_message(chat_id=GROUP)).text


def buttons_of(tg: FakeTelegram, message: SentMessage) -> set[str]:
    assert message.message_id is not None
    shown = tg.messages[(GROUP, message.message_id)]
    return {b["text"] for row in (shown.get("reply_markup") or {}).get("inline_keyboard", []) for b in row}


@pytest.mark.asyncio
async def test_an_english_speakers_new_group_is_english_and_a_setting_is_chosen_from_its_keyboard(
    tg: ClubTelegram, adapter: TelegramAdapter
) -> None:
    eve = tg.add_user(first_name="Eve", language_code="en")
    tg.set_member(GROUP, eve, "administrator")
    await tg.send_user_message(GROUP, eve, "/settings")
    shown = await tg.wait_for_message(chat_id=GROUP)
    assert shown.text.startswith("Settings: language en, edition en, notation gcg, rules box-en")
    assert buttons(shown)["language Français"]["callback_data"] == "/settings language fr"  # by its name
    assert buttons(shown)["edition Català (FISC)"]["callback_data"] == "/settings edition ca"
    await press(tg, eve, shown, "rules naspa")
    assert "rules naspa" in (await tg.wait_for_message(chat_id=GROUP)).text
    await tg.send_user_message(GROUP, tg.ana, "/settings")  # a French speaker next: the group stays English
    assert (await tg.wait_for_message(chat_id=GROUP)).text.startswith("Settings: language en")


@pytest.mark.asyncio
async def test_the_bot_added_to_a_group_greets_it_in_the_language_of_who_added_it(
    tg: ClubTelegram, adapter: TelegramAdapter
) -> None:
    tg.add_group(GROUP - 1, "Family")
    eve = tg.add_user(first_name="Eve", language_code="en")
    tg.change_member(GROUP - 1, tg.bot_id, "left")  # not in the group yet
    tg.change_member(GROUP - 1, tg.bot_id, "member", by=eve)
    greeting = await tg.wait_for_message(chat_id=GROUP - 1)
    assert greeting.text.startswith("Hello! I am Arbitre")
    assert "/new Ana Ben" in greeting.text


@pytest.mark.asyncio
async def test_a_duplicate_draw_offers_the_private_chat_and_cancel_takes_the_buttons_off(
    tg: ClubTelegram, adapter: TelegramAdapter
) -> None:
    await tg.send_user_message(GROUP, tg.ana, "/duplicate 3 manuel")
    await tg.wait_for_message(chat_id=GROUP)
    await tg.send_user_message(GROUP, tg.ana, "/tirage ACEHNTZ")
    draw = await tg.wait_for_message(lambda m: "Coup 1" in (m.text or ""), chat_id=GROUP, timeout=10)
    assert buttons(draw)["Jouer"] == {"text": "Jouer", "url": "https://t.me/TestBot?start=play"}
    await tg.send_user_message(GROUP, tg.ana, "/nouvelle Ana Ben")  # a game runs: replace it?
    refusal = await tg.wait_for_message(lambda m: "L'abandonner" in str(m.reply_markup), chat_id=GROUP)
    assert buttons(refusal)["L'abandonner et commencer"]["callback_data"] == "?/nouvelle Ana Ben !"
    await press(tg, tg.ana, refusal, "Annuler")
    await tg.wait_for_action("edit", lambda m: m.method == "editMessageReplyMarkup")
    assert buttons_of(tg, refusal) == set()
