"""Rendering: the grid-only board PNG (old signature), the monospace board and aligned tables."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import CELL, JOKER_TILE, TILE_RECENT, board_png, board_text, table
from bot.render.board import PAD, WIDTH, grid_height, grid_origin
from core.board import Board
from core.edition import ENGLISH, FRENCH
from core.notation import Notation
from tests.paths import TEST_DATA
from tests.positions import play_moves


def pixel_at(image: Image.Image, row: int, col: int, dx: int = 6, dy: int = 6) -> tuple[int, int, int]:
    x0, y0 = grid_origin(PAD)
    pixel = image.getpixel((x0 + col * CELL + dx, y0 + row * CELL + dy))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def test_board_png_marks_jokers_and_the_last_move() -> None:
    board, _ = play_moves(["H6 ZEbRE", "6H ZOO"])
    last = [(8, 5), (9, 5)]  # the two O of ZOO, just played
    png = board_png(board, FRENCH, Notation.FISF, last)
    assert png.startswith(b"\x89PNG")
    assert len(png) < 200_000
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (WIDTH, PAD + grid_height())
    assert pixel_at(image, 7, 7) == JOKER_TILE  # the joker b of ZEbRE on H8
    assert pixel_at(image, 9, 5) == TILE_RECENT
    assert pixel_at(image, 0, 0) == (186, 32, 40)  # A1, a triple word square


def test_full_board_stays_small() -> None:
    rows = ["ABCDEFGHIJKLMNO"] * 15
    png = board_png(Board.from_rows(rows), ENGLISH, Notation.GCG, [(7, c) for c in range(15)], lang="en")
    assert len(png) < 200_000
    Image.open(io.BytesIO(png)).verify()


def test_text_board_labels_follow_the_notation() -> None:
    board, _ = play_moves(["8H VAGUE"], notation=Notation.GCG, edition=ENGLISH)
    gcg = board_text(board, Notation.GCG).splitlines()
    assert gcg[0].split()[:3] == ["A", "B", "C"]
    assert gcg[8].split()[0] == "8"
    fisf = board_text(board, Notation.FISF).splitlines()
    assert fisf[0].split()[:3] == ["1", "2", "3"]
    assert fisf[8].split()[0] == "H"
    assert gcg[8].split()[8:10] == ["V", "A"]


def test_table_aligns_numbers_right() -> None:
    text = table([["Ana", 5, 100], ["Benoît", 120, -3]], ["who", "n", "total"])
    lines = text.splitlines()
    assert lines[0] == "who       n  total"
    assert lines[2] == "Ana       5    100"
    assert lines[3] == "Benoît  120     -3"


@pytest.mark.parametrize(
    ("rows", "column"),
    [
        ([["1", "AEEISTU", 14], ["", "-ABCDEFG", ""], ["2", "E+NRSTU", 72]], "pts"),  # a rejected draw's line
        ([["", "-ABCDEFG", ""], ["1", "AEEISTU", 14]], "pts"),  # the rejected line first
        ([["1", "AEEISTU", "14"], ["2", "E+NRSTU", "59*"], ["3", "-", "0c"]], "pts"),  # solo and correction marks
        ([["1", "AEEISTU", "-3"], ["2", "E+NRSTU", "+12"], ["3", "-", "97.5"]], "pts"),  # signs and decimals
    ],
)
def test_table_keeps_numbers_right_aligned_past_empty_cells_and_marks(rows: list[list[object]], column: str) -> None:
    lines = table(rows, ["#", "draw", column]).splitlines()
    header = lines[0]
    cells = [(line, line.split()[-1]) for line in lines[2:] if len(line.split()) == 3]  # rejected lines have 1
    digits_end = {line.rindex(cell) + len(cell.rstrip("*c")) for line, cell in cells}
    assert len(digits_end) == 1, lines  # every number's last digit in one column
    if not any(cell.endswith(("*", "c")) for _, cell in cells):
        assert digits_end == {header.index(column) + len(column)}, lines  # under the end of its heading


def test_table_leaves_words_left_aligned() -> None:
    lines = table([["Ana", "H8 VAGUE"], ["Benoît", ""], ["Cleo", "8H ZOO"]], ["who", "move"]).splitlines()
    assert [line.index(word) for line, word in zip(lines[2::2], ["H8", "8H"])] == [8, 8]


def test_board_text_writes_an_edition_labels() -> None:

    from core.edition import edition_from_json
    from core.notation import parse_move
    from core.placement import apply_placement, validate_move

    data = TEST_DATA / "editions" / "es-test.json"
    es = edition_from_json(data.read_text(encoding="utf-8"))
    board = Board()
    for move in ["H8 CHORRO", "11H OllA"]:
        apply_placement(board, validate_move(board, parse_move(move, alphabet=es.alphabet)))
    lines = board_text(board, Notation.FISF, [(8, 10)], edition=es).splitlines()
    assert all(len(line) == len(lines[0]) for line in lines[1:-1])
    row_h = lines[8]
    assert row_h.startswith("  H ")
    assert " CH  O RR  O" in row_h
    assert ">ll" in lines[9]  # the joker LL, last move marked
    assert board_text(board, Notation.FISF) != "\n".join(lines)  # without the edition: symbols
