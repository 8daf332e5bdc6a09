"""A closed round's answer replaced by the referee (``SubmissionCorrected``) or its points entered
(``ScoreRecorded``)."""

from __future__ import annotations

from ..edition import Edition
from ..errors_duplicate import NegativeScoreError, ScoreAboveTopError
from ..notation import Notation
from .events import MoveSubmitted, ScoreRecorded, SubmissionCorrected
from .judging import evaluate_submission
from .rounds import Round


def correct_answer(
    round_: Round, player: str, event: SubmissionCorrected, edition: Edition, notation: Notation
) -> None:
    """Replace the player's answer on the closed round, judged on its board and draw with the words the
    correction stored as rejected; a score above the top raises."""
    assert round_.draw is not None
    assert round_.board_before is not None
    invalid = set(event.invalid_words)
    result = evaluate_submission(
        round_.board_before,
        round_.draw.letters,
        MoveSubmitted(player, event.move, event.claimed),
        lambda w: w not in invalid,
        edition,
        notation,
    )
    if result.score > round_.top_points:
        raise ScoreAboveTopError(player, event.round, result.score, round_.top_points)
    round_.results[player] = result
    round_.recorded.pop(player, None)
    round_.corrections[player] = event.reason


def record_score(round_: Round, player: str, event: ScoreRecorded) -> None:
    """Enter the player's points for the closed round (the reason kept); a negative score or one above the
    top raises."""
    if event.reason:
        round_.corrections[player] = event.reason
    if event.score < 0:
        raise NegativeScoreError(player, event.round, event.score)
    if event.score > round_.top_points:
        raise ScoreAboveTopError(player, event.round, event.score, round_.top_points)
    round_.recorded[player] = event.score
