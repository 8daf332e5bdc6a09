"""FISF sanctions, the grading table (rule book of 1 January 2023, section 5): each answer graded clean, warning,
penalty or zero with its clause, at most one warning a move (5.8), late answers."""

from __future__ import annotations

import dataclasses

import pytest

from core.board import Board
from core.duplicate import (
    Fault,
    Grade,
    MoveSubmitted,
    Sanctions,
    SubmissionResult,
    grade_submission,
)
from core.edition import FRENCH
from core.notation import parse_move
from core.placement import validate_move
from core.scoring import score_placement
from tests.bot.games.duplicate.sanctions_script import (
    FISF,
    LEXICON,
    play_script,
)

# --- the grading table (section 5) -------------------------------------------------------------------------


def board_after(rounds: int) -> tuple[Board, str]:
    """The board the scripted game's move ``rounds + 1`` is played on, and that move's draw."""
    game = play_script(rounds=rounds + 1)
    round_ = game.closed_rounds[rounds]
    assert round_.board_before is not None
    assert round_.draw is not None
    return round_.board_before, round_.draw.letters


BOARDS = {n: board_after(n) for n in (0, 2, 3, 4)}


def exact(board: Board, move: str) -> int:
    """The score of a reading, from core's scoring alone (what the paid score is compared with)."""
    return score_placement(validate_move(board, parse_move(move)), FRENCH).total


# (clause, board: moves played before, answer, claimed, fault, paid: a reading whose exact score is paid,
#  or a number of points); each clause starts with the section the fault is graded by
GRADING = [
    ("5.3.1 exact score", 2, "4F LIMES", 8, Fault.CLEAN, "4F LIMES"),
    ("5.3.1 no score claimed", 2, "4F LIMES", None, Fault.CLEAN, "4F LIMES"),
    ("5.3.2 wrong score", 2, "4F LIMES", 9, Fault.WRONG_SCORE, "4F LIMES"),
    ("5.5 joker not marked", 4, "4D TARIES", None, Fault.UNCIRCLED_JOKER, "4D tARIES"),
    ("5.5 joker on another letter", 4, "4D TARiES", None, Fault.WRONG_CIRCLE, "4D tARIES"),
    ("5.5 joker marked, the draw holds the letter", 2, "4F LIMeS", None, Fault.WRONG_CIRCLE, "4F LIMES"),
    ("5.3 reference reversed", 2, "2H ES", None, Fault.REVERSED_REF, "H2 ES"),
    ("5.3 reference reversed, score claimed", 2, "2H ES", 6, Fault.REVERSED_REF, "H2 ES"),
    ("5.6 misplaced, the claimed score exists", 2, "1A TUE", 9, Fault.MISPLACED, 4),
    ("5.6 misplaced, 4 points or less: zero", 3, "A1 ES", 2, Fault.MISPLACED_TO_ZERO, 0),
    ("5.4.1.c misplaced with no score claimed", 2, "1A TUE", None, Fault.GRID_ERROR, 0),
    ("5.7 word not allowed", 3, "2I SOLI", None, Fault.NOT_A_WORD, 0),
    ("5.7 cross-word not allowed", 2, "F4 LIMES", None, Fault.NOT_A_WORD, 0),
    ("5.4.1.c grid error", 2, "O1 TUE", None, Fault.GRID_ERROR, 0),
    ("5.4.1.d letter error", 2, "4F LIMEZ", None, Fault.LETTER_ERROR, 0),
    ("5.4.1.a unreadable", 2, "4F LI-ME", None, Fault.UNREADABLE, 0),
    ("5.3.1 first move, the word's best score", 0, "H4 NEZ", 24, Fault.CLEAN, 24),
    ("5.4.2.a first move, wrong score", 0, "H8 NEZ", 23, Fault.FIRST_MOVE, 24),
    ("5.3.1 first move off the centre, paid the best", 0, "A1 NEZ", None, Fault.CLEAN, 24),
]


@pytest.mark.parametrize(("clause", "before", "move", "claimed", "fault", "paid"), GRADING, ids=[g[0] for g in GRADING])
def test_grading_table_section_5(
    clause: str, before: int, move: str, claimed: int | None, fault: Fault, paid: str | int
) -> None:
    board, draw = BOARDS[before]
    result = grade_submission(
        board, draw, MoveSubmitted("P", move, claimed), lambda w: w in LEXICON, FRENCH, FISF.notation, Sanctions.FISF
    )
    assert result.fault is fault
    assert clause.split()[0] == fault.section
    expected = paid if isinstance(paid, int) else exact(board, paid)
    assert result.score == expected
    assert result.valid == (fault.grade is not Grade.ZERO)
    if fault is Fault.MISPLACED:
        assert result.penalty == 5
        assert result.score + result.penalty == claimed


def test_at_most_one_warning_per_move_5_8() -> None:
    board, draw = BOARDS[4]
    result = grade_submission(
        board, draw, MoveSubmitted("P", "4D TARiES", 99), lambda w: w in LEXICON, FRENCH, FISF.notation, Sanctions.FISF
    )
    assert result.fault is Fault.WRONG_CIRCLE
    assert result.claimed_differs


def test_a_late_answer_stays_zero_whatever_it_says() -> None:
    board, draw = BOARDS[2]
    result = grade_submission(
        board,
        draw,
        MoveSubmitted("P", "2H ES", 6),
        lambda w: w in LEXICON,
        FRENCH,
        FISF.notation,
        Sanctions.FISF,
        late_by=3.0,
    )
    assert (result.verdict, result.score, result.fault) == (SubmissionResult.LATE, 0, Fault.LATE)


def test_without_sanctions_nothing_is_graded() -> None:
    board, draw = BOARDS[4]
    result = grade_submission(
        board, draw, MoveSubmitted("P", "4D TARIES"), lambda w: w in LEXICON, FRENCH, FISF.notation, Sanctions.NONE
    )
    assert (result.verdict, result.score, result.fault) == (SubmissionResult.NOT_IN_DRAW, 0, None)


def test_every_public_name_of_the_sanctions_modules_is_importable_from_the_package() -> None:
    import importlib

    import core.duplicate as package

    for job in ("sanctions", "grading"):
        module = importlib.import_module(f"core.duplicate.{job}")
        for name, value in vars(module).items():
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__:
                assert getattr(package, name) is value, f"core.duplicate.{job}.{name}"
                assert name in package.__all__


def test_the_same_answer_of_another_player_is_graded_once() -> None:
    board, draw = BOARDS[4]
    looked_up: list[str] = []

    def is_word(word: str) -> bool:
        looked_up.append(word)
        return word in LEXICON

    same: dict[tuple[str, int | None, str | None], SubmissionResult] = {}
    first = grade_submission(
        board, draw, MoveSubmitted("P", "4D TARIES"), is_word, FRENCH, FISF.notation, Sanctions.FISF, same=same
    )
    count = len(looked_up)
    second = grade_submission(
        board, draw, MoveSubmitted("Q", "4D TARIES"), is_word, FRENCH, FISF.notation, Sanctions.FISF, same=same
    )
    assert count > 0
    assert len(looked_up) == count
    assert second == dataclasses.replace(first, player="Q")
    assert first.fault is Fault.UNCIRCLED_JOKER
