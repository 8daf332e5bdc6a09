"""``arbitre replay FILE.gcg [--json]``: recorded scores beside recomputed ones, exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.paths import TEST_DATA

DATA = TEST_DATA / "gcg"
TYPES = {"play", "pass", "exchange", "withdrawn", "challenge_bonus", "end_rack", "penalty", "time_penalty"}


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["replay", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    status, out, _ = replay(capsys, *args, "--json")
    return status, json.loads(out)


@pytest.mark.parametrize(
    ("name", "final"),
    [
        ("quackle_club.gcg", "final: helene 71, jp.o'neil-2 83"),
        ("woogles_csw21.gcg", "final: cesar_77 137, kat.o-b 32"),
        ("sixzero_nwl20.gcg", "final: ana 25, bo_2 -1"),
    ],
)
def test_samples_replay_clean(capsys: pytest.CaptureFixture[str], name: str, final: str) -> None:
    status, out, err = replay(capsys, str(DATA / name))
    assert (status, err) == (0, "")
    assert final in out
    assert "mismatches: none" in out


def test_text_shows_recorded_and_computed_scores_and_totals(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = replay(capsys, str(DATA / "quackle_club.gcg"))
    lines = out.splitlines()
    assert lines[0] == (
        f"{DATA / 'quackle_club.gcg'}: helene (Hélène Côté) vs jp.o'neil-2 (Jean-Pierre O'Neil) (rules naspa)"
    )
    rows = [line.split() for line in lines[2:-2]]
    assert rows[0] == ["4", "helene", "8d", "JOKER", "48", "48", "48", "48"]
    assert rows[6] == ["11", "jp.o'neil-2", "--", "-21", "-21", "26", "26"]  # line, recorded, computed, totals
    assert rows[-1] == ["16", "jp.o'neil-2", "(EGOP)", "+14", "+14", "83", "83"]


def test_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    status, data = replay_json(capsys, str(DATA / "woogles_csw21.gcg"))
    assert status == 0
    assert set(data) == {"players", "events", "mismatches", "final"}
    assert data["players"] == ["cesar_77", "kat.o-b"]
    assert data["mismatches"] == 0
    assert data["final"] == {"cesar_77": 137, "kat.o-b": 32}
    events = data["events"]
    assert all(set(e) == {"line", "player", "type", "move", "recorded", "computed", "cumulative"} for e in events)
    assert {e["type"] for e in events} <= TYPES
    assert events[0] == {
        "line": 8,
        "player": "cesar_77",
        "type": "play",
        "move": "8D VIZOR",
        "recorded": 42,
        "computed": 42,
        "cumulative": 42,
    }
    assert [(e["type"], e["move"], e["recorded"], e["cumulative"]) for e in events[1:5:3]] == [
        ("exchange", None, 0, 0),
        ("challenge_bonus", None, 5, 27),
    ]
    assert [(e["line"], e["type"], e["computed"], e["cumulative"]) for e in events[-3:]] == [
        (19, "end_rack", 5, 137),
        (20, "end_rack", -5, 42),
        (21, "time_penalty", -10, 32),
    ]


def test_withdrawn_type_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = replay_json(capsys, str(DATA / "quackle_club.gcg"))
    withdrawn = data["events"][6]
    assert withdrawn == {
        "line": 11,
        "player": "jp.o'neil-2",
        "type": "withdrawn",
        "move": None,
        "recorded": -21,
        "computed": -21,
        "cumulative": 26,
    }


def test_wrong_score_exits_1_and_names_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = replay(capsys, str(DATA / "wrong_score.gcg"))
    assert (status, err) == (1, "")
    assert "mismatches: 1" in out
    assert "line 13: ana G8 .OVE: recorded +13, computed +11" in out
    status, data = replay_json(capsys, str(DATA / "wrong_score.gcg"))
    assert status == 1
    assert data["mismatches"] == 1
    [wrong] = [e for e in data["events"] if e["recorded"] != e["computed"]]
    assert (wrong["line"], wrong["recorded"], wrong["computed"]) == (13, 13, 11)


def test_missing_or_unreadable_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for path in (tmp_path / "nope.gcg", tmp_path):
        status, out, err = replay(capsys, str(path))
        assert status == 1
        assert out == ""
        assert err.count("\n") == 1
        assert err.startswith(f"arbitre replay: {path}: ")


def test_malformed_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.gcg"
    path.write_text("#player1 ann Ann\n#player2 bob Bob\n>ann: EHLP 8G HE#LP +18 18\n", encoding="utf-8")
    for extra in ((), ("--json",)):
        status, out, err = replay(capsys, str(path), *extra)
        assert status == 1
        assert out == ""
        assert err.count("\n") == 1
        assert "line 3: " in err
        assert "HE#LP" in err


def test_refused_play_prints_what_was_replayed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "illegal.gcg"
    path.write_text(
        "#player1 ann Ann\n#player2 bob Bob\n>ann: EHLP 8G HELP +18 18\n>bob: AZ A1 ZA +33 33\n>ann: DO 9C DO +5 23\n",
        encoding="utf-8",
    )
    status, out, err = replay(capsys, str(path), "--json")
    data = json.loads(out)
    assert status == 1
    assert data["mismatches"] == 1
    assert data["final"] == {"ann": 18, "bob": 0}
    assert data["events"][-1] == {
        "line": 4,
        "player": "bob",
        "type": "play",
        "move": "A1 ZA",
        "recorded": 33,
        "computed": None,
        "cumulative": 0,
    }
    assert err.count("\n") == 1
    assert "line 4: " in err
    assert "replay stopped there" in err
    status, out, err = replay(capsys, str(path))
    assert status == 1
    assert "refused by the engine" in out
    assert "line 4" in err


def test_rules_option_overrides_the_lexicon(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mixed.gcg"
    path.write_text(
        "#lexicon CSW21\n#player1 ann Ann\n#player2 bob Bob\n>ann: EHLP 8G HELP +18 18\n"
        ">bob: OSU J5 SOU. +8 8\n>bob:  (EGOP) +14 22\n",
        encoding="utf-8",
    )
    # the file's own end line (twice the rack) is followed...
    status, data = replay_json(capsys, str(path))
    assert status == 0
    assert data["final"] == {"ann": 18, "bob": 22}
    # ...unless --rules imposes a rule set
    status, out, _ = replay(capsys, str(path), "--rules", "wespa")
    assert status == 1
    assert "mismatches: 2" in out
    assert "rules wespa" in out
    assert "after line 6: ann (EGOP): recorded -, computed -7" in out


@pytest.mark.parametrize("args", [[], ["x.gcg", "--rules", "fide"], ["x.gcg", "--frobnicate"]])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["replay", *args])
    assert info.value.code == 2
    assert "usage: arbitre" in capsys.readouterr().err


def test_real_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(DATA / "wrong_score.gcg"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["mismatches"] == 1
    result = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(DATA / "quackle_club.gcg")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0
    assert "Hélène Côté" in result.stdout


def test_quackle_files_listing_the_words_formed_after_the_cumulative_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Quackle writes the words a play formed after the cumulative score (``+80 146 HE, AD``)."""
    lines = (DATA / "quackle_club.gcg").read_bytes().decode("iso-8859-1").splitlines()
    words = {"JOKER": "JOKER", "ROAMED": "ROAMED, OE", "GRAzED": "GRAZED", "BANJO": "BANJO, JO", "OX": "OX, XI"}
    extended = []
    for line in lines:
        word = line.split()[-3] if line.startswith(">") and len(line.split()) >= 5 else ""
        extended.append(f"{line} {words[word]}" if word in words else line)
    assert sum(a != b for a, b in zip(lines, extended)) == 5
    path = tmp_path / "quackle_words.gcg"
    path.write_bytes("\n".join(extended).encode("iso-8859-1"))
    status, out, err = replay(capsys, str(path))
    assert (status, err) == (0, "")
    assert "final: helene 71, jp.o'neil-2 83" in out
    assert "mismatches: none" in out
    from core.gcg import read_gcg

    record = read_gcg(path.read_bytes())
    assert [e.move for e in record.entries if e.type == "play"][:2] == ["8d JOKER", "H8 ROAMED"]
