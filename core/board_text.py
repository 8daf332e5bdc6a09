"""A board written as text, in any edition: fifteen lines of fifteen squares (``arbitre top --board FILE``).

A line is written in one of two forms, and a file may mix them:

* **compact**: one character per square, ``.`` for an empty one; a tile whose label has several letters
  (``CH``, ``LL``, ``RR``, ``L·L``, ``NY``, ``QU``) is written in square brackets, which count as one
  square: ``....[CH]ICO.......``; any one-character tile as itself (``Ä``, ``Ñ``, ``Ç``), or in brackets;
* **spaced**: fifteen squares separated by spaces (or tabs), each ``.`` or one tile's label:
  ``. . . . CH I C O . . . . . . .``.

A tile in lowercase is a joker (``ch``, ``[ch]``, ``l·l``); case is otherwise ignored, accents the
edition's tiles do not have are folded, and the middle dot of ``L·L`` may be typed ``.`` or ``-`` inside
brackets or as a spaced square (``[L.L]``). Blank lines and lines starting with ``#`` are skipped. The
compact form of an A-Z board is the fifteen characters per line that ``Board.rows`` writes, read as before.
``board_lines`` writes the compact form, which reads back as the same board.
"""

from __future__ import annotations

from .alphabet import CLOSE, OPEN, Alphabet
from .board import SIZE, Board, Tile
from .errors import BoardSyntaxError, SyntaxProblem

EMPTY = "."
COMMENT = "#"


def _square(text: str, alphabet: Alphabet, where: str) -> Tile | None:
    """One square's text: ``.`` (None) or exactly one tile, a joker when typed in lowercase."""
    if text == EMPTY:
        return None
    pieces = alphabet.scan(text)
    if len(pieces) != 1 or pieces[0].symbol is None or len(pieces[0].typed) != len(alphabet.fold(text)):
        raise BoardSyntaxError(where, SyntaxProblem.BOARD_SQUARE, text)
    piece = pieces[0]
    symbol = piece.symbol
    assert symbol is not None
    return Tile(symbol, joker=piece.lowercase)


def _squares(line: str, where: str) -> list[str]:
    """A line's squares as text: split at spaces (spaced form), else a character or a bracket each."""
    parts = line.split()
    if len(parts) > 1:
        return parts
    squares: list[str] = []
    i = 0
    while i < len(line):
        if line[i] == OPEN:
            close = line.find(CLOSE, i + 1)
            if close < 0:
                raise BoardSyntaxError(where, SyntaxProblem.BOARD_SQUARE, line[i:])
            squares.append(line[i + 1 : close])
            i = close + 1
        else:
            squares.append(line[i])
            i += 1
    return squares


def read_board(lines: list[str], alphabet: Alphabet) -> Board:
    """The board written in ``lines`` (see the module docstring) in the alphabet's tiles.

    Raises BoardSyntaxError (its ``text`` says where: ``line 3``, ``line 3, column 7``, counting the lines
    read): ``BOARD_LINES`` unless there are fifteen lines, ``BOARD_SQUARES`` for a line that is not fifteen
    squares, ``BOARD_SQUARE`` for a square that is neither ``.`` nor one tile.
    """
    rows = [line.strip() for line in lines if line.strip() and not line.strip().startswith(COMMENT)]
    if len(rows) != SIZE:
        raise BoardSyntaxError(f"{len(rows)} lines", SyntaxProblem.BOARD_LINES, str(SIZE))
    board = Board()
    for r, line in enumerate(rows):
        squares = _squares(line, f"line {r + 1}")
        if len(squares) != SIZE:
            raise BoardSyntaxError(f"line {r + 1}", SyntaxProblem.BOARD_SQUARES, str(len(squares)))
        for c, text in enumerate(squares):
            tile = _square(text, alphabet, f"line {r + 1}, column {c + 1}")
            if tile is not None:
                board.place(r, c, tile)
    return board


def board_lines(board: Board, alphabet: Alphabet) -> list[str]:
    """The board in the compact form: fifteen lines, ``.`` empty, multi-letter tiles in brackets, jokers lowercase."""
    lines: list[str] = []
    for r in range(SIZE):
        out: list[str] = []
        for c in range(SIZE):
            tile = board.get(r, c)
            if tile is None:
                out.append(EMPTY)
                continue
            label = alphabet.label(tile.letter)
            label = label.lower() if tile.joker else label
            out.append(label if len(label) == 1 else f"{OPEN}{label}{CLOSE}")
        lines.append("".join(out))
    return lines
