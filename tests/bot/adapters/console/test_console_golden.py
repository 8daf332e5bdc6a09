"""What players see is unchanged by refactoring: a classic game (mistakes, a challenge, a restart) and a
duplicate round (private answers, one twice, one in public, a manual close) typed into real console
processes, compared with golden transcripts (issue 22: "a console transcript of a classic game and of a
duplicate game, identical before and after").

The goldens were written by the code before the split of the duplicate commands (commit fb0bd08);
``ARBITRE_UPDATE_GOLDEN=1`` rewrites them after a change players are meant to see."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.paths import TEST_DATA
from tests.transcripts import run_console

GOLDEN = TEST_DATA / "golden"


def normalised(output: str) -> str:
    """The transcript without what changes from run to run: the clock's time of day and the seconds left,
    and the images' file names (they carry the process id)."""
    output = re.sub(r"\((image|file): [^)]*/([a-z0-9-]+?)-\d+-(\d+)\.(\w+)\)", r"(\1: \2-\3.\4)", output)
    output = re.sub(r"Fin dans [^,]+, à \d\d:\d\d:\d\d", "Fin dans …, à HH:MM:SS", output)
    return re.sub(r"\b\d\d:\d\d:\d\d\b", "HH:MM:SS", output)


def check(name: str, output: str) -> None:
    golden = GOLDEN / f"{name}.golden"
    text = normalised(output)
    if os.environ.get("ARBITRE_UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def script(name: str) -> str:
    return (GOLDEN / f"{name}.script").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["console_duplicate"])
def test_a_duplicate_round_reads_as_before(name: str, tmp_path: Path) -> None:
    check(name, run_console(script(name), tmp_path / "game.sqlite"))


def test_a_classic_game_and_its_restart_read_as_before(tmp_path: Path) -> None:
    db = tmp_path / "game.sqlite"
    check("console_classic", run_console(script("console_classic"), db))
    check("console_classic_restart", run_console(script("console_classic_restart"), db))
