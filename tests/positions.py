"""Helpers that build positions from typed moves or tile lists."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from core.board import Board, Tile
from core.edition import FRENCH, JOKER, Edition
from core.lexicon import Lexicon
from core.movegen import find_top
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


def greedy_game(
    edition: Edition, lexicon: Lexicon, seed: int, turns: int = 8, jokers: bool = True
) -> Iterator[tuple[Board, str]]:
    """A seeded greedy game: each turn's board and rack (tiles, as drawn from a shuffled bag, without its jokers
    unless ``jokers``), yielded before the top is played; it ends early when no play is left."""
    rng = random.Random(seed)
    bag = [tile for tile in edition.bag() if jokers or tile != JOKER]
    rng.shuffle(bag)
    board = Board()
    rack: list[str] = []
    for _turn in range(turns):
        while len(rack) < edition.rack_size and bag:
            rack.append(bag.pop())
        text = "".join(rack)
        yield board, text
        best = find_top(board, text, lexicon, edition).best
        if best is None:
            return
        apply_placement(board, best.placement)
        for cell in best.placement.new_tiles:
            rack.remove(JOKER if cell.joker else cell.letter)
