"""The C walk of the top search (core/_movegen_native.c); called by core.movegen_native only."""

from collections.abc import Callable

from core.lexicon_layout import Table
from core.movegen_board import Line
from core.movegen_plays import Found

VERSION: int

def plays(
    table: Table,
    lookahead: tuple[Table, ...],
    wide: bool,
    root: int,
    letters: int,
    board_codes: bytes,
    board_values: bytes,
    letter_multipliers: bytes,
    word_multipliers: bytes,
    values: bytes,
    counts: bytes,
    jokers: int,
    bingo: int,
    count: int,
    horizontal_only: bool,
    line_of: Callable[[bool, int], Line],
    /,
) -> tuple[int, int, int, list[Found]]:
    """How many plays the walk met, how many starts there were and how many were walked (in decreasing order of
    their bounds, down to the count-th best score), and the plays scoring at least the count-th best score (every
    play with count 0)."""
