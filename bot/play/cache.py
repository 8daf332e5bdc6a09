"""Games kept in memory between commands, brought up to date from the event log.

Rebuilding a game from all its events at every command costs O(events); a
duplicate round with hundreds of players would then cost O(players²). The cache
keeps each game object with the sequence number of the last stored event it
holds, and applies only the events stored since (by this process or another).

A command changes its games inside ``game_transaction``: a game loaded there is
held by that transaction (no other thread is handed it) until the transaction
ends; once it committed, the cache takes the events the command stored as its
own; if it rolled back, every game the command changed is dropped and rebuilt
from the committed log when next needed. The cache never holds an event that
was not committed, so it never has to guess at a rollback. Each game has its own
lock, so rebuilding a long game never holds up another channel; at most
``limit`` games are kept (least recently used first out).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ..storage import GameKind, GameLog, GameRecord, Transactions


class GameStore(Transactions, GameLog, Protocol):
    """What the games in memory need of storage: the games' event logs, in its transactions."""


class NoGameTransactionError(RuntimeError):
    """A game was loaded in a storage transaction that ``game_transaction`` did not open (the cache
    could not tell whether its changes were committed)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} loaded in a transaction opened without game_transaction")
        self.game_id = game_id


class _HasEvents(Protocol):
    events: Any


G = TypeVar("G", bound=_HasEvents)


@dataclass
class _Entry(Generic[G]):
    seq: int  # the last stored event the game holds
    at: float  # ... and its time (what ``cached`` compares with the log's last stamp)
    game: G
    size: int  # len(game.events) when it held exactly the stored events up to ``seq``
    channel: str


@dataclass
class _Held:
    """A game a transaction holds: its cache and entry, where the game stood when taken (``base``: the
    last stored event it held and the size of its events; None: built in the transaction), and the last
    point where it held exactly the log as this transaction sees it (``seq``, ``at``, ``size``)."""

    cache: GameCache[Any]
    game_id: int
    entry: _Entry[Any]
    base: tuple[int, int] | None
    seq: int
    at: float
    size: int
    lock: threading.RLock

    def synced(self, seq: int, at: float) -> None:
        self.seq, self.at, self.size = seq, at, len(self.entry.game.events)

@dataclass
class _Unit:
    """The games one transaction holds, by (cache, game id), each with its lock taken."""

    held: dict[tuple[int, int], _Held] = field(default_factory=dict)


_UNIT = threading.local()  # the thread's transaction's unit (``unit``), if one is open


def _open_unit() -> _Unit | None:
    unit: _Unit | None = getattr(_UNIT, "unit", None)
    return unit


@contextmanager
def game_transaction(storage: GameStore) -> Iterator[None]:
    """``storage.transaction()``, after which the games it changed in memory are the cache's own once
    it committed, or dropped (rebuilt from the log when next needed) if it rolled back. Nested calls
    join the outer one."""
    if _open_unit() is not None:
        with storage.transaction():
            yield
        return
    # inside a transaction opened otherwise, its end is not seen: what it changed is taken from the log later
    outer = storage.in_transaction()
    unit = _Unit()
    _UNIT.unit = unit
    try:
        with storage.transaction():
            yield
    except BaseException:
        _UNIT.unit = None
        _settle(unit, committed=False)
        raise
    _UNIT.unit = None
    _settle(unit, committed=not outer)


def _settle(unit: _Unit, committed: bool) -> None:
    """Each held game kept as committed, or dropped when its change is not in the log; its lock given back."""
    for held in unit.held.values():
        try:
            held.cache._settle(held, committed)
        finally:
            held.lock.release()


class GameCache(Generic[G]):
    """Game objects by game id, each with the last event sequence number it reflects."""

    def __init__(
        self,
        build: Callable[[GameRecord, list[dict[str, Any]]], G],
        apply: Callable[[G, dict[str, Any]], None],
        limit: int = 4096,
    ) -> None:
        self._build = build
        self._apply = apply
        self.limit = limit
        self.builds = 0  # games built from their whole log (what a test counts)
        self._entries: OrderedDict[int, _Entry[G]] = OrderedDict()
        self._locks: dict[int, threading.RLock] = {}
        self._lock = threading.Lock()  # the dictionaries only, never held while a game is built

    def _game_lock(self, game_id: int) -> threading.RLock:
        with self._lock:
            return self._locks.setdefault(game_id, threading.RLock())

    def load(self, storage: GameStore, record: GameRecord) -> G:
        """The game with every stored event applied.

        Inside the command's transaction the log is read through it (it holds the store's lock, then
        takes the game's, and keeps it until the transaction ends); outside one, through the store's
        lock-free reader, so that a thread holding a game's lock never waits for the store's lock (no
        lock-order inversion), and a long rebuild holds up nobody.
        """
        if storage.in_transaction():
            return self._load_held(storage, record)
        with self._game_lock(record.id):
            entry, whole = self._valid_entry(record.id, storage.read_stamp)
            if entry is None:
                entry, _ = self._built(record, storage.read_events(record.id, 0))
            elif not whole:
                for event in storage.read_events(record.id, entry.seq):
                    self._apply(entry.game, event.data)
                    entry.seq, entry.at = event.seq, event.at
                entry.size = len(entry.game.events)
            self._keep(record.id, entry)
            return entry.game

    def _valid_entry(
        self, game_id: int, stamp: Callable[[int], tuple[int, float]]
    ) -> tuple[_Entry[G] | None, bool]:
        """The cached entry, unless it cannot be brought up to the log; and whether it holds the whole log
        (its last event is the log's last, by ``stamp``: the log's last (sequence number, time))."""
        with self._lock:
            entry = self._entries.get(game_id)
        if entry is None or len(entry.game.events) != entry.size:
            return None, False  # none, or changed in memory outside any transaction
        last = stamp(game_id)
        if last[0] < entry.seq:
            return None, False  # the log was cut short
        return entry, last == (entry.seq, entry.at)

    def _built(self, record: GameRecord, events: list[Any]) -> tuple[_Entry[G], tuple[int, float]]:
        game = self._build(record, [e.data for e in events])
        self.builds += 1
        last = (events[-1].seq, events[-1].at) if events else (0, 0.0)
        return _Entry(last[0], last[1], game, len(game.events), record.channel), last

    def _load_held(self, storage: GameStore, record: GameRecord) -> G:
        """The game for the thread's transaction, held by it until it ends; what the transaction stored is
        the cache's only once it committed."""
        unit = _open_unit()
        if unit is None:
            raise NoGameTransactionError(record.id)
        held = unit.held.get((id(self), record.id))
        whole = False  # whether the game held is known to hold every event of the log
        if held is None:
            lock = self._game_lock(record.id)
            lock.acquire()
            try:
                entry, whole = self._valid_entry(record.id, storage.last_stamp)
                if entry is None:
                    entry, (seq, at) = self._built(record, storage.events(record.id, 0))
                    held, whole = _Held(self, record.id, entry, None, seq, at, entry.size, lock), True
                else:
                    held = _Held(self, record.id, entry, (entry.seq, entry.size), entry.seq, entry.at, entry.size, lock)
                self._keep(record.id, entry)
            except BaseException:
                lock.release()
                raise
            unit.held[(id(self), record.id)] = held  # ``game_transaction`` gives the lock back
        game: G = held.entry.game
        if whole:  # read in this transaction, which holds the channel: nothing stored since
            return game
        for event in storage.events(record.id, held.seq):  # stored elsewhere, or in this transaction without the cache
            self._apply(game, event.data)
            held.synced(event.seq, event.at)
        return game

    def _settle(self, held: _Held, committed: bool) -> None:
        """A held game at the end of its transaction: kept with the events it stored, or dropped."""
        entry = held.entry
        with self._lock:
            if self._entries.get(held.game_id) is not entry:
                return  # forgotten meanwhile
            if committed and len(entry.game.events) == held.size:
                entry.seq, entry.at, entry.size = held.seq, held.at, held.size
            elif committed or held.base != (entry.seq, len(entry.game.events)):
                # changed in memory without being stored, or rolled back after a change (or built from a
                # log the transaction may have written): the committed log tells, when next needed
                self._entries.pop(held.game_id, None)

    def _keep(self, game_id: int, entry: _Entry[G]) -> None:
        with self._lock:
            self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.limit:
                old, _ = self._entries.popitem(last=False)
                self._locks.pop(old, None)

    def append(self, storage: GameStore, record: GameRecord, game: G, data: dict[str, Any], author: str) -> None:
        """Store an event the game object has already applied (the cache takes it once it is committed)."""
        stored = storage.append_event(record.id, data, author)
        self.stored(record.id, game, (stored.seq, stored.at))

    def cached(self, game_id: int, stamp: tuple[int, float]) -> G | None:
        """The game in memory if it holds exactly the stored events up to ``stamp`` (the log's last
        (sequence number, time)), else None; inside a transaction, held by it."""
        unit = _open_unit()
        held = unit.held.get((id(self), game_id)) if unit is not None else None
        if held is not None:
            same = (held.seq, held.at) == stamp and held.size == len(held.entry.game.events)
            return held.entry.game if same else None
        lock = self._game_lock(game_id)
        with lock:
            with self._lock:
                entry = self._entries.get(game_id)
            if entry is None or len(entry.game.events) != entry.size or (entry.seq, entry.at) != stamp:
                return None
            if unit is not None:
                lock.acquire()  # held until the transaction ends
                unit.held[(id(self), game_id)] = _Held(
                    self, game_id, entry, (entry.seq, entry.size), entry.seq, entry.at, entry.size, lock
                )
            return entry.game

    def stored(self, game_id: int, game: G, stamp: tuple[int, float]) -> None:
        """The events ``game`` applied since it was cached are stored, the last at ``stamp`` (the cache's
        once their transaction committed)."""
        unit = _open_unit()
        held = unit.held.get((id(self), game_id)) if unit is not None else None
        if held is not None and held.entry.game is game:
            held.synced(*stamp)
            return
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None and entry.game is game and entry.seq + len(game.events) - entry.size == stamp[0]:
                entry.seq, entry.at = stamp  # stored outside any transaction: committed already
                entry.size = len(game.events)
            else:  # another writer got in between, or the game is not the cache's: rebuilt next time
                self._entries.pop(game_id, None)

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


