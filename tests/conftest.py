"""Shared fixtures, among them a real PostgreSQL server for the tests with ``postgres`` in their names."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from core.board import Board
from tests.discord_club import ClubDiscord
from tests.loop_time import LoopTime
from tests.ordering import dealt
from tests.postgres_server import PostgresServer, PostgresUnavailableError, find_binaries

if TYPE_CHECKING:
    from bot.storage import SQLiteStorage
    from tests.club import Club

pytest_plugins = ["tests.storage_backends"]  # open_store: the fixture over every storage backend


def pytest_configure(config: pytest.Config) -> None:
    """The Python processes the tests start (consoles, workers, the CLI) keep their bytecode in one folder of the
    user's cache, outside the checkout, instead of compiling every module again at each start (about 0.3 s of
    a console's 1 s start-up when ``PYTHONDONTWRITEBYTECODE`` is set, as it is on the build machine); the test
    processes started after this (pytest-xdist's workers) inherit it too."""
    if hasattr(config, "workerinput"):
        return  # an xdist worker: its environment came from the controller's
    from bot.words.loader import cache_dir

    prefix = cache_dir().parent / "tests-pycache"
    prefix.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(prefix))
    if os.environ["PYTHONPYCACHEPREFIX"] == str(prefix):  # bytecode outside the checkout: nothing is left in it
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        # this process too, for the modules it imports from now on (the test modules of a run without xdist)
        sys.pycache_prefix, sys.dont_write_bytecode = str(prefix), False


def expected_seconds(item: pytest.Item) -> float:
    """What a test's ``long`` mark says it takes (0 for the rest)."""
    mark = item.get_closest_marker("long")
    return float(mark.args[0]) if mark is not None else 0.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long tests dealt out to the heads of the blocks the test processes start with (``tests.ordering``),
    so that no long test starts when the others are almost done and holds the run's end alone. Every process
    collects the same order (xdist checks it): the count of processes is the one each is told."""
    workerinput = getattr(config, "workerinput", None)
    workers = int(workerinput["workercount"]) if workerinput is not None else 1
    items[:] = dealt(items, expected_seconds, workers)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The bundled lists compiled into the cache before any test starts, once, by the process that starts the
    test processes (or the only one): otherwise the first test to need one pays seconds for it, and the CLI
    subprocesses that run meanwhile, which do not wait on the tests' lock, compile it too."""
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller did it
    from tests.ready_lists import ready_registry

    ready_registry()


class _Kept(logging.Handler):
    """Keeps the records of the quick /play's unexpected failures (``bot.games.duplicate.submissions.FAILURE_MARK``)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "quick_play_failure", False):
            self.records.append(record)


@pytest.fixture(autouse=True)
def quick_play_failures() -> Iterator[list[logging.LogRecord]]:
    """Every test fails when the quick /play failed unexpectedly (a bug: the usual way answered the player, so
    no reply-based check would see it); a test that makes it fail on purpose empties the list it gets."""
    kept = _Kept()
    logger = logging.getLogger("arbitre")
    logger.addHandler(kept)
    try:
        yield kept.records
    finally:
        logger.removeHandler(kept)
    if kept.records:  # its message and traceback
        pytest.fail(logging.Formatter().format(kept.records[0]))


@pytest.fixture
def empty_board() -> Board:
    return Board()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole run (the machine's initdb and pg_ctl on a free 127.0.0.1
    port, in a temporary directory), stopped at the end. Skipped only if the binaries are absent."""
    try:
        find_binaries()
    except PostgresUnavailableError as missing:
        pytest.skip(f"no PostgreSQL server binaries: {missing.reason}")
    server = PostgresServer(settings={"fsync": "off"}).start()  # losing data on a power cut is fine here
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the test server."""
    return postgres_server.create_database()


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[SQLiteStorage]:
    """A fresh SQLite file, closed after the test; the bundled lists loaded before it (so that no test's
    timeout runs while a list's cache is rebuilt)."""
    from bot.storage import SQLiteStorage
    from tests.ready_lists import ready_registry

    ready_registry()
    store = SQLiteStorage(tmp_path / "arbitre.sqlite")
    yield store
    store.close()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    """A club night on a fresh SQLite file (see tests/club.py)."""
    from tests.club import Club  # imported here: it loads the bundled lists

    club = Club(tmp_path / "club.sqlite")
    yield club
    club.close()


@pytest_asyncio.fixture
async def discord_club() -> AsyncIterator[ClubDiscord]:
    """A fake Discord with one guild and its channel ``partie``; Ana (an admin) and Ben are members."""
    async with ClubDiscord() as fake:
        yield fake


@pytest.fixture
def dc(discord_club: ClubDiscord) -> ClubDiscord:
    """``discord_club`` under the short name the delivery tests use (a test module may define its own ``dc``)."""
    return discord_club


@pytest_asyncio.fixture
async def loop_time() -> AsyncIterator[LoopTime]:
    """The test's event loop on a clock the test moves (``LoopTime.jump``), given back at the end."""
    moved = LoopTime()
    yield moved
    moved.close()
