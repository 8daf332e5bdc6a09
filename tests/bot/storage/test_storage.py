"""Storage: the same contract for SQLite, memory and a real PostgreSQL server; crash safety, two writers,
channel locks, clock leases, outbox claims."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    ChannelSettings,
    GameKind,
    GameRunningError,
    GameSetup,
    GameStatus,
    MemoryStorage,
    RoundClosedTwiceError,
    SQLiteStorage,
    Storage,
    open_storage,
)
from bot.storage.open import UnknownStorageError
from bot.storage.sql.sqlite import MIGRATIONS
from tests.paths import REPO_ROOT
from tests.postgres_server import PostgresServer

ROOT = REPO_ROOT
SETUP = GameSetup("fr", "fisf", "fr", "Ana", rules="box-fr")  # a classic game's
DUPLICATE_SETUP = GameSetup("fr", "fisf", "fr", "Ana", manual=True)


def setup(**changes: Any) -> GameSetup:
    """A classic set-up with some fields changed."""
    return replace(SETUP, **changes)


@pytest.fixture
def storage(open_store: Callable[[], Storage]) -> Storage:
    return open_store()


def test_channel_settings_default_and_saved(storage: Storage) -> None:
    assert storage.channel("c1") == ChannelSettings("c1")
    storage.save_channel(ChannelSettings("c1", language="en", edition="en", notation="gcg", rules="naspa"))
    assert storage.channel("c1").rules == "naspa"
    storage.save_channel(storage.channel("c1").with_changes(minutes=1.0))
    assert storage.channel("c1").minutes == 1.0
    assert storage.channel("c1").language == "en"


def test_a_channel_is_stored_once_saved_even_at_the_defaults(storage: Storage) -> None:
    assert not storage.has_channel("c1")
    storage.save_channel(ChannelSettings("c1"))
    assert storage.has_channel("c1")
    assert not storage.has_channel("c2")


def test_games_and_event_log(storage: Storage) -> None:
    first = storage.create_game("c1", GameKind.CLASSIC, "ana", setup(players=("Ana", "Ben")))
    assert (first.kind, first.status, first.setup) == (
        GameKind.CLASSIC,
        GameStatus.ACTIVE,
        setup(players=("Ana", "Ben")),
    )
    assert storage.game(first.id) == first
    assert type(first.kind) is GameKind
    assert type(first.status) is GameStatus
    storage.append_event(first.id, {"kind": "pass", "player": "Ana"}, "ana")
    storage.append_event(first.id, {"kind": "pass", "player": "Ben"}, "ben")
    assert [e.seq for e in storage.events(first.id)] == [1, 2]
    assert storage.events(first.id)[1].data == {"kind": "pass", "player": "Ben"}
    with pytest.raises(GameRunningError) as refused:  # a running game is never replaced silently
        storage.create_game("c1", GameKind.CLASSIC, "ben", SETUP)
    assert refused.value.running.id == first.id
    assert storage.active_game("c1") == first
    second = storage.create_game("c1", GameKind.CLASSIC, "ben", SETUP, abandon_running=True)
    assert storage.game(first.id).status is GameStatus.ABANDONED
    active = storage.active_game("c1")
    assert active is not None
    assert active.id == second.id
    storage.set_game_status(second.id, GameStatus.ENDED)
    assert storage.active_game("c1") is None
    assert storage.active_game("other") is None
    third = storage.create_game("c1", GameKind.DUPLICATE, "ana", DUPLICATE_SETUP)
    assert (third.kind, third.setup) == (GameKind.DUPLICATE, DUPLICATE_SETUP)
    assert [g.id for g in storage.games("c1")] == [first.id, second.id, third.id]  # nothing is ever deleted
    assert [g.status for g in storage.games("c1")] == [GameStatus.ABANDONED, GameStatus.ENDED, GameStatus.ACTIVE]
    assert storage.games("other") == []


def test_players_of_a_game(storage: Storage) -> None:
    game = storage.create_game("c1", GameKind.DUPLICATE, "ana", DUPLICATE_SETUP)
    other = storage.create_game("c2", GameKind.DUPLICATE, "ana", DUPLICATE_SETUP)
    storage.add_player(game.id, "u1", "Ana")
    storage.add_player(game.id, "u2", "Ben")
    storage.add_player(game.id, "u1", "Ana B.")  # a new display name replaces the old one
    storage.add_player(other.id, "u2", "Ben")
    assert storage.players(game.id) == [("u1", "Ana B."), ("u2", "Ben")]
    assert [g.id for g in storage.active_games_of("u2")] == [other.id, game.id]
    storage.set_game_status(other.id, GameStatus.ENDED)
    assert [g.id for g in storage.active_games_of("u2")] == [game.id]


def test_transaction_rolls_back_everything(storage: Storage) -> None:
    game = storage.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    with pytest.raises(RuntimeError):
        with storage.transaction():
            storage.append_event(game.id, {"kind": "pass", "player": "Ana"}, "ana")
            storage.set_game_status(game.id, GameStatus.ENDED)
            raise RuntimeError("boom")
    assert storage.events(game.id) == []
    assert storage.game(game.id).status is GameStatus.ACTIVE


def test_deadlines(storage: Storage) -> None:
    game = storage.create_game("c1", GameKind.DUPLICATE, "ana", DUPLICATE_SETUP)
    storage.set_deadline(game.id, 1, 1000.0)
    storage.set_deadline(game.id, 2, 2000.0)
    both = [(game.id, 1, 1000.0, "c1"), (game.id, 2, 2000.0, "c1")]
    assert [(d.game, d.round, d.at, d.channel) for d in storage.deadlines()] == both
    storage.set_deadline(game.id, 1, None)  # keyed by game and round: round 2's deadline stays
    assert [(d.round, d.at) for d in storage.deadlines()] == [(2, 2000.0)]
    storage.open_round(game.id, 3, 3000.0)  # the open round's deadline replaces every other one
    assert [(d.round, d.at) for d in storage.deadlines()] == [(3, 3000.0)]
    storage.open_round(game.id, 3, None)
    assert storage.deadlines() == []


def test_a_round_is_closed_once(storage: Storage) -> None:
    game = storage.create_game("c1", GameKind.DUPLICATE, "ana", DUPLICATE_SETUP)
    storage.mark_closed(game.id, 1)
    with pytest.raises(RoundClosedTwiceError):
        storage.mark_closed(game.id, 1)
    storage.mark_reopened(game.id, 1)
    storage.mark_closed(game.id, 1)
    storage.mark_closed(game.id, 2)


def test_migrations_run_once_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    store = SQLiteStorage(path)
    assert store.schema_version == MIGRATIONS[-1][0]
    assert store.db.journal_mode == "wal"
    store.close()
    again = SQLiteStorage(path)
    assert [row["version"] for row in again.db["migrations"].rows] == [version for version, _, _ in MIGRATIONS]
    again.close()


def test_a_database_of_the_previous_version_is_upgraded_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.storage.sql.sqlite

    path = tmp_path / "old.sqlite"
    monkeypatch.setattr(bot.storage.sql.sqlite, "MIGRATIONS", bot.storage.sql.sqlite.MIGRATIONS[:2])
    old = SQLiteStorage(path)
    assert old.schema_version == 2
    old.db.table("channels").insert(
        {
            "channel": "c1",
            "language": "en",
            "edition": "en",
            "notation": "gcg",
            "rules": "naspa",
            "lexicon": "en",
            "minutes": 2.0,
        }
    )
    old.create_game("c1", GameKind.CLASSIC, "ana", setup(players=("Ann", "Bob")))
    old.close()
    monkeypatch.undo()
    new = SQLiteStorage(path)
    assert new.schema_version == MIGRATIONS[-1][0]
    assert new.channel("c1") == ChannelSettings("c1", "en", "en", "gcg", "naspa", "en", 2.0, "")
    assert new.channel("c1").zone == "UTC"
    assert [g.channel for g in new.games("c1")] == ["c1"]
    new.close()


def backend_of(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[str, str]:
    """(the Python expression that opens the store in a subprocess, with ``{tracer}``, its URL) for a
    store the test and its subprocesses share."""
    if kind == "sqlite":
        path = str(tmp_path / "shared.sqlite")
        return f"__import__('bot.storage', fromlist=['x']).SQLiteStorage({path!r}{{tracer}})", path
    url = request.getfixturevalue("postgres_url")
    return f"__import__('bot.storage.sql.postgres', fromlist=['x']).PostgresStorage({url!r}{{tracer}})", url


CRASH_SCRIPT = textwrap.dedent(
    """
    import os, sys
    sys.path.insert(0, {root!r})
    from bot.storage import GameStatus
    inserts = []
    def tracer(sql, params):
        words = sql.upper().replace('"', " ").replace("[", " ").replace("]", " ").split()
        if words[:3] == ["INSERT", "INTO", "EVENTS"]:
            inserts.append(sql)
            if len(inserts) == 2:
                os._exit(9)  # the process dies between two statements of one command
    store = {opening}
    game = store.game(1)
    with store.transaction():
        store.lock_channel(game.channel)
        store.append_event(game.id, {{"kind": "play", "player": "Ben", "move": "G8 HUES"}}, "ben")
        store.append_event(game.id, {{"kind": "pass", "player": "Ana"}}, "ana")
        store.set_game_status(game.id, GameStatus.ENDED)
    """
)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_crash_between_statements_keeps_the_whole_command_or_none(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    opening, url = backend_of(kind, tmp_path, request)
    store = open_storage(url)
    game = store.create_game("c1", GameKind.CLASSIC, "ana", setup(players=("Ana", "Ben")))
    store.append_event(game.id, {"kind": "play", "player": "Ana", "move": "H7 HANTEZ"}, "ana")
    store.close()
    script = CRASH_SCRIPT.format(root=str(ROOT), opening=opening.format(tracer=", tracer=tracer"))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert result.returncode == 9, result.stderr
    after = open_storage(url)
    assert [e.data["kind"] for e in after.events(game.id)] == ["play"]
    assert after.game(game.id).status is GameStatus.ACTIVE
    after.append_event(game.id, {"kind": "pass", "player": "Ben"}, "ben")
    assert [e.seq for e in after.events(game.id)] == [1, 2]
    after.close()


WRITER_SCRIPT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {root!r})
    store = {opening}
    for i in range({count}):
        with store.transaction():
            store.lock_channel("c1")  # what every command does first
            events = store.events(1)  # read-modify-write inside one transaction
            store.append_event(1, {{"kind": "penalty", "player": sys.argv[1], "points": len(events)}}, sys.argv[1])
    store.close()
    """
)


