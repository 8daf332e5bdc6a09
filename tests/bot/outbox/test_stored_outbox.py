"""``StoredOutbox`` through the ``Outbox`` protocol, on a storage in memory and a clock the test drives: its
heartbeat makes its claims its own and voids a dead process's, a stop hands its claims over at once, the
replies behind older ones wait for the worker, what the overload sheds is dropped, and a refused reply is
tried again or given up."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from bot.chat import Reply
from bot.outbox import (
    PROCESS_SECONDS,
    Failure,
    Outbox,
    StoredOutbox,
    Undelivered,
)
from bot.storage import MemoryStorage, Storage


class Clock:
    """Time as the test sets it."""

    def __init__(self, at: float = 1000.0) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def store() -> Iterator[MemoryStorage]:
    storage = MemoryStorage()
    yield storage
    storage.close()


def outbox(
    store: MemoryStorage, clock: Clock, owner: str, sheds: Callable[[Reply], bool] = lambda reply: False
) -> StoredOutbox:
    return StoredOutbox(store, clock, scopes=("c:",), owner=owner, rng=random.Random(1), sheds=sheds)


def test_a_beating_process_claims_what_it_stores_and_a_stop_hands_it_over(store: MemoryStorage) -> None:
    clock = Clock()
    one, two = outbox(store, clock, "hostA:1:aa"), outbox(store, clock, "hostB:2:bb")
    assert one.claimer(clock()) is None  # no heartbeat yet: what it stores is anyone's after the grace
    assert one.beat() is False  # alone
    assert two.beat() is True  # the other lives
    assert one.claimer(clock()) == "hostA:1:aa"
    (reply,) = one.enqueue([Reply("draw", channel="c:1")])
    clock.at += 60.0  # long past the grace, while A's heartbeat is renewed: B leaves it
    assert one.beat() is False  # B fell silent meanwhile: forgotten
    assert two.claim_due() == []
    one.stopped()  # a clean stop: what A claimed is due at once
    assert one.claimer(clock()) is None
    assert [item.id for item in two.claim_due()] == [reply.outbox_id]


def test_a_silent_process_is_forgotten_by_the_next_beat(store: MemoryStorage) -> None:
    clock = Clock()
    one, two = outbox(store, clock, "hostA:1:aa"), outbox(store, clock, "hostB:2:bb")
    one.beat()
    two.beat()
    clock.at += PROCESS_SECONDS  # A's heartbeat expires
    assert two.beat() is False
    assert [owner for owner, _ in store.outbox_processes()] == ["hostB:2:bb"]


def test_replies_behind_older_ones_wait_for_the_worker(store: MemoryStorage) -> None:
    clock = Clock()
    box: Outbox = outbox(store, clock, "hostA:1:aa")
    older, _ = box.enqueue([Reply("draw", channel="c:1"), Reply("ack", to_user="c:9", channel="c:1")])
    newer, elsewhere = box.enqueue([Reply("results", channel="c:1"), Reply("hi", channel="c:2")])
    assert not box.in_line_known([newer])
    assert box.first_in_line([newer, elsewhere]) == [elsewhere]  # "results" waits behind "draw"
    box.sent([older], [])
    clock.at += 60.0  # past the grace: every one is the worker's
    assert [item.reply.text for item in box.claim_due()] == ["ack", "results", "hi"]


def test_a_waiting_live_line_holds_up_only_its_own_later_texts(store: MemoryStorage) -> None:
    """A counter's update left to the worker: a close's draw passes it; the count of the same line does not,
    even second in its batch (else the older, lower count would be shown after it)."""
    clock = Clock()
    box: Outbox = outbox(store, clock, "hostA:1:aa")
    box.enqueue([Reply("49 of 50", channel="c:1", edit_key="count", live=True)])
    (draw,) = box.enqueue([Reply("Move 4 — draw", channel="c:1", edit_key="dup-1-4")])
    assert box.first_in_line([draw]) == [draw]
    box.sent([draw], [])
    results, count = box.enqueue([Reply("results", channel="c:1"), Reply("50 of 50", channel="c:1", edit_key="count")])
    assert box.first_in_line([results, count]) == []  # behind the line's older text: the worker's


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_once_the_line_is_posted_a_waiting_lower_count_holds_up_neither_the_count_nor_the_results(
    kind: str, store: MemoryStorage, request: pytest.FixtureRequest
) -> None:
    """Issue 36: a counter's updates left to the worker during a burst held a close's results batch (results,
    then the count of the same line) back until the worker got to them, up to a rate-limit window (5 s on
    Discord). An edit of a line already posted is superseded by a newer text of the line: the newer one
    never waits for it, and the worker drops it, also once the newer one was delivered."""
    storage: Storage = store
    if kind == "postgres":
        from bot.storage.sql.postgres import PostgresStorage

        storage = PostgresStorage(request.getfixturevalue("postgres_url"))
    try:
        clock = Clock()
        box = StoredOutbox(storage, clock, scopes=("c:",), owner="hostA:1:aa", rng=random.Random(1))
        (posted,) = box.enqueue([Reply("1 of 50", channel="c:1", edit_key="count", live=True)])
        box.sent([posted], [])  # the line's message exists
        (lower,) = box.enqueue([Reply("49 of 50", channel="c:1", edit_key="count", live=True)])  # the worker's
        results, count = box.enqueue(
            [Reply("results", channel="c:1"), Reply("50 of 50", channel="c:1", edit_key="count")]
        )
        assert box.first_in_line([results, count]) == [results, count]
        box.sent([results, count], [])
        clock.at += 60.0
        assert box.claim_due() == []  # the lower count is not shown after the close's
        assert storage.outbox_state(lower.outbox_id or 0) == "dropped"
    finally:
        if storage is not store:
            storage.close()


def test_a_known_first_reply_is_told_without_storage_and_a_left_one_is_the_workers(store: MemoryStorage) -> None:
    clock = Clock()
    box = outbox(store, clock, "hostA:1:aa")
    first, left = box.enqueue([Reply("ok", to_user="c:9"), Reply("ok", to_user="c:8")])
    assert first.outbox_id is not None
    assert left.outbox_id is not None
    box.first_in_line_known([first.outbox_id], [left.outbox_id])
    assert box.in_line_known([first, left])
    assert box.first_in_line([first, left]) == [first]
    assert not box.in_line_known([first])  # told once


def test_what_the_overload_sheds_is_dropped_and_the_rest_claimed(store: MemoryStorage) -> None:
    clock = Clock()
    box = outbox(store, clock, "hostA:1:aa", sheds=lambda reply: reply.live)
    live, kept = box.enqueue([Reply("3 answers", channel="c:1", live=True), Reply("results", channel="c:1")])
    clock.at += 60.0
    assert [item.id for item in box.claim_due()] == [kept.outbox_id]
    assert store.outbox_state(live.outbox_id or 0) == "dropped"


def test_a_refusal_is_tried_again_and_a_permanent_one_is_a_dead_letter(store: MemoryStorage) -> None:
    clock = Clock()
    box = outbox(store, clock, "hostA:1:aa")
    again, dead = box.enqueue([Reply("draw", channel="c:1"), Reply("results", channel="c:2")])
    box.sent([again, dead], [again, Undelivered(dead, Failure.PERMANENT, "unknown channel")])
    assert store.outbox_state(again.outbox_id or 0) == "waiting"
    assert [(d.id, d.reason) for d in box.dead_letters("c:2")] == [(dead.outbox_id, "unknown channel")]
    clock.at += 120.0  # past the backoff
    (item,) = box.claim_due()
    box.retried(item, None)
    assert store.outbox_state(item.id) == "delivered"
    assert [(b.platform, b.waiting, b.dead) for b in box.backlog()] == [("c", 0, 1)]
