"""Running console transcripts: a real `arbitre console` process fed a script on stdin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def console_process(script: str, db: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """A console process that ran ``script`` on ``db`` and exited 0 without a traceback."""
    env = dict(os.environ, ARBITRE_DATA=str(db.parent))
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db), *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return result


def run_console(script: str, db: Path, *args: str, timeout: float = 120) -> str:
    """The console's whole output for a script; the process must exit 0."""
    return console_process(script, db, *args, timeout=timeout).stdout


def replies(output: str) -> list[str]:
    """The output split into replies (blank-line separated)."""
    return [block.strip() for block in output.split("\n\n") if block.strip()]
