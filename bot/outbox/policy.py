"""The outbox's rules in numbers and small functions: how long a sender holds its replies, claims and
heartbeats, the backoff between tries, when a failed message is a dead letter, how long rows are kept, and
who a claimer is (``process_name``) and whether it is surely dead (``known_dead``)."""

from __future__ import annotations

import os
import random
import secrets
import socket

from ..backoff import full_jitter
from ..storage.outbox_records import OutboxItem
from .records import Failure, Undelivered

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