def assert_no_event_lost(store: Storage, writers: list[str], count: int) -> None:
    events = store.events(1)
    assert len(events) == len(writers) * count
    assert [e.seq for e in events] == list(range(1, len(writers) * count + 1))
    # each event saw exactly the events committed before it
    assert [e.data["points"] for e in events] == list(range(len(writers) * count))
    assert all([e.author for e in events].count(w) == count for w in writers)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_two_writers_lose_no_event(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    opening, url = backend_of(kind, tmp_path, request)
    store = open_storage(url)
    store.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    store.close()
    count = 150
    script = WRITER_SCRIPT.format(root=str(ROOT), opening=opening.format(tracer=""), count=count)
    writers = [subprocess.Popen([sys.executable, "-c", script, name]) for name in ("w1", "w2")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    store = open_storage(url)
    assert_no_event_lost(store, ["w1", "w2"], count)
    store.close()


def test_two_writing_threads_lose_no_event(open_store: Callable[[], Storage]) -> None:
    """The same read-modify-write from two threads, each with its own store (memory: one shared store)."""
    open_store().create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    count, errors = 100, []

    def writing(store: Storage, name: str) -> None:
        try:
            for _ in range(count):
                with store.transaction():
                    store.lock_channel("c1")
                    events = store.events(1)
                    store.append_event(1, {"kind": "penalty", "player": name, "points": len(events)}, name)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=writing, args=(open_store(), name)) for name in ("t1", "t2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert_no_event_lost(open_store(), ["t1", "t2"], count)


def test_a_channel_lock_makes_the_next_command_wait_and_see(open_store: Callable[[], Storage]) -> None:
    """A transaction that locks a channel waits for the one holding it, then sees what it committed."""
    first, second = open_store(), open_store()
    game = first.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    locked, seen = threading.Event(), []

    def later() -> None:
        locked.wait(30)
        with second.transaction():
            second.lock_channel("c1")
            seen.append(len(second.events(game.id)))

    thread = threading.Thread(target=later)
    thread.start()
    with first.transaction():
        first.lock_channel("c1")
        first.append_event(game.id, {"kind": "pass", "player": "Ana"}, "ana")
        locked.set()
        time.sleep(0.3)  # the other transaction is waiting for the lock meanwhile (or, if broken, reads 0)
    thread.join(30)
    assert seen == [1]


def test_clock_leases_one_owner_at_a_time(storage: Storage) -> None:
    assert storage.hold_clocks("p1", ["c1", "c2"], 100.0, 10.0) == {"c1", "c2"}
    assert storage.hold_clocks("p2", ["c1", "c3"], 105.0, 10.0) == {"c3"}  # c1 is p1's until 110
    assert storage.hold_clocks("p1", ["c1", "c2"], 108.0, 10.0) == {"c1", "c2"}  # renewed until 118
    assert storage.hold_clocks("p2", ["c1", "c3"], 117.0, 10.0) == {"c3"}
    assert storage.hold_clocks("p2", ["c1", "c3"], 119.0, 10.0) == {"c1", "c3"}  # p1 stopped renewing
    assert storage.hold_clocks("p1", ["c1", "c2"], 120.0, 10.0) == {"c2"}
    storage.release_clocks("p1", ["c2"])  # its round is over
    assert storage.hold_clocks("p2", ["c2"], 121.0, 10.0) == {"c2"}
    storage.release_clocks("p2")  # a clean stop gives every lease up
    assert storage.hold_clocks("p1", ["c1", "c2", "c3"], 122.0, 10.0) == {"c1", "c2", "c3"}


def test_a_live_line_waiting_holds_up_no_later_message(storage: Storage) -> None:
    """The counter's updates of a burst still waiting (left to the outbox worker) never keep a close's next
    draw from leaving at once: a group's draw came 2.5-4 s after its deadline in 1 of 4 runs of two groups of 50
    closing together, handed to the worker behind them."""
    from bot.chat import Reply

    counter = Reply('Coup 3 : 49 joueurs sur 50 ont joué. "live": true', channel="g:1", edit_key="count", live=True)
    quoted = Reply('a player typed "live": true', channel="g:2")  # the words in a text are not the flag
    ids = storage.enqueue([counter, Reply("Coup 4 — tirage", channel="g:1"), quoted, Reply("next", channel="g:2")], 1.0)
    assert not storage.outbox_waiting("g:1", ids[1])
    assert not storage.outbox_waiting("g:1", ids[1], "dup-1-4")
    assert storage.outbox_waiting("g:1", ids[1], "count")  # the line's own later texts keep its order
    assert storage.outbox_waiting("g:2", ids[3])


def test_outbox_keeps_each_destination_in_order(storage: Storage) -> None:
    from bot.chat import Reply

    ids = storage.enqueue(
        [Reply("a1", channel="c:1"), Reply("b1", channel="c:2"), Reply("a2", channel="c:1"), Reply("x", channel="d:1")],
        1000.0,
    )
    assert storage.outbox_due("c:", 999.0) == []
    due = storage.outbox_due("c:", 1000.0)
    assert [(i.id, i.reply.text) for i in due] == [(ids[0], "a1"), (ids[1], "b1")]
    assert storage.outbox_waiting("c:1", ids[2])
    assert not storage.outbox_waiting("c:2", ids[1])
    storage.mark_delivered([ids[0]], 1001.0)
    storage.mark_failed(ids[1], "503", 1010.0)
    due = storage.outbox_due("c:", 1002.0)
    assert [i.reply.text for i in due] == ["a2"]
    storage.mark_dropped(ids[2], 1003.0, "expired")
    assert [storage.outbox_state(i) for i in ids] == ["delivered", "waiting", "dropped", "waiting"]
    retried = storage.outbox_due("c:", 1010.0)
    assert [(i.reply.text, i.attempts) for i in retried] == [("b1", 1)]


def test_postgres_outbox_claims_a_message_for_one_process(postgres_url: str) -> None:
    from bot.chat import Reply
    from bot.storage.sql.postgres import PostgresStorage

    first, second = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    try:
        now = time.time()  # "everything" (an infinite now) judges claims by the wall clock
        ids = first.enqueue([Reply("a1", channel="c:1"), Reply("a2", channel="c:1"), Reply("b", channel="c:2")], now)
        taken = first.outbox_due("c:", now, limit=1, lease=30.0)
        assert [i.id for i in taken] == [ids[0]]
        # the other process gets neither a1 (claimed) nor a2 (behind it), but c:2's head
        assert [i.id for i in second.outbox_due("c:", now, lease=30.0)] == [ids[2]]
        assert second.outbox_due("c:", float("inf"), lease=30.0) == []  # "everything" leaves the claims alone
        first.mark_delivered([ids[0]], now)
        assert [i.id for i in second.outbox_due("c:", now, lease=30.0)] == [ids[1]]
        second.mark_failed(ids[1], "503", now + 60)
        assert [i.id for i in first.outbox_due("c:", float("inf"), lease=30.0)] == [ids[1]]  # failed: everything
    finally:
        first.close()
        second.close()


def test_postgres_lock_channel_outside_a_transaction_is_refused(postgres_url: str) -> None:
    from bot.storage import OutsideTransactionError
    from bot.storage.sql.postgres import PostgresStorage

    store = PostgresStorage(postgres_url)
    try:
        with pytest.raises(OutsideTransactionError):
            store.lock_channel("c1")
    finally:
        store.close()


def test_postgres_migrations_run_once_even_from_processes_starting_together(postgres_url: str) -> None:
    from bot.storage.sql.postgres import MIGRATIONS, PostgresStorage

    stores: list[PostgresStorage] = []
    errors: list[BaseException] = []

    def opening() -> None:
        try:
            stores.append(PostgresStorage(postgres_url, pool_size=2))
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=opening) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert len(stores) == 4
    assert stores[0].schema_version == MIGRATIONS[-1][0]
    versions = stores[1]._execute("select version from migrations order by version")
    assert [v for (v,) in versions] == [m[0] for m in MIGRATIONS]
    for store in stores:
        store.close()


def test_postgres_database_of_a_newer_version_is_refused_naming_both_versions(postgres_url: str) -> None:
    from bot.storage import StorageOpenError
    from bot.storage.sql.postgres import MIGRATIONS, PostgresStorage

    store = PostgresStorage(postgres_url, pool_size=1)
    store._execute("insert into migrations values (99, 'from a newer Arbitre', 0)")
    store.close()
    with pytest.raises(StorageOpenError) as refused:
        PostgresStorage(postgres_url, pool_size=1)
    known = MIGRATIONS[-1][0]
    assert refused.value.reason.startswith(
        f"a newer version of Arbitre wrote it (database version 99; this version knows versions up to {known})"
    )


def test_postgres_server_that_cannot_be_reached_is_explained(postgres_server: PostgresServer) -> None:
    from bot.storage import StorageOpenError
    from tests.postgres_server import free_port

    url = f"postgresql://arbitre:secret@127.0.0.1:{free_port()}/nowhere"
    with pytest.raises(StorageOpenError) as refused:
        open_storage(url)
    assert "secret" not in str(refused.value)
    assert "127.0.0.1" in str(refused.value)


def test_house_word_changes_are_kept_per_channel_in_order_and_roll_back(storage: Storage) -> None:
    from bot.words.house import HouseWordChange

    first = HouseWordChange("c1", "add", "KA", "u:ana", "Ana", 10.0, "fr")
    second = HouseWordChange("c1", "remove", "NEW", "u:adm", "Admin", 20.0, "fr")
    storage.add_house_word_change(first)
    storage.add_house_word_change(HouseWordChange("c2", "add", "OM", "u:ben", "Ben", 15.0, "en"))
    storage.add_house_word_change(second)
    with pytest.raises(RuntimeError), storage.transaction():
        storage.add_house_word_change(HouseWordChange("c1", "add", "ZEK", "u:ana", "Ana", 30.0, "fr"))
        raise RuntimeError("the command failed")
    assert storage.house_word_changes("c1", "fr") == [first, second]
    assert [c.word for c in storage.house_word_changes("c2", "en")] == ["OM"]
    assert storage.house_word_changes("c2", "fr") == []
    assert storage.house_word_changes("c3", "fr") == []


def test_house_words_stored_before_they_belonged_to_a_list_are_kept_for_the_channels_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.storage.sql.sqlite

    path = tmp_path / "v7.sqlite"
    monkeypatch.setattr(bot.storage.sql.sqlite, "MIGRATIONS", [m for m in MIGRATIONS if m[0] <= 7])
    old = SQLiteStorage(path)
    old.save_channel(ChannelSettings("english", "en", "en", "gcg", "naspa", "en"))
    row = {"action": "add", "author": "u:ana", "name": "Ana", "at": 10.0}
    old.db.table("house_words").insert_all(
        [
            {**row, "channel": "english", "word": "ZEF", "lexicon": ""},  # an empty list: the channel's, en
            {**row, "channel": "french", "word": "KAOS", "lexicon": ""},  # no settings stored: the default fr
            {**row, "channel": "english", "word": "QOPH", "lexicon": "fr"},  # a list given: kept
        ]
    )
    old.close()
    monkeypatch.undo()
    new = SQLiteStorage(path)
    try:
        assert [c.word for c in new.house_word_changes("english", "en")] == ["ZEF"]
        assert [c.word for c in new.house_word_changes("english", "fr")] == ["QOPH"]
        assert [(c.word, c.lexicon) for c in new.house_word_changes("french", "fr")] == [("KAOS", "fr")]
    finally:
        new.close()


def test_lists_in_use_running_games_first(storage: Storage) -> None:
    assert storage.lists_in_use() == []
    storage.save_channel(ChannelSettings("c1", lexicon="en"))
    storage.save_channel(ChannelSettings("c2", lexicon="/lists/ods8.txt"))
    storage.save_channel(ChannelSettings("c3", lexicon="/lists/ods8.txt"))
    storage.create_game("c4", GameKind.CLASSIC, "ana", setup(lexicon="fr"))
    ended = storage.create_game("c5", GameKind.CLASSIC, "ana", setup(lexicon="/lists/old.txt"))
    storage.set_game_status(ended.id, GameStatus.ENDED)
    assert storage.lists_in_use() == ["fr", "/lists/ods8.txt", "en"]


@pytest.mark.parametrize(
    ("url", "kind"),
    [("memory:", MemoryStorage), ("sqlite:///{dir}/a.sqlite", SQLiteStorage), ("{dir}/b.sqlite", SQLiteStorage)],
)
def test_open_storage_by_url(tmp_path: Path, url: str, kind: type) -> None:
    store = open_storage(url.format(dir=tmp_path))
    assert isinstance(store, kind)
    game = store.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    assert store.active_game("c1") == game
    if isinstance(store, SQLiteStorage):
        store.close()


def test_open_storage_postgres_url(postgres_url: str) -> None:
    from bot.storage.sql.postgres import PostgresStorage

    store = open_storage(postgres_url)
    assert isinstance(store, PostgresStorage)
    game = store.create_game("c1", GameKind.CLASSIC, "ana", SETUP)
    assert store.active_game("c1") == game
    store.close()


def test_an_unknown_storage_url_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnknownStorageError) as refused:
        open_storage("mongodb://localhost/arbitre")
    assert "sqlite:///PATH" in str(refused.value)


def test_outbox_messages_claimed_by_one_process_are_not_taken_by_another(open_store: Callable[[], Storage]) -> None:
    from bot.chat import Reply

    one, two = open_store(), open_store()
    ids = one.enqueue([Reply("draw", channel="discord:1"), Reply("ack", to_user="discord:9")], due=100.0)
    taken = one.outbox_due("discord:", now=100.0, lease=30.0)
    assert [item.id for item in taken] == ids
    assert two.outbox_due("discord:", now=110.0, lease=30.0) == []  # the first process's for 30 s
    assert [item.id for item in two.outbox_due("discord:", now=131.0, lease=30.0)] == ids  # it died: retaken
    two.mark_delivered(ids, 131.5)
    assert one.outbox_due("discord:", now=1000.0) == []
    assert one.outbox_state(ids[0]) == "delivered"
