"""FISF sanctions (rule book of 1 January 2023, section 5): the scale a game uses, the grades of an
answer, the faults with the section that grades them, and the warnings counted against a player.

An answer is graded clean, warning, penalty (5 points off the move, 5.6) or zero. Warnings are
counted per player: from the ``warning_threshold``-th on (4, or 6 in blitz and original formats, 5.9)
each costs 5 points, deducted from the total at the end. At most one warning per move (5.8).
"""

from __future__ import annotations

from enum import StrEnum

PENALTY_POINTS = 5  # 5.6: a misplaced answer whose score exists; 5.9: each warning from the threshold on
WARNING_THRESHOLD = 4  # 5.9: the fourth warning costs 5 points, and each one after it
WARNING_THRESHOLD_SHORT = 6  # 5.9: the sixth in blitz or in an original format


class Sanctions(StrEnum):
    """The sanction scale a duplicate game applies."""

    NONE = "none"  # training: a wrong claimed score is noted, a slip fault counts 0
    FISF = "fisf"  # the rule book's section 5


class Grade(StrEnum):
    """How an answer is sanctioned."""

    CLEAN = "clean"
    WARNING = "warning"
    PENALTY = "penalty"
    ZERO = "zero"


class Fault(StrEnum):
    """What an answer was graded for; ``grade`` and ``section`` say how and by which clause."""

    CLEAN = "clean"
    WRONG_SCORE = "wrong_score"  # score absent or wrong for the place
    FIRST_MOVE = "first_move"  # first move: the word's best score paid whatever its reference
    UNCIRCLED_JOKER = "uncircled_joker"  # the joker's letter not marked
    WRONG_CIRCLE = "wrong_circle"  # another letter marked as the joker
    REVERSED_REF = "reversed_ref"  # the reference's orientation inverted
    MISPLACED = "misplaced"  # the claimed score exists for the word, elsewhere than written
    MISPLACED_TO_ZERO = "misplaced_to_zero"  # ... but scores 4 points or less: no negative score
    FALLACIOUS = "fallacious"  # ... but at such a place a cross-word is not valid
    NOT_A_WORD = "not_a_word"  # a word or cross-word not in the list
    UNREADABLE = "unreadable"  # no acceptable solution can be read
    GRID_ERROR = "grid_error"  # the word cannot be played on the board
    LETTER_ERROR = "letter_error"  # the draw does not hold the letters
    LATE = "late"  # handed in after the end of the move

    @property
    def grade(self) -> Grade:
        """The grade this fault gets."""
        return _GRADES.get(self, Grade.ZERO)

    @property
    def section(self) -> str:
        """The rule book's clause that grades this fault."""
        return _SECTIONS[self]

    @property
    def is_warning(self) -> bool:
        return self.grade is Grade.WARNING


_GRADES = {
    Fault.CLEAN: Grade.CLEAN,
    Fault.WRONG_SCORE: Grade.WARNING,
    Fault.FIRST_MOVE: Grade.WARNING,
    Fault.UNCIRCLED_JOKER: Grade.WARNING,
    Fault.WRONG_CIRCLE: Grade.WARNING,
    Fault.REVERSED_REF: Grade.WARNING,
    Fault.MISPLACED: Grade.PENALTY,
}

_SECTIONS = {
    Fault.CLEAN: "5.3.1",
    Fault.WRONG_SCORE: "5.3.2",
    Fault.FIRST_MOVE: "5.4.2.a",
    Fault.UNCIRCLED_JOKER: "5.5",
    Fault.WRONG_CIRCLE: "5.5",
    Fault.REVERSED_REF: "5.3",
    Fault.MISPLACED: "5.6",
    Fault.MISPLACED_TO_ZERO: "5.6",
    Fault.FALLACIOUS: "5.3.3",
    Fault.NOT_A_WORD: "5.7",
    Fault.UNREADABLE: "5.4.1.a",
    Fault.GRID_ERROR: "5.4.1.c",
    Fault.LETTER_ERROR: "5.4.1.d",
    Fault.LATE: "5.7",
}


def warning_deduction(warnings: int, threshold: int) -> int:
    """The points taken off at the end for ``warnings`` warnings (5.9): 5 for the ``threshold``-th and
    for each one after it."""
    return PENALTY_POINTS * max(0, warnings - threshold + 1)
