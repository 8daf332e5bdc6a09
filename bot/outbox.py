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
"""

from __future__ import annotations

import os
import random
import secrets
import socket
from dataclasses import dataclass
from enum import Enum

from .backoff import full_jitter
from .chat import Reply
from .storage.outbox_records import OutboxItem

GRACE_SECONDS = 20.0  # a reply is the sender's to deliver this long before the outbox worker may retry it
CLAIM_SECONDS = 30.0  # a message the outbox worker took is its own this long (no other process takes it)
HEARTBEAT_SECONDS = 2.0  # how often a process says it lives (its claims on the outbox hold meanwhile)
PROCESS_SECONDS = 10.0  # a process silent this long is dead: its claims are void
MAX_BACKOFF_SECONDS = 60.0
MAX_ATTEMPTS = 12  # a message that failed this many times (for now each time) ...
MAX_AGE_SECONDS = 3600.0  # ... and has waited this long is a dead letter (an hour's outage is survived)
RETENTION_SECONDS = 7 * 86400.0  # delivered, dropped and dead rows are kept a week (dead letters show in /etat)
IMAGE_RETENTION_SECONDS = 3600.0  # the images and files of delivered rows, an hour
PRUNE_SECONDS = 600.0  # how often the outbox worker prunes


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


def process_name() -> str:
    """This run of this process as an outbox claimer: ``HOST:PID:TOKEN`` (a restarted process that gets
    its old pid back, as in a container, is another claimer)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def known_dead(owner: str, me: str) -> bool:
    """Whether the claimer ``owner`` is surely dead, seen from the claimer ``me``: it ran on this host
    with a pid that runs no process now, or with this process's pid (an earlier run)."""
    host, _, rest = owner.partition(":")
    pid_text, _, _ = rest.partition(":")
    if host != socket.gethostname() or owner == me or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:  # it exists, under another user
        return False
    return False


def backoff(attempts: int, rng: random.Random | None = None) -> float:
    """Seconds before the next try after ``attempts`` failures, with full jitter: anywhere between 0 and
    1, 2, 4... at most a minute (processes that failed together do not retry in lockstep)."""
    return full_jitter(attempts - 1, MAX_BACKOFF_SECONDS, rng)


def is_dead(item: OutboxItem, failure: Undelivered, now: float) -> bool:
    """Whether a failed try makes the message a dead letter: a permanent refusal, or a transient one
    that failed :data:`MAX_ATTEMPTS` times and has waited :data:`MAX_AGE_SECONDS`."""
    if failure.failure is Failure.PERMANENT:
        return True
    return item.attempts + 1 >= MAX_ATTEMPTS and now - item.created >= MAX_AGE_SECONDS
