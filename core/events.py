"""Events of a classic game, as values that serialise to plain dicts.

A game's state is what replaying its events gives (``core.game``). Verdicts are
stored in the challenge event itself, so replaying never needs the word list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")


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
class Setting:
    """A setting of the game chosen before its first turn (``core.game_options``): a challenge option or
    the clock, as a name and a canonical value."""

    kind: ClassVar[str] = "setting"
    name: str
    value: str

    def __str__(self) -> str:
        return f"setting {self.name}={self.value}"


@dataclass(frozen=True)
class ClockPause:
    """The referee stops the game's clock."""

    kind: ClassVar[str] = "clock_pause"

    def __str__(self) -> str:
        return "clock paused"


@dataclass(frozen=True)
class ClockResume:
    """The referee starts the game's clock again."""

    kind: ClassVar[str] = "clock_resume"

    def __str__(self) -> str:
        return "clock resumed"


@dataclass(frozen=True)
class Flagged:
    """A player's chess clock ran out (FISF): they play no more, the others play on."""

    kind: ClassVar[str] = "flagged"
    player: str

    def __str__(self) -> str:
        return f"{self.player}: out of time"


@dataclass(frozen=True)
class Undo:
    """Removes the last sheet line (the last event that is not a join or an undo)."""

    kind: ClassVar[str] = "undo"

    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True)
class End:
    """End of the game with each player's remaining letters (``?`` joker) or their value.

    ``stopped``: the game ends with tiles still in the bag (stopped by the referee, or after the
    scoreless turns), so nobody went out and each player only loses their own rack.
    """

    kind: ClassVar[str] = "end"
    racks: tuple[tuple[str, str], ...]
    stopped: bool = False

    def __str__(self) -> str:
        return "end " + " ".join(f"{p}={r or '-'}" for p, r in self.racks)


Event = (
    Join
    | Play
    | Pass
    | Exchange
    | Challenge
    | Withdrawn
    | ChallengeBonus
    | Penalty
    | TimePenalty
    | Setting
    | ClockPause
    | ClockResume
    | Flagged
    | Undo
    | End
)

EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        Join,
        Play,
        Pass,
        Exchange,
        Challenge,
        Withdrawn,
        ChallengeBonus,
        Penalty,
        TimePenalty,
        Setting,
        ClockPause,
        ClockResume,
        Flagged,
        Undo,
        End,
    )
}
# Events that make no sheet line: an undo passes over them (they stand, like a join).
NO_LINE_KINDS = frozenset({Join.kind, Setting.kind, ClockPause.kind, ClockResume.kind, Flagged.kind})


def _to_json(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_to_json(item) for item in value]
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


def _from_json(value: Any) -> Any:
    return tuple(_from_json(item) for item in value) if isinstance(value, list) else value


def record_to_dict(record: Any) -> dict[str, Any]:
    """A frozen event dataclass as a plain dict with its ``kind``: tuples become lists, values with
    ``to_dict`` their dict (shared by classic and duplicate events)."""
    data: dict[str, Any] = {"kind": record.kind}
    for name in _field_names(type(record)):
        data[name] = _to_json(getattr(record, name))
    return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields, in order (read once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(item.name for item in fields(cls))
    return names


def record_from_dict(
    cls: type[T], data: Mapping[str, Any], convert: Mapping[str, Callable[[Any], Any]] | None = None
) -> T:
    """The event of class ``cls`` a dict from ``record_to_dict`` describes (lists back to tuples;
    ``convert`` rebuilds the fields that need more); missing fields take their defaults."""
    values: dict[str, Any] = {}
    for item in fields(cls):  # type: ignore[arg-type]
        if item.name in data:
            raw = data[item.name]
            values[item.name] = convert[item.name](raw) if convert and item.name in convert else _from_json(raw)
    return cls(**values)


def event_to_dict(event: Event) -> dict[str, Any]:
    """A plain dict with a ``kind`` key, ready for JSON."""
    return record_to_dict(event)


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a dict from ``event_to_dict`` describes."""
    return record_from_dict(EVENT_TYPES[data["kind"]], data)
