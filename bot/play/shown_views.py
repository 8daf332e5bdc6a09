"""What views a referee posted lately in each room (``bot.games.common.views.once_in_public``): a view asked again
unchanged within ``REPEAT_SECONDS`` is answered privately instead of posted twice."""

from __future__ import annotations

import threading

REPEAT_SECONDS = 60.0  # a view posted in a room is not posted there again, unchanged, within this
SHOWN_KEPT = 1024  # views remembered at most (the oldest forgotten first)


class ShownViews:
    """When each view was last posted publicly in each room, by one referee (a room's commands are its
    process's: another process that serves the same room keeps its own memory)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._at: dict[tuple[str, str, str], float] = {}

    def posted_lately(self, key: tuple[str, str, str], now: float) -> float | None:
        """When the view ``key`` was posted less than ``REPEAT_SECONDS`` before ``now``; else None, and it
        counts as posted now."""
        with self._lock:
            at = self._at.get(key)
            if at is not None and 0 <= now - at < REPEAT_SECONDS:
                return at
            if len(self._at) >= SHOWN_KEPT:
                for old in [k for k, t in self._at.items() if not 0 <= now - t < REPEAT_SECONDS]:
                    del self._at[old]
                while len(self._at) >= SHOWN_KEPT:
                    del self._at[next(iter(self._at))]
            self._at.pop(key, None)
            self._at[key] = now
            return None
