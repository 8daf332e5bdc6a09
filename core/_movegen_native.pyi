"""The C walk of the top search (core/_movegen_native.c); called by core.movegen_native only."""

from core.lexicon_layout import Table

VERSION: int

# A found play as the C walk lists it: score, jokers, horizontal, line index, start, end (exclusive), squares,
# letter codes, joker flags.
NativePlay = tuple[int, int, bool, int, int, int, tuple[int, ...], tuple[int, ...], tuple[bool, ...]]

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
    /,
) -> tuple[int, int, int, list[NativePlay]]:
    """How many plays the walk met, how many starts there were and how many were walked (in decreasing order of
    their bounds, down to the count-th best score), and the plays scoring at least the count-th best score (every
    play with count 0)."""
