"""``arbitre duplicate``: a whole solo game with computer tops, as a record or JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from core.board import Board
from core.draw import DrawRule, parse_draw
from core.edition import FRENCH
from core.notation import parse_move
from core.placement import apply_placement, validate_move
from core.scoring import score_placement
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
FR_LIST = ROOT / "lexicons" / "fr.txt.gz"
WORDS = (
    "AH AI AN AS AU BU CA CE CI DE DO DU EH EN ES ET EU EX FA FI GO HA HE HI HO IF IL JE LA LE LI LU MA ME MI"
    " MU NA NE NI NO NU OC OH ON OR OS OU PI PU QI RA RE RI RU SA SE SI SU TA TE TU UN US UT VA VE VS VU WU XI"
    " ZEN ZOO RIZ AXE EAU AIR AIS LES SON TAS RATES RIEN TRAINS"
).split()


@pytest.fixture
def small_list(tmp_path: Path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return path


def run_duplicate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["duplicate", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def check_game(data: dict[str, Any], words: set[str] | None) -> None:
    """Draws meet the rule; tops are legal, in the list, and re-score on the replayed board."""
    board = Board()
    rule = DrawRule()
    cumulative = 0
    previous = 0
    for move in data["moves"]:
        # a move without a play is cancelled and left out (FISF 3.6): the numbers then skip it
        index, after_cancel = move["n"], move["n"] > previous + 1
        assert index > previous
        previous = index
        kept, new = parse_draw(move["draw"])
        letters = (kept or "") + new
        assert rule.is_met(letters, index, FRENCH)
        repeats = set()
        for rejected in move["rejected"]:
            assert rejected.startswith("-")
            kept_r, new_r = parse_draw(rejected[1:])
            if after_cancel and rule.is_met((kept_r or "") + new_r, index, FRENCH):
                repeats.add("".join(sorted((kept_r or "") + new_r)))  # the cancelled draw again (3.6)
                continue
            assert not rule.is_met((kept_r or "") + new_r, index, FRENCH)
        assert len(repeats) <= 1
        placement = validate_move(board, parse_move(f"{move['ref']} {move['word']}"))
        if words is not None:
            assert all(w.text in words for w in placement.words)
        assert score_placement(placement, FRENCH).total == move["score"]
        apply_placement(board, placement)
        cumulative += move["score"]
        assert move["cumulative"] == cumulative
    assert data["total"] == cumulative
    assert data["moves"][0]["ref"][0].isalpha()  # the first top is horizontal (FISF: row letter first)


def test_small_list_game_is_legal_and_reproducible(capsys: pytest.CaptureFixture[str], small_list: Path) -> None:
    status, out, err = run_duplicate(capsys, "--lexicon", str(small_list), "--seed", "4", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert {"moves", "total"} <= set(data)
    assert data["seed"] == 4
    assert data["end"]
    assert len(data["moves"]) >= 5
    check_game(data, set(WORDS))
    _, again, _ = run_duplicate(capsys, "--lexicon", str(small_list), "--seed", "4", "--json")
    assert again == out
    _, other, _ = run_duplicate(capsys, "--lexicon", str(small_list), "--seed", "5", "--json")
    assert other != out


def test_text_record(capsys: pytest.CaptureFixture[str], small_list: Path) -> None:
    status, out, _ = run_duplicate(capsys, "--lexicon", str(small_list), "--seed", "4")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("seed 4, fr, word list")
    assert lines[1].split() == ["#", "draw", "ref", "top", "pts", "total"]
    assert any(line.startswith("End of the duplicate game (") for line in lines)
    assert lines[-1].startswith("total ")
    total = int(lines[-1].split()[1])
    moves = sum(1 for line in lines[2:-2] if line.split() and line.split()[0].isdigit())
    assert lines[-2] == f"{moves} moves, total of tops {total}."  # the computer alone: no empty standings table
    assert "Standings" not in out
    assert "player" not in out


def test_missing_word_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run_duplicate(capsys, "--lexicon", str(tmp_path / "none.txt"), "--seed", "1")
    assert status == 1
    assert out == ""
    assert err.count("\n") == 1
    assert "none.txt" in err


@pytest.mark.skipif(not FR_LIST.exists(), reason="lexicons/fr.txt.gz is not built")
def test_seed_1_on_the_french_list_rescores_through_arbitre_score() -> None:
    game = subprocess.run(
        [sys.executable, "-m", "bot", "duplicate", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert game.returncode == 0, game.stderr
    data = json.loads(game.stdout)
    assert len(data["moves"]) >= 15
    assert data["end"]
    check_game(data, None)
    moves = [f"{m['ref']} {m['word']}" for m in data["moves"]]
    scored = subprocess.run(
        [sys.executable, "-m", "bot", "score", "--json", *moves],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert scored.returncode == 0, scored.stderr
    assert [m["score"] for m in json.loads(scored.stdout)] == [m["score"] for m in data["moves"]]
