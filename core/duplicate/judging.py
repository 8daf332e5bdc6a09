"""Judging a round's answers: which submission of each player counts, lateness, and a submitted move
checked against the round's board, draw and word list."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable

from ..board import Board
from ..draw import sort_tiles
from ..edition import JOKER, Edition
from ..errors import ArbitreError, NotationError, PlacementError
from ..errors_duplicate import (
    JokerNotMarkedError,
    LateSubmissionError,
    LettersNotInDrawError,
    NoJokerLeftError,
    TooFewJokersError,
    WordNotInLexiconError,
)
from ..notation import Notation, notation_by_name, parse_move
from ..placement import Placement, validate_move
from ..scoring import score_placement
from .events import MoveSubmitted
from .rounds import Round, SubmissionResult

# --- which submission counts ------------------------------------------------------------


def late_by(submission: MoveSubmitted, deadline: float | None) -> float | None:
    """How many seconds after the deadline the move was submitted (None when in time or untimed)."""
    if deadline is None or submission.at is None or submission.at <= deadline:
        return None
    return submission.at - deadline


def effective_submissions(round_: Round) -> dict[str, MoveSubmitted]:
    """Each player's submission that counts: the last one in time, else the last one."""
    deadline = round_.deadline
    chosen: dict[str, MoveSubmitted] = {}
    for submission in round_.submissions:
        earlier = chosen.get(submission.player)
        if earlier is not None and late_by(earlier, deadline) is None and late_by(submission, deadline):
            continue  # a late move never replaces one made in time
        chosen[submission.player] = submission
    return chosen


# --- checking a move against a draw ---------------------------------------------------


def check_draw_letters(placement: Placement, draw: str, move: str) -> None:
    """Raise unless the placement's new tiles come from the draw, jokers written as jokers."""
    available = Counter(draw)
    no_joker: list[str] = []
    for cell in placement.new_tiles:
        if cell.joker:
            if available[JOKER] > 0:
                available[JOKER] -= 1
            else:
                no_joker.append(cell.letter)
    missing: list[str] = []
    for cell in placement.new_tiles:
        if cell.joker:
            continue
        if available[cell.letter] > 0:
            available[cell.letter] -= 1
        else:
            missing.append(cell.letter)
    if missing:
        letters = sort_tiles(missing)
        if available[JOKER] >= len(missing):  # each missing letter can be one of the draw's jokers
            raise JokerNotMarkedError(move, letters, draw)
        if available[JOKER] > 0:  # H8 ZZ with one joker and no Z: a Z is missing whatever is circled
            raise TooFewJokersError(move, letters, draw, available[JOKER])
        raise LettersNotInDrawError(move, letters, draw)
    if no_joker:
        raise NoJokerLeftError(move, sort_tiles(no_joker), draw)


def tiles_played(placement: Placement) -> str:
    """The draw letters a placement uses (``?`` for jokers)."""
    return sort_tiles(JOKER if c.joker else c.letter for c in placement.new_tiles)


def evaluate_submission(
    board: Board,
    draw: str,
    submission: MoveSubmitted,
    is_word: Callable[[str], bool],
    edition: Edition,
    notation: Notation,
    late_by: float | None = None,
    placed: SubmissionResult | None = None,
) -> SubmissionResult:
    """Check one submitted move: lateness, notation, placement, draw letters, words; score it.

    ``placed``: what ``place_submission`` said of the same move on the same board and draw (its words
    are still to be checked)."""
    if late_by is not None and late_by > 0:
        late = LateSubmissionError(submission.player, submission.move, late_by)
        return SubmissionResult(submission.player, submission.move, SubmissionResult.LATE, 0, late, submission.claimed)
    if placed is None:
        placed = place_submission(board, draw, submission, edition, notation)
    elif (placed.player, placed.claimed) != (submission.player, submission.claimed):
        placed = dataclasses.replace(placed, player=submission.player, claimed=submission.claimed)
    if not placed.valid or placed.placement is None:
        return placed
    bad = tuple(dict.fromkeys(w.text for w in placed.placement.words if not is_word(w.text)))
    if bad:
        move_notation = notation_by_name(submission.notation) if submission.notation else notation
        error = WordNotInLexiconError(placed.placement.notation(move_notation), bad)
        return dataclasses.replace(placed, verdict=SubmissionResult.NOT_A_WORD, score=0, error=error, move_score=None)
    return placed


def place_submission(
    board: Board, draw: str, submission: MoveSubmitted, edition: Edition, notation: Notation
) -> SubmissionResult:
    """A submitted move read, placed on the board, checked against the draw and scored, its words not yet
    looked up: valid with its score, or 0 with the reason."""

    def zero(verdict: str, error: ArbitreError, placement: Placement | None = None) -> SubmissionResult:
        return SubmissionResult(submission.player, submission.move, verdict, 0, error, submission.claimed, placement)

    move_notation = notation_by_name(submission.notation) if submission.notation else notation
    try:
        move = parse_move(submission.move, move_notation, alphabet=edition.alphabet)
    except NotationError as error:
        return zero(SubmissionResult.UNREADABLE, error)
    try:
        placement = validate_move(board, move, move_notation, rack_size=edition.rack_size)
    except PlacementError as error:
        return zero(SubmissionResult.ILLEGAL, error)
    try:
        check_draw_letters(placement, draw, placement.notation(move_notation))
    except LettersNotInDrawError as error:
        return zero(SubmissionResult.NOT_IN_DRAW, error, placement)
    score = score_placement(placement, edition)
    return SubmissionResult(
        submission.player,
        submission.move,
        SubmissionResult.VALID,
        score.total,
        None,
        submission.claimed,
        placement,
        score,
    )
