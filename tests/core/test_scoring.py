"""Every worked example of docs/rules.md, with its arithmetic, and scoring properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.board import Board, Tile
from core.edition import ENGLISH, FRENCH
from core.errors import PlacementError
from core.notation import Notation, parse_move
from core.placement import apply_placement, validate_move, validate_tiles
from core.scoring import score_placement
from tests.paths import REPO_ROOT
from tests.positions import board_with, play_moves


def test_seed_sequence_hantez_facades_hues_jouet() -> None:
    _, scores = play_moves(["H7 HANTEZ", "6F FACADES", "G8 HUES", "F10 JOUET"])
    assert [s.total for s in scores] == [56, 96, 20, 59]
    hantez, facades, hues, jouet = scores
    assert str(hantez.words[0]) == "HANTEZ (4+1+1+1+1+10x2)x2 = 56"
    assert [str(w) for w in facades.words] == [
        "FACADES 4x3+1+3+1+2x3+1+1 = 25",
        "CHANTEZ 3+4+1+1+1+1+10 = 21",
    ]
    assert facades.bingo
    assert facades.sum_line == "25 + 21 + 50 = 96"
    assert [(w.word, w.score) for w in hues.words] == [("HUES", 8), ("HA", 5), ("UN", 3), ("ET", 2), ("SE", 2)]
    assert hues.sum_line == "8 + 5 + 3 + 2 + 2 = 20"
    assert [(w.word, w.score) for w in jouet.words] == [("JOUET", 30), ("JET", 26), ("OSE", 3)]
    assert jouet.words[1].breakdown == "8x3+1+1 = 26"


def test_vague_then_avions() -> None:
    _, (vague, avions) = play_moves(["H4 VAGUE", "4G AVIONS"])
    assert str(vague.words[0]) == "VAGUE (4x2+1+2+1+1)x2 = 26"
    assert str(avions.words[0]) == "AVIONS (1+4+1+1+1+1)x2 = 18"
    assert avions.total == 18


WORKED_EXAMPLES = [
    ("", "H3 ECOLES", ["ECOLES (1+3x2+1+1+1+1)x2 = 22"], 22),
    ("", "H3 ÉCOLES", ["ECOLES (1+3x2+1+1+1+1)x2 = 22"], 22),
    ("", "H4 MOUTONS", ["MOUTONS (2x2+1+1+1+1+1+1)x2 = 20"], 70),
    ("K8:T", "K5 MOUTONS", ["MOUTONS (2+1+1+1+1+1+1)x4 = 32"], 32),
    ("A4:J", "A4 JOUEZ", ["JOUEZ (8+1+1+1+10)x3 = 63"], 63),
    ("G2:E", "H1 EX", ["EX (1+10)x3 = 33", "EX 1+10 = 11"], 44),
    ("E6:A G6:E F5:E", "6E AXE", ["AXE 1+10x3+1 = 32", "EX 1+10x3 = 31"], 63),
    ("E6:O F6:N G6:D H6:E", "D4 CAFE", ["CAFE (3+1+4+1)x2 = 18", "FONDE 4+1+1+2+1 = 9"], 27),
    ("F5:I", "F2 kIWI", ["KIWI 0x3+1+10+1 = 12"], 12),
    ("F5:I", "F2 KIWI", ["KIWI 10x3+1+10+1 = 42"], 42),
    ("F5:I", "F2 (K)IWI", ["KIWI 0x3+1+10+1 = 12"], 12),
    ("", "H6 ZEbRE", ["ZEBRE (10+1+0+1+1)x2 = 26"], 26),
    ("", "H6 ZEBRE", ["ZEBRE (10+1+3+1+1)x2 = 32"], 32),
]
SEED_SEQUENCES = [("VAGUE", 26), ("AVIONS", 18), ("HANTEZ", 56), ("FACADES", 96), ("HUES", 20), ("JOUET", 59)]


@pytest.mark.parametrize(
    ("setup", "move", "expected_words", "total"),
    WORKED_EXAMPLES,
    ids=[
        "ECOLES",
        "ECOLES-accent",
        "MOUTONS-first",
        "MOUTONS-x4",
        "JOUEZ-old-J",
        "EX-EX",
        "AXE-EX",
        "CAFE-FONDE",
        "KIWI-joker",
        "KIWI-real",
        "KIWI-bracket",
        "ZEBRE-joker",
        "ZEBRE-real",
    ],
)
def test_worked_examples(setup: str, move: str, expected_words: list[str], total: int) -> None:
    board = board_with(setup) if setup else Board()
    placement = validate_move(board, parse_move(move))
    score = score_placement(placement, FRENCH)
    assert [str(w) for w in score.words] == expected_words
    assert score.total == total


def test_bingo_bonus_only_for_seven_new_tiles() -> None:
    _, (moutons,) = play_moves(["H4 MOUTONS"])
    assert moutons.bonus == 50
    assert moutons.bingo
    board = board_with("K8:T")
    through = score_placement(validate_move(board, parse_move("K5 MOUTONS")), FRENCH)
    assert through.bonus == 0
    assert not through.bingo


def test_played_through_letter_as_dot_or_letter() -> None:
    board = board_with("K8:T")
    with_dot = score_placement(validate_move(board, parse_move("K5 MOU.ONS")), FRENCH)
    with_letter = score_placement(validate_move(board, parse_move("K5 MOUTONS")), FRENCH)
    assert with_dot == with_letter


def test_two_triple_words_multiply_to_nine() -> None:
    # ANTIGELS on row A from A1 to A8: triple words at both ends, the I already on A4.
    board = board_with("A4:I")
    score = score_placement(validate_move(board, parse_move("A1 ANTIGELS")), FRENCH)
    assert score.words[0].breakdown == "(1+1+1+1+2+1+1+1)x9 = 81"
    assert score.total == 81 + 50


def test_fifteen_letters_over_three_triple_words_multiply_by_27() -> None:
    # 8 letters already on row A, 7 new ones including A1, A8 and A15.
    board = board_with("A2:X A3:Y A5:H A7:N A9:U A11:A A12:Z A14:N")
    placement = validate_move(board, parse_move("A1 OXYPHENBUTAZONE"), Notation.FISF)
    score = score_placement(placement, ENGLISH)
    values = [ENGLISH.values[c] for c in "OXYPHENBUTAZONE"]
    # A4 (P) is a new tile on a double letter; A12 (Z) is old, so its premium is spent.
    expected = (sum(values) + values[3]) * 27
    assert score.words[0].score == expected
    assert score.words[0].breakdown.endswith(f")x27 = {expected}")
    assert score.bonus == 50
    assert score.total == expected + 50


def test_english_values_and_gcg_notation() -> None:
    _, (zax,) = play_moves(["8G ZAX"], edition=ENGLISH, notation=Notation.GCG)
    # row 8 from column G: Z on G8, A on H8 (star), X on I8
    assert str(zax.words[0]) == "ZAX (10+1+8)x2 = 38"


def test_single_tile_forming_two_words_scores_both() -> None:
    board = board_with("H7:A H9:E G8:O I8:S")
    horizontal = score_placement(validate_move(board, parse_move("H7 AXE")), FRENCH)
    vertical = score_placement(validate_move(board, parse_move("8G OXS")), FRENCH)
    assert horizontal.words[0].word == "AXE"
    assert horizontal.words[1].word == "OXS"
    assert vertical.words[0].word == "OXS"
    assert vertical.words[1].word == "AXE"
    assert horizontal.total == vertical.total


@st.composite
def random_game(draw: st.DrawFn) -> list[list[tuple[int, int, Tile]]]:
    moves = []
    for _ in range(draw(st.integers(1, 6))):
        horizontal = draw(st.booleans())
        row, col = draw(st.integers(0, 14)), draw(st.integers(0, 14))
        length = draw(st.integers(1, 7))
        tiles = []
        for i in range(length):
            r, c = (row, col + i) if horizontal else (row + i, col)
            letter = draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
            tiles.append((r, c, Tile(letter, draw(st.booleans()))))
        moves.append(tiles)
    return moves


@settings(max_examples=300, deadline=None)
@given(random_game())
def test_move_score_is_sum_of_words_plus_bonus(moves: list[list[tuple[int, int, Tile]]]) -> None:
    board = Board()
    for tiles in moves:
        try:
            placement = validate_tiles(board, tiles)
        except PlacementError:
            continue
        score = score_placement(placement, FRENCH)
        assert score.total == sum(w.score for w in score.words) + score.bonus
        assert score.bonus == (50 if len(placement.new_tiles) == 7 else 0)
        for word in score.words:
            assert word.breakdown.endswith(f"= {word.score}")
        # The typed form of a placement re-validates to the same placement and score.
        retyped = validate_move(board, parse_move(placement.notation()))
        assert retyped == placement
        apply_placement(board, placement)


def test_every_worked_example_of_the_digest_is_tested_here() -> None:
    """docs/rules.md's table (case, expected) and this file's examples name the same words and totals."""
    digest = (REPO_ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = digest.split("Worked examples", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|")[1:4] for line in table.splitlines()[2:] if line.startswith("|")]
    listed = {(case.split()[0], int(re.findall(r"\d+", expected.rsplit("=", 1)[1])[0])) for case, _, expected in rows}
    tested = {(move.split()[1].upper().replace("(K)", "K"), total) for _, move, _, total in WORKED_EXAMPLES}
    tested |= set(SEED_SEQUENCES)
    assert len(rows) == 15, rows
    assert listed <= tested, sorted(listed - tested)
