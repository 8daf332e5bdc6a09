"""``arbitre score`` as a user runs it: a real process, its output and exit status."""

from __future__ import annotations

import json
import subprocess
import sys


def arbitre(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_seed_sequence_prints_scores_with_breakdowns() -> None:
    result = arbitre("score", "H7 HANTEZ", "6F FACADES", "G8 HUES", "F10 JOUET")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for line in [
        "HANTEZ (4+1+1+1+1+10x2)x2 = 56",
        "CHANTEZ 3+4+1+1+1+1+10 = 21",
        "bonus 50",
        "total 25 + 21 + 50 = 96",
        "total 8 + 5 + 3 + 2 + 2 = 20",
        "total 30 + 26 + 3 = 59",
    ]:
        assert line in out


def test_json_output() -> None:
    result = arbitre("score", "--json", "H4 VAGUE", "4G AVIONS")
    data = json.loads(result.stdout)
    assert [m["score"] for m in data] == [26, 18]
    assert data[0] == {
        "move": "H4 VAGUE",
        "score": 26,
        "bingo": False,
        "words": [{"word": "VAGUE", "score": 26, "breakdown": "(4x2+1+2+1+1)x2 = 26"}],
    }


def test_moves_from_stdin_and_unquoted_pairs() -> None:
    from_stdin = arbitre("score", "--json", stdin="H7 HANTEZ\n6F FACADES\n")
    assert [m["score"] for m in json.loads(from_stdin.stdout)] == [56, 96]
    unquoted = arbitre("score", "--json", "H7", "HANTEZ", "6F", "FACADES")
    assert [m["score"] for m in json.loads(unquoted.stdout)] == [56, 96]


def test_english_defaults_to_gcg() -> None:
    result = arbitre("score", "--edition", "en", "--json", "8G ZAX")
    assert json.loads(result.stdout)[0]["score"] == 38


def test_bad_move_prints_one_line_and_exits_1_after_earlier_moves() -> None:
    result = arbitre("score", "H7 HANTEZ", "A1 ZEN", "F10 JOUET")
    assert result.returncode == 1
    assert "HANTEZ (4+1+1+1+1+10x2)x2 = 56" in result.stdout
    assert result.stderr.count("\n") == 1
    assert "A1 ZEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_unreadable_move_is_one_line() -> None:
    result = arbitre("score", "H8 VA-GUE")
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0
    assert "'-' is not a letter" in result.stderr
