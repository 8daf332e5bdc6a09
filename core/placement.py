"""Checking where a move goes and which words it forms."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .alphabet import LATIN, Alphabet
from .board import CENTRE, Board, Tile, on_board
from .errors import (
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
    TooManyTilesError,
    WordTooShortError,
)
from .notation import Move, Notation, Ref, format_move, format_ref


@dataclass(frozen=True)
class Cell:
    """A letter of a word formed: its square, letter, joker flag, and whether it is new this move."""

    row: int
    col: int
    letter: str
    joker: bool
    new: bool

    def __str__(self) -> str:
        return self.letter.lower() if self.joker else self.letter


@dataclass(frozen=True)
class Word:
    """A word formed by a move: its cells in reading order."""

    cells: tuple[Cell, ...]
    horizontal: bool

    def __str__(self) -> str:
        return self.text

    @property
    def text(self) -> str:
        """The word as tile symbols, uppercase (jokers as the letter they stand for): ``VAGUE``."""
        return "".join(c.letter for c in self.cells)

    @property
    def ref(self) -> Ref:
        first = self.cells[0]
        return Ref(first.row, first.col, self.horizontal)


@dataclass(frozen=True)
class Placement:
    """A legal placement: the new tiles and every word they form (the main word first)."""

    ref: Ref
    new_tiles: tuple[Cell, ...]
    words: tuple[Word, ...]
    alphabet: Alphabet = field(default=LATIN, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.ref} {self.alphabet.spell(self.main_word.text)}"

    @property
    def main_word(self) -> Word:
        return self.words[0]

    @property
    def jokers(self) -> int:
        """Number of jokers among the new tiles."""
        return sum(1 for t in self.new_tiles if t.joker)

    def spelled(self, word: Word) -> str:
        """A word of the placement written as labels, jokers as the letter they stand for: ``CHORRO``."""
        return self.alphabet.spell(word.text)

    def notation(self, notation: Notation = Notation.FISF) -> str:
        """The move as it would be typed: reference then word with jokers in lowercase (labels of the alphabet)."""
        cells = self.main_word.cells
        alphabet = self.alphabet
        if not any(c.letter.isupper() and not c.joker for c in cells):
            word = "".join(f"({alphabet.label(c.letter)})" for c in cells)
        elif alphabet.plain:
            word = "".join(str(c) for c in cells)
        else:
            word = alphabet.spell("".join(c.letter for c in cells), [c.joker for c in cells])
        return f"{format_ref(self.ref, notation)} {word}"


def validate_move(board: Board, move: Move, notation: Notation = Notation.FISF, *, rack_size: int = 7) -> Placement:
    """Check a typed move against the board and return its placement, or raise a PlacementError."""
    move_text = format_move(move, notation)
    squares = move.ref.squares(len(move.letters))
    new_tiles: list[tuple[int, int, Tile]] = []
    for (row, col), typed in zip(squares, move.letters):
        if not on_board(row, col):
            last = squares[0]
            for square in squares:
                if on_board(*square):
                    last = square
            raise OutOfBoardError(move_text, notation.square(*last))
        existing = board.get(row, col)
        if existing is not None:
            if typed.letter is not None and typed.letter != existing.letter:
                raise LetterMismatchError(
                    notation.square(row, col), move.alphabet.label(typed.letter), move.alphabet.label(existing.letter)
                )
        elif typed.letter is None:
            raise EmptyThroughSquareError(notation.square(row, col))
        else:
            new_tiles.append((row, col, Tile(typed.letter, typed.joker)))
    step = (0, 1) if move.ref.horizontal else (1, 0)
    before = (squares[0][0] - step[0], squares[0][1] - step[1])
    after = (squares[-1][0] + step[0], squares[-1][1] + step[1])
    for square in (before, after):
        if board.get(*square) is not None:
            full = move.alphabet.spell(_full_word_text(board, new_tiles, squares[0], step))
            raise IncompleteWordError(move.word, notation.square(*square), full)
    if not new_tiles:
        raise NoNewTileError(move_text)
    return _finish(board, new_tiles, move.ref.horizontal, lambda: move_text, notation, rack_size, move.alphabet)


def validate_tiles(
    board: Board,
    tiles: Iterable[tuple[int, int, Tile]],
    notation: Notation = Notation.FISF,
    *,
    rack_size: int = 7,
    alphabet: Alphabet = LATIN,
) -> Placement:
    """Check new tiles given square by square (from a board diff or a generator); ``alphabet`` writes the move."""
    new_tiles = sorted(tiles, key=lambda t: (t[0], t[1]))
    if not new_tiles:
        raise NoNewTileError("")
    inside = [(r, c) for r, c, _ in new_tiles if on_board(r, c)]
    if len(inside) < len(new_tiles):
        raise OutOfBoardError(
            " ".join(notation.square(r, c) for r, c in inside), notation.square(*inside[-1]) if inside else ""
        )

    def names() -> str:  # the squares as an error message writes them, made only for one
        return " ".join(notation.square(r, c) for r, c, _ in new_tiles)

    for row, col, _ in new_tiles:
        if board.get(row, col) is not None:
            raise OccupiedSquareError(notation.square(row, col))
    rows = {r for r, _, _ in new_tiles}
    cols = {c for _, c, _ in new_tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise NotInLineError(names())
    if len(new_tiles) > 1:
        horizontal = len(rows) == 1
    else:
        row, col, _ = new_tiles[0]
        horizontal = board.get(row, col - 1) is not None or board.get(row, col + 1) is not None
        if not horizontal and board.get(row - 1, col) is None and board.get(row + 1, col) is None:
            horizontal = True
    first_row, first_col, _ = new_tiles[0]
    last_row, last_col, _ = new_tiles[-1]
    placed = {(r, c) for r, c, _ in new_tiles}
    if horizontal:
        span = [(first_row, c) for c in range(first_col, last_col + 1)]
    else:
        span = [(r, first_col) for r in range(first_row, last_row + 1)]
    for square in span:
        if square not in placed and board.get(*square) is None:
            raise GapError(notation.square(*square))
    return _finish(board, new_tiles, horizontal, names, notation, rack_size, alphabet)


def _finish(
    board: Board,
    new_tiles: list[tuple[int, int, Tile]],
    horizontal: bool,
    move_text: Callable[[], str],
    notation: Notation,
    rack_size: int,
    alphabet: Alphabet,
) -> Placement:
    """Rules common to every way of giving a move: size, first move, connection, words formed. A word that
    touches nothing on the board and places more tiles than a rack holds (``A1 ORIENTES``, ORIENTES meant
    through a letter elsewhere) is told its reference, not its size."""
    new = {(r, c): tile for r, c, tile in new_tiles}
    step = (0, 1) if horizontal else (1, 0)
    cross_step = (1, 0) if horizontal else (0, 1)
    first = (new_tiles[0][0], new_tiles[0][1])
    main = _run(board, new, first, step)
    empty = board.is_empty()
    connected = empty or (
        any(not cell.new for cell in main)
        or any(board.get(r + dr, c + dc) is not None for r, c in new for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))
    )
    if len(new_tiles) > rack_size:
        if not connected:
            raise DetachedWordError(move_text(), len(new_tiles), rack_size)
        raise TooManyTilesError(move_text(), len(new_tiles), rack_size)
    if len(main) < 2:
        raise WordTooShortError(alphabet.spell("".join(c.letter for c in main)))
    if empty:
        if CENTRE not in new:
            raise FirstMoveError(move_text(), notation.square(*CENTRE))
    elif not connected:
        raise NotConnectedError(move_text())
    words = [Word(tuple(main), horizontal)]
    for row, col, _ in new_tiles:
        cross = _run(board, new, (row, col), cross_step)
        if len(cross) >= 2:
            words.append(Word(tuple(cross), not horizontal))
    ref = Ref(main[0].row, main[0].col, horizontal)
    return Placement(ref, tuple(cell for cell in main if cell.new), tuple(words), alphabet)


def _run(board: Board, new: dict[tuple[int, int], Tile], start: tuple[int, int], step: tuple[int, int]) -> list[Cell]:
    """The maximal run of letters through ``start`` along ``step``, old and new tiles alike."""
    dr, dc = step
    row, col = start
    while (row - dr, col - dc) in new or board.get(row - dr, col - dc) is not None:
        row -= dr
        col -= dc
    cells: list[Cell] = []
    while True:
        tile = new.get((row, col))
        is_new = tile is not None
        if tile is None:
            tile = board.get(row, col)
            if tile is None:
                return cells
        cells.append(Cell(row, col, tile.letter, tile.joker, is_new))
        row += dr
        col += dc


def _full_word_text(
    board: Board, new_tiles: list[tuple[int, int, Tile]], start: tuple[int, int], step: tuple[int, int]
) -> str:
    new = {(r, c): t for r, c, t in new_tiles}
    return "".join(cell.letter for cell in _run(board, new, start, step))


def apply_placement(board: Board, placement: Placement) -> None:
    """Put a placement's new tiles on the board."""
    for cell in placement.new_tiles:
        board.place(cell.row, cell.col, Tile(cell.letter, cell.joker))
