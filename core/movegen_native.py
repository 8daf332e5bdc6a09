"""The plays of a rack listed by the C walk (``core._movegen_native``), when the build has it.

The extension is built with the package where a C compiler is at hand (setup.py) and is optional: without
it, or with ``ARBITRE_NATIVE=0`` in the environment, ``core.movegen`` searches in Python alone. It lists
every play (no bounds), which beats the Python search by branch and bound on racks with few jokers
(``NATIVE_JOKERS``); a rack with more jokers has too many plays to list, and is searched in Python.

``native_plays`` gives what ``core.movegen``'s search would keep: the number of plays met, and those scoring
at least the ``count``-th best score, as found plays (``core.movegen_plays.Found``).
"""

from __future__ import annotations

import os
from types import ModuleType

from .board import LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS, Board
from .edition import Edition
from .lexicon import Lexicon
from .lexicon_layout import WIDE
from .movegen_board import Line, Rack
from .movegen_plays import Found

NATIVE_VERSION = 1  # the extension's VERSION this module calls (a stale build is not used)
NATIVE_JOKERS = 1  # racks with at most this many jokers are listed by the extension

_LETTER_MULTIPLIERS = bytes(LETTER_MULTIPLIERS)
_WORD_MULTIPLIERS = bytes(WORD_MULTIPLIERS)
_EMPTY = 255  # a square without a tile, in the board's codes


def _load() -> ModuleType | None:
    """The extension, when built and current."""
    try:
        from . import _movegen_native
    except ImportError:
        return None
    module: ModuleType = _movegen_native
    return module if getattr(module, "VERSION", None) == NATIVE_VERSION else None


_NATIVE = _load()


def available() -> bool:
    """Whether the C walk is built (``usable`` says whether it is used)."""
    return _NATIVE is not None


def usable(rack: Rack, edition: Edition) -> bool:
    """Whether ``native_plays`` takes this rack in this edition."""
    return (
        _NATIVE is not None
        and os.environ.get("ARBITRE_NATIVE", "1") != "0"
        and rack.jokers <= NATIVE_JOKERS
        and rack.size <= 16
        and len(edition.alphabet) <= 64
        and max(edition.values.values()) < _EMPTY
    )


def _line(board: Board, edition: Edition, horizontal: bool, index: int, every: int) -> Line:
    """A found play's line, with the board letters its order key reads (``core.movegen_plays.found_key``)."""
    line = Line(horizontal, index, every)
    code = edition.alphabet.code
    for pos in range(SIZE):
        tile = board.get(index, pos) if horizontal else board.get(pos, index)
        if tile is not None:
            line.fixed[pos] = code(tile.letter)
    return line


def native_plays(
    board: Board, rack: Rack, lexicon: Lexicon, edition: Edition, count: int, horizontal_only: bool
) -> tuple[int, int, list[Found]]:
    """The number of plays of ``rack`` on ``board``, of starts walked, and the plays scoring at least the
    ``count``-th best score (every play with ``count`` 0); only when ``usable``."""
    assert _NATIVE is not None
    alphabet = edition.alphabet
    values = edition.values
    codes = bytearray(b"\xff" * (SIZE * SIZE))
    square_values = bytearray(SIZE * SIZE)
    code = alphabet.code
    for row, col, tile in board.tiles():
        square = row * SIZE + col
        codes[square] = code(tile.letter)
        square_values[square] = 0 if tile.joker else values[tile.letter]
    tile_values = bytes(values[symbol] for symbol in alphabet.symbols)
    bingo = edition.bingo_bonus if rack.size == edition.rack_size else 0
    seen, starts, found = _NATIVE.plays(
        lexicon.table,
        lexicon.lookahead,
        lexicon.table.itemsize == 8 if isinstance(lexicon.table, memoryview) else lexicon.table.typecode == WIDE,
        lexicon.root,
        lexicon.letters,
        bytes(codes),
        bytes(square_values),
        _LETTER_MULTIPLIERS,
        _WORD_MULTIPLIERS,
        tile_values,
        bytes(rack.counts),
        rack.jokers,
        bingo,
        count,
        horizontal_only,
    )
    lines: dict[tuple[bool, int], Line] = {}
    plays: list[Found] = []
    for score, jokers, horizontal, index, start, end, squares, letters, flags in found:
        line = lines.get((horizontal, index))
        if line is None:
            line = lines[horizontal, index] = _line(board, edition, horizontal, index, lexicon.letters)
        key = (0, index, start) if horizontal else (1, start, index)
        plays.append((score, jokers, key, line, start, end, squares, letters, flags))
    return seen, starts, plays
