"""Score a realistic sequence of moves many times; print moves per second."""

from __future__ import annotations

import time

from core.board import Board
from core.edition import FRENCH
from core.notation import parse_move
from core.placement import apply_placement, validate_move
from core.scoring import score_placement

GAME = ["H7 HANTEZ", "6F FACADES", "G8 HUES", "F10 JOUET", "L6 SOT", "8L TIRE"]


def play_once() -> int:
    board = Board()
    total = 0
    for text in GAME:
        placement = validate_move(board, parse_move(text))
        total += score_placement(placement, FRENCH).total
        apply_placement(board, placement)
    return total


def main() -> None:
    play_once()
    rounds = 3000
    start = time.perf_counter()
    for _ in range(rounds):
        play_once()
    elapsed = time.perf_counter() - start
    moves = rounds * len(GAME)
    print(f"scoring: {moves} moves (parse + validate + score + place) in {elapsed:.2f} s")
    print(f"scoring: {moves / elapsed:,.0f} moves/s, {elapsed / moves * 1e6:.1f} us/move")


if __name__ == "__main__":
    main()
