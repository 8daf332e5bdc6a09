"""Showing the game: monospace board, score sheet and rankings as tables, board PNG (Pillow)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

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


def board_text(board: Board, notation: Notation = Notation.FISF, last: Iterable[tuple[int, int]] = ()) -> str:
    """The board in monospace: tiles in capitals, jokers in lowercase, premiums as * + ^ ' ."""
    recent = set(last)
    header = "    " + "".join(f"{_col_label(c, notation):>3}" for c in range(SIZE))
    lines = [header]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            tile = board.get(r, c)
            if tile is None:
                cell = _TEXT_PREMIUM[premium_at(r, c)]
            else:
                cell = str(tile)
            mark = ">" if (r, c) in recent else " "
            cells.append(f" {mark}{cell}")
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


# --- PNG ----------------------------------------------------------------------------------

CELL = 44
MARGIN = 30
_COLOURS = {
    Premium.TRIPLE_WORD: (204, 38, 38),
    Premium.DOUBLE_WORD: (240, 160, 170),
    Premium.TRIPLE_LETTER: (36, 92, 178),
    Premium.DOUBLE_LETTER: (150, 200, 235),
    Premium.NONE: (22, 110, 72),
}
_PREMIUM_LABEL = {
    Premium.TRIPLE_WORD: "MT",
    Premium.DOUBLE_WORD: "MD",
    Premium.TRIPLE_LETTER: "LT",
    Premium.DOUBLE_LETTER: "LD",
    Premium.NONE: "",
}
_PREMIUM_LABEL_EN = {
    Premium.TRIPLE_WORD: "TW",
    Premium.DOUBLE_WORD: "DW",
    Premium.TRIPLE_LETTER: "TL",
    Premium.DOUBLE_LETTER: "DL",
    Premium.NONE: "",
}
TILE = (246, 226, 180)
TILE_RECENT = (255, 236, 120)
JOKER_TILE = (232, 232, 232)
INK = (30, 30, 30)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def board_png(
    board: Board,
    edition: Edition,
    notation: Notation = Notation.FISF,
    last: Iterable[tuple[int, int]] = (),
    lang: str = "fr",
) -> bytes:
    """The board as a PNG: premium colours, tiles with letter and value, jokers marked, last move highlighted."""
    recent = set(last)
    size = MARGIN * 2 + CELL * SIZE
    image = Image.new("RGB", (size, size), (250, 248, 240))
    draw = ImageDraw.Draw(image)
    letter_font, value_font, label_font, premium_font = _font(26), _font(12), _font(16), _font(12)
    labels = _PREMIUM_LABEL if lang == "fr" else _PREMIUM_LABEL_EN
    for i in range(SIZE):
        centre = MARGIN + CELL * i + CELL // 2
        draw.text((centre, MARGIN // 2), _col_label(i, notation), fill=INK, font=label_font, anchor="mm")
        draw.text((centre, size - MARGIN // 2), _col_label(i, notation), fill=INK, font=label_font, anchor="mm")
        draw.text((MARGIN // 2, centre), _row_label(i, notation), fill=INK, font=label_font, anchor="mm")
        draw.text((size - MARGIN // 2, centre), _row_label(i, notation), fill=INK, font=label_font, anchor="mm")
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = MARGIN + c * CELL, MARGIN + r * CELL
            box = (x0, y0, x0 + CELL - 1, y0 + CELL - 1)
            tile = board.get(r, c)
            premium = premium_at(r, c)
            if tile is None:
                draw.rectangle(box, fill=_COLOURS[premium], outline=(240, 240, 230))
                label = "★" if (r, c) == (7, 7) else labels[premium]
                if label:
                    draw.text(
                        (x0 + CELL // 2, y0 + CELL // 2), label, fill=(255, 255, 255), font=premium_font, anchor="mm"
                    )
                continue
            fill = TILE_RECENT if (r, c) in recent else (JOKER_TILE if tile.joker else TILE)
            draw.rounded_rectangle(
                (x0 + 2, y0 + 2, x0 + CELL - 3, y0 + CELL - 3),
                radius=5,
                fill=fill,
                outline=(150, 120, 70) if not tile.joker else (90, 90, 200),
                width=2,
            )
            colour = (60, 60, 200) if tile.joker else INK
            draw.text((x0 + CELL // 2 - 2, y0 + CELL // 2 + 1), tile.letter, fill=colour, font=letter_font, anchor="mm")
            value = 0 if tile.joker else edition.values[tile.letter]
            draw.text((x0 + CELL - 6, y0 + CELL - 6), str(value), fill=colour, font=value_font, anchor="rb")
            if tile.joker:
                draw.ellipse((x0 + 5, y0 + 5, x0 + 11, y0 + 11), fill=(90, 90, 200))
    output = io.BytesIO()
    image.save(output, format="PNG", optimize=True)
    return output.getvalue()
