"""Events of a classic game, as values that serialise to plain dicts.

A game's state is what replaying its events gives (``core.game``). Verdicts are
stored in the challenge event itself, so replaying never needs the word list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Join:
    """A player joins before the first move."""

    kind: ClassVar[str] = "join"
    player: str

    def __str__(self) -> str:
        return f"{self.player} joins"


@dataclass(frozen=True)
class Play:
    """A move, written in the game's notation; ``claimed`` is the score the player announced."""

    kind: ClassVar[str] = "play"
    player: str
    move: str
    claimed: int | None = None

    def __str__(self) -> str:
        return f"{self.player}: {self.move}"


@dataclass(frozen=True)
class Pass:
    """The player passes."""

    kind: ClassVar[str] = "pass"
    player: str

    def __str__(self) -> str:
        return f"{self.player}: pass"


@dataclass(frozen=True)
class Exchange:
    """The player exchanges tiles: letters (``?`` for a joker), a count, or empty when unknown."""

    kind: ClassVar[str] = "exchange"
    player: str
    tiles: str = ""

    def __str__(self) -> str:
        return f"{self.player}: exchange {self.tiles}".rstrip()


@dataclass(frozen=True)
class Challenge:
    """A challenge of the last play, with the words challenged and those found invalid."""

    kind: ClassVar[str] = "challenge"
    challenger: str
    words: tuple[str, ...]
    invalid: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.challenger}: challenge {' '.join(self.words)}"


@dataclass(frozen=True)
class Withdrawn:
    """The last play is taken back (a phony withdrawn after a challenge): it scores 0."""

    kind: ClassVar[str] = "withdrawn"
    player: str

    def __str__(self) -> str:
        return f"{self.player}: play withdrawn"


@dataclass(frozen=True)
class ChallengeBonus:
    """Points given to a player whose valid play was challenged."""

    kind: ClassVar[str] = "challenge_bonus"
    player: str
    points: int

    def __str__(self) -> str:
        return f"{self.player}: challenge bonus +{self.points}"


@dataclass(frozen=True)
class Penalty:
    """Points taken off a player (no turn used)."""

    kind: ClassVar[str] = "penalty"
    player: str
    points: int

    def __str__(self) -> str:
        return f"{self.player}: penalty -{self.points}"


@dataclass(frozen=True)
class TimePenalty:
    """Points taken off a player for overtime."""

    kind: ClassVar[str] = "time_penalty"
    player: str
    points: int

    def __str__(self) -> str:
        return f"{self.player}: time penalty -{self.points}"


@dataclass(frozen=True)
class Undo:
    """Removes the last sheet line (the last event that is not a join or an undo)."""

    kind: ClassVar[str] = "undo"

    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True)
class End:
    """End of the game with each player's remaining letters (``?`` joker) or their value."""

    kind: ClassVar[str] = "end"
    racks: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return "end " + " ".join(f"{p}={r or '-'}" for p, r in self.racks)


Event = Join | Play | Pass | Exchange | Challenge | Withdrawn | ChallengeBonus | Penalty | TimePenalty | Undo | End

EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.kind: cls
    for cls in (Join, Play, Pass, Exchange, Challenge, Withdrawn, ChallengeBonus, Penalty, TimePenalty, Undo, End)
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """A plain dict with a ``kind`` key, ready for JSON."""
    data = asdict(event)
    data["kind"] = event.kind
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a dict from ``event_to_dict`` describes."""
    cls = EVENT_TYPES[data["kind"]]
    values: dict[str, Any] = {}
    for field in fields(cls):
        if field.name not in data:
            continue
        value = data[field.name]
        if field.name in ("words", "invalid"):
            value = tuple(value)
        elif field.name == "racks":
            value = tuple((str(p), str(r)) for p, r in value)
        values[field.name] = value
    return cls(**values)
