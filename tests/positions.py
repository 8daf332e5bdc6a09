"""Helpers that build positions from typed moves or tile lists."""

from __future__ import annotations

from collections.abc import Iterable

from core.board import Board, Tile
from core.edition import FRENCH, Edition
from core.notation import Notation, parse_move
from core.placement import apply_placement, validate_move
from core.scoring import MoveScore, score_placement


def play_moves(
    moves: Iterable[str],
    board: Board | None = None,
    edition: Edition = FRENCH,
    notation: Notation = Notation.FISF,
) -> tuple[Board, list[MoveScore]]:
    """Play typed moves one after the other; return the board and each move's score."""
    board = board if board is not None else Board()
    scores = []
    for text in moves:
        placement = validate_move(board, parse_move(text, notation), notation)
        scores.append(score_placement(placement, edition))
        apply_placement(board, placement)
    return board, scores


def board_with(tiles: str, notation: Notation = Notation.FISF) -> Board:
    """A board with tiles set directly: ``"K8:T A4:J"`` (lowercase letter = joker)."""
    board = Board()
    for item in tiles.split():
        name, letter = item.split(":")
        if notation is Notation.FISF:
            row, col = "ABCDEFGHIJKLMNO".index(name[0]), int(name[1:]) - 1
        else:
            col, row = "ABCDEFGHIJKLMNO".index(name[0]), int(name[1:]) - 1
        board.place(row, col, Tile(letter.upper(), letter.islower()))
    return board
