"""Judging a submitted move against the round's board, draw and word list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..board import Board
from ..draw import sort_tiles
from ..edition import JOKER, Edition
from ..errors import (
    ArbitreError,
    JokerNotMarkedError,
    LateSubmissionError,
    LettersNotInDrawError,
    NoJokerLeftError,
    NotationError,
    PlacementError,
    WordNotInLexiconError,
)
from ..notation import Notation, notation_by_name, parse_move
from ..placement import Placement, validate_move
from ..scoring import score_placement
from .events import MoveSubmitted
from .rounds import SubmissionResult

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
        if available[JOKER] > 0:
            raise JokerNotMarkedError(move, letters, draw)
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
) -> SubmissionResult:
    """Check one submitted move: lateness, notation, placement, draw letters, words; score it."""

    def zero(verdict: str, error: ArbitreError, placement: Placement | None = None) -> SubmissionResult:
        return SubmissionResult(submission.player, submission.move, verdict, 0, error, submission.claimed, placement)

    if late_by is not None and late_by > 0:
        return zero(SubmissionResult.LATE, LateSubmissionError(submission.player, submission.move, late_by))
    move_notation = notation_by_name(submission.notation) if submission.notation else notation
    try:
        move = parse_move(submission.move, move_notation, alphabet=edition.alphabet)
    except NotationError as error:
        return zero(SubmissionResult.UNREADABLE, error)
    try:
        placement = validate_move(board, move, move_notation, rack_size=edition.rack_size)
    except PlacementError as error:
        return zero(SubmissionResult.ILLEGAL, error)
    shown = placement.notation(move_notation)
    try:
        check_draw_letters(placement, draw, shown)
    except LettersNotInDrawError as error:
        return zero(SubmissionResult.NOT_IN_DRAW, error, placement)
    bad = tuple(dict.fromkeys(w.text for w in placement.words if not is_word(w.text)))
    if bad:
        return zero(SubmissionResult.NOT_A_WORD, WordNotInLexiconError(shown, bad), placement)
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
