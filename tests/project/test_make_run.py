"""``make run`` installs what running needs only and ``make test`` adds the test tool-chain; compiling a list is
said before it starts, with its size and about how long (issue 40)."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.tools.check import announce_build
from tests.processes import ROOT, cli_env


def planned(target: str) -> str:
    """What ``make TARGET`` would run in a fresh clone (every rule's commands, none run)."""
    done = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_installs_no_test_tool_and_make_test_does() -> None:
    run = planned("run")
    assert "-e ." in run
    assert "[test]" not in run
    assert "lexicon build fr en" in run
    assert "-e '.[test]'" in planned("test")


def test_a_bundled_list_not_compiled_yet_is_announced_with_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITRE_CACHE", str(tmp_path))
    said = io.StringIO()
    announce_build("fr", said)
    assert said.getvalue() == "compiling the word list fr (405,749 words, about 10 s)...\n"


def test_the_build_says_what_it_compiles_then_what_it_compiled(tmp_path: Path) -> None:
    words = tmp_path / "mine.txt"
    words.write_text("chat\nchien\n", encoding="utf-8")
    env = cli_env(tmp_path, ARBITRE_CACHE=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "bot", "lexicon", "build", str(words)]
    first = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0
    assert first.stderr == f"compiling the word list {words} (a list of yours)...\n"
    assert first.stdout.startswith("mine.txt: 2 words compiled to ")
    again = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert again.stderr == ""  # in the cache: nothing to wait for, nothing said
