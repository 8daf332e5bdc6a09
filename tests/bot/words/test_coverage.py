"""``arbitre lexicon coverage``: the share of the words formed in real games (GCG records) that a list accepts.

A club that points the bot at a list of its own checks it this way against its published games; the records
here are the English ones of ``tests/data/gcg`` (26 words formed by the plays that stood)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.words.coverage import coverage, game_files, played_words
from core.lexicon import Lexicon
from tests.paths import TEST_DATA

GCG = TEST_DATA / "gcg"
GAMES = [GCG / "quackle_club.gcg", GCG / "woogles_csw21.gcg", GCG / "sixzero_nwl20.gcg"]
WORDS = (
    "JOKER ROAMED GRAZED BANJO OX HIE OH AI ME QI GI VIZOR FLOUR FADING GRANDEST SAX FLOURS TI AT XI "
    "HELP SOUP GRITS HOVE GOD"
).split()


def test_the_words_of_the_plays_that_stood() -> None:
    # main and cross words; the play taken back after a challenge (AXY) is not counted
    assert played_words((GCG / "quackle_club.gcg").read_bytes()) == [
        "JOKER", "ROAMED", "GRAZED", "BANJO", "OX", "OX", "HIE", "OH", "AI", "ME", "QI", "GI",
    ]  # fmt: skip
    assert "AXY" not in played_words((GCG / "quackle_club.gcg").read_bytes())


def test_share_and_missing_words() -> None:
    lexicon = Lexicon.from_words([w for w in WORDS if w not in ("OX", "GOD")])
    result = coverage(lexicon, GAMES)
    assert result.games == 3
    assert result.total == 26
    assert dict(result.missing) == {"OX": 2, "GOD": 1}
    assert result.accepted == 23
    assert result.percent == pytest.approx(100 * 23 / 26)


def test_folders_are_searched(tmp_path: Path) -> None:
    (tmp_path / "club" / "2026").mkdir(parents=True)
    target = tmp_path / "club" / "2026" / "a.gcg"
    target.write_bytes(GAMES[0].read_bytes())
    (tmp_path / "club" / "notes.txt").write_text("not a game", encoding="utf-8")
    assert game_files([tmp_path / "club", GAMES[1]]) == [target, GAMES[1]]


def test_command_on_a_club_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = tmp_path / "club.txt"
    club.write_text("\n".join(w for w in WORDS if w != "GOD") + "\n", encoding="utf-8")
    status = main(["lexicon", "coverage", str(club), "--games", str(GCG), "--min", "90"])
    out = capsys.readouterr().out
    # the folder: wrong_score.gcg is read too, and plays GOD again
    assert status == 0, out
    assert out.splitlines() == ["club.txt: 29 of 31 words of 4 games accepted (93.5 %)", "missing: GOD (2)"]
    status = main(["lexicon", "coverage", str(club), "--games", *map(str, GAMES), "--min", "99", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1
    assert (data["words"], data["accepted"], data["missing"]) == (26, 25, {"GOD": 1})
    assert data["percent"] == pytest.approx(96.15, abs=0.01)


def test_command_needs_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["lexicon", "coverage", "en"]) == 2
    assert "--games" in capsys.readouterr().err
    assert main(["lexicon", "coverage", "en", "--games", str(tmp_path)]) == 2
    assert "no .gcg file" in capsys.readouterr().err
