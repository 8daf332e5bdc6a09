"""What Discord's refusal of a message means: try again later, or never (a dead letter).

From the platform's documentation (see PLATFORMS.md) and discord.py's exceptions (``HTTPException`` with the
HTTP status and Discord's JSON code):
400 (50035 invalid form body, 50006 empty message), 404 (10003 unknown channel, 10008 unknown
message, 10013 unknown user) and 413 (40005 request entity too large: a file over the limit) are
**permanent**: the same request is refused the same way forever. 403 (50001 missing access, 50013
missing permissions, 50007 cannot send to this user) is **transient**: a moderator may give the
permission back, and the adapter tells the referee by DM meanwhile; the outbox's limits on attempts
and age end it if it never heals. 429, 5xx (``DiscordServerError``), resets and time-outs are transient.

Anything else (a bug, an unknown error) is transient: the outbox's limits make it a dead letter in the end.
"""

from __future__ import annotations

import discord

from ...chat import Reply
from ...outbox import Failure, Undelivered

DISCORD_PERMANENT_STATUSES = frozenset({400, 404, 413})


def discord_refusal(reply: Reply, error: Exception) -> Undelivered:
    """What a Discord exception raised while delivering ``reply`` means for it."""
    if isinstance(error, discord.HTTPException) and error.status in DISCORD_PERMANENT_STATUSES:
        code = f" ({error.code})" if error.code else ""
        return Undelivered(reply, Failure.PERMANENT, f"Discord {error.status}{code}: {error.text}")
    return Undelivered(reply, Failure.TRANSIENT, f"Discord: {error!r}")
