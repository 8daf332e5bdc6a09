"""Every storage backend for the tests that run against all of them: SQLite, memory and PostgreSQL (the
last skipped without a server)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.storage import GameRecord, MemoryStorage, SQLiteStorage, Storage


def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Storage]:
    """Opens the parameter's store; each call another connection to the same data (memory: the same object)."""
    if request.param == "sqlite":
        return lambda: SQLiteStorage(tmp_path / "arbitre.sqlite")
    if request.param == "postgres":
        from bot.storage.sql.postgres import PostgresStorage

        url = request.getfixturevalue("postgres_url")
        return lambda: PostgresStorage(url)
    memory = MemoryStorage()
    return lambda: memory


@pytest.fixture(params=["sqlite", "memory", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Storage]]:
    """Opens the parameter's store; each call another connection to the same data (two processes)."""
    opened: list[Storage] = []
    make = opener(request, tmp_path)

    def opening() -> Storage:
        opened.append(make())
        return opened[-1]

    yield opening
    for store in opened:
        store.close()


def active_game(storage: Storage, channel: str) -> GameRecord:
    """The channel's active game (the test started one)."""
    record = storage.active_game(channel)
    assert record is not None, f"no active game in {channel}"
    return record