class Builds(Protocol):
    """How one kind's games are rebuilt from their log (``bot.games.kinds.Kind`` is one)."""

    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> Any: ...
    def apply_stored(self, game: Any, data: dict[str, Any]) -> None: ...


class Games:
    """One referee's games in memory, one cache per kind of game (made when first needed); ``kinds``
    says how each kind's games are built (``bot.games.kinds.kind_of``)."""

    def __init__(self, kinds: Callable[[GameKind], Builds], limit: int = 4096) -> None:
        self._kinds = kinds
        self.limit = limit
        self._caches: dict[GameKind, GameCache[Any]] = {}

    def cache(self, kind: GameKind) -> GameCache[Any]:
        """The cache of the games of ``kind``."""
        cache = self._caches.get(kind)
        if cache is None:
            found = self._kinds(kind)
            cache = self._caches.setdefault(kind, GameCache(found.build, found.apply_stored, self.limit))
        return cache

    def load(self, storage: GameStore, record: GameRecord) -> Any:
        """The game of ``record``, up to date with its log."""
        return self.cache(record.kind).load(storage, record)

    def forget(self, record: GameRecord) -> None:
        """Drop one game (rebuilt from its log when next needed)."""
        self.cache(record.kind).forget(record.id)

    def clear(self, channel: str | None = None) -> None:
        """Forget every game, or only the games of one channel."""
        for cache in self._caches.values():
            cache.clear(channel)

    @staticmethod
    @contextmanager
    def transaction(storage: GameStore) -> Iterator[None]:
        """A write transaction whose changes to the games in memory count only once it committed."""
        with game_transaction(storage):
            yield
