"""Storage: the same contract for SQLite and memory, crash safety, two writers."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import (
    ChannelSettings,
    GameRunningError,
    MemoryStorage,
    RoundClosedTwiceError,
    SQLiteStorage,
    Storage,
    open_storage,
)
from bot.storage.open import UnknownStorageError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(params=["sqlite", "memory"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        store = SQLiteStorage(tmp_path / "arbitre.sqlite")
        yield store
        store.close()
    else:
        yield MemoryStorage()


def test_channel_settings_default_and_saved(storage: Storage) -> None:
    assert storage.channel("c1") == ChannelSettings("c1")
    storage.save_channel(ChannelSettings("c1", language="en", edition="en", notation="gcg", rules="naspa"))
    assert storage.channel("c1").rules == "naspa"
    storage.save_channel(storage.channel("c1").with_changes(minutes=1.0))
    assert storage.channel("c1").minutes == 1.0 and storage.channel("c1").language == "en"


def test_games_and_event_log(storage: Storage) -> None:
    first = storage.create_game("c1", "classic", "ana", {"players": ["Ana", "Ben"]})
    storage.append_event(first.id, {"kind": "pass", "player": "Ana"}, "ana")
    storage.append_event(first.id, {"kind": "pass", "player": "Ben"}, "ben")
    assert [e.seq for e in storage.events(first.id)] == [1, 2]
    assert storage.events(first.id)[1].data == {"kind": "pass", "player": "Ben"}
    with pytest.raises(GameRunningError) as refused:  # a running game is never replaced silently
        storage.create_game("c1", "classic", "ben", {})
    assert refused.value.running.id == first.id and storage.active_game("c1") == first
    second = storage.create_game("c1", "classic", "ben", {}, abandon_running=True)
    assert storage.game(first.id).status == "abandoned"
    active = storage.active_game("c1")
    assert active is not None and active.id == second.id
    storage.set_game_status(second.id, "ended")
    assert storage.active_game("c1") is None
    assert storage.active_game("other") is None
    third = storage.create_game("c1", "duplicate", "ana", {})
    assert [g.id for g in storage.games("c1")] == [first.id, second.id, third.id]  # nothing is ever deleted
    assert storage.games("other") == []


def test_players_of_a_game(storage: Storage) -> None:
    game = storage.create_game("c1", "duplicate", "ana", {})
    other = storage.create_game("c2", "duplicate", "ana", {})
    storage.add_player(game.id, "u1", "Ana")
    storage.add_player(game.id, "u2", "Ben")
    storage.add_player(game.id, "u1", "Ana B.")  # a new display name replaces the old one
    storage.add_player(other.id, "u2", "Ben")
    assert storage.players(game.id) == [("u1", "Ana B."), ("u2", "Ben")]
    assert [g.id for g in storage.active_games_of("u2")] == [other.id, game.id]
    storage.set_game_status(other.id, "ended")
    assert [g.id for g in storage.active_games_of("u2")] == [game.id]


def test_transaction_rolls_back_everything(storage: Storage) -> None:
    game = storage.create_game("c1", "classic", "ana", {})
    with pytest.raises(RuntimeError):
        with storage.transaction():
            storage.append_event(game.id, {"kind": "pass", "player": "Ana"}, "ana")
            storage.set_game_status(game.id, "ended")
            raise RuntimeError("boom")
    assert storage.events(game.id) == [] and storage.game(game.id).status == "active"


def test_deadlines(storage: Storage) -> None:
    game = storage.create_game("c1", "duplicate", "ana", {})
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
    game = storage.create_game("c1", "duplicate", "ana", {})
    storage.mark_closed(game.id, 1)
    with pytest.raises(RoundClosedTwiceError):
        storage.mark_closed(game.id, 1)
    storage.mark_reopened(game.id, 1)
    storage.mark_closed(game.id, 1)
    storage.mark_closed(game.id, 2)


def test_migrations_run_once_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    store = SQLiteStorage(path)
    assert store.schema_version == 6
    assert store.db.journal_mode == "wal"
    store.close()
    again = SQLiteStorage(path)
    assert [row["version"] for row in again.db["migrations"].rows] == [1, 2, 3, 4, 5, 6]
    again.close()


def test_a_database_of_the_previous_version_is_upgraded_in_place(tmp_path: Path, monkeypatch) -> None:
    import bot.storage.sqlite

    path = tmp_path / "old.sqlite"
    monkeypatch.setattr(bot.storage.sqlite, "MIGRATIONS", bot.storage.sqlite.MIGRATIONS[:2])
    old = SQLiteStorage(path)
    assert old.schema_version == 2
    old.db["channels"].insert(
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
    old.create_game("c1", "classic", "ana", {"players": ["Ann", "Bob"]})
    old.close()
    monkeypatch.undo()
    new = SQLiteStorage(path)
    assert new.schema_version == 6
    assert new.channel("c1") == ChannelSettings("c1", "en", "en", "gcg", "naspa", "en", 2.0, "")
    assert new.channel("c1").zone == "UTC" and [g.channel for g in new.games("c1")] == ["c1"]
    new.close()


CRASH_SCRIPT = textwrap.dedent(
    """
    import os, sys
    sys.path.insert(0, {root!r})
    from bot.storage import SQLiteStorage
    statements = []
    def tracer(sql, params):
        statements.append(sql)
        if sql.lstrip().upper().startswith("INSERT INTO \\"EVENTS\\"") and len(
            [s for s in statements if "EVENTS" in s.upper() and s.lstrip().upper().startswith("INSERT")]
        ) == 2:
            os._exit(9)  # the process dies between two statements of one command
    store = SQLiteStorage({path!r}, tracer=tracer)
    game = store.game(1)
    with store.transaction():
        store.append_event(game.id, {{"kind": "play", "player": "Ben", "move": "G8 HUES"}}, "ben")
        store.append_event(game.id, {{"kind": "pass", "player": "Ana"}}, "ana")
        store.set_game_status(game.id, "ended")
    """
)


def test_crash_between_statements_keeps_the_whole_command_or_none(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite"
    store = SQLiteStorage(path)
    game = store.create_game("c1", "classic", "ana", {"players": ["Ana", "Ben"]})
    store.append_event(game.id, {"kind": "play", "player": "Ana", "move": "H7 HANTEZ"}, "ana")
    store.close()
    script = CRASH_SCRIPT.format(root=str(ROOT), path=str(path))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert result.returncode == 9, result.stderr
    after = SQLiteStorage(path)
    assert [e.data["kind"] for e in after.events(game.id)] == ["play"]
    assert after.game(game.id).status == "active"
    after.append_event(game.id, {"kind": "pass", "player": "Ben"}, "ben")
    assert [e.seq for e in after.events(game.id)] == [1, 2]
    after.close()


WRITER_SCRIPT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {root!r})
    from bot.storage import SQLiteStorage
    store = SQLiteStorage({path!r})
    for i in range({count}):
        with store.transaction():
            events = store.events(1)  # read-modify-write inside one transaction
            store.append_event(1, {{"kind": "penalty", "player": sys.argv[1], "points": len(events)}}, sys.argv[1])
    store.close()
    """
)


