"""How the top was chosen among the plays of a draw: the tie rule, as a code."""

from __future__ import annotations

from enum import StrEnum


class TieRule(StrEnum):
    """Why the first play is the top (``core.movegen.find_top``), or the arbiter's choice of another."""

    SCORE = "score"  # it scores more than every other play
    FEWEST_JOKERS = "fewest_jokers"  # others score as much; it places the fewest jokers
    ORDER = "order"  # others score as much with as many jokers; it comes first in board order
    UNIQUE = "unique"  # the only legal play
    NONE = "none"  # no legal play at all
    ENDS_GAME = "ends_game"  # others score as much; it ends the game (3.4), the first order would not
    ARBITER = "arbiter"  # the arbiter placed another of the tied tops

    @classmethod
    def read(cls, value: object) -> TieRule:
        """The rule a stored value names; records written before the codes said ``fewest jokers``, and
        ``""`` when no play was found."""
        if isinstance(value, TieRule):
            return value
        text = str(value or "none").strip().replace(" ", "_")
        return cls(text)
