"""Every ``arbitre`` tool piped into a reader that goes away (``| head -1``) exits quietly: no traceback."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import TextIO

import pytest

from bot.adapters.console.room import ConsoleRoom
from bot.adapters.console.rooms import CHANNEL
from bot.referee import Referee
from bot.storage import MemoryStorage
from bot.tools.common import EXIT_BROKEN_PIPE
from tests.console_clock import DrivenClock
from tests.paths import TEST_DATA
from tests.ready_lists import ready_registry

GCG = TEST_DATA / "gcg" / "woogles_csw21.gcg"

COMMANDS = [
    ["duplicate", "--seed", "1"],
    ["score", "H7 HANTEZ", "6F FACADES", "G8 HUES", "F10 JOUET"],
    ["check", "VAGUE", "OK"],
    ["lexicon", "info", "fr", "en"],
    ["top", "--moves", "H8 VAGUE", "--rack", "EASI?RT", "--count", "5"],
    ["replay", str(GCG)],
    ["console", "--db", "memory:"],
    ["--help"],
]
CONSOLE_SCRIPT = "Ana: /aide\nAna: /nouvelle Ana Ben\nAna: /coup H8 VAGUE\n"


def run_into_pipe(args: list[str], tmp_path: Path, lines_read: int) -> subprocess.CompletedProcess[bytes]:
    """``arbitre ARGS`` writing into a real pipe whose reader takes ``lines_read`` lines (0: closed before
    the tool writes anything), then closes it; the console reads ``CONSOLE_SCRIPT``."""
    env = dict(os.environ, ARBITRE_DATA=str(tmp_path))
    read_end, write_end = os.pipe()
    if lines_read == 0:
        os.close(read_end)
    with subprocess.Popen(
        [sys.executable, "-m", "bot", *args], stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE, env=env
    ) as process:
        os.close(write_end)
        assert process.stdin is not None
        assert process.stderr is not None
        process.stdin.write(CONSOLE_SCRIPT.encode() if args[0] == "console" else b"")
        process.stdin.close()
        if lines_read:
            with os.fdopen(read_end, "rb") as reader:
                for _ in range(lines_read):
                    reader.readline()
        stderr = process.stderr.read()
        status = process.wait(timeout=120)
    return subprocess.CompletedProcess(args, status, b"", stderr)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: args[0])
def test_a_reader_gone_before_the_first_line_ends_the_tool_quietly(args: list[str], tmp_path: Path) -> None:
    result = run_into_pipe(args, tmp_path, lines_read=0)
    assert result.stderr.decode() == ""
    # --help: argparse drops what it cannot print, and the help has been asked for, so 0
    assert result.returncode == (0 if args == ["--help"] else EXIT_BROKEN_PIPE)


@pytest.mark.parametrize("args", [COMMANDS[0], COMMANDS[5]], ids=lambda args: args[0])
def test_head_dash_1_leaves_no_traceback(args: list[str], tmp_path: Path) -> None:
    result = run_into_pipe(args, tmp_path, lines_read=1)
    assert result.stderr.decode() == ""
    assert result.returncode in (0, EXIT_BROKEN_PIPE)  # 0 when everything fitted in the pipe before it closed


class GoneReader(io.StringIO):
    """An output whose reader has gone: every write fails as on a closed pipe."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def console_room(storage: MemoryStorage, out: TextIO, clock: DrivenClock) -> ConsoleRoom:
    referee = Referee(storage, ready_registry(), now=clock.now, images=False, clock_scope=CHANNEL)
    return ConsoleRoom(referee, out, Path("images"), "Moi", admins=("Ana",), script=True, clock=clock)


def lines(text: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8")


def test_the_clock_writing_after_the_reader_left_ends_quietly_and_loses_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    storage = MemoryStorage()
    clock = DrivenClock()
    first = io.StringIO()
    assert asyncio.run(console_room(storage, first, clock).run(lines("Ana: /duplicate 0,05\n"))) == 0
    assert "Coup 1 — tirage" in first.getvalue()
    # the next session's output is gone: its clock closes the round (3 s) while it sleeps
    room = console_room(storage, GoneReader(), clock)
    with caplog.at_level(logging.WARNING):
        assert asyncio.run(room.run(lines(":sleep 10\nAna: /etat\n"))) == EXIT_BROKEN_PIPE
    assert caplog.records == []  # was: "clock failed" and a BrokenPipeError traceback, then exit 0
    again = io.StringIO()
    clock.advance(100)
    assert asyncio.run(console_room(storage, again, clock).run(lines(""))) == 0
    assert "manche close" in again.getvalue()
    assert "Personne n'a joué ce coup" in again.getvalue()
