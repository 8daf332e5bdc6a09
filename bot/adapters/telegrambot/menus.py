"""Telegram's command menus per kind of chat and per language (``setMyCommands`` with a scope and a language
code), and the bot's descriptions (``setMyDescription``, shown before *Start*, and the short one)."""

from __future__ import annotations

import logging
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from ...commands.spec import CommandSpec
from ...menus import MenuScope, description_text, menu_commands, short_description_text
from ...messages import languages
from ..names import DEFAULT_LANGUAGE, platform_name
from ..text import short_text

log = logging.getLogger(__name__)

DESCRIPTION_LIMIT = 100  # Telegram allows 256; the command menu reads better short
SCOPES: tuple[tuple[BotCommandScope, MenuScope], ...] = (
    (BotCommandScopeDefault(), MenuScope.ADMINS),  # a chat no scope below covers: every command
    (BotCommandScopeAllPrivateChats(), MenuScope.PRIVATE),
    (BotCommandScopeAllGroupChats(), MenuScope.MEMBERS),
    (BotCommandScopeAllChatAdministrators(), MenuScope.ADMINS),
)


def menu(specs: tuple[CommandSpec, ...], lang: str) -> list[BotCommand]:
    return [BotCommand(platform_name(s, lang), short_text(s.menu(lang), DESCRIPTION_LIMIT)) for s in specs]


async def set_menus(bot: Any) -> None:
    """Each scope's menu in English by default and in each catalog's language for its speakers; the
    descriptions likewise. A refusal is logged: the bot works without menus."""
    try:
        for lang in languages():
            code = None if lang == DEFAULT_LANGUAGE else lang
            for scope, kind in SCOPES:
                await bot.set_my_commands(menu(menu_commands(kind), lang), scope=scope, language_code=code)
            await bot.set_my_description(description_text(lang), language_code=code)
            await bot.set_my_short_description(short_description_text(lang), language_code=code)
    except TelegramError as error:
        log.warning("could not set the command menus: %s", error)
