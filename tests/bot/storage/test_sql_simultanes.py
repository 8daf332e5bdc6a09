"""The storage of simultanés' second round (migrations 18 and 19), on both backends: the rooms the clock
starts (by when, by the process's channels), a room leaving, the posts written once, the tops claimed by one
searcher, read by the others, taken over when its searcher died; a room's centre name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import DONE_POST, GameKind, GameSetup, SQLiteStorage, Storage
from tests.bot.games.simultane.rooms_played import TOGETHER


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        made: Storage = SQLiteStorage(tmp_path / "simultanes.sqlite")
    else:
        from bot.storage.sql.postgres import PostgresStorage

        made = PostgresStorage(request.getfixturevalue("postgres_url"), pool_size=2)
    yield made
    made.close()


def test_the_clock_finds_the_rooms_it_starts(store: Storage) -> None:
    record = store.create_simultane("CLK234", "discord:1", "u:org", TOGETHER.to_json())
    store.join_simultane(record.id, "discord:1", 100.0, "u:a", "Ana")
    store.join_simultane(record.id, "telegram:-2", 100.0, "u:b", "Ben")
    store.join_simultane(record.id, "console", None)  # not started by the clock
    assert store.simultane_starts_due(99.0) == []
    due = store.simultane_starts_due(100.0)
    assert [(r.channel, r.due, r.referee, r.referee_name) for r in due] == [
        ("discord:1", 100.0, "u:a", "Ana"),
        ("telegram:-2", 100.0, "u:b", "Ben"),
    ]
    assert [r.channel for r in store.simultane_starts_due(200.0, "telegram:")] == ["telegram:-2"]
    game = store.create_game("discord:1", GameKind.DUPLICATE, "u:a", GameSetup("fr", "fisf", "fr", simultane="CLK234"))
    store.set_simultane_game(record.id, "discord:1", game.id)  # started: the clock is done with it
    store.leave_simultane(record.id, "telegram:-2")
    assert store.simultane_starts_due(200.0) == []
    assert [r.channel for r in store.simultane_rooms(record.id)] == ["discord:1", "console"]
    progress = store.simultane_progress(record.id)
    assert [(p.channel, p.game, p.status, p.closed) for p in progress] == [
        ("discord:1", game.id, "active", 0),
        ("console", None, None, 0),
    ]
    store.mark_closed(game.id, 1)
    assert store.simultane_progress(record.id)[0].closed == 1


def test_posts_are_written_once(store: Storage) -> None:
    record = store.create_simultane("PST234", "discord:1", "u:org", TOGETHER.to_json())
    assert store.simultanes_to_post() == []  # no room has started
    store.join_simultane(record.id, "discord:1")
    game = store.create_game("discord:1", GameKind.DUPLICATE, "u:a", GameSetup("fr", "fisf", "fr", simultane="PST234"))
    store.set_simultane_game(record.id, "discord:1", game.id)
    assert [s.code for s in store.simultanes_to_post()] == ["PST234"]
    assert [store.claim_simultane_post(record.id, "round:1", 1.0) for _ in range(2)] == [True, False]
    assert store.simultane_posts(record.id) == {"round:1"}
    assert store.claim_simultane_post(record.id, DONE_POST, 2.0)
    assert store.simultanes_to_post() == []


def test_a_top_is_claimed_by_one_searcher_and_taken_over_when_it_died(store: Storage) -> None:
    key = ("TOP234", 3, "ACEHNTZ", "fr")
    assert store.simultane_top(*key) is None
    assert store.claim_simultane_top(*key, "p1", 100.0, 70.0)
    assert not store.claim_simultane_top(*key, "p2", 110.0, 80.0)  # p1 claimed it 10 s ago: p2 waits
    assert store.claim_simultane_top(*key, "p2", 140.0, 110.0)  # 40 s and still no top: p1 died, p2 searches
    store.set_simultane_top(*key, '{"plays": []}')
    store.set_simultane_top(*key, '{"plays": [["H8 X", 1]]}')  # the first stored stays
    assert store.simultane_top(*key) == '{"plays": []}'
    assert not store.claim_simultane_top(*key, "p3", 999.0, 998.0)  # found: no one searches it again
    assert store.simultane_top("TOP234", 4, "ACEHNTZ", "fr") is None


def test_a_room_s_centre_name_is_stored_and_changed(store: Storage) -> None:
    # migration 19: a nullable name on simultane_rooms, given on joining or later ("" for none)
    record = store.create_simultane("NAM234", "discord:1", "u:org", TOGETHER.to_json())
    store.join_simultane(record.id, "discord:1", None, "u:a", "Ana", "Club de Sète")
    store.join_simultane(record.id, "telegram:-2")
    assert [(r.channel, r.name) for r in store.simultane_rooms(record.id)] == [
        ("discord:1", "Club de Sète"),
        ("telegram:-2", ""),
    ]
    assert store.name_simultane_room(record.id, "telegram:-2", "Vichy")
    assert not store.name_simultane_room(record.id, "console", "Sète")  # not in it: nothing written
    assert store.name_simultane_room(record.id, "discord:1", "")  # a name taken back
    assert [(r.channel, r.name) for r in store.simultane_rooms(record.id)] == [
        ("discord:1", ""),
        ("telegram:-2", "Vichy"),
    ]
