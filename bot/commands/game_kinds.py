"""The kinds of game, each one object the views and the referee ask about a game of that kind.

A kind says how its games are rebuilt from their log and applied a stored event (so that ``Games``
keeps them in memory), what long work a command needs before its transaction opens, and what each
view shows of a game (/sheet /board /unseen /export /standings /moves /status, its line in /games),
as catalog text. ``views.py``, ``history.py`` and the referee ask the kind of the game's record and
never test a game's class.

A new kind of game is: its class in ``core`` (answering ``core.kinds.Game``), a module of ``bot/commands``
with its ``Kind`` (``register``ed when imported) and its commands (``registry.command`` and ``handles``),
and its messages in the catalogs; its name in ``GameKind``, what storage records.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..storage import GameKind, GameRecord, Storage
from .context import Context
from .game_cache import GameCache, game_transaction
from .registry import CommandSpec

if TYPE_CHECKING:
    from ..referee import Referee

G = TypeVar("G")


class UnknownGameKindError(LookupError):
    """A game of a kind no module registered (its module was not imported)."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"no game kind {kind!r} is registered")
        self.kind = kind


class GameKindTakenError(ValueError):
    """Two kinds registered under one name."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"game kind {kind!r} is registered twice")
        self.kind = kind


class Kind(ABC, Generic[G]):
    """What the bot needs of one kind of game; ``G`` is its class in ``core``."""

    kind: GameKind
    verdicts_key = "verdicts_challenges"  # the message naming the list its verdicts used, and where

    # --- its games in memory ---

    @abstractmethod
    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> G:
        """The game a stored set-up and its stored events describe."""

    @abstractmethod
    def apply_stored(self, game: G, data: dict[str, Any]) -> None:
        """Apply one stored event to the game."""

    def prepare(self, referee: Referee, record: GameRecord, game: G, spec: CommandSpec) -> None:
        """Long work ``spec`` needs before its transaction opens (nothing by default)."""

    # --- the views, as catalog text ---

    @abstractmethod
    def sheet(self, ctx: Context, game: G) -> str:
        """The score sheet (/sheet)."""

    @abstractmethod
    def board(self, ctx: Context, game: G, ended: bool) -> tuple[str, bytes | None]:
        """The board as text, and as an image when images are on (/board); ``ended``: a game over."""

    @abstractmethod
    def unseen(self, ctx: Context, game: G) -> str:
        """The tiles not on the board (/unseen)."""

    @abstractmethod
    def export(self, ctx: Context, record: GameRecord, game: G) -> tuple[str, bytes, str]:
        """The text, the document and its file name's end (/export)."""

    @abstractmethod
    def standings(self, ctx: Context, game: G) -> tuple[str, bytes | None]:
        """The ranking, and its image if any (/standings)."""

    @abstractmethod
    def moves(self, ctx: Context, record: GameRecord, game: G, name: str) -> str:
        """A player's moves (/moves)."""

    @abstractmethod
    def status(self, ctx: Context, record: GameRecord, game: G) -> None:
        """Reply where the running game stands (/status)."""

    @abstractmethod
    def summary(self, ctx: Context, game: G) -> tuple[str, str]:
        """(players, result) for the game's line in /games."""


_KINDS: dict[GameKind, Kind[Any]] = {}


def register(kind: Kind[Any]) -> Kind[Any]:
    """Serve games of ``kind.kind`` with this kind (done once, by the kind's module)."""
    if kind.kind in _KINDS:
        raise GameKindTakenError(kind.kind)
    _KINDS[kind.kind] = kind
    return kind


def withdraw(kind: GameKind) -> None:
    """Stop serving a kind (a test's throwaway kind)."""
    _KINDS.pop(kind, None)


def kind_of(kind: GameKind) -> Kind[Any]:
    """The registered kind of that name."""
    found = _KINDS.get(kind)
    if found is None:
        raise UnknownGameKindError(kind)
    return found


class Games:
    """One referee's games in memory, one cache per kind (made when first needed)."""

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._caches: dict[GameKind, GameCache[Any]] = {}

    def cache(self, kind: GameKind) -> GameCache[Any]:
        """The cache of the games of ``kind``."""
        cache = self._caches.get(kind)
        if cache is None:
            found = kind_of(kind)
            cache = self._caches.setdefault(kind, GameCache(found.build, found.apply_stored, self.limit))
        return cache

    def load(self, storage: Storage, record: GameRecord) -> Any:
        """The game of ``record``, up to date with its log."""
        return self.cache(record.kind).load(storage, record)

    def prepare(self, referee: Referee, record: GameRecord, spec: CommandSpec) -> None:
        """Bring the game up to date in memory and do the long work ``spec`` needs, before its transaction."""
        kind_of(record.kind).prepare(referee, record, self.load(referee.storage, record), spec)

    def forget(self, record: GameRecord) -> None:
        """Drop one game (rebuilt from its log when next needed)."""
        self.cache(record.kind).forget(record.id)

    def clear(self, channel: str | None = None) -> None:
        """Forget every game, or only the games of one channel."""
        for cache in self._caches.values():
            cache.clear(channel)

    @staticmethod
    @contextmanager
    def transaction(storage: Storage) -> Iterator[None]:
        """A write transaction whose changes to the games in memory count only once it committed."""
        with game_transaction(storage):
            yield
