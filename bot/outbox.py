"""The outbox: every message the bot owes a channel or a player, kept until the platform accepts it.

Replies are written to storage in the transaction of the state change that
produced them (a command, the clock's close), then sent. What a platform
refuses (5xx, 429, network errors, an outage) is retried with backoff, in order
per destination (a channel, or a player for private messages), until it is
delivered or it expires (a warning past its deadline is dropped; a result never
expires). A restarted process resumes delivery from storage.

Double sends: a crash after the platform accepted a message and before it was
marked delivered sends it again at the next start (both platforms lack an
idempotency key for plain messages); a message split in several parts is sent
whole again when a later part fails. Edits of a message (the countdown) are
idempotent.
"""

from __future__ import annotations

import base64
import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .chat import Reply

GRACE_SECONDS = 20.0  # a reply is the sender's to deliver this long before the outbox worker may retry it
CLAIM_SECONDS = 30.0  # a message the outbox worker took is its own this long (no other process takes it)
MAX_BACKOFF_SECONDS = 60.0
_BYTES = ("image", "document")


@dataclass(frozen=True)
class OutboxItem:
    """One stored message: its number, where it goes, the reply, how many times it failed."""

    id: int
    destination: str
    reply: Reply
    attempts: int = 0


@dataclass(frozen=True)
class OutboxBacklog:
    """What waits for one platform (a destination's prefix before ``:``): how many messages, and when
    the oldest was stored (Unix time)."""

    platform: str
    waiting: int
    oldest_created: float


def destination(reply: Reply) -> str:
    """Where a reply goes: its player for private replies, else its channel (the order is kept per destination)."""
    return reply.to_user or reply.channel or ""


def backoff(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` failures: 1, 2, 4... at most a minute."""
    return float(min(MAX_BACKOFF_SECONDS, 2 ** max(0, attempts - 1)))


def reply_to_json(reply: Reply) -> str:
    """A reply as JSON (bytes as base64), without its outbox number."""
    data: dict[str, Any] = asdict(reply)
    data.pop("outbox_id", None)
    for name in _BYTES:
        if data[name] is not None:
            data[name] = base64.b64encode(data[name]).decode("ascii")
    return json.dumps(data, ensure_ascii=False)


def reply_from_json(text: str, outbox_id: int) -> Reply:
    """The reply ``reply_to_json`` wrote, numbered."""
    data = json.loads(text)
    known = {f.name for f in fields(Reply)}
    values = {k: v for k, v in data.items() if k in known}
    for name in _BYTES:
        if values.get(name) is not None:
            values[name] = base64.b64decode(values[name])
    return replace(Reply(**values), outbox_id=outbox_id)
