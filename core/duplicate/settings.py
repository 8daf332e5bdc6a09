"""The settings of a duplicate game: the clock and its call, the format, the solo, the vowel/consonant
rule, the notation, the sanction scale."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from ..draw import Counts, DrawRule
from ..errors_duplicate import DuplicateSettingError
from ..notation import Notation, notation_by_name
from .formats import DuplicateFormat, call_seconds
from .sanctions import WARNING_THRESHOLD, WARNING_THRESHOLD_SHORT, Sanctions

# --- settings -----------------------------------------------------------------------

BLITZ_MINUTES = 1  # section 1.3: the blitz clock


class SoloRule(StrEnum):
    """Who may get a round's solo bonus (3.5): the player alone with the best score of the round, even below
    the top (the rule book, and Eliot's ``Duplicate::setSoloAuto``), or, for clubs that play it so, only a
    player alone with the top."""

    BEST = "best"
    TOP = "top"


@dataclass(frozen=True)
class DuplicateSettings:
    """The settings of a duplicate game."""

    minutes: float = 3  # FISF uses 1, 2 or 3; shorter clocks serve training and tests
    solo_bonus: int = 10
    solo_min_players: int = 16
    solo: SoloRule = SoloRule.BEST  # 3.5; stored only when TOP (see ``from_dict``)
    y: Counts = Counts.EITHER
    joker: Counts = Counts.EITHER
    first_move_horizontal: bool = True
    notation: Notation = Notation.FISF
    grace_seconds: float = 0.0
    sanctions: Sanctions = Sanctions.NONE  # games started under FISF rules take Sanctions.FISF
    format: DuplicateFormat = DuplicateFormat.CLASSIC  # section 3.8
    call: float = 0  # seconds before the end to call (3.3); 0: 30, or half the time under a minute

    def __post_init__(self) -> None:
        if not isinstance(self.minutes, (int, float)) or not 0 < self.minutes <= 10:
            raise DuplicateSettingError("minutes", self.minutes, 0, 10, low_allowed=False)
        if self.solo_bonus < 0:
            raise DuplicateSettingError("solo_bonus", self.solo_bonus, 0)
        if self.solo_min_players < 1:
            raise DuplicateSettingError("solo_min_players", self.solo_min_players, 1)
        if self.grace_seconds < 0:
            raise DuplicateSettingError("grace_seconds", self.grace_seconds, 0)
        if not 0 <= self.call <= 60:
            raise DuplicateSettingError("call", self.call, 0, 60)

    def __str__(self) -> str:
        return (
            f"{self.minutes} min per move, solo +{self.solo_bonus} from {self.solo_min_players} players,"
            f" Y {self.y}, joker {self.joker}"
        )

    @property
    def draw_rule(self) -> DrawRule:
        """The vowel/consonant rule with these settings for Y and the joker."""
        return DrawRule(y=self.y, joker=self.joker)

    @property
    def blitz(self) -> bool:
        """Whether the clock is the blitz one (a minute per move or less, section 1.3)."""
        return self.minutes <= BLITZ_MINUTES

    @property
    def warning_threshold(self) -> int:
        """The warning from which each costs 5 points (5.9): the fourth, the sixth in blitz and in the
        original formats (3.8)."""
        return WARNING_THRESHOLD_SHORT if self.blitz or self.format.original else WARNING_THRESHOLD

    @property
    def call_seconds(self) -> float:
        """Seconds before the end of a move when the call is made (3.3)."""
        return call_seconds(self.minutes, self.call)

    @property
    def seconds(self) -> float:
        """Time allowed per move, grace included."""
        return self.minutes * 60 + self.grace_seconds

    def to_dict(self) -> dict[str, Any]:
        """A plain dict, ready for JSON."""
        data = asdict(self)
        for name in ("y", "joker", "notation", "sanctions", "format", "solo"):
            data[name] = str(data[name])
        if self.sanctions is Sanctions.NONE:
            del data["sanctions"]  # the settings of games without sanctions stored as before they existed
        if self.format is DuplicateFormat.CLASSIC:
            del data["format"]  # likewise for the classic formula and the usual call
        if self.solo is SoloRule.BEST:
            del data["solo"]  # and for the rule book's solo
        if not self.call:
            del data["call"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DuplicateSettings:
        """The settings a dict from ``to_dict`` describes (missing keys take their default). Games stored
        before issue 37 hold ``solo_requires_top: true``, a default no game could change: it is not read, and
        their solos follow the rule book (3.5) as every game's do unless it chose ``solo: top``."""
        values: dict[str, Any] = {}
        for item in fields(cls):
            if item.name not in data:
                continue
            value = data[item.name]
            if item.name in ("y", "joker"):
                value = Counts(value)
            elif item.name == "notation":
                value = notation_by_name(value)
            elif item.name == "sanctions":
                value = Sanctions(value)
            elif item.name == "format":
                value = DuplicateFormat(value)
            elif item.name == "solo":
                value = SoloRule(value)
            values[item.name] = value
        return cls(**values)


DEFAULT_SETTINGS = DuplicateSettings()
