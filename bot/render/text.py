"""Showing the game as text: the monospace board and aligned tables (score sheets, rankings)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from core.board import ROW_LETTERS, SIZE, Board, Premium, premium_at
from core.edition import Edition
from core.notation import Notation

from ..messages import languages, say

_TEXT_PREMIUM = {
    Premium.TRIPLE_WORD: "*",
    Premium.DOUBLE_WORD: "+",
    Premium.TRIPLE_LETTER: "^",
    Premium.DOUBLE_LETTER: "'",
    Premium.NONE: ".",
}


def row_label(index: int, notation: Notation) -> str:
    """The name of a row: a letter in FISF, a number in GCG."""
    return ROW_LETTERS[index] if notation is Notation.FISF else str(index + 1)


def col_label(index: int, notation: Notation) -> str:
    """The name of a column: a number in FISF, a letter in GCG."""
    return str(index + 1) if notation is Notation.FISF else ROW_LETTERS[index]


_LEGEND_MARKS = (("*", "triple_word"), ("+", "double_word"), ("^", "triple_letter"), ("'", "double_letter"))


def legend(lang: str | None) -> str:
    """What the marks of the premium squares mean, in ``lang`` (in every language when None)."""
    chosen = languages() if lang is None else (lang,)
    parts = []
    for mark, premium in _LEGEND_MARKS:
        names = dict.fromkeys(say(code, f"legend_{premium}") for code in chosen)
        parts.append(f"{mark} {'/'.join(names)}")
    return "    " + "  ".join(parts)


def display_width(text: str) -> int:
    """How many columns ``text`` takes in a monospace font: combining marks none, wide characters two."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def cell_width(edition: Edition | None) -> int:
    """The width of a square of the text board: its longest tile label and a separator (3 at least)."""
    labels = edition.alphabet.labels if edition is not None else ()
    return max([3, *(1 + display_width(label) for label in labels)])


def board_text(
    board: Board,
    notation: Notation = Notation.FISF,
    last: Iterable[tuple[int, int]] = (),
    lang: str | None = None,
    edition: Edition | None = None,
) -> str:
    """The board in monospace: tiles in capitals, jokers in lowercase, premiums as * + ^ ' ; the legend in
    ``lang`` (French and English when None).

    With the ``edition``, tiles are written as its labels; every square is as wide as the longest label
    and the space or the ``>`` of the last move before it (``L·L`` makes every square four columns wide).
    """
    recent = set(last)
    width = cell_width(edition)
    header = "    " + "".join(f"{col_label(c, notation):>{width}}" for c in range(SIZE))
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
            text = f"{mark}{cell}"
            cells.append(" " * (width - display_width(text)) + text)
        lines.append(f"{row_label(r, notation):>3} " + "".join(cells))
    lines.append(legend(lang))
    return "\n".join(lines)


def table(rows: Sequence[Sequence[object]], header: Sequence[str] | None = None) -> str:
    """Rows as an aligned monospace table: numbers right-aligned on their last digit (a mark such as the
    ``*`` of a solo or the ``c`` of a correction hangs after it, the header ends over the digits), other cells
    left-aligned; empty cells do not change a column's kind."""
    body = [[str(cell) for cell in row] for row in rows]
    head = list(map(str, header)) if header else []
    if not body and not head:
        return ""
    columns = len(head or body[0])
    numeric = [_numeric_column([row[i] for row in body if i < len(row)]) for i in range(columns)]
    for i in range(columns):
        if numeric[i]:
            marks = max(len(_marks(row[i])) for row in body if i < len(row))
            for row in body:
                if i < len(row) and row[i].strip():
                    row[i] = row[i] + " " * (marks - len(_marks(row[i])))
            if i < len(head):
                head[i] += " " * marks
    all_rows = ([head] if head else []) + body
    widths = [max(len(row[i]) for row in all_rows if i < len(row)) for i in range(columns)]
    lines = []
    for index, row in enumerate(all_rows):
        cells = [cell.rjust(widths[i]) if numeric[i] else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if header and index == 0:
            lines.append("  ".join("-" * w for w in widths).rstrip())
    return "\n".join(lines)


_NUMBER = re.compile(r"^[+\-−]?\d+(?:[.,]\d+)?%?[*c]{0,2}$")  # 12, -3, +5, 97.3, 85%, 59* (solo), 12c (corrected)


def _is_number(text: str) -> bool:
    return bool(_NUMBER.match(text))


def _marks(text: str) -> str:
    """The marks after a number (``*``, ``c``), "" when there are none."""
    return text[len(text.rstrip("*c")) :]


def _numeric_column(cells: Sequence[str]) -> bool:
    """A column of numbers (right-aligned): every cell a number or empty (a line with nothing there, such as
    a rejected draw's), and at least one number."""
    filled = [cell for cell in cells if cell.strip()]
    return bool(filled) and all(_is_number(cell) for cell in filled)
