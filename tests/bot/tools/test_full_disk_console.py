"""A full disk never ends the console (issue 37, item 13): on a real 2 MB tmpfs filled to its last byte, the
real ``arbitre console`` fed a script answers every line (the disk is full, or the command's own answer), writes
no image it has no room for, prints no traceback, and goes on normally once room is freed. Every write of the
outbox (marking a reply delivered included) says a full disk as ``StorageFullError``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.chat import Reply
from bot.messages import say
from bot.storage import SQLiteStorage, StorageFullError
from tests.bot.storage.test_sqlite_files import fill, small_disk
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
PENALTIES = range(2, 122)  # typed while the disk is full
SENTINEL = 500  # typed once room is freed

__all__ = ["small_disk"]  # the fixture, used by name


def console(disk: Path, err: Path) -> subprocess.Popen[str]:
    """The console on a database on ``disk``, its stderr written to ``err`` (never a pipe nobody reads)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(ARBITRE_DATA=str(disk))
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--db", str(disk / "club.sqlite"), "--admin", "Ana"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=err.open("w"),
        text=True,
        cwd=ROOT,
        env=env,
    )


SHOWN_ABOVE = "Déjà affiché dans le salon"  # an unchanged board asked again within a minute: shown privately


def boards_shown(out: str) -> int:
    """How many /grille ``out`` answers: posted with their image line, or privately as unchanged."""
    return out.count("(image: ") + out.count(SHOWN_ABOVE)


def answers(out: str, full: str) -> int:
    """How many lines of the script ``out`` answers: penalties counted or refused, boards shown."""
    counted = {int(n) for n in re.findall(r"Ben perd (\d+) point", out)} & set(PENALTIES)
    return len(counted) + out.count(full) + boards_shown(out)


def test_the_console_answers_every_line_of_a_script_on_a_full_disk(small_disk: Path) -> None:
    log = small_disk.parent / "stderr.txt"  # off the small disk
    process = console(small_disk, log)
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write("Ana: /nouvelle Ana Ben\nAna: /penalite Ben 1\n")
    process.stdin.flush()
    seen = ""
    while "Ben perd 1 point" not in seen:  # the game is stored before the disk fills
        line = process.stdout.readline()
        assert line, seen
        seen += line
    filler = fill(small_disk)
    full = say("fr", "disk_full")
    script = []
    for number in PENALTIES:
        script.append(f"Ana: /penalite Ben {number}")
        if number % 20 == 0:
            script.append("Ana: /grille")  # a board image: no room to write it
    process.stdin.write("\n".join(script) + "\n")
    process.stdin.flush()
    # room again: the lines after it are answered as usual (the script goes on once the answers above are out)
    while answers(seen, full) < len(script):
        line = process.stdout.readline()
        assert line, (seen[-2000:], log.read_text()[-2000:])
        seen += line
    filler.unlink()
    process.stdin.write(f"Ana: /penalite Ben {SENTINEL}\n")
    process.stdin.close()
    out = seen + process.stdout.read()
    process.wait(timeout=120)
    err = log.read_text()
    assert process.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    answered = {int(n) for n in re.findall(r"Ben perd (\d+) point", out)}
    refused = out.count(full)
    assert all(n in answered for n in (1, SENTINEL)), (out[-1500:], err[-1500:])
    assert refused > 0  # the disk was full for these commands
    assert len(answered & set(PENALTIES)) + refused == len(PENALTIES)  # every penalty answered once
    boards = boards_shown(out)
    assert boards == len(PENALTIES) // 20, out[-2000:]  # every /grille answered, with or without its image
    assert "(image: non écrit : " in out  # not written: the disk is full
    assert all("is full" in line or "disk" in line for line in err.splitlines()), err[-3000:]


def test_marking_a_reply_delivered_on_a_full_disk_is_storage_full(small_disk: Path) -> None:
    store = SQLiteStorage(small_disk / "club.sqlite")
    try:
        ids = store.enqueue([Reply(f"message {n} " + "x" * 2000, channel="console") for n in range(300)], 0.0)
        filler = fill(small_disk)
        with pytest.raises(StorageFullError):
            for outbox_id in ids:  # each marks another page: the log grows past what the disk holds
                store.mark_delivered([outbox_id], 1.0)
        filler.unlink()
        store.mark_delivered(ids[-1:], 2.0)  # room again
        assert store.outbox_state(ids[-1]) == "delivered"
    finally:
        store.close()
