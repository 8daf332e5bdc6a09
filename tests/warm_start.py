"""The bytecode the test processes need, compiled once before pytest-xdist starts them.

The test processes keep their bytecode in one folder of the user's cache (see ``conftest.pytest_configure``),
so a checkout seen for the first time (a fresh clone) finds none there, not even for the installed libraries
(Python looks for it only in that folder then). Each xdist worker collects every test module: four workers
starting together on a cold folder each compiled the same modules (the tests with their assertions
rewritten, ``bot``, ``core``, discord.py, python-telegram-bot, aiohttp...), 18 s of CPU each on the build
machine, against 4 s once the folder is warm. Here, processes of their own collect the test modules, split
between them, before the workers start; a warm folder is left as it is.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

WARMING = "ARBITRE_TESTS_WARMING"  # set in the processes that warm the folder (they warm nothing themselves)
WARM_TIMEOUT = 300.0  # seconds: a collection that hangs is left to the run itself, which reports it


def is_warm(prefix: Path, tests: Path) -> bool:
    """Whether ``prefix`` already holds test modules of this checkout as pytest rewrote them."""
    folder = prefix / tests.relative_to(tests.anchor)
    return folder.is_dir() and any(folder.glob("*-pytest-*.pyc"))


def split(files: list[Path], parts: int) -> list[list[Path]]:
    """``files`` in ``parts`` groups of about the same size in bytes (the largest first, each to the lightest)."""
    groups: list[list[Path]] = [[] for _ in range(parts)]
    sizes = [0] * parts
    for file in sorted(files, key=lambda f: f.stat().st_size, reverse=True):
        lightest = sizes.index(min(sizes))
        groups[lightest].append(file)
        sizes[lightest] += file.stat().st_size
    return [group for group in groups if group]


def warm(rootdir: Path, tests: Path, processes: int) -> None:
    """Collect every test module of ``tests`` in ``processes`` processes at once (their bytecode is written to
    the folder the environment names), and wait for them; what they say is not kept (the run says it again)."""
    env = dict(os.environ, **{WARMING: "1"})
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    started = [
        subprocess.Popen(
            [*command, *(str(f) for f in group)],
            cwd=rootdir,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for group in split(sorted(tests.glob("test_*.py")), processes)
    ]
    for process in started:
        try:
            process.wait(timeout=WARM_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def xdist_workers(numprocesses: object) -> int:
    """How many xdist workers ``-n`` asked for (0 without xdist; ``auto`` and ``logical``: the CPUs)."""
    if isinstance(numprocesses, int):
        return numprocesses
    if numprocesses in ("auto", "logical"):
        return os.cpu_count() or 1
    return 0
