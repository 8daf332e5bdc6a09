"""The plays of a rack listed by the C walk (``core._movegen_native``), when the build has it.

The extension is built with the package where a C compiler is at hand (setup.py) and is optional: without
it, or with ``ARBITRE_NATIVE=0`` in the environment, ``core.movegen`` searches in Python alone. It walks
the same word graph along the same lines, bounds each start as the Python search does (more loosely: once per
start, not at each letter), and walks the starts in decreasing order of bound down to the best score: 2 to 10
times faster than the Python search (docs/operating.md, "The top search's C walk").

``native_plays`` gives what ``core.movegen``'s search would keep: the number of plays met, and those scoring
at least the ``count``-th best score, as found plays (``core.movegen_plays.Found``).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from .board import LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS, Board
from .edition import Edition
from .lexicon import Lexicon
from .lexicon_layout import WIDE, typecode
from .movegen_board import Line, Rack
from .movegen_plays import Found

NATIVE_VERSION = 3  # the extension's VERSION this module calls (a stale build is not used)
NATIVE_JOKERS = 2  # racks with at most this many jokers are listed by the extension (every rack of a shipped edition)

Plays = Callable[..., tuple[int, int, int, list[Found]]]  # the extension's ``plays`` (core/_movegen_native.pyi)

_LETTER_MULTIPLIERS = bytes(LETTER_MULTIPLIERS)
_WORD_MULTIPLIERS = bytes(WORD_MULTIPLIERS)
_EMPTY = 255  # a square without a tile, in the board's codes
_EMPTY_CODES = bytes([_EMPTY]) * (SIZE * SIZE)
_NO_VALUES = bytes(SIZE * SIZE)


def _load() -> Plays | None:
    """The extension's walk, when it is built and current."""
    try:
        from . import _movegen_native
    except ImportError:
        return None
    return _movegen_native.plays if getattr(_movegen_native, "VERSION", None) == NATIVE_VERSION else None


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
        and _tile_values(edition) is not None
    )


def _line(codes: bytes | bytearray, horizontal: bool, index: int, every: int) -> Line:
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
    values = _tile_values(edition)
    if _NATIVE is None or values is None:
        raise ValueError("the C walk is not built or does not take this edition: ask usable() first")
    codes: bytes | bytearray = _EMPTY_CODES
    square_values: bytes | bytearray = _NO_VALUES
    if not board.is_empty():
        codes = bytearray(_EMPTY_CODES)
        square_values = bytearray(SIZE * SIZE)
        code = edition.alphabet.code
        for row, col, tile in board.tiles():
            square = row * SIZE + col
            codes[square] = letter = code(tile.letter)
            square_values[square] = 0 if tile.joker else values[letter]
    every = lexicon.letters

    def line_of(horizontal: bool, index: int) -> Line:
        return _line(codes, horizontal, index, every)

    return _NATIVE(
        lexicon.table,
        lexicon.lookahead,
        typecode(len(lexicon.alphabet)) == WIDE,
        lexicon.root,
        every,
        codes,
        square_values,
        _LETTER_MULTIPLIERS,
        _WORD_MULTIPLIERS,
        values,
        bytes(rack.counts),
        rack.jokers,
        edition.bingo_bonus if rack.size == edition.rack_size else 0,
        count,
        horizontal_only,
        line_of,
    )


def _tile_values(edition: Edition) -> bytes | None:
    """The value of each tile of ``edition`` by code, or None when the C walk cannot take the edition (an
    alphabet of more than 64 tiles, a value of 255 or more); kept for the editions last used (the 7/8 formats
    make an edition per search: ``core.movegen_formats``)."""
    kept = _VALUES.get(id(edition))
    if kept is None or kept[0] is not edition:
        symbols = edition.alphabet.symbols
        fits = len(symbols) <= 64 and max(edition.values.values()) < _EMPTY
        if len(_VALUES) >= _VALUES_KEPT:
            _VALUES.clear()
        kept = _VALUES[id(edition)] = (edition, bytes(edition.values[s] for s in symbols) if fits else None)
    return kept[1]


_VALUES: dict[int, tuple[Edition, bytes | None]] = {}
_VALUES_KEPT = 64
