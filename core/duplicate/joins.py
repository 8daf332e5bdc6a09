"""Who joined at the current move, read from a game's log once per event: the bot lists them at every
answer, and reading back through the move's events each time made an answer cost more the fuller its room."""

from __future__ import annotations

from collections.abc import Sequence

from .events import DuplicateEvent, PlayerJoined, RoundClosed, RoundReopened

_MOVE_ENDS = (RoundClosed, RoundReopened)


class JoinsThisMove:
    """The players who joined since the last move closed or was reopened, kept up to date as the log grows."""

    def __init__(self) -> None:
        self._read = 0  # how many events of the log were read
        self._last: DuplicateEvent | None = None  # the last of them (a log cut and written again is read again)
        self._names: list[str] = []

    def of(self, events: Sequence[DuplicateEvent]) -> list[str]:
        """The names, in the order they joined, for the game's log ``events`` (read from where it was read
        last; from its start again if it no longer holds what was read)."""
        read = self._read
        if read > len(events) or (read and events[read - 1] is not self._last):
            read, self._names = 0, []
        names = self._names
        for index in range(read, len(events)):
            event = events[index]
            if isinstance(event, PlayerJoined):
                names.append(event.player)
            elif isinstance(event, _MOVE_ENDS):
                names.clear()
        self._read = len(events)
        self._last = events[-1] if events else None
        return list(names)
