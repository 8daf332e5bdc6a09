"""The memory store is the SQLite store on a database in memory: its own database each, every thread's
connection on it, a reader that never waits for a transaction under way, nothing left after ``close``
(the storage contract itself runs on it in ``test_storage.py``)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bot.storage import GameKind, GameSetup, MemoryStorage, SQLiteStorage, open_storage
from bot.storage.sql.sqlite import MIGRATIONS

SETUP = GameSetup("fr", "fisf", "fr", "Ana", rules="box-fr")


def test_memory_is_the_sqlite_store_on_a_database_of_its_own() -> None:
    one, two = MemoryStorage(), open_storage("memory:")
    assert isinstance(two, MemoryStorage)
    assert isinstance(one, SQLiteStorage)
    assert one.schema_version == MIGRATIONS[-1][0]  # the same migrations as a file
    game = one.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    assert two.active_game("c1") is None
    assert one.active_game("c1") == game
    one.close()
    two.close()


def test_every_memory_store_has_the_schema_of_a_migrated_file(tmp_path: Path) -> None:
    file, first, second = SQLiteStorage(tmp_path / "a.sqlite"), MemoryStorage(), MemoryStorage()
    schema = "select type, name, tbl_name, sql from sqlite_master order by name"
    expected = file.db.execute(schema).fetchall()
    assert len(expected) > 10
    assert first.db.execute(schema).fetchall() == expected
    assert second.db.execute(schema).fetchall() == expected  # copied from the first one migrated, if not that one
    versions = "select version, name from migrations order by version"
    assert (
        first.db.execute(versions).fetchall()
        == second.db.execute(versions).fetchall()
        == [(version, name) for version, name, _ in MIGRATIONS]
    )
    for store in (file, first, second):
        store.close()


def test_a_reader_in_another_thread_never_waits_for_a_transaction_under_way() -> None:
    """The game cache reads outside a transaction while it holds a game's lock: that read must not wait
    for a command holding the store (it would then wait for the game's lock: a deadlock)."""
    store = MemoryStorage()
    game = store.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    store.append_event(game.id, {"kind": "pass", "player": "Ana"}, "ana", at=10.0)
    read_done, seen = threading.Event(), []

    def reading() -> None:
        seen.append((store.in_transaction(), store.read_stamp(game.id), len(store.read_events(game.id))))
        read_done.set()

    with pytest.raises(RuntimeError), store.transaction():
        store.append_event(game.id, {"kind": "pass", "player": "Ben"}, "ben", at=20.0)
        reader = threading.Thread(target=reading)
        reader.start()
        finished = read_done.wait(30)  # a reader waiting for the store's lock would still be waiting
        reader.join(30)
        raise RuntimeError("the command fails: its event is rolled back")
    assert finished
    assert seen == [(False, (2, 20.0), 2)]  # it may see the uncommitted event (the game cache then rebuilds)
    assert store.read_stamp(game.id) == (1, 10.0)
    assert [e.seq for e in store.read_events(game.id)] == [1]
    store.close()


def test_each_thread_reads_through_its_own_connection_and_close_ends_them_all() -> None:
    store = MemoryStorage()
    game = store.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    store.append_event(game.id, {"kind": "pass", "player": "Ana"}, "ana")
    stamps: list[tuple[int, float]] = []
    threads = [threading.Thread(target=lambda: stamps.append(store.read_stamp(game.id))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [seq for seq, _ in stamps] == [1, 1, 1]
    readers = list(store._readers)
    assert len(readers) == 3
    store.close()
    for reader in readers:
        with pytest.raises(Exception, match="closed"):
            reader.execute("select 1")