def test_two_writers_lose_no_event(tmp_path: Path) -> None:
    path = tmp_path / "two.sqlite"
    store = SQLiteStorage(path)
    store.create_game("c1", "classic", "ana", {})
    store.close()
    count = 150
    script = WRITER_SCRIPT.format(root=str(ROOT), path=str(path), count=count)
    writers = [subprocess.Popen([sys.executable, "-c", script, name]) for name in ("w1", "w2")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    store = SQLiteStorage(path)
    events = store.events(1)
    assert len(events) == 2 * count
    assert [e.seq for e in events] == list(range(1, 2 * count + 1))
    # each event saw exactly the events committed before it
    assert [e.data["points"] for e in events] == list(range(2 * count))
    assert sorted(e.author for e in events).count("w1") == count
    store.close()


def test_house_word_changes_are_kept_per_channel_in_order_and_roll_back(storage: Storage) -> None:
    from bot.house_words import HouseWordChange

    first = HouseWordChange("c1", "add", "KA", "u:ana", "Ana", 10.0, "fr")
    second = HouseWordChange("c1", "remove", "NEW", "u:adm", "Admin", 20.0, "fr")
    storage.add_house_word_change(first)
    storage.add_house_word_change(HouseWordChange("c2", "add", "OM", "u:ben", "Ben", 15.0, "en"))
    storage.add_house_word_change(second)
    with pytest.raises(RuntimeError), storage.transaction():
        storage.add_house_word_change(HouseWordChange("c1", "add", "ZEK", "u:ana", "Ana", 30.0, "fr"))
        raise RuntimeError("the command failed")
    assert storage.house_word_changes("c1") == [first, second]
    assert [c.word for c in storage.house_word_changes("c2")] == ["OM"] and storage.house_word_changes("c3") == []


def test_lists_in_use_running_games_first(storage: Storage) -> None:
    assert storage.lists_in_use() == []
    storage.save_channel(ChannelSettings("c1", lexicon="en"))
    storage.save_channel(ChannelSettings("c2", lexicon="/lists/ods8.txt"))
    storage.save_channel(ChannelSettings("c3", lexicon="/lists/ods8.txt"))
    storage.create_game("c4", "classic", "ana", {"lexicon": "fr"})
    ended = storage.create_game("c5", "classic", "ana", {"lexicon": "/lists/old.txt"})
    storage.set_game_status(ended.id, "ended")
    assert storage.lists_in_use() == ["fr", "/lists/ods8.txt", "en"]


@pytest.mark.parametrize(
    ("url", "kind"),
    [("memory:", MemoryStorage), ("sqlite:///{dir}/a.sqlite", SQLiteStorage), ("{dir}/b.sqlite", SQLiteStorage)],
)
def test_open_storage_by_url(tmp_path: Path, url: str, kind: type) -> None:
    store = open_storage(url.format(dir=tmp_path))
    assert isinstance(store, kind)
    game = store.create_game("c1", "classic", "ana", {})
    assert store.active_game("c1") == game
    if isinstance(store, SQLiteStorage):
        store.close()


def test_an_unknown_storage_url_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnknownStorageError) as refused:
        open_storage("mongodb://localhost/arbitre")
    assert "sqlite:///PATH" in str(refused.value)


def test_outbox_messages_claimed_by_one_process_are_not_taken_by_another(tmp_path: Path) -> None:
    from bot.chat import Reply

    one, two = SQLiteStorage(tmp_path / "o.sqlite"), SQLiteStorage(tmp_path / "o.sqlite")
    ids = one.enqueue([Reply("draw", channel="discord:1"), Reply("ack", to_user="discord:9")], due=100.0)
    taken = one.outbox_due("discord:", now=100.0, lease=30.0)
    assert [item.id for item in taken] == ids
    assert two.outbox_due("discord:", now=110.0, lease=30.0) == []  # the first process's for 30 s
    assert [item.id for item in two.outbox_due("discord:", now=131.0, lease=30.0)] == ids  # it died: retaken
    two.mark_delivered(ids, 131.5)
    assert one.outbox_due("discord:", now=1000.0) == [] and one.outbox_state(ids[0]) == "delivered"
    one.close()
    two.close()
