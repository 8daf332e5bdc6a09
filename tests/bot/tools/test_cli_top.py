"""``arbitre top``: best plays for a rack, from typed moves or a board file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.tools.top import TIE_RULE_WORDS
from core.board import Board
from core.edition import ENGLISH, FRENCH
from core.notation import Notation, parse_move
from core.placement import apply_placement, validate_move
from core.scoring import score_placement
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
WORDS = (
    "HANTEZ CHANTEZ FACADES HUES HA UN ET SE JOUET JET OSE ZEN NEZ ZONE ZONES EU EUS SU TU TE TES ETE ETES"
    " SUE SUES USE USEE USEES NE NU NUE NUES UT US ES AS SA TA AN NA AH HE EH HUE"
).split()


@pytest.fixture
def small_list(tmp_path: Path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text("\n".join(w.lower() for w in WORDS) + "\n", encoding="utf-8")
    return path


def run_top(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["top", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def board_after(moves: list[str], notation: Notation = Notation.FISF) -> Board:
    board = Board()
    for text in moves:
        placement = validate_move(board, parse_move(text, notation), notation)
        apply_placement(board, placement)
    return board


def test_json_plays_are_legal_best_first_and_rescore(capsys: pytest.CaptureFixture[str], small_list: Path) -> None:
    status, out, err = run_top(
        capsys, "--lexicon", str(small_list), "--moves", "H7 HANTEZ", "--rack", "ESU?TEO", "--json", "--count", "5"
    )
    assert status == 0, err
    data = json.loads(out)
    assert set(data) == {"plays", "searched_ms"}
    assert data["searched_ms"] >= 0
    plays = data["plays"]
    assert 1 <= len(plays) <= 5
    assert [p["score"] for p in plays] == sorted((p["score"] for p in plays), reverse=True)
    board = board_after(["H7 HANTEZ"])
    for play in plays:
        assert set(play) == {"ref", "word", "score", "jokers"}
        placement = validate_move(board, parse_move(f"{play['ref']} {play['word']}"))
        assert all(w.text in WORDS for w in placement.words)
        assert score_placement(placement, FRENCH).total == play["score"]
        assert play["jokers"] == sum(1 for c in play["word"] if c.islower()) == placement.jokers


def test_text_output_has_breakdowns(capsys: pytest.CaptureFixture[str], small_list: Path) -> None:
    status, out, _ = run_top(capsys, "--lexicon", str(small_list), "--rack", "ZENOSAT", "--count", "3")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(" 1. H")  # first move: horizontal only
    assert any(line.strip().startswith("ZONES (") for line in lines)
    assert lines[-2] in TIE_RULE_WORDS.values()  # why the first play is the top, in words
    assert lines[-1].startswith("Search took ")
    assert lines[-1].endswith(" ms.")


def test_board_file_gives_the_same_plays_as_the_moves(
    capsys: pytest.CaptureFixture[str], small_list: Path, tmp_path: Path
) -> None:
    moves = "H7 HANTEZ,6F FACADES"
    board_file = tmp_path / "board.txt"
    board_file.write_text(str(board_after(moves.split(","))) + "\n", encoding="utf-8")
    common = ["--lexicon", str(small_list), "--rack", "EUS?NTE", "--json"]
    _, from_moves, _ = run_top(capsys, *common, "--moves", moves)
    _, from_board, _ = run_top(capsys, *common, "--board", str(board_file))
    assert json.loads(from_moves)["plays"] == json.loads(from_board)["plays"]
    assert json.loads(from_moves)["plays"]


def test_board_file_with_a_joker(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rows = ["." * 15] * 15
    rows[7] = "......zEN......"
    board_file = tmp_path / "board.txt"
    board_file.write_text("\n".join(rows) + "\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("ZEN\nZENS\nENS\nES\n", encoding="utf-8")
    status, out, err = run_top(capsys, "--lexicon", str(words), "--board", str(board_file), "--rack", "ES", "--json")
    assert status == 0, err
    plays = json.loads(out)["plays"]
    assert {"ref": "H7", "word": "zENS", "score": 3, "jokers": 0} in plays  # the joker on the board is worth 0
    board = Board.from_rows(rows)
    for play in plays:
        placement = validate_move(board, parse_move(f"{play['ref']} {play['word']}"))
        assert score_placement(placement, FRENCH).total == play["score"]


def test_gcg_notation_for_english(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    words = tmp_path / "en.txt"
    words.write_text("ZAX\nAX\nXI\nAXE\nZAXES\nEX\n", encoding="utf-8")
    status, out, err = run_top(
        capsys, "--edition", "en", "--lexicon", str(words), "--moves", "8G ZAX", "--rack", "ESI", "--json"
    )
    assert status == 0, err
    plays = json.loads(out)["plays"]
    assert plays
    board = board_after(["8G ZAX"], Notation.GCG)
    for play in plays:
        placement = validate_move(board, parse_move(f"{play['ref']} {play['word']}", Notation.GCG), Notation.GCG)
        assert score_placement(placement, ENGLISH).total == play["score"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--moves", "H7 HANTEZ,A1 ZEN", "--rack", "ABC"], "move 2 'A1 ZEN'"),
        (["--moves", "H7 HAN-TEZ", "--rack", "ABC"], "'-' is not a letter"),
        (["--rack", "AB1"], "'1' is not a letter or a joker"),
        (["--rack", "ABCDEFGH"], "8 tiles, a rack holds 7"),
        (["--rack", "???"], "3 jokers, the game has 2"),
    ],
)
def test_input_errors_are_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = run_top(capsys, *args)
    assert status == 1
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("arbitre top: ")
    assert message in err


def test_bad_board_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("...\n", encoding="utf-8")
    status, _, err = run_top(capsys, "--board", str(short), "--rack", "ABC")
    assert status == 1
    assert "15 lines of 15 squares" in err
    assert err.count("\n") == 1
    status, _, err = run_top(capsys, "--board", str(tmp_path / "missing.txt"), "--rack", "ABC")
    assert status == 1
    assert "missing.txt" in err
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(["." * 15] * 14 + ["......1........"]), encoding="utf-8")
    status, _, err = run_top(capsys, "--board", str(bad), "--rack", "ABC")
    assert status == 1
    assert "line 15, column 7" in err


def test_missing_word_list_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run_top(capsys, "--lexicon", str(tmp_path / "nope.txt"), "--rack", "ABC")
    assert status == 1
    assert "nope.txt" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--rack", "ABC", "--count", "0"],
        ["--rack", "ABC", "--moves", "H8 ZEN", "--board", "x.txt"],
        ["--moves", "H8 ZEN"],
        ["--rack", "ABC", "--edition", "xx"],  # no such edition
    ],
)
def test_argument_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["top", *args])
    assert info.value.code == 2


@pytest.mark.skipif(not (ROOT / "lexicons" / "fr.txt.gz").exists(), reason="lexicons/fr.txt.gz is not built")
def test_default_french_list_as_a_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "top", "--moves", "H7 HANTEZ", "--rack", "FACADES", "--json", "--count", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    plays = json.loads(result.stdout)["plays"]
    assert len(plays) == 3
    # FACADES in 6F scores 96 (docs/rules.md); the top scores at least that
    assert plays[0]["score"] >= 96
    board = board_after(["H7 HANTEZ"])
    for play in plays:
        placement = validate_move(board, parse_move(f"{play['ref']} {play['word']}"))
        assert score_placement(placement, FRENCH).total == play["score"]


@pytest.mark.parametrize(
    ("rack", "words"),
    [
        ("ZENOSAT", "1 is the top: it scores more than every other play."),  # H4 ZONES 48, then 30
        ("NEZ", "1 is the top: others score as much with as few jokers; it comes first in board order"),  # NEZ = ZEN
        ("EEEEEEE", "no play for EEEEEEE"),
    ],
)
def test_the_last_lines_say_in_words_why_the_first_play_is_the_top(
    capsys: pytest.CaptureFixture[str], small_list: Path, rack: str, words: str
) -> None:
    status, out, _ = run_top(capsys, "--lexicon", str(small_list), "--rack", rack, "--count", "3")
    assert status == 0
    lines = out.splitlines()
    assert any(line.startswith(words) for line in lines[-2:]), lines[-2:]
    assert "(order;" not in out
    assert "(score;" not in out
