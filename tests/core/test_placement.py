"""Each placement rule, with the exact exception type and the square or word it names."""

from __future__ import annotations

import pytest

from core.board import Board, Tile
from core.errors import (
    DetachedWordError,
    EmptyThroughSquareError,
    FirstMoveError,
    GapError,
    IncompleteWordError,
    LetterMismatchError,
    NoNewTileError,
    NotConnectedError,
    NotInLineError,
    OccupiedSquareError,
    OutOfBoardError,
    PlacementError,
    TooManyTilesError,
    WordTooShortError,
)
from core.notation import Notation, parse_move
from core.placement import validate_move, validate_tiles
from tests.positions import board_with, play_moves


@pytest.mark.parametrize(
    ("setup", "move", "error", "named"),
    [
        ("", "H2 VAGUE", FirstMoveError, "H8"),
        ("", "H8 A", WordTooShortError, "A"),
        ("", "H12 VAGUES", OutOfBoardError, "H15"),
        ("", "12K VAGUES", OutOfBoardError, "O12"),
        ("H8:V", "H8 .AGUE", None, None),
        ("H8:V", "H8 RAGE", LetterMismatchError, "H8"),
        ("H8:V", "H7 .VAGUE", EmptyThroughSquareError, "H7"),
        ("H8:V H9:A", "H8 VA", NoNewTileError, "H8 VA"),
        ("H8:V H9:A", "H9 AGUE", IncompleteWordError, "H8"),
        ("H8:V H9:A", "H7 AV", IncompleteWordError, "H9"),
        ("H8:V", "A1 ZEN", NotConnectedError, "A1 ZEN"),
        ("H4:M", "H4 MOUTONNES", TooManyTilesError, "8"),  # through the M: one tile too many
        ("H8:V", "A1 ORIENTES", DetachedWordError, "8 tiles"),  # issue 37: the reference, not the size
        ("", "H1 ORIENTES", TooManyTilesError, "8"),  # the first move: nothing to go through
    ],
)
def test_placement_rules(setup: str, move: str, error: type[PlacementError] | None, named: str | None) -> None:
    board = board_with(setup) if setup else Board()
    if error is None:
        validate_move(board, parse_move(move))
        return
    with pytest.raises(error) as info:
        validate_move(board, parse_move(move))
    assert named is not None
    assert named in str(info.value)


def test_incomplete_word_names_the_whole_word() -> None:
    board, _ = play_moves(["H8 VAGUE"])
    with pytest.raises(IncompleteWordError) as info:
        validate_move(board, parse_move("H8 VAGU"))
    assert info.value.full_word == "VAGUE"
    assert info.value.square == "H12"


def test_gcg_squares_named_in_gcg() -> None:
    board = Board()
    with pytest.raises(FirstMoveError) as info:
        validate_move(board, parse_move("1A ZAX", Notation.GCG), Notation.GCG)
    assert "H8" in str(info.value)
    board, _ = play_moves(["8H VAGUE"], notation=Notation.GCG)
    with pytest.raises(LetterMismatchError) as mismatch:
        validate_move(board, parse_move("8K TUE", Notation.GCG), Notation.GCG)
    assert mismatch.value.square == "K8"  # column K, row 8


def test_tiles_not_in_line() -> None:
    board, _ = play_moves(["H8 VAGUE"])
    with pytest.raises(NotInLineError):
        validate_tiles(board, [(6, 7, Tile("A")), (8, 8, Tile("B"))])


def test_tiles_with_gap() -> None:
    board, _ = play_moves(["H8 VAGUE"])
    with pytest.raises(GapError) as info:
        validate_tiles(board, [(6, 7, Tile("A")), (6, 9, Tile("B"))])
    assert info.value.square == "G9"


def test_tiles_on_occupied_square() -> None:
    board, _ = play_moves(["H8 VAGUE"])
    with pytest.raises(OccupiedSquareError):
        validate_tiles(board, [(7, 8, Tile("A"))])


def test_tiles_through_board_letters_make_one_word() -> None:
    board, _ = play_moves(["H8 VAGUE"])
    placement = validate_tiles(board, [(6, 7, Tile("A")), (8, 7, Tile("E"))])
    assert placement.main_word.text == "AVE"
    assert placement.notation() == "8G AVE"


def test_first_move_must_have_two_letters_and_cover_centre() -> None:
    with pytest.raises(WordTooShortError):
        validate_tiles(Board(), [(7, 7, Tile("A"))])
    with pytest.raises(FirstMoveError):
        validate_tiles(Board(), [(0, 0, Tile("A")), (0, 1, Tile("A"))])


def test_jokers_remembered_on_board() -> None:
    board, _ = play_moves(["H6 ZEbRE"])
    tile = board.get(7, 7)
    assert tile == Tile("B", joker=True)
    assert board.rows()[7] == ".....ZEbRE....."
    assert Board.from_rows(board.rows()) == board
