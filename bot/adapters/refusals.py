"""What each platform's refusal of a message means: try again later, or never (a dead letter).

From the platforms' documentation (see PLATFORMS.md) and the libraries' exceptions:

* **Discord** (discord.py raises ``HTTPException`` with the HTTP status and Discord's JSON code):
  400 (50035 invalid form body, 50006 empty message), 404 (10003 unknown channel, 10008 unknown
  message, 10013 unknown user) and 413 (40005 request entity too large: a file over the limit) are
  **permanent**: the same request is refused the same way forever. 403 (50001 missing access, 50013
  missing permissions, 50007 cannot send to this user) is **transient**: a moderator may give the
  permission back, and the adapter tells the referee by DM meanwhile; the outbox's limits on attempts
  and age end it if it never heals. 429, 5xx (``DiscordServerError``), resets and time-outs are transient.
* **Telegram** (python-telegram-bot raises by the HTTP status): ``BadRequest`` (400: chat not found,
  message too long, a photo or file it cannot take) and a 413 "Request Entity Too Large" are
  **permanent**, as is ``ChatMigrated`` (the group became a supergroup under another id: this id is
  gone). ``Forbidden`` (403: the bot was removed from the group, or blocked by a player) is
  **transient**: it may be added back or unblocked. ``RetryAfter`` (429), ``TimedOut``,
  ``NetworkError`` (5xx, resets) and ``InvalidToken`` (the operator's configuration) are transient.

Anything else (a bug, an unknown error) is transient: the outbox's limits make it a dead letter in the end.
"""

from __future__ import annotations

from ..chat import Reply
from ..outbox import Failure, Undelivered

DISCORD_PERMANENT_STATUSES = frozenset({400, 404, 413})


def discord_refusal(reply: Reply, error: Exception) -> Undelivered:
    """What a Discord exception raised while delivering ``reply`` means for it."""
    import discord  # here, not above: a Telegram process never loads discord.py (0.14 s of its start)

    if isinstance(error, discord.HTTPException) and error.status in DISCORD_PERMANENT_STATUSES:
        code = f" ({error.code})" if error.code else ""
        return Undelivered(reply, Failure.PERMANENT, f"Discord {error.status}{code}: {error.text}")
    return Undelivered(reply, Failure.TRANSIENT, f"Discord: {error!r}")


def telegram_refusal(reply: Reply, error: Exception) -> Undelivered:
    """What a python-telegram-bot exception raised while delivering ``reply`` means for it."""
    from telegram import error as tg  # likewise: a Discord process never loads python-telegram-bot here

    if isinstance(error, tg.ChatMigrated):
        return Undelivered(reply, Failure.PERMANENT, f"Telegram: chat migrated to {error.new_chat_id}")
    if isinstance(error, tg.BadRequest) or (isinstance(error, tg.NetworkError) and "too large" in str(error).lower()):
        return Undelivered(reply, Failure.PERMANENT, f"Telegram: {error}")
    return Undelivered(reply, Failure.TRANSIENT, f"Telegram: {error!r}")
