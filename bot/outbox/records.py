"""What the outbox's users say of a message: whether the platform took it, and if not, why and whether for
good. The records storage keeps (a waiting message, a dead letter, the backlog, where a reply goes) are
storage's (``bot.storage.outbox_records``): the outbox imports them, storage never imports the outbox."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..chat import Reply


class Failure(Enum):
    """What a platform's refusal means for a message."""

    TRANSIENT = "transient"  # try again later: 429, 5xx, a reset, an outage, a permission that may come back
    PERMANENT = "permanent"  # never: a 400, an unknown channel or user, a file over the limit


@dataclass(frozen=True)
class Undelivered:
    """A reply the platform did not take, why (for the log and ``/etat``: never the reply's text), and
    whether trying again can help."""

    reply: Reply
    failure: Failure = Failure.TRANSIENT
    reason: str = "not delivered"


def undelivered(item: Reply | Undelivered) -> Undelivered:
    """What an adapter returned as not delivered: a bare reply is a transient failure."""
    return item if isinstance(item, Undelivered) else Undelivered(item)
