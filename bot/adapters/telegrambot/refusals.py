"""What Telegram's refusal of a message means: try again later, or never (a dead letter).

From the platform's documentation (see PLATFORMS.md) and python-telegram-bot's exceptions (raised by the
HTTP status): ``BadRequest`` (400: chat not found,
message too long, a photo or file it cannot take) and a 413 "Request Entity Too Large" are
**permanent**, as is ``ChatMigrated`` (the group became a supergroup under another id: this id is
gone). ``Forbidden`` (403: the bot was removed from the group, or blocked by a player) is
**transient**: it may be added back or unblocked. ``RetryAfter`` (429), ``TimedOut``,
``NetworkError`` (5xx, resets) and ``InvalidToken`` (the operator's configuration) are transient.

Anything else (a bug, an unknown error) is transient: the outbox's limits make it a dead letter in the end.
"""

from __future__ import annotations

from telegram import error as tg

from ...chat import Reply
from ...outbox import Failure, Undelivered


def telegram_refusal(reply: Reply, error: Exception) -> Undelivered:
    """What a python-telegram-bot exception raised while delivering ``reply`` means for it."""
    if isinstance(error, tg.ChatMigrated):
        return Undelivered(reply, Failure.PERMANENT, f"Telegram: chat migrated to {error.new_chat_id}")
    if isinstance(error, tg.BadRequest) or (isinstance(error, tg.NetworkError) and "too large" in str(error).lower()):
        return Undelivered(reply, Failure.PERMANENT, f"Telegram: {error}")
    return Undelivered(reply, Failure.TRANSIENT, f"Telegram: {error!r}")
