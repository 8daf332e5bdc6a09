"""The 15x15 board: squares, premiums, and the tiles placed on it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from .alphabet import LATIN, Alphabet

SIZE = 15
CENTRE = (7, 7)
ROW_LETTERS = "ABCDEFGHIJKLMNO"


class Premium(Enum):
    """A premium square; the value is (letter multiplier, word multiplier)."""

    NONE = (1, 1)
    DOUBLE_LETTER = (2, 1)
    TRIPLE_LETTER = (3, 1)
    DOUBLE_WORD = (1, 2)
    TRIPLE_WORD = (1, 3)

    @property
    def letter_multiplier(self) -> int:
        return self.value[0]

    @property
    def word_multiplier(self) -> int:
        return self.value[1]


_PREMIUM_SQUARES = {
    Premium.TRIPLE_WORD: "A1 A8 A15 H1 H15 O1 O8 O15",
    Premium.DOUBLE_WORD: "B2 B14 C3 C13 D4 D12 E5 E11 H8 K5 K11 L4 L12 M3 M13 N2 N14",
    Premium.TRIPLE_LETTER: "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10",
    Premium.DOUBLE_LETTER: ("A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12"),
}


def _premium_grid() -> tuple[Premium, ...]:
    grid = [Premium.NONE] * (SIZE * SIZE)
    for premium, names in _PREMIUM_SQUARES.items():
        for name in names.split():
            row, col = ROW_LETTERS.index(name[0]), int(name[1:]) - 1
            grid[row * SIZE + col] = premium
    return tuple(grid)


PREMIUMS: tuple[Premium, ...] = _premium_grid()
LETTER_MULTIPLIERS: tuple[int, ...] = tuple(p.letter_multiplier for p in PREMIUMS)
"""By square (``row * SIZE + col``): the letter multiplier printed there."""
WORD_MULTIPLIERS: tuple[int, ...] = tuple(p.word_multiplier for p in PREMIUMS)
"""By square (``row * SIZE + col``): the word multiplier printed there."""


def premium_at(row: int, col: int) -> Premium:
    """The premium printed on a square (whether or not a tile covers it)."""
    return PREMIUMS[row * SIZE + col]


def on_board(row: int, col: int) -> bool:
    """Whether (row, col) is a square of the board."""
    return 0 <= row < SIZE and 0 <= col < SIZE


@dataclass(frozen=True)
class Tile:
    """A tile on the board: its letter (the tile's symbol, see ``core.alphabet``) and whether it is a joker."""

    letter: str
    joker: bool = False

    def __str__(self) -> str:
        return self.letter.lower() if self.joker else self.letter


class Board:
    """Tiles on a 15x15 grid, indexed by (row, col) from 0; rows are A-O in FISF."""

    __slots__ = ("_cells", "_count")

    def __init__(self) -> None:
        self._cells: list[Tile | None] = [None] * (SIZE * SIZE)
        self._count = 0

    def copy(self) -> Board:
        """An independent copy."""
        other = Board()
        other._cells = list(self._cells)
        other._count = self._count
        return other

    def __getitem__(self, square: tuple[int, int]) -> Tile | None:
        row, col = square
        return self._cells[row * SIZE + col]

    def get(self, row: int, col: int) -> Tile | None:
        """The tile on a square, or None when it is empty or off the board."""
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return self._cells[row * SIZE + col]
        return None

    def is_empty(self) -> bool:
        """Whether no tile has been placed yet."""
        return self._count == 0

    def __len__(self) -> int:
        return self._count

    def place(self, row: int, col: int, tile: Tile) -> None:
        """Put a tile on an empty square."""
        index = row * SIZE + col
        if self._cells[index] is not None:
            raise ValueError(f"square {ROW_LETTERS[row]}{col + 1} is already occupied")
        self._cells[index] = tile
        self._count += 1

    def remove(self, row: int, col: int) -> Tile:
        """Take a tile off a square (for undo)."""
        index = row * SIZE + col
        tile = self._cells[index]
        if tile is None:
            raise ValueError(f"square {ROW_LETTERS[row]}{col + 1} is empty")
        self._cells[index] = None
        self._count -= 1
        return tile

    def tiles(self) -> Iterator[tuple[int, int, Tile]]:
        """Every placed tile with its square, row by row."""
        for index, tile in enumerate(self._cells):
            if tile is not None:
                yield index // SIZE, index % SIZE, tile

    def rows(self) -> list[str]:
        """Fifteen lines of fifteen characters: ``.`` empty, uppercase tile, lowercase joker."""
        return ["".join(str(t) if t else "." for t in self._cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._cells == other._cells

    @classmethod
    def from_rows(cls, rows: list[str], alphabet: Alphabet = LATIN) -> Board:
        """A board from fifteen lines of fifteen characters (see ``rows``): tile symbols of the alphabet."""
        lines = [line.rstrip("\n") for line in rows if line.strip()]
        if len(lines) != SIZE or any(len(line) != SIZE for line in lines):
            raise ValueError("a board is 15 lines of 15 characters")
        board = cls()
        for r, line in enumerate(lines):
            for c, char in enumerate(line):
                if char == ".":
                    continue
                if char.upper() not in alphabet:
                    raise ValueError(f"line {r + 1}, column {c + 1}: unexpected {char!r}")
                board.place(r, c, Tile(char.upper(), joker=char.islower()))
        return board
