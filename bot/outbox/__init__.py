"""The outbox: every message the bot owes a channel or a player, kept until the platform accepts it.

Replies are written to storage in the transaction of the state change that
produced them (a command, the clock's close), then sent. What a platform
refuses for now (5xx, 429, network errors, an outage, a permission that may come
back) is retried with a jittered backoff, in order per destination (a channel, or
a player for private messages), until it is delivered or it expires (a warning
past its deadline is dropped; a result never expires). A restarted process
resumes delivery from storage.

Dead letters: what the platform refuses for good (a 400, an unknown channel, a
file over the limit: each adapter classifies its platform's answers, see
``Failure``), and what failed :data:`MAX_ATTEMPTS` times and has waited
:data:`MAX_AGE_SECONDS` (both), is marked dead in the outbox, logged once and
listed in the channel's ``/etat``; the destination's next messages go on.
Delivered and dropped rows are deleted after :data:`RETENTION_SECONDS`, their
images and files after :data:`IMAGE_RETENTION_SECONDS`.

Claims: a process that stores replies and sends them at once claims them by its
name (``process_name``: host, pid and a token of this run); so does the outbox
worker for what it takes. Each process beats every :data:`HEARTBEAT_SECONDS`
(its claims hold :data:`PROCESS_SECONDS` past its last beat), so no other process
sends a message while its claimer lives, however long the platform takes to
accept it (discord.py sleeping out a 429, a throttled Bot API). A dead claimer's
messages are due at once: a process on the same host whose pid runs no process
is known dead without waiting (processes sharing a host name must share its pid
namespace); elsewhere its heartbeat expires.

Edits (replies with an ``edit_key`` after the first) are owed like messages:
retried until applied, superseded by a newer edit of the same message waiting
behind, expired, or dead.

Double sends: a crash after the platform accepted a message and before it was
marked delivered sends it again at the next start (both platforms lack an
idempotency key for plain messages); a message split in several parts is sent
whole again when a later part fails. Edits of a message (the countdown) are
idempotent.

The package: ``interface`` (the ``Outbox`` protocol everything else is handed), ``stored`` (its
implementation over storage's ``OutboxStore``), ``policy`` (the numbers and rules above) and ``records``
(what a platform's refusal means). The rows themselves (``OutboxItem``, ``DeadLetter``, ``OutboxBacklog``,
``destination``) are storage's records (``bot.storage.outbox_records``), re-exported here: the outbox
imports storage, storage never imports the outbox.
"""

from __future__ import annotations

from ..storage.outbox_records import DeadLetter, OutboxBacklog, OutboxItem, destination
from .interface import Outbox
from .policy import (
    CLAIM_SECONDS,
    GRACE_SECONDS,
    HEARTBEAT_SECONDS,
    IMAGE_RETENTION_SECONDS,
    MAX_AGE_SECONDS,
    MAX_ATTEMPTS,
    MAX_BACKOFF_SECONDS,
    PROCESS_SECONDS,
    PRUNE_SECONDS,
    RETENTION_SECONDS,
    backoff,
    is_dead,
    known_dead,
    process_name,
)
from .records import Failure, Undelivered, undelivered
from .stored import StoredOutbox

__all__ = [
    "CLAIM_SECONDS",
    "GRACE_SECONDS",
    "HEARTBEAT_SECONDS",
    "IMAGE_RETENTION_SECONDS",
    "MAX_AGE_SECONDS",
    "MAX_ATTEMPTS",
    "MAX_BACKOFF_SECONDS",
    "PROCESS_SECONDS",
    "PRUNE_SECONDS",
    "RETENTION_SECONDS",
    "DeadLetter",
    "Failure",
    "Outbox",
    "OutboxBacklog",
    "OutboxItem",
    "StoredOutbox",
    "Undelivered",
    "backoff",
    "destination",
    "is_dead",
    "known_dead",
    "process_name",
    "undelivered",
]
