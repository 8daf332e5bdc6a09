"""Bad bytes, bad files and bad numbers get one clear line, never a traceback nor the apology (issue #11, item 4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def console(stdin: bytes, db: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """A real ``arbitre console`` process fed raw bytes."""
    env = dict(os.environ, ARBITRE_DATA=str(db.parent))
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db), *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )


# --- invalid bytes on the console's input --------------------------------------------------


def test_bad_bytes_on_the_console_are_replaced_said_and_the_console_goes_on(tmp_path: Path) -> None:
    script = (
        b"Ana: /nouvelle Ana Ben\n"
        b"Ana: /coup H8 VAG\xffE\n"  # a Latin-1 byte inside a word
        b"\xff\xfe\xc3\n"  # nothing but bad bytes, and a cut sequence
        b"Ana: /coup H8 VAGUE\n"
        b"Ben: /passe\n"
    )
    result = console(script, tmp_path / "a.sqlite")
    out, err = result.stdout.decode("utf-8"), result.stderr.decode("utf-8")
    assert result.returncode == 0, err
    assert "Traceback" not in err and "Error" not in err
    assert "[console] ligne 2 : octets invalides (pas de l'UTF-8) remplacés par \ufffd" in out
    assert "[console] ligne 3 : octets invalides" in out
    assert "Mot illisible « VAG\ufffdE »" in out  # the line was still read, and refused politely
    assert "Ana : H8 VAGUE" in out and "Ben passe" in out  # the lines after it are played


def test_bad_bytes_note_in_english_and_a_bad_sleep_is_refused(tmp_path: Path) -> None:
    script = b"Ann: /new Ann Bob\n\x80\n:sleep 1e999\n:sleep \xd9\xa3\n:sleep -1\nAnn: /score 8H VAGUE\n"
    result = console(script, tmp_path / "b.sqlite", "--lang", "en")
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, result.stderr.decode()
    assert "[console] line 2: bytes that are not UTF-8 replaced by \ufffd" in out
    assert out.count(":sleep SECONDS") == 3  # infinity, an Arabic-Indic 3, a negative time: refused at once
    assert "Ann: 8H VAGUE" in out
