"""A full disk is said to be full, never a damaged database: the truncation check counts the pages still in
the write-ahead log, and a write the disk refuses is one clear answer and one log line (issue #20, item 32)."""

from __future__ import annotations

import errno
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.chat import Incoming
from bot.messages import say
from bot.referee import Referee
from bot.storage import GameKind, GameSetup, SQLiteStorage, StorageFullError, StorageOpenError
from bot.storage.sql.sqlite_files import DISK_FULL
from tests.bot.commands.test_bad_inputs import read_only_file
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
SETUP = GameSetup("fr", "fisf", "fr", rules="box-fr", players=("Ana", "Ben"))


def as_after_a_checkpoint_on_a_full_disk(live: Path, copy: Path) -> int:
    """Copy the open database ``live`` and its log to ``copy`` (as a ``kill -9`` leaves them), its header
    then saying what a checkpoint writes first: the page count, whose pages the full disk kept in the log.
    The page count written."""
    shutil.copyfile(live, copy)
    shutil.copyfile(live.with_name(live.name + "-wal"), copy.with_name(copy.name + "-wal"))
    data = bytearray(copy.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    pages = copy.with_name(copy.name + "-wal").stat().st_size // page_size
    assert len(data) < pages * page_size  # the file is shorter than the header will say
    data[28:32] = pages.to_bytes(4, "big")
    data[92:96] = data[24:28]  # the page count is valid
    copy.write_bytes(bytes(data))
    return pages


def test_a_file_shorter_than_its_header_with_the_pages_in_its_log_opens_whole(tmp_path: Path) -> None:
    live = SQLiteStorage(tmp_path / "live.sqlite")  # its pages stay in the log until it closes
    game = live.create_game("club", GameKind.CLASSIC, "ana", SETUP)
    for number in range(300):
        live.append_event(game.id, {"kind": "pass", "player": "Ana", "n": number}, "ana")
    pages = as_after_a_checkpoint_on_a_full_disk(live.path, tmp_path / "club.sqlite")
    live.close()
    size = (tmp_path / "club.sqlite").stat().st_size
    assert size < pages * 4096, (size, pages)
    undo = read_only_file(tmp_path)  # SQLite cannot make its index beside it: the file is not at fault
    if undo is not None:
        try:
            with pytest.raises(StorageOpenError) as refused:
                SQLiteStorage(tmp_path / "club.sqlite")
        finally:
            undo()
        assert refused.value.reason == f"its folder {tmp_path} is not writable"
    store = SQLiteStorage(tmp_path / "club.sqlite")
    try:
        assert [e.data["n"] for e in store.events(game.id)] == list(range(300))  # every acknowledged event
    finally:
        store.close()


def test_a_file_shorter_than_its_header_without_a_log_is_still_truncated(tmp_path: Path) -> None:
    live = SQLiteStorage(tmp_path / "live.sqlite")
    game = live.create_game("club", GameKind.CLASSIC, "ana", SETUP)
    for number in range(300):
        live.append_event(game.id, {"kind": "pass", "player": "Ana", "n": number}, "ana")
    pages = as_after_a_checkpoint_on_a_full_disk(live.path, tmp_path / "club.sqlite")
    live.close()
    (tmp_path / "club.sqlite-wal").unlink()
    with pytest.raises(StorageOpenError) as refused:
        SQLiteStorage(tmp_path / "club.sqlite")
    assert refused.value.reason.startswith(f"it is truncated: 4096 bytes where its header announces {pages} pages")


# --- a real full disk: a 2 MB tmpfs (root only; skipped where mounting is not permitted) -----------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.decode().strip()[:100]}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk: Path, name: str = "filler") -> Path:
    """Fill ``disk`` with one file until it refuses more, even a byte; the file."""
    filler = disk / name
    with filler.open("wb", buffering=0) as out:
        for size in (4096, 1):  # whole pages, then the last bytes
            try:
                while True:
                    out.write(b"\0" * size)
            except OSError as error:
                assert error.errno == errno.ENOSPC
    return filler


def test_a_full_disk_is_said_full_and_loses_nothing_acknowledged(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = small_disk / "club.sqlite"
    store = SQLiteStorage(path)
    referee = Referee(store, ready_registry(), images=False)
    room = "console:club"

    def send(text: str) -> str:
        return "\n".join(r.text for r in referee.handle(Incoming(room, "u:ana", "Ana", text)))

    assert "Nouvelle partie" in send("/nouvelle Ana Ben")
    before = [send(f"/penalite Ben {number}") for number in range(1, 31)]
    assert not any(say("fr", "disk_full") in answer for answer in before)
    filler = fill(small_disk)
    answers = [*before]
    with caplog.at_level(logging.ERROR, logger="arbitre"):
        for number in range(2000):
            answer = send(f"/penalite Ben {number + 31}")
            answers.append(answer)
            if answer == say("fr", "disk_full"):
                break
    assert answers[-1] == say("fr", "disk_full"), answers[-3:]
    acknowledged = len(answers) - 1
    full = [r for r in caplog.records if "is full" in r.getMessage()]
    assert full
    assert all(r.exc_info is None for r in full)
    assert "Traceback" not in caplog.text
    assert say("fr", "apology") not in answers
    with pytest.raises(StorageFullError):
        store.append_event(1, {"kind": "pass", "player": "Ana"}, "ana")
    referee.clock.shutdown()
    store.close()

    # a restart with the disk still full, the shared-memory index gone (SQLite rebuilds it from the log, which
    # needs room): the file is shorter than its header says, its pages in the log; the disk is said full
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    last = fill(small_disk, "last")
    header = path.read_bytes()[:100]
    assert path.stat().st_size < int.from_bytes(header[28:32], "big") * 4096  # what was read as "truncated"
    env = dict(os.environ, ARBITRE_DATA=str(small_disk))
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == f"arbitre console: cannot open the database {path}: {DISK_FULL}"
    last.unlink()
    filler.unlink()
    store = SQLiteStorage(path)
    try:
        kept = [e.data for e in store.events(1) if e.data.get("kind") == "penalty"]
        assert len(kept) == acknowledged  # every acknowledged command is there, the refused one is not
    finally:
        store.close()


# a process opening new files when told: for each line NAME, it opens NAME the moment NAME.go exists
OPENER = """
import os, sys, time
from bot.storage import SQLiteStorage, StorageOpenError
for line in sys.stdin:
    path = line.strip()
    print("ready", flush=True)
    while not os.path.exists(path + ".go"):
        time.sleep(0.0002)
    try:
        SQLiteStorage(path).close()
        print("opened", flush=True)
    except StorageOpenError as error:
        print(error, flush=True)
"""


def test_processes_opening_one_new_file_at_once_all_open_it(tmp_path: Path) -> None:
    """A bot and the console started together on a new file: SQLite refuses the change to WAL mode at
    once ("database is locked", without waiting out the busy timeout) while another connection makes it.
    Before: this test failed in 3 of 3 runs (some of its 100 opens said "another process holds it locked")."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    openers = [
        subprocess.Popen([sys.executable, "-c", OPENER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         env=env)
        for _ in range(4)
    ]  # fmt: skip
    said: list[str] = []
    try:
        for trial in range(25):
            path = tmp_path / f"new-{trial}.sqlite"
            for opener in openers:
                assert opener.stdin is not None
                assert opener.stdout is not None
                opener.stdin.write(f"{path}\n")
                opener.stdin.flush()
            for opener in openers:
                assert opener.stdout is not None
                assert opener.stdout.readline().strip() == "ready"
            path.with_name(path.name + ".go").touch()  # the four open it at the same moment
            for opener in openers:
                assert opener.stdout is not None
                said.append(opener.stdout.readline().strip())
    finally:
        for opener in openers:
            assert opener.stdin is not None
            opener.stdin.close()
            opener.wait(30)
    assert said == ["opened"] * 100
