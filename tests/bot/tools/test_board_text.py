"""Boards written as text in any edition (``core.board_text``, ``arbitre top --board``): multi-letter tiles in
brackets or squares separated by spaces, the A-Z files of fifteen characters a line read as before (issue 42)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from core.board import SIZE, Board, Tile
from core.board_text import board_lines, read_board
from core.edition import EDITIONS, FRENCH, edition_by_code
from core.errors import BoardSyntaxError, SyntaxProblem
from core.notation import Notation, parse_move
from core.placement import apply_placement, validate_move


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, Board]:
    """An edition's code and a board of its tiles (not a legal position: any squares, jokers among them)."""
    code = draw(st.sampled_from(sorted(EDITIONS)))
    symbols = EDITIONS[code].alphabet.symbols
    board = Board()
    squares = draw(st.sets(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=40))
    for row, col in sorted(squares):
        board.place(row, col, Tile(draw(st.sampled_from(symbols)), joker=draw(st.booleans())))
    return code, board


@given(boards())
def test_the_written_board_reads_back(case: tuple[str, Board]) -> None:
    code, board = case
    alphabet = EDITIONS[code].alphabet
    lines = board_lines(board, alphabet)
    assert read_board(lines, alphabet) == board


@given(boards())
def test_spaced_squares_read_as_the_compact_form(case: tuple[str, Board]) -> None:
    code, board = case
    alphabet = EDITIONS[code].alphabet
    spaced = []
    for row in range(SIZE):
        squares = []
        for col in range(SIZE):
            tile = board.get(row, col)
            label = "." if tile is None else alphabet.label(tile.letter)
            squares.append(label.lower() if tile is not None and tile.joker else label)
        spaced.append(" ".join(squares))
    assert read_board(["# a comment", "", *spaced], alphabet) == board


def test_a_to_z_files_of_fifteen_characters_read_as_before() -> None:
    board = Board()
    for text in ["H4 VAGUE", "4G AVIONS"]:
        apply_placement(board, validate_move(board, parse_move(text), Notation.FISF))
    board.place(0, 0, Tile("Z", joker=True))
    assert read_board(board.rows(), FRENCH.alphabet) == board
    assert board_lines(board, FRENCH.alphabet) == board.rows()


def test_multi_letter_tiles_and_letters_of_their_own() -> None:
    spanish = edition_by_code("es").alphabet
    empty = "." * SIZE
    rows = [empty] * 7 + ["....[CH]I[ll]O.[RR]Ñ....", *[empty] * 7]
    board = read_board(rows, spanish)
    row = [board.get(7, col) for col in range(SIZE)]
    assert [spanish.label(t.letter) if t else "." for t in row[4:10]] == ["CH", "I", "LL", "O", ".", "RR"]
    assert row[6] is not None
    assert row[6].joker
    assert row[10] == Tile("Ñ")
    assert board_lines(board, spanish)[7] == "....[CH]I[ll]O.[RR]Ñ...."
    catalan = edition_by_code("ca").alphabet
    spaced = [". " * 14 + "."] * 7 + [". . . . C O L·L E G I . NY QU . Ç", *[". " * 14 + "."] * 7]
    board = read_board(spaced, catalan)
    assert [catalan.label(board.get(7, c).letter) for c in (6, 11, 12, 14)] == ["L·L", "NY", "QU", "Ç"]  # type: ignore[union-attr]
    dotted = [empty] * 7 + ["....CO[L.L]EGI....Ç", *[empty] * 7]
    assert read_board(dotted, catalan).get(7, 6) == Tile(catalan.tiles("L·L"))


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        (["." * SIZE] * 14, SyntaxProblem.BOARD_LINES),
        (["." * 16] + ["." * SIZE] * 14, SyntaxProblem.BOARD_SQUARES),
        (["...[CH" + "." * 9] + ["." * SIZE] * 14, SyntaxProblem.BOARD_SQUARE),
        (["1" + "." * 14] + ["." * SIZE] * 14, SyntaxProblem.BOARD_SQUARE),
        (["[CHO]" + "." * 14] + ["." * SIZE] * 14, SyntaxProblem.BOARD_SQUARE),
    ],
)
def test_unreadable_boards_name_the_line_at_fault(lines: list[str], problem: SyntaxProblem) -> None:
    with pytest.raises(BoardSyntaxError) as raised:
        read_board(lines, edition_by_code("es").alphabet)
    assert raised.value.problem is problem


# --- arbitre top --board in Spanish and Catalan -----------------------------------------------------------


def _top(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    status = main(["top", "--json", "--count", "5", *args])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    plays: list[dict[str, object]] = json.loads(captured.out)["plays"]
    return plays


@pytest.mark.parametrize(
    ("code", "words", "moves", "rack"),
    [
        (
            "es",
            ["CHICO", "CHICOS", "LLANO", "LLANOS", "AÑO", "AÑOS", "CARRO", "CARROS", "SO", "NO"],
            "H6 CHICO,9F AÑO",
            "SLLANO?",
        ),
        (
            "ca",
            ["COL·LEGI", "COL·LEGIS", "ANY", "ANYS", "QUE", "QUES", "ÇA", "SI", "IS"],
            "H4 COL·LEGI,9G SI",
            "SQUE?IS",
        ),
    ],
)
def test_board_files_give_the_plays_of_the_moves(
    code: str, words: list[str], moves: str, rack: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    edition = edition_by_code(code)
    word_list = tmp_path / "words.txt"
    word_list.write_text("\n".join(words) + "\n", encoding="utf-8")
    board = Board()
    for text in moves.split(","):
        move = parse_move(text, alphabet=edition.alphabet)
        apply_placement(board, validate_move(board, move, Notation.FISF, rack_size=edition.rack_size))
    compact = tmp_path / "compact.txt"
    compact.write_text("\n".join(board_lines(board, edition.alphabet)) + "\n", encoding="utf-8")
    assert any("[" in line for line in compact.read_text(encoding="utf-8").splitlines())
    common = ["--edition", code, "--lexicon", str(word_list), "--rack", rack]
    from_moves = _top(capsys, *common, "--moves", moves)
    assert from_moves
    assert _top(capsys, *common, "--board", str(compact)) == from_moves
