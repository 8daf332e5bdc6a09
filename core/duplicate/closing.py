"""A round's close: every player's answer judged against the top, the topping's times (3.8.4), and the top
placed on the board with the joker format's replacement of the joker (3.8.1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from ..board import Board, Tile
from ..draw import Bag
from ..edition import JOKER, Edition
from ..errors_duplicate import ScoreAboveTopError
from ..notation import Notation
from ..placement import Placement, apply_placement
from .events import MoveSubmitted
from .formats import TOPPING_PENALTY_SECONDS
from .grading import grade_submission
from .judging import effective_submissions, late_by
from .rounds import Round, SubmissionResult
from .settings import DuplicateSettings

Judged = dict[tuple[str, int | None, str | None], SubmissionResult]

NO_PLAY_DRAWS = 3  # draws in a row without a play after which nothing can be placed any more (3.7)
DIFFERENT_DRAW_TRIES = 20  # draws tried for one that differs from a cancelled move's (3.6)


def cancelled_letters(closed: Sequence[Round]) -> str | None:
    """The letters of the last move when it was cancelled for want of a play (3.6), else None."""
    last = closed[-1] if closed else None
    return last.draw.letters if last is not None and last.top is None and last.draw is not None else None


def plays_exhausted(closed: Sequence[Round]) -> bool:
    """Whether the last ``NO_PLAY_DRAWS`` closed moves all lacked a play: Arbitre's reading of "il n'est
    plus possible de placer de lettres" (3.7), the rule book leaving it to the arbiter."""
    last = closed[-NO_PLAY_DRAWS:]
    return len(last) == NO_PLAY_DRAWS and all(r.top is None for r in last)


def judge_round(
    round_: Round,
    players: Sequence[str],
    board: Board,
    edition: Edition,
    notation: Notation,
    settings: DuplicateSettings,
    is_word: Callable[[str], bool],
    judged: dict[str, SubmissionResult],
) -> None:
    """Fill ``round_.results`` (and, in topping, ``round_.times``); ``judged``: the answers close_round
    already graded on this board and draw. Raises ScoreAboveTopError for a score above the top."""
    assert round_.draw is not None
    letters = round_.draw.letters
    deadline = round_.deadline
    same: Judged = {}

    def grade(submission: MoveSubmitted, lateness: float | None) -> SubmissionResult:
        return grade_submission(
            board, letters, submission, is_word, edition, notation, settings.sanctions, lateness, same=same
        )

    for player, submission in effective_submissions(round_).items():
        replaced = sum(1 for s in round_.submissions if s.player == player) - 1
        lateness = late_by(submission, deadline)
        known = judged.get(player)
        result = known if known is not None and lateness is None else grade(submission, lateness)
        if settings.format.timed:
            result, replaced = _topping(round_, player, result, grade, settings)
        if result.score > round_.top_points:
            raise ScoreAboveTopError(player, round_.number, result.score, round_.top_points)
        if replaced:
            result = dataclasses.replace(result, replaced=replaced)
        round_.results[player] = result
    if settings.format.timed:  # a player who sent nothing is given the top too (3.8.4)
        for player in players:
            round_.times.setdefault(player, settings.seconds + TOPPING_PENALTY_SECONDS)


def _topping(
    round_: Round,
    player: str,
    last: SubmissionResult,
    grade: Callable[[MoveSubmitted, float | None], SubmissionResult],
    settings: DuplicateSettings,
) -> tuple[SubmissionResult, int]:
    """The player's first answer in time that scores the top, and the seconds it took (3.8.4); without
    one, the last answer and the time allowed plus 20 seconds. Also how many answers came before."""
    tries = [s for s in round_.submissions if s.player == player]
    for index, submission in enumerate(tries):
        if late_by(submission, round_.deadline) is not None:
            continue
        result = grade(submission, None)
        if result.valid and result.score == round_.top_points and round_.top is not None:
            start = round_.opened_at if round_.opened_at is not None else submission.at
            taken = (submission.at or 0.0) - (start or 0.0)
            round_.times[player] = max(0.0, min(taken, settings.seconds))
            return result, index
    round_.times[player] = settings.seconds + TOPPING_PENALTY_SECONDS
    return last, len(tries) - 1


def place_top(board: Board, bag: Bag, top: Placement, replaces_joker: bool) -> Bag:
    """Put the top on the board; in the joker format each joker it places becomes its letter when the bag
    holds one, and goes back to the bag (3.8.1). The bag after."""
    apply_placement(board, top)
    if not replaces_joker:
        return bag
    for cell in top.new_tiles:
        if cell.joker and bag.count(cell.letter):
            board.remove(cell.row, cell.col)
            board.place(cell.row, cell.col, Tile(cell.letter, False))
            bag = bag.minus(cell.letter).plus(JOKER)
    return bag
