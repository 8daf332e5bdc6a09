"""The outbox as the rest of the bot sees it: one protocol, ``Outbox``. Commands and the clock store what
they owe (``enqueue``, in their transaction) and read a channel's dead letters; the service sends what is
first in line, marks what the platform took or refused, claims what is due for the outbox worker, retries,
prunes and beats for its process. ``bot.outbox.stored.StoredOutbox`` keeps it in storage."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from ..chat import Reply
from ..storage.outbox_records import DeadLetter, OutboxBacklog, OutboxItem
from .records import Undelivered


class Outbox(Protocol):
    """Every message the bot owes, kept until the platform accepts it (the rules: ``bot.outbox``)."""

    owner: str  # this process, as its heartbeat names it (``beat``)

    def enqueue(self, replies: list[Reply]) -> list[Reply]:
        """Store replies to send (in the caller's transaction, if any); numbered copies, in order."""
        ...

    def enqueue_apart(self, replies: list[Reply]) -> list[Reply]:
        """``enqueue`` for replies no transaction produced (refusals, views); never raises: unstored
        copies if storage fails."""
        ...

    def claimer(self, now: float) -> str | None:
        """This process's name for what it stores and sends itself at ``now`` (None: its heartbeat does not
        hold long enough, what it stores is anyone's to send after the grace)."""
        ...

    def first_in_line_known(self, ids: Iterable[int], left: Iterable[int] = ()) -> None:
        """Say which replies just stored nothing older waits before, and which are ``left`` to the outbox
        worker (their command's transaction read it)."""
        ...

    def in_line_known(self, replies: list[Reply]) -> bool:
        """Whether ``first_in_line`` can tell these replies' order without reading storage."""
        ...

    def first_in_line(self, replies: list[Reply]) -> list[Reply]:
        """The replies that may be sent now: none older waits for their destination (the others are left
        to the outbox worker, behind the older ones)."""
        ...

    def sent(self, replies: list[Reply], failed: Sequence[Reply | Undelivered]) -> None:
        """Mark what the platform took, and what it refused (``failed``): tried again, or a dead letter."""
        ...

    def claim_due(self, everything: bool = False) -> list[OutboxItem]:
        """Claim the messages whose (next) try is due, the first of each destination (``everything``:
        all that wait); what expired, was superseded or is shed is dropped on the way."""
        ...

    def retried(self, item: OutboxItem, failure: Undelivered | None) -> None:
        """Record one try of a claimed message (``failure`` None: delivered)."""
        ...

    def dead_letters(self, channel: str) -> list[DeadLetter]:
        """The messages about ``channel`` that could not be delivered, until they are pruned."""
        ...

    def prune(self) -> int:
        """Delete what is no longer needed (images first); how many rows went. Never raises."""
        ...

    def beat(self) -> bool | None:
        """Say this process lives (its claims hold on) and void the claims of processes found dead; whether
        another live process claims messages (None: the heartbeat could not be recorded). Never raises."""
        ...

    def stopped(self) -> None:
        """This process stops: what it still claims is due at once for the others. Never raises."""
        ...

    def backlog(self) -> list[OutboxBacklog]:
        """Per platform: the messages waiting, the oldest one's creation, the dead letters kept."""
        ...
