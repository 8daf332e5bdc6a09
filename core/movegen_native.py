"""The plays of a rack listed by the C walk (``core._movegen_native``), when the build has it.

The extension is built with the package where a C compiler is at hand (setup.py) and is optional: without
it, or with ``ARBITRE_NATIVE=0`` in the environment, ``core.movegen`` searches in Python alone. It walks
the same word graph along the same lines, bounds each start as the Python search does (more loosely: once per
start, not at each letter), and walks the starts in decreasing order of bound down to the best score: 2 to 8
times faster than the Python search (docs/operating.md, "The top search's C walk").

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

NATIVE_VERSION = 2  # the extension's VERSION this module calls (a stale build is not used)
NATIVE_JOKERS = 2  # racks with at most this many jokers are listed by the extension (every rack of a shipped edition)

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


def _line(codes: bytearray, horizontal: bool, index: int, every: int) -> Line:
    """A found play's line, with the board letters (``codes``: by square, ``_EMPTY`` for none) its order key
    reads (``core.movegen_plays.found_key``)."""
    line = Line(horizontal, index, every)
    squares = codes[index * SIZE : (index + 1) * SIZE] if horizontal else codes[index : SIZE * SIZE : SIZE]
    line.fixed[:SIZE] = [-1 if code == _EMPTY else code for code in squares]
    return line


def native_plays(
    board: Board, rack: Rack, lexicon: Lexicon, edition: Edition, count: int, horizontal_only: bool
) -> tuple[int, int, int, list[Found]]:
    """The number of plays of ``rack`` on ``board`` the walk met, of starts and of starts walked, and the plays
    scoring at least the ``count``-th best score (every play with ``count`` 0); only when ``usable``."""
    assert _NATIVE is not None
    alphabet = edition.alphabet
    values = edition.values
    codes = bytearray(b"\xff" * (SIZE * SIZE))
    square_values = bytearray(SIZE * SIZE)
    code = alphabet.code
    if not board.is_empty():
        for row, col, tile in board.tiles():
            square = row * SIZE + col
            codes[square] = code(tile.letter)
            square_values[square] = 0 if tile.joker else values[tile.letter]
    tile_values = bytes(values[symbol] for symbol in alphabet.symbols)
    bingo = edition.bingo_bonus if rack.size == edition.rack_size else 0
    seen, starts, walked, found = _NATIVE.plays(
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
            line = lines[horizontal, index] = _line(codes, horizontal, index, lexicon.letters)
        key = (0, index, start) if horizontal else (1, start, index)
        plays.append((score, jokers, key, line, start, end, squares, letters, flags))
    return seen, starts, walked, plays
