"""What the outbox keeps of a message, as storage reads and writes it: a reply as its stored JSON, where it
goes, a message waiting, a dead letter, the backlog per platform. The rules of delivery (claims, retries,
dead letters) are the outbox's (``bot.outbox``), above storage."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, fields
from typing import Any

from ..actions import action_from_dict, action_to_dict
from ..chat import Reply

_BYTES = ("image", "document")
_KNOWN = frozenset(f.name for f in fields(Reply)) - {"outbox_id"}
# the fields stored when they differ from their default (a row keeps its number apart; actions as dicts)
_DEFAULTS = tuple((f.name, f.default) for f in fields(Reply) if f.name not in ("text", "outbox_id", "actions"))
_ENCODER = json.JSONEncoder(ensure_ascii=False)  # its separators are those the outbox's LIKE patterns read


@dataclass(frozen=True)
class OutboxItem:
    """One stored message: its number, where it goes, the reply, how many times it failed."""

    id: int
    destination: str
    reply: Reply
    attempts: int = 0
    created: float = 0.0  # when it was stored


@dataclass(frozen=True)
class DeadLetter:
    """A message that could never be delivered: its number, the reply, why (the platform's last answer),
    when it was given up, and how many times it was tried."""

    id: int
    reply: Reply
    reason: str
    at: float
    attempts: int


@dataclass(frozen=True)
class OutboxBacklog:
    """What the outbox holds for one platform (a destination's prefix before ``:``): how many messages
    wait, when the oldest was stored (Unix time; None: none waits), and how many dead letters are kept
    (until they are pruned with the delivered rows, after the outbox's ``RETENTION_SECONDS``)."""

    platform: str
    waiting: int
    oldest_created: float | None
    dead: int = 0


def destination(reply: Reply) -> str:
    """Where a reply goes (the order is kept per destination): the command it answers in place for a private
    reply shown there (``Reply.answers``: an interaction's ephemeral answer, never held behind the player's
    other private messages, which another process may be sending), its player for the other private
    replies, else its channel."""
    if reply.to_user and reply.answers:
        return reply.answers
    return reply.to_user or reply.channel or ""


def reply_to_json(reply: Reply) -> str:
    """A reply as JSON (bytes as base64), without its outbox number: its text and the fields it sets apart from
    their defaults (those left out are read back as the defaults, ``reply_from_json``)."""
    data: dict[str, Any] = {"text": reply.text}
    for name, default in _DEFAULTS:
        value = getattr(reply, name)
        if value != default:
            data[name] = value
    for name in _BYTES:
        if name in data:
            data[name] = base64.b64encode(data[name]).decode("ascii")
    if reply.actions:
        data["actions"] = [action_to_dict(action) for action in reply.actions]
    return _ENCODER.encode(data)


def reply_from_json(text: str, outbox_id: int) -> Reply:
    """The reply ``reply_to_json`` wrote, numbered."""
    data = json.loads(text)
    values = {k: v for k, v in data.items() if k in _KNOWN}
    for name in _BYTES:
        if values.get(name) is not None:
            values[name] = base64.b64decode(values[name])
    values["actions"] = tuple(action_from_dict(action) for action in values.get("actions", ()))
    return Reply(**values, outbox_id=outbox_id)
