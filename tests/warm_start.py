"""The bytecode the test processes need, compiled once before pytest-xdist starts them.

The test processes keep their bytecode in one folder of the user's cache (see ``conftest.pytest_configure``),
so a checkout seen for the first time (a fresh clone) finds none there, not even for the installed libraries
(Python looks for it only in that folder then). Each xdist worker collects every test module: four workers
starting together on a cold folder each compiled the same modules (the tests with their assertions
rewritten, ``bot``, ``core``, discord.py, python-telegram-bot, aiohttp...), 18 s of CPU each on the build
machine, against 4 s once the folder is warm. Here, when the installed libraries' bytecode is missing, one
process collects the test modules before the workers start; a warm folder is left as it is.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

WARMING = "ARBITRE_TESTS_WARMING"  # set in the processes that warm the folder (they warm nothing themselves)
LIBRARIES = ("discord", "telegram", "aiohttp")  # imported by the fakes, so by every test process
WARM_TIMEOUT = 300.0  # seconds: a collection that hangs is left to the run itself, which reports it


def is_warm(libraries: tuple[str, ...] = LIBRARIES) -> bool:
    """Whether the folder ``sys.pycache_prefix`` names holds the bytecode of the largest libraries the tests
    import (of those already imported here): a new virtual environment's are not there yet. The test modules
    of a checkout seen for the first time are not looked at: the workers compile those quickly enough."""
    for name in libraries:
        module = sys.modules.get(name)
        source = getattr(module, "__file__", None)
        if source is not None and not Path(importlib.util.cache_from_source(source)).exists():
            return False
    return True


def warm(rootdir: Path, tests: Path) -> None:
    """Collect every test module of ``tests`` in one process (its bytecode is written to the folder the
    environment names: one process, so that each library is compiled once), and wait for it; what it says is
    not kept (the run says it again)."""
    env = dict(os.environ, **{WARMING: "1"})
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", str(tests)]
    process = subprocess.Popen(command, cwd=rootdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
