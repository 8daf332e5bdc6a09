"""The kinds of game, each one object the views and the referee ask about a game of that kind.

A kind says how its games are rebuilt from their log and applied a stored event (so that
``bot.play.cache.Games`` keeps them in memory), what long work a command needs before its transaction
opens, and what each view shows of a game (/sheet /board /unseen /export /standings /moves /status,
its line in /games), as catalog text. The views (``common/views.py``, ``common/history.py``) and the
referee ask the kind of the game's record and never test a game's class.

A new kind of game is: its class in ``core`` (answering ``core.kinds.Game``), a package of ``bot/games``
with its ``Kind`` (``register``ed when imported) and its commands (``registry.command`` and ``handles``; its
start, when /new's words name it, ``registry.starts``),
imported by ``installed.py``, and its messages in the catalogs; its name in ``GameKind``, what storage
records."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..storage import Deadline, GameKind, GameRecord

if TYPE_CHECKING:
    from ..chat import Reply
    from ..commands.context import Context
    from ..commands.registry import CommandSpec
    from ..commands.services import Services

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

    def prepare(self, services: Services, record: GameRecord, game: G, spec: CommandSpec) -> None:
        """Long work ``spec`` needs before its transaction opens (nothing by default)."""

    # --- its clock (the clock tick reads storage's deadlines of every kind) ---

    def before_clock(self, services: Services, record: GameRecord) -> None:
        """Long work the clock needs before it acts on a deadline that has passed, outside its
        transaction (nothing by default)."""

    def clock(self, services: Services, record: GameRecord, deadline: Deadline, now: float) -> list[Reply]:
        """What the clock does about one stored deadline of a game of this kind (``record``, read in the
        transaction), in a transaction holding the channel's lock: its replies (a kind without a clock drops
        the deadline)."""
        services.storage.open_round(deadline.game, deadline.round, None)
        return []

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

    def results_file(self, ctx: Context, record: GameRecord, game: G) -> tuple[str, bytes, str]:
        """The results file for the federation (/export sigles): the text, the document, its file name's
        end; a kind without one refuses."""
        from ..commands.context import UserError

        raise UserError("export_sigles_duplicate_only")

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
