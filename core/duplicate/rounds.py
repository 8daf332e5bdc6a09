"""A round of a duplicate game (one move: its draws, submissions, top and results) and a checked submission."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..board import Board
from ..draw import Bag, Draw, Shortfall
from ..errors import (
    ArbitreError,
)
from ..errors_duplicate import NoSanctionToLiftError
from ..placement import Placement
from ..scoring import MoveScore
from ..tie import TieRule
from .events import MoveSubmitted
from .sanctions import Fault, Grade

# --- results ------------------------------------------------------------------------


@dataclass(frozen=True)
class SubmissionResult:
    """A player's move for a round, checked: its score, or 0 with the reason (the error)."""

    VALID: ClassVar[str] = "valid"
    UNREADABLE: ClassVar[str] = "unreadable"
    ILLEGAL: ClassVar[str] = "illegal"
    NOT_IN_DRAW: ClassVar[str] = "not_in_draw"
    NOT_A_WORD: ClassVar[str] = "not_a_word"
    LATE: ClassVar[str] = "late"

    player: str
    move: str
    verdict: str
    score: int
    error: ArbitreError | None = None
    claimed: int | None = None
    placement: Placement | None = None
    move_score: MoveScore | None = None
    replaced: int = 0
    fault: Fault | None = None  # how the sanction scale graded it (None: the game has no sanctions)
    penalty: int = 0  # points taken off the move's score (5.6); solos compare the score before it
    relocated: bool = False  # the first move counted at its word's best place, not the place written (5.4.2.a)

    def __str__(self) -> str:
        text = f"{self.player}: {self.move} {self.score}"
        if self.error is not None:
            text += f" ({self.verdict}: {self.error})"
        if self.claimed_differs:
            text += f" [claimed {self.claimed}]"
        if self.fault is not None and self.fault is not Fault.CLEAN:
            text += f" <{self.fault.grade} {self.fault.section}>"
        return text

    @property
    def valid(self) -> bool:
        """Whether the move counts."""
        return self.verdict == self.VALID

    @property
    def claimed_differs(self) -> bool:
        """Whether the player announced a score other than the computed one."""
        return self.claimed is not None and self.claimed != self.score


@dataclass
class Round:
    """One move of the game: its draws, the submissions, and once closed the top and results."""

    number: int
    draw: Draw | None = None
    rejected: list[Draw] = field(default_factory=list)
    shortfall: Shortfall | None = None
    opened_at: float | None = None
    submissions: list[MoveSubmitted] = field(default_factory=list)
    closed: bool = False
    top: Placement | None = None
    top_score: MoveScore | None = None
    top_text: str = ""
    tie_rule: TieRule = TieRule.NONE
    tied: tuple[str, ...] = ()
    results: dict[str, SubmissionResult] = field(default_factory=dict)
    recorded: dict[str, int] = field(default_factory=dict)
    reliquat: str = ""
    deadline: float | None = None  # when time runs out; None without a clock or while paused
    paused_left: float | None = None  # seconds left when the clock was paused
    board_before: Board | None = None  # the board this round was played on (kept at the close)
    bag_before: Bag | None = None  # the bag at the close, before the top was placed
    corrections: dict[str, str] = field(default_factory=dict)  # player -> the referee's reason
    runners_up: tuple[tuple[str, int], ...] = ()
    top_count: int = 0  # plays scoring the top, as the move generator counted them (0: not kept)
    lifted: dict[str, str] = field(default_factory=dict)  # player -> why the referee lifted the sanction
    times: dict[str, float] = field(default_factory=dict)  # topping (3.8.4): seconds to the top, penalty in
    # the players among ``submissions`` read so far, and how many submissions that was (``answered``)
    _answering: set[str] = field(default_factory=set, repr=False, compare=False)
    _answers_read: int = field(default=0, repr=False, compare=False)

    @property
    def answered(self) -> int:
        """How many players have answered (once each, whatever they replaced): submissions read once each."""
        if self._answers_read > len(self.submissions):  # never shortened today: read again if it were
            self._answering, self._answers_read = set(), 0
        for submission in self.submissions[self._answers_read :]:
            self._answering.add(submission.player)
        self._answers_read = len(self.submissions)
        return len(self._answering)

    @property
    def paused(self) -> bool:
        """Whether the round's clock is stopped."""
        return self.paused_left is not None

    def __str__(self) -> str:
        return f"{self.number}. {self.draw_record} {self.top_text or '-'} {self.top_points}"

    @property
    def draw_record(self) -> str:
        """The draws of the move: rejected ones (``-`` prefixed) then the one played."""
        parts = [str(d) for d in self.rejected] + ([str(self.draw)] if self.draw else [])
        return " ".join(parts)

    @property
    def top_points(self) -> int:
        """The top's score (0 when no play was possible or before closing)."""
        return self.top_score.total if self.top_score is not None else 0

    @property
    def tops_shared(self) -> int:
        """How many plays score the top: the placed one and every tied one, also those past ``tied``."""
        if self.top is None:
            return 0
        return max(self.top_count, len(self.tied) + 1)

    @property
    def top_word(self) -> str:
        """The top's main word, jokers in lowercase (in brackets when every letter is a joker)."""
        if self.top is None:
            return ""
        return self.top.notation().split(" ", 1)[1]

    def score_of(self, player: str) -> int:
        """A player's score for the move: the referee's entry if any, else the checked submission."""
        if player in self.recorded:
            return self.recorded[player]
        result = self.results.get(player)
        if result is None:
            return 0
        return result.score + (result.penalty if player in self.lifted else 0)

    def score_before_penalty(self, player: str) -> int:
        """The player's score for the move before a 5-point penalty: what solos compare (3.5)."""
        result = self.results.get(player)
        if player in self.recorded or result is None:
            return self.score_of(player)
        return result.score + result.penalty

    def grade_of(self, player: str) -> Fault | None:
        """The fault the player's answer was graded for, as it stands: None without sanctions, after a
        referee's entry or once lifted."""
        result = self.results.get(player)
        if result is None or player in self.recorded or player in self.lifted:
            return None
        return result.fault

    def warned(self, player: str) -> bool:
        """Whether the player's answer counts a warning (at most one per move, 5.8)."""
        fault = self.grade_of(player)
        return fault is not None and fault.grade is Grade.WARNING


def lift_sanction(round_: Round, player: str, reason: str) -> None:
    """Lift the warning or penalty of the player's answer on the closed round (the reason kept)."""
    fault = round_.grade_of(player)
    if fault is None or fault.grade not in (Grade.WARNING, Grade.PENALTY):
        raise NoSanctionToLiftError(player, round_.number)
    round_.lifted[player] = reason
