"""Games kept in memory between commands, brought up to date from the event log.

Rebuilding a game from all its events at every command costs O(events); a
duplicate round with hundreds of players would then cost O(players²). The cache
keeps each game object with the sequence number of the last stored event it
holds, and applies only the events stored since (by this process or another).
Commands append through ``append`` so the cache knows the events it already
applied. A command that failed after changing a game in memory leaves it with
more events than it had when cached, or cached past the end of the stored log
(its transaction rolled back): the next ``load`` sees it and rebuilds that game
alone, so a refused command costs nothing to the games in memory. Each game has
its own lock, so rebuilding a long game never holds up another channel; at most
``limit`` games are kept (least recently used first out).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..storage import GameRecord, Storage, StoredEvent


class _HasEvents(Protocol):
    events: Any


G = TypeVar("G", bound=_HasEvents)


@dataclass
class _Entry(Generic[G]):
    seq: int  # the last stored event the game holds
    at: float  # ... and its time: (seq, at) tells it from an event a rolled-back transaction wrote
    game: G
    size: int  # len(game.events) when it held exactly the stored events up to ``seq``
    channel: str


class GameCache(Generic[G]):
    """Game objects by game id, each with the last event sequence number it reflects."""

    def __init__(
        self,
        build: Callable[[GameRecord, list[dict[str, Any]]], G],
        apply: Callable[[G, dict[str, Any]], None],
        limit: int = 256,
    ) -> None:
        self._build = build
        self._apply = apply
        self.limit = limit
        self._entries: OrderedDict[int, _Entry[G]] = OrderedDict()
        self._locks: dict[int, threading.RLock] = {}
        self._lock = threading.Lock()  # the dictionaries only, never held while a game is built

    def _game_lock(self, game_id: int) -> threading.RLock:
        with self._lock:
            return self._locks.setdefault(game_id, threading.RLock())

    def load(self, storage: Storage, record: GameRecord) -> G:
        """The game with every stored event applied.

        Inside the command's transaction the log is read through it (it holds the store's lock, then
        takes the game's); outside one, through the store's lock-free reader, so that a thread holding
        a game's lock never waits for the store's lock (no lock-order inversion), and a long rebuild
        holds up nobody.
        """
        inside = storage.in_transaction()
        events_after = storage.events if inside else storage.read_events
        stamp = storage.last_stamp if inside else storage.read_stamp
        with self._game_lock(record.id):
            with self._lock:
                entry = self._entries.get(record.id)
            if entry is not None and (
                len(entry.game.events) != entry.size or not self._stored(stamp, events_after, record.id, entry)
            ):
                entry = None  # changed in memory by a command whose change was not stored, or was rolled back
            if entry is None:
                events = events_after(record.id, 0)
                game = self._build(record, [e.data for e in events])
                last = events[-1] if events else None
                entry = _Entry(
                    last.seq if last else 0, last.at if last else 0.0, game, len(game.events), record.channel
                )
            else:
                for event in events_after(record.id, entry.seq):
                    self._apply(entry.game, event.data)
                    entry.seq, entry.at = event.seq, event.at
                entry.size = len(entry.game.events)
            self._keep(record.id, entry)
            return entry.game

    @staticmethod
    def _stored(
        stamp: Callable[[int], tuple[int, float]],
        events_after: Callable[[int, int], list[StoredEvent]],
        game_id: int,
        entry: _Entry[G],
    ) -> bool:
        """Whether the event the entry ends with is in the log (not rolled back and replaced)."""
        seq, at = stamp(game_id)
        if seq == entry.seq:
            return at == entry.at
        if seq < entry.seq:
            return False
        stored = events_after(game_id, entry.seq - 1)[:1] if entry.seq else []
        return not entry.seq or (bool(stored) and stored[0].at == entry.at)

    def _keep(self, game_id: int, entry: _Entry[G]) -> None:
        with self._lock:
            self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.limit:
                old, _ = self._entries.popitem(last=False)
                self._locks.pop(old, None)

    def append(self, storage: Storage, record: GameRecord, game: G, data: dict[str, Any], author: str) -> None:
        """Store an event the game object has already applied."""
        stored = storage.append_event(record.id, data, author)
        with self._lock:
            entry = self._entries.get(record.id)
            if entry is not None and entry.game is game and entry.seq == stored.seq - 1:
                entry.seq, entry.at = stored.seq, stored.at
                entry.size = len(game.events)
            else:  # another writer got in between: rebuild next time
                self._entries.pop(record.id, None)

    def cached(self, game_id: int, stamp: tuple[int, float]) -> G | None:
        """The game in memory if it holds exactly the stored events up to ``stamp`` (the log's last
        (sequence number, time)), else None."""
        with self._lock:
            entry = self._entries.get(game_id)
        if entry is None or len(entry.game.events) != entry.size or (entry.seq, entry.at) != stamp:
            return None
        return entry.game

    def stored(self, game_id: int, game: G, stamp: tuple[int, float]) -> None:
        """The events ``game`` applied since it was cached are stored, the last at ``stamp``."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None and entry.game is game:
                entry.seq, entry.at = stamp
                entry.size = len(game.events)

    def forget(self, game_id: int) -> None:
        """Drop one game (a finished game is rebuilt from its log if anyone looks at it again)."""
        with self._lock:
            self._entries.pop(game_id, None)

    def clear(self, channel: str | None = None) -> None:
        """Forget every game, or only the games of one channel."""
        with self._lock:
            for game_id in [g for g, e in self._entries.items() if channel is None or e.channel == channel]:
                self._entries.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._entries)
