"""Showing the game as text: the monospace board and aligned tables (score sheets, rankings)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.board import ROW_LETTERS, SIZE, Board, Premium, premium_at
from core.edition import Edition
from core.notation import Notation

_TEXT_PREMIUM = {
    Premium.TRIPLE_WORD: "*",
    Premium.DOUBLE_WORD: "+",
    Premium.TRIPLE_LETTER: "^",
    Premium.DOUBLE_LETTER: "'",
    Premium.NONE: ".",
}


def _row_label(index: int, notation: Notation) -> str:
    return ROW_LETTERS[index] if notation is Notation.FISF else str(index + 1)


def _col_label(index: int, notation: Notation) -> str:
    return str(index + 1) if notation is Notation.FISF else ROW_LETTERS[index]


def board_text(
    board: Board,
    notation: Notation = Notation.FISF,
    last: Iterable[tuple[int, int]] = (),
    edition: Edition | None = None,
) -> str:
    """The board in monospace: tiles in capitals, jokers in lowercase, premiums as * + ^ ' .

    With the ``edition``, tiles are written as its labels; a two-letter label takes the place of the
    mark of the last move (``CH``), a longer one the whole cell.
    """
    recent = set(last)
    header = "    " + "".join(f"{_col_label(c, notation):>3}" for c in range(SIZE))
    lines = [header]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            tile = board.get(r, c)
            if tile is None:
                cell = _TEXT_PREMIUM[premium_at(r, c)]
            elif edition is None:
                cell = str(tile)
            else:
                label = edition.label(tile.letter)
                cell = label.lower() if tile.joker else label
            mark = ">" if (r, c) in recent else " "
            cells.append(f" {mark}{cell}"[-3:] if len(cell) < 3 else cell[:3])
        lines.append(f"{_row_label(r, notation):>3} " + "".join(cells))
    lines.append(
        "    * mot triple/triple word  + mot double/double word  ^ lettre triple/triple letter"
        "  ' lettre double/double letter"
    )
    return "\n".join(lines)


def table(rows: Sequence[Sequence[object]], header: Sequence[str] | None = None) -> str:
    """Rows as an aligned monospace table (numbers right-aligned)."""
    all_rows = [list(map(str, header))] if header else []
    all_rows += [[str(cell) for cell in row] for row in rows]
    if not all_rows:
        return ""
    widths = [max(len(row[i]) for row in all_rows if i < len(row)) for i in range(len(all_rows[0]))]
    numeric = [
        all(_is_number(row[i]) for row in all_rows[1 if header else 0 :] if i < len(row)) for i in range(len(widths))
    ]
    lines = []
    for index, row in enumerate(all_rows):
        cells = [cell.rjust(widths[i]) if numeric[i] else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if header and index == 0:
            lines.append("  ".join("-" * w for w in widths).rstrip())
    return "\n".join(lines)


def _is_number(text: str) -> bool:
    return text.lstrip("+-").replace(".", "", 1).replace("%", "").isdigit()
