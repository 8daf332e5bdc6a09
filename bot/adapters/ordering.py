"""Each account's commands handled in the order they arrived, whatever each waits for first; a batch of
replies in the order players need them.

An adapter handles commands concurrently (a slow one must not hold up a room), but one player's
commands must not overtake each other: ``/rejoindre`` in the group, whose admin lookup goes to the
platform, and ``/jouer`` a second later in a private chat, which needs no lookup, reach the referee
in that order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from types import TracebackType

from ..chat import Reply


class Turn:
    """One command's place in its account's queue: ``async with`` waits for the commands before it."""

    def __init__(self, queue: ArrivalOrder, key: Hashable, before: asyncio.Future[None] | None) -> None:
        self._queue = queue
        self._key = key
        self._before = before
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def __aenter__(self) -> Turn:
        if self._before is not None and not self._before.done():
            await asyncio.shield(self._before)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.finish()

    def finish(self) -> None:
        """Let the account's next command go (also when this one failed or was never handled)."""
        if not self.done.done():
            self.done.set_result(None)
        self._queue.release(self._key, self.done)


class ArrivalOrder:
    """Per-account queues: :meth:`take` when a command arrives, before anything is awaited."""

    def __init__(self) -> None:
        self._last: dict[Hashable, asyncio.Future[None]] = {}

    def take(self, key: Hashable) -> Turn:
        """The arriving command's turn, behind the account's commands not yet handled."""
        turn = Turn(self, key, self._last.get(key))
        self._last[key] = turn.done
        return turn

    def release(self, key: Hashable, done: asyncio.Future[None]) -> None:
        if self._last.get(key) is done:
            del self._last[key]  # nobody behind: forget the account

    def __len__(self) -> int:
        """How many accounts have a command waiting or under way."""
        return len(self._last)


def first_things_first(replies: Sequence[Reply], is_tracked: Callable[[Reply], bool]) -> list[Reply]:
    """The replies in the order players need them when a chat's budget is short (both platforms): new draws
    and deadlines, then warnings, then the rest (results, standings, edits), each kind in its own order.
    ``is_tracked``: whether a reply edits a message already sent."""

    def rank(reply: Reply) -> int:
        if reply.live:
            return 2
        if reply.deadline is not None and not is_tracked(reply):
            return 0
        return 1 if reply.expires is not None else 2

    return sorted(replies, key=rank)


def shown_first(replies: Sequence[Reply], is_tracked: Callable[[Reply], bool], burst: int) -> list[Reply]:
    """The replies in the order a paced chat should get them. A batch of at most ``burst`` keeps its order; a
    longer one (a round's close: live lines, results, standings, the next draw) would hold its last messages
    for seconds, so it goes in :func:`first_things_first` order (the next draw first), at the chat's pace.
    ``is_tracked``: whether a reply edits a message already sent."""
    if len(replies) <= burst:
        return list(replies)
    return first_things_first(replies, is_tracked)
