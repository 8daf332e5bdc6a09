"""The duplicate formats of the FISF rule book (section 3.8) and the clocks of section 1.3 with their calls
(section 3.3).

- ``classic``: seven letters a draw, 50 points for the seven;
- ``joker`` (3.8.1): six letters and a joker each draw; a joker the top places is replaced on the board
  by its letter when the bag still holds one, and comes back for the next draw;
- ``seven-of-eight`` (7 sur 8, 3.8.2): eight letters a draw, at most seven placed, 50 points for seven;
- ``seven-and-eight`` (7 et 8, 3.8.2): eight letters a draw, 50 points for seven placed, 75 for eight;
- ``topping`` (3.8.4): each player plays until finding the top, timed; a top not found in the time
  allowed is given with 20 seconds' penalty; players are ranked by their total time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

from ..edition import Edition
from ..formats import FORMATS, SEVEN_BONUS, FormatSpec

TOPPING_PENALTY_SECONDS = 20  # 3.8.4: a top given after the time allowed costs 20 seconds
TOPPING_MINUTES = 1  # 3.8.4: "généralement, une minute par coup"
LONG_CALL_SECONDS = 30  # 3.3: "trente (ou vingt) secondes"
SHORT_CALL_SECONDS = 20


_SPECS = {spec.name: spec for spec in FORMATS}


class DuplicateFormat(StrEnum):
    """A formula of the rule book's section 3.8 (``classic``: the usual duplicate); what each is: ``spec``."""

    CLASSIC = "classic"
    JOKER = "joker"
    SEVEN_OF_EIGHT = "seven-of-eight"
    SEVEN_AND_EIGHT = "seven-and-eight"
    TOPPING = "topping"

    @property
    def spec(self) -> FormatSpec:
        """The format's record."""
        return _SPECS[self.value]

    @property
    def section(self) -> str:
        """The rule book's section that defines it."""
        return self.spec.section

    @property
    def original(self) -> bool:
        """Whether it is one of the "formules originales" (section 3.8): 6 warnings before a penalty (5.9)."""
        return self is not DuplicateFormat.CLASSIC

    @property
    def joker_each_draw(self) -> bool:
        """Whether every draw holds a joker (3.8.1)."""
        return self.spec.joker_each_draw

    @property
    def replaces_joker(self) -> bool:
        """Whether a joker the top places is replaced by its letter from the bag (3.8.1)."""
        return self.spec.replaces_joker

    @property
    def timed(self) -> bool:
        """Whether players are ranked by the time they take to find the tops (3.8.4)."""
        return self.spec.timed

    def rules(self, edition: Edition) -> PlayRules:
        """How many tiles a draw holds, how many may be placed, and the bonus for each count placed."""
        return play_rules(self.spec, edition)

    def edition(self, edition: Edition) -> Edition:
        """The edition as this format plays it: its draw size, tiles placed at most and bonuses."""
        if not self.spec.extra_drawn:
            return edition
        rules = self.rules(edition)
        return dataclasses.replace(
            edition, rack_size=rules.most_placed, draw_tiles=rules.draw_size, bonuses=rules.bonuses
        )


@dataclass(frozen=True)
class PlayRules:
    """A format's draw: tiles drawn, tiles placed at most, bonus by tiles placed."""

    draw_size: int
    most_placed: int
    bonuses: tuple[tuple[int, int], ...]

    def bonus(self, placed: int) -> int:
        """The bonus for ``placed`` tiles."""
        return dict(self.bonuses).get(placed, 0)


def call_seconds(minutes: float, call: float = 0) -> float:
    """Seconds before the end of a move to call (3.3, "trente (ou vingt) secondes"): ``call`` when the game
    names one (20 on the blitz clock chosen by name), else 30, or half the time on clocks under a minute."""
    if call:
        return min(call, minutes * 30)
    return min(LONG_CALL_SECONDS, minutes * 30)


def play_rules(spec: FormatSpec, edition: Edition) -> PlayRules:
    """How a format's record plays on ``edition``: tiles drawn, placed at most, the bonus by count placed
    (the edition's own bonus when no more than its rack is drawn; else 3.8.2's 50 for the rack, and the
    record's bonus for placing more)."""
    rack = edition.rack_size
    if not spec.extra_drawn:
        return PlayRules(rack, rack, ((rack, edition.bingo_bonus),))
    bonuses: tuple[tuple[int, int], ...] = ((rack, SEVEN_BONUS),)
    if spec.extra_placed:
        bonuses += ((rack + spec.extra_placed, spec.extra_bonus),)
    return PlayRules(rack + spec.extra_drawn, rack + spec.extra_placed, bonuses)
