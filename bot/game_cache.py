"""Games kept in memory between commands, brought up to date from the event log.

Rebuilding a game from all its events at every command costs O(events); a
duplicate round with hundreds of players would then cost O(players²). The cache
keeps each game object with the sequence number of the last event it holds, and
applies only the events stored since (by this process or another one). Commands
append through ``append`` so the cache knows the events it already applied; a failed
command clears its channel's games (the transaction rolled back, memory must follow).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .storage import GameRecord, Storage

G = TypeVar("G")


class GameCache(Generic[G]):
    """Game objects by game id, each with the last event sequence number it reflects."""

    def __init__(
        self,
        build: Callable[[GameRecord, list[dict[str, Any]]], G],
        apply: Callable[[G, dict[str, Any]], None],
    ) -> None:
        self._build = build
        self._apply = apply
        self._games: dict[int, tuple[int, G]] = {}
        self._channels: dict[int, str] = {}
        self._lock = threading.RLock()

    def load(self, storage: Storage, record: GameRecord) -> G:
        """The game with every stored event applied (call inside the command's transaction)."""
        with self._lock:
            cached = self._games.get(record.id)
            if cached is None:
                events = storage.events(record.id)
                game = self._build(record, [e.data for e in events])
                seq = events[-1].seq if events else 0
            else:
                seq, game = cached
                for event in storage.events(record.id, after=seq):
                    self._apply(game, event.data)
                    seq = event.seq
            self._games[record.id] = (seq, game)
            self._channels[record.id] = record.channel
            return game

    def append(self, storage: Storage, record: GameRecord, game: G, data: dict[str, Any], author: str) -> None:
        """Store an event the game object has already applied."""
        with self._lock:
            stored = storage.append_event(record.id, data, author)
            cached = self._games.get(record.id)
            if cached is not None and cached[1] is game and cached[0] == stored.seq - 1:
                self._games[record.id] = (stored.seq, game)
            else:  # another writer got in between: rebuild next time
                self._games.pop(record.id, None)

    def clear(self, channel: str | None = None) -> None:
        """Forget every game, or only the games of one channel."""
        with self._lock:
            if channel is None:
                self._games.clear()
                self._channels.clear()
                return
            for game_id in [g for g, c in self._channels.items() if c == channel]:
                self._games.pop(game_id, None)
                self._channels.pop(game_id, None)
