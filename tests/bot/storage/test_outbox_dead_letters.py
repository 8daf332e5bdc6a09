"""Dead letters in the outbox, on every backend (SQLite, memory, a real PostgreSQL server): a message marked
dead no longer holds up its destination, is listed for its channel's /status, and old rows are pruned (their
images first). The referee's rules: a permanent refusal is dead at once, a transient one after its attempts
and age limits; the backoff is jittered."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.chat import Reply
from bot.outbox import (
    IMAGE_RETENTION_SECONDS,
    MAX_AGE_SECONDS,
    MAX_ATTEMPTS,
    MAX_BACKOFF_SECONDS,
    RETENTION_SECONDS,
    Failure,
    Undelivered,
    backoff,
)
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage import OutboxItem, SQLiteStorage, Storage
from bot.storage.sql.store import SQLRunner
from tests.bot.storage.test_storage import storage  # noqa: F401  (over every backend)
from tests.ready_lists import ready_registry

PNG = b"\x89PNG\r\n\x1a\n" + b"x" * 5000


def stored_reply(store: Storage, outbox_id: int) -> dict[str, Any] | None:
    """The reply JSON a backend keeps for a row (None: the row is gone)."""
    if isinstance(store, SQLiteStorage):  # a file or memory
        row = store.db.execute("select reply from outbox where id = ?", [outbox_id]).fetchone()
        text = row[0] if row else None
    else:
        assert isinstance(store, SQLRunner)
        rows = store._execute("select reply from outbox where id = %s", [outbox_id])
        text = rows[0][0] if rows else None
    return json.loads(text) if text is not None else None


def test_a_dead_letter_lets_its_destination_go_on_and_is_listed_for_its_channel(storage: Storage) -> None:  # noqa: F811
    ids = storage.enqueue(
        [
            Reply("Coup 3 — tirage : ABCDEFG", channel="c:1", image=PNG),
            Reply("Coup 4 — tirage", channel="c:1"),
            Reply("Reçu : H8 SECRET", to_user="c:u9", channel="c:1"),
            Reply("elsewhere", channel="c:2"),
        ],
        1000.0,
        created=990.0,
    )
    head = storage.outbox_due("c:", 1000.0)
    assert [(i.id, i.created) for i in head] == [(ids[0], 990.0), (ids[2], 990.0), (ids[3], 990.0)]
    storage.mark_dead(ids[0], 1001.0, "Telegram: Bad Request: chat not found")
    storage.mark_failed(ids[2], "Telegram: TimedOut()", 1002.0)
    storage.mark_dead(ids[2], 1003.0, "Telegram: TimedOut()")
    assert [i.reply.text for i in storage.outbox_due("c:", 1010.0)] == ["Coup 4 — tirage", "elsewhere"]
    assert not storage.outbox_waiting("c:1", ids[1])  # a new reply to c:1 is not held up by the dead one
    assert [storage.outbox_state(i) for i in ids] == ["dead", "waiting", "dead", "waiting"]
    letters = storage.dead_letters("c:1", 0.0)
    assert [(d.id, d.reply.text, d.reason, d.at, d.attempts) for d in letters] == [
        (ids[0], "Coup 3 — tirage : ABCDEFG", "Telegram: Bad Request: chat not found", 1001.0, 1),
        (ids[2], "Reçu : H8 SECRET", "Telegram: TimedOut()", 1003.0, 2),  # the private one, for its channel
    ]
    assert letters[0].reply.image == PNG
    assert storage.dead_letters("c:2", 0.0) == []
    assert [d.id for d in storage.dead_letters("c:1", 1002.0)] == [ids[2]]
    storage.mark_dropped(ids[3], 1004.0, "expired")  # an expired warning is no dead letter
    assert storage.dead_letters("c:2", 0.0) == []
    assert storage.outbox_state(ids[3]) == "dropped"


def test_pruning_forgets_images_first_then_old_rows(storage: Storage) -> None:  # noqa: F811
    ids = storage.enqueue(
        [
            Reply("old board", channel="c:1", image=PNG),
            Reply("old export", channel="c:1", document=b"export " * 100, document_name="partie.txt"),
            Reply("refused board", channel="c:2", image=PNG),
            Reply("recent board", channel="c:3", image=PNG),
            Reply("waiting board", channel="c:4", image=PNG),
        ],
        100.0,
    )
    storage.mark_delivered([ids[0], ids[1]], 1000.0)
    storage.mark_dead(ids[2], 1000.0, "Discord 413 (40005): Request entity too large")
    storage.mark_delivered([ids[3]], 5000.0)
    assert storage.prune_outbox(images_before=2000.0, rows_before=500.0) == 0  # rows kept, images of old ones gone
    for outbox_id, text in [(ids[0], "old board"), (ids[1], "old export")]:
        kept = stored_reply(storage, outbox_id)
        assert kept is not None
        assert kept["text"] == text
        assert kept["image"] is None
        assert kept["document"] is None
    assert storage.dead_letters("c:2", 0.0)[0].reply.image is None
    for later in (ids[3], ids[4]):  # delivered too recently, still owed
        reply = stored_reply(storage, later)
        assert reply is not None
        assert reply["image"] is not None
    assert storage.prune_outbox(images_before=2000.0, rows_before=2000.0) == 3
    assert [stored_reply(storage, i) is None for i in ids] == [True, True, True, False, False]
    assert storage.dead_letters("c:2", 0.0) == []
    assert [i.reply.text for i in storage.outbox_due("c:", 10_000.0)] == ["waiting board"]
    assert storage.prune_outbox(images_before=1e9, rows_before=1e9) == 1  # the delivered recent one
    assert [i.reply.text for i in storage.outbox_due("c:", 10_000.0)] == ["waiting board"]  # never a waiting one


# --- the referee's rules ------------------------------------------------------------------------------


def test_the_backoff_is_jittered_within_its_ceiling() -> None:
    ceilings = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, MAX_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS]
    first = [backoff(n, random.Random(21)) for n in range(1, 9)]
    assert first == [backoff(n, random.Random(21)) for n in range(1, 9)]  # a seeded source: the same waits
    assert all(0.0 <= wait <= ceiling for wait, ceiling in zip(first, ceilings))
    rng = random.Random(5)
    waits = [backoff(7, rng) for _ in range(200)]  # 200 processes failing together do not retry together
    assert len({round(w, 3) for w in waits}) > 190
    assert min(waits) < 10.0
    assert max(waits) > 50.0


def referee_on(tmp_path: Path, clock: list[float]) -> Referee:
    return Referee(SQLiteStorage(tmp_path / "r.sqlite"), ready_registry(), now=lambda: clock[0], rng=random.Random(3))


@pytest.mark.parametrize("failure", [Failure.PERMANENT, Failure.TRANSIENT])
def test_a_refused_first_send_is_dead_only_if_permanent(tmp_path: Path, failure: Failure) -> None:
    clock = [1000.0]
    referee = referee_on(tmp_path, clock)
    first, second = referee.outbox.enqueue([Reply("Coup 3 — résultats", channel="c:1"), Reply("Coup 4", channel="c:1")])
    referee.outbox.sent([first, second], [Undelivered(first, failure, "Telegram: Bad Request: chat not found")])
    state = referee.storage.outbox_state(first.outbox_id or 0)
    assert state == ("dead" if failure is Failure.PERMANENT else "waiting")
    assert [d.reply.text for d in referee.outbox.dead_letters("c:1")] == (
        ["Coup 3 — résultats"] if failure is Failure.PERMANENT else []
    )


def test_a_transient_failure_is_dead_after_its_attempts_and_age(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="arbitre")
    clock = [1000.0]
    referee = referee_on(tmp_path, clock)
    (reply,) = referee.outbox.enqueue([Reply("Reçu : H8 SECRET", to_user="c:u1", channel="c:1")])
    refused = Undelivered(reply, Failure.TRANSIENT, "Telegram: TimedOut()")
    for attempt in range(MAX_ATTEMPTS + 3):  # many quick failures: not dead while it is young
        (item,) = referee.outbox.claim_due(everything=True)
        assert item.attempts == attempt
        referee.outbox.retried(item, refused)
        clock[0] += 1.0
    assert referee.storage.outbox_state(reply.outbox_id or 0) == "waiting"
    clock[0] = 1000.0 + MAX_AGE_SECONDS
    (item,) = referee.outbox.claim_due(everything=True)
    referee.outbox.retried(item, refused)
    assert referee.storage.outbox_state(reply.outbox_id or 0) == "dead"
    assert referee.outbox.claim_due(everything=True) == []
    said = [r.getMessage() for r in caplog.records if "dead letter" in r.getMessage()]
    assert len(said) == 1
    assert "TimedOut" in said[0]
    assert "SECRET" not in caplog.text
    assert "(private #1" in said[0]


def test_an_old_message_tried_few_times_is_not_dead_yet(tmp_path: Path) -> None:
    """A process that was down for a day still tries what it owes before giving up on it."""
    clock = [1000.0]
    referee = referee_on(tmp_path, clock)
    (reply,) = referee.outbox.enqueue([Reply("Coup 3", channel="c:1")])
    clock[0] += 86400.0
    item = OutboxItem(reply.outbox_id or 0, "c:1", reply, attempts=1, created=1000.0)
    referee.outbox.retried(item, Undelivered(reply))
    assert referee.storage.outbox_state(item.id) == "waiting"


@pytest.mark.asyncio
async def test_the_outbox_worker_prunes_what_was_delivered_long_ago(tmp_path: Path) -> None:
    clock = [1_000_000.0]
    referee = referee_on(tmp_path, clock)
    old, recent = referee.outbox.enqueue(
        [Reply("old", channel="c:1", image=PNG), Reply("recent", channel="c:1", image=PNG)]
    )
    referee.storage.mark_delivered([old.outbox_id or 0], clock[0] - RETENTION_SECONDS - 1)
    referee.storage.mark_delivered([recent.outbox_id or 0], clock[0] - IMAGE_RETENTION_SECONDS - 1)
    delivered: list[Reply] = []

    async def deliver(replies: list[Reply]) -> None:
        delivered.extend(replies)

    service = RefereeService(referee, deliver, tick_seconds=60.0, outbox_seconds=0.01)
    service.start()
    try:
        for _ in range(500):
            if stored_reply(referee.storage, old.outbox_id or 0) is None:
                break
            await asyncio.sleep(0.01)
    finally:
        await service.stop()
    assert stored_reply(referee.storage, old.outbox_id or 0) is None
    kept = stored_reply(referee.storage, recent.outbox_id or 0)
    assert kept is not None
    assert kept["text"] == "recent"
    assert kept["image"] is None
    assert delivered == []


def test_an_outbox_of_the_previous_version_gets_dead_letters_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite migration 9 on a file with messages waiting: they are still owed, in order, and may die."""
    import bot.storage.sql.sqlite

    path = tmp_path / "v8.sqlite"
    monkeypatch.setattr(bot.storage.sql.sqlite, "MIGRATIONS", bot.storage.sql.sqlite.MIGRATIONS[:8])
    old = SQLiteStorage(path)
    assert old.schema_version == 8
    for text in ("Coup 3", "Coup 4"):
        old.db.execute(
            "insert into outbox (destination, reply, created, due) values (?, ?, ?, ?)",
            ["c:1", json.dumps({"text": text, "channel": "c:1"}), 100.0, 100.0],
        )
    old.close()
    monkeypatch.undo()
    new = SQLiteStorage(path)
    try:
        assert new.schema_version == bot.storage.sql.sqlite.MIGRATIONS[-1][0]
        (head,) = new.outbox_due("c:", 200.0)
        assert (head.reply.text, head.created) == ("Coup 3", 100.0)
        new.mark_dead(head.id, 201.0, "Telegram: Bad Request: chat not found")
        assert [i.reply.text for i in new.outbox_due("c:", 200.0)] == ["Coup 4"]
        assert new.outbox_state(head.id) == "dead"
    finally:
        new.close()


def test_everything_waiting_is_handed_over_once_even_when_an_expired_message_is_dropped_on_the_way(
    tmp_path: Path,
) -> None:
    clock = [1000.0]
    referee = referee_on(tmp_path, clock)
    referee.outbox.enqueue(
        [
            Reply("Coup 1 : plus que 30 secondes !", channel="c:1", expires=1010.0),
            Reply("Coup 1 — résultats", channel="c:1"),
        ]
    )
    referee.outbox.enqueue([Reply("Reçu pour le coup 1 : H8 VAGUE", to_user="c:u1", channel="c:1")])
    clock[0] = 1020.0  # a console restarting: the warning is stale, the rest is owed
    items = referee.outbox.claim_due(everything=True)
    assert sorted(i.reply.text for i in items) == ["Coup 1 — résultats", "Reçu pour le coup 1 : H8 VAGUE"]
