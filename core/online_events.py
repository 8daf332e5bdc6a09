"""Events of a classic game the referee deals (``core.online``): the draw for the order and the tiles
dealt to a rack, beside the classic events (``core.events``) that the dealt game also takes.

A dealt game's log holds every tile drawn, so replaying it never needs a random generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .events import EVENT_TYPES as CLASSIC_EVENT_TYPES
from .events import Event, record_from_dict, record_to_dict


@dataclass(frozen=True)
class OrderDrawn:
    """Each player drew a tile for the order (the tiles go back to the bag): ``rounds`` holds one tuple of
    (player, tile) per round, every player in the first, only those still tied in the next ones."""

    kind: ClassVar[str] = "order_drawn"
    rounds: tuple[tuple[tuple[str, str], ...], ...]

    def __str__(self) -> str:
        return "order " + " / ".join(" ".join(f"{p}={t}" for p, t in one) for one in self.rounds)


@dataclass(frozen=True)
class Dealt:
    """Tiles drawn from the bag onto a player's rack (``?`` for a joker)."""

    kind: ClassVar[str] = "dealt"
    player: str
    tiles: str

    def __str__(self) -> str:
        return f"{self.player}: draws {len(self.tiles)}"  # never the tiles: logs must not show a rack


@dataclass(frozen=True)
class Robot:
    """A seat the computer plays, at a level (``core.online_robot.Level``'s name, lowercase)."""

    kind: ClassVar[str] = "robot"
    player: str
    level: str

    def __str__(self) -> str:
        return f"{self.player}: computer ({self.level})"


@dataclass(frozen=True)
class Pace:
    """A game by correspondence: hours for each move, days for the whole game (0: no limit)."""

    kind: ClassVar[str] = "pace"
    move_hours: int
    game_days: int

    def __str__(self) -> str:
        return f"pace {self.move_hours} h a move, {self.game_days} days a game"


@dataclass(frozen=True)
class Reminded:
    """The player to move was reminded that the move's time runs out (``turn``: the game's turn count then)."""

    kind: ClassVar[str] = "reminded"
    player: str
    turn: int

    def __str__(self) -> str:
        return f"{self.player}: reminded"


DealtEvent = Event | OrderDrawn | Dealt | Robot | Pace | Reminded

EVENT_TYPES: Mapping[str, type[DealtEvent]] = {
    **CLASSIC_EVENT_TYPES,
    OrderDrawn.kind: OrderDrawn,
    Dealt.kind: Dealt,
    Robot.kind: Robot,
    Pace.kind: Pace,
    Reminded.kind: Reminded,
}


def event_to_dict(event: DealtEvent) -> dict[str, Any]:
    """A plain dict with a ``kind`` key, ready for JSON."""
    return record_to_dict(event)


def event_from_dict(data: Mapping[str, Any]) -> DealtEvent:
    """The event a dict from ``event_to_dict`` describes."""
    return record_from_dict(EVENT_TYPES[data["kind"]], data)
