"""What every kind of game exposes, whatever its rules: the edition and notation it is played in, its
board and players, its events, and one way to take a move.

A move is an event: ``apply(event)`` checks a new one against the game, applies it and returns it (or
raises an ``ArbitreError`` and leaves the game unchanged); ``apply_stored(event)`` applies one read
back from the game's log (checked when it was new). The classic game, the duplicate game and the kinds
to come all answer this protocol; what a kind shows its players is the bot's (``bot.games.kinds``).
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from .board import Board
from .edition import Edition
from .notation import Notation

E = TypeVar("E")


class Game(Protocol[E]):
    """A game rebuilt from its events, taking new ones through ``apply``."""

    edition: Edition
    board: Board
    players: list[str]
    events: list[E]

    @property
    def notation(self) -> Notation:
        """The notation its moves are written in by default."""
        ...

    def apply(self, event: E) -> E:
        """Apply a new event and return it; raise and leave the game unchanged when it is refused."""
        ...

    def apply_stored(self, event: E) -> None:
        """Apply an event of the game's log."""
        ...
