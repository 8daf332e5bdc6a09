"""Offline fakes of the Discord and Telegram bot APIs, driven by the real client libraries.

* :class:`FakeDiscord` + :func:`running_bot` (discord.py)
* :class:`FakeTelegram` + :func:`running_application` (python-telegram-bot)

Both record what the bot sent as :class:`SentMessage` objects and offer ``wait_for_*`` helpers,
refuse what the platforms refuse, and inject faults (see each module's docstring).
"""

from ._common import BotErrors, MessageLog, SentFile, SentMessage
from .discord_rules import CommandUnavailable
from .discord_server import DiscordUser, Dispatch, FakeDiscord, FakeGuild, running_bot
from .telegram_server import FakeTelegram, TgUser, command_entities, running_application, utf16_len
from .telegram_webhook import SECRET_HEADER, Webhook, WebhookAttempt

__all__ = [
    "BotErrors",
    "CommandUnavailable",
    "DiscordUser",
    "Dispatch",
    "FakeDiscord",
    "FakeGuild",
    "FakeTelegram",
    "MessageLog",
    "SentFile",
    "SentMessage",
    "TgUser",
    "command_entities",
    "running_application",
    "SECRET_HEADER",
    "Webhook",
    "WebhookAttempt",
    "running_bot",
    "utf16_len",
]
