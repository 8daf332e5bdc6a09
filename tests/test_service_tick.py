"""The clock's replies leave as each round is stored, not once every round of the tick is done: 300 rooms
closing in the same second must not wait for the last close to see their next draw (issue 21, item 3; since
issue 36, item 2, each close's notice and next draw go as it is stored, the results of all the tick's closes
once every one is)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage.sql.postgres import PostgresStorage
from tests.ready_lists import ready_registry

START = 1_800_000_000.0


@pytest.mark.asyncio
async def test_a_close_is_delivered_while_the_clock_closes_the_next_rooms_postgres(postgres_url: str) -> None:
    """On PostgreSQL (SQLite's one connection would hold the delivery's bookkeeping behind the clock's
    transaction, where this test holds the clock)."""
    now = [START]
    delivered_early = threading.Event()
    waited: list[bool] = []
    closes: list[str] = []

    def tracer(sql: str, params: Any) -> None:
        if sql.lower().startswith("insert into closes"):
            closes.append(sql)
            if len(closes) == 2:  # the clock's thread, about to close the second room: the first is out
                waited.append(delivered_early.wait(30))

    storage = PostgresStorage(postgres_url, tracer=tracer)
    referee = Referee(storage, ready_registry(), now=lambda: now[0], images=False)
    ticking = [False]
    during_tick: list[Reply] = []

    async def deliver(replies: list[Reply]) -> None:
        if ticking[0]:
            during_tick.extend(replies)
            delivered_early.set()

    service = RefereeService(referee, deliver)
    rooms = ["discord:1", "discord:2", "discord:3"]
    try:
        for n, room in enumerate(rooms):
            await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 0.25", admin=True))
            await service.handle(Incoming(room, f"u:{n}", f"P{n}", "/jouer H8 ZOO", private=True))
        now[0] += 60
        ticking[0] = True
        replies = await service.tick()
        assert len(closes) == len(rooms)
        assert waited == [True]  # the first room's next draw was delivered before the second room closed
        assert {r.channel for r in replies if "coup 1" in r.text.lower()} == set(rooms)
        await service.drain()  # the clock does not wait for its deliveries: the test does
        assert sorted(r.outbox_id or 0 for r in during_tick) == sorted(r.outbox_id or 0 for r in replies)
        # every room's next draw was handed over (published, in the order of the tick's replies) before any
        # room's results; each room's delivered in that order
        draws = [n for n, r in enumerate(replies) if "Coup 2 — tirage :" in r.text]
        results = [n for n, r in enumerate(replies) if "Top :" in r.text]
        assert len(draws) == len(results) == len(rooms), replies
        assert max(draws) < min(results), replies
        for room in rooms:
            texts = [r.text for r in during_tick if r.channel == room]
            draw_at, results_at = (
                next(n for n, t in enumerate(texts) if w in t) for w in ("Coup 2 — tirage :", "Top :")
            )
            assert draw_at == 1 < results_at, texts  # after the draw's closed notice, the next draw; then the results
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()


def test_a_round_far_from_its_warning_costs_its_room_one_transaction_not_one_per_tick(tmp_path: Any) -> None:
    """Half-minute rounds in 20 rooms, the clock ticking four times a second: before the warnings are due
    (15 s before the deadline) each room is looked at once, not at every tick, and every warning and close
    still comes (before: a transaction per room at every tick, 1,176 transactions where now 76 at most)."""
    from bot.games.duplicate.rounds import clock_tick
    from bot.storage import SQLiteStorage

    statements: list[str] = []
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite", tracer=lambda sql, params: statements.append(sql))
    now = [START]
    referee = Referee(storage, ready_registry(), now=lambda: now[0], images=False)
    rooms = [f"discord:{n}" for n in range(20)]
    try:
        for room in rooms:
            referee.handle(Incoming(room, "u:ref", "Ref", "/duplicate 0.5", admin=True))
        statements.clear()
        said: list[Reply] = []
        for tick in range(4 * 14):  # the first 14 s of the round
            now[0] = START + tick / 4
            said += clock_tick(referee.services(), now[0])
        begins = sum(1 for s in statements if s.upper().startswith("BEGIN"))
        assert said == []
        # per tick, the leases renewed (one transaction); per room, one look in all
        assert begins <= 4 * 14 + len(rooms), begins
        for tick in range(4 * 14, 4 * 31):  # the warnings, then the closes
            now[0] = START + tick / 4
            said += clock_tick(referee.services(), now[0])
        assert sum("coup 1" in r.text.lower() and "secondes" in r.text for r in said) == len(rooms), said
        assert {r.channel for r in said if "manche close" in r.text} == set(rooms)
    finally:
        referee.clock.shutdown()
        storage.close()


@pytest.mark.asyncio
async def test_a_close_is_delivered_before_the_answers_queued_in_its_room(tmp_path: Any) -> None:
    """50 private /jouer of one room arrive just after its deadline and queue behind the first, whose
    delivery the platform holds: the clock's close (the results, the next draw: what the room must see
    first) is delivered at once, before the 49 acknowledgements queued behind (before: the clock's
    replies waited for the room's command lock, behind every queued /jouer of the room)."""
    import asyncio

    from bot.storage import SQLiteStorage

    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    now = [START]
    referee = Referee(storage, ready_registry(), now=lambda: now[0], images=False)
    room, players = "discord:1", 50
    order: list[Reply] = []
    gate = asyncio.Event()

    async def deliver(replies: list[Reply]) -> None:
        if replies[0].to_user is not None and not gate.is_set() and not any(r.to_user is None for r in order):
            await gate.wait()  # the platform holds the first acknowledgement (its room's lock is held)
        order.extend(replies)

    service = RefereeService(referee, deliver)
    try:
        await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 0.25", admin=True))
        for p in range(players):  # seated: each answered round 1 in time
            await service.handle(Incoming(room, f"u:{p}", f"P{p}", "/jouer H8 ZOO", private=True))
        order.clear()
        now[0] += 16  # past round 1's deadline: the answers that arrive now do not hold its close
        late = [
            asyncio.ensure_future(service.handle(Incoming(room, f"u:{p}", f"P{p}", "/jouer H8 ZOO", private=True)))
            for p in range(players)
        ]
        for _ in range(20):  # the first is at the platform, the others wait for the room
            await asyncio.sleep(0)
        ticked = await asyncio.wait_for(service.tick(), 30)  # a guard only: before, it waited for the gate
        await asyncio.wait_for(service.drain(), 30)  # the close's sends (the clock no longer waits for them)
        gate.set()
        await asyncio.gather(*late)
        closes = [r for r in ticked if r.to_user is None]
        assert any("Coup 1" in r.text and "50 joueurs sur 50" in r.text for r in closes), [r.text for r in ticked]
        assert any("Coup 2 — tirage" in r.text for r in closes), [r.text for r in ticked]
        acks = [n for n, r in enumerate(order) if r.to_user is not None]
        assert len(acks) == players
        closed = {r.outbox_id for r in closes}
        # every reply of the close, delivered before the first acknowledgement
        assert {r.outbox_id for r in order[: acks[0]]} >= closed, [(r.to_user, r.text[:30]) for r in order]
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()


@pytest.mark.asyncio
async def test_the_clock_wakes_at_a_deadline_sooner_than_its_cadence(tmp_path: Any) -> None:
    """The service ticks at its cadence, or sooner when the last tick saw a warning or a deadline come
    first: with a two-minute cadence, a round whose deadline is half a second away is closed and its results
    delivered at once (before: at the next tick of the cadence, up to 0.5 s late with the default one)."""
    import asyncio
    import time

    from bot.storage import SQLiteStorage

    shift = [0.0]  # the referee's clock: real time moved by this much
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    referee = Referee(storage, ready_registry(), now=lambda: time.time() + shift[0], images=False)
    results = asyncio.Event()

    async def deliver(replies: list[Reply]) -> None:
        if any("Top :" in r.text for r in replies):
            results.set()

    service = RefereeService(referee, deliver, tick_seconds=120.0)
    try:
        await service.handle(Incoming("discord:1", "u:ref", "Ref", "/duplicate 0.25", admin=True))
        await service.handle(Incoming("discord:1", "u:ana", "Ana", "/jouer H8 ZOO", private=True))
        (deadline,) = storage.deadlines()
        shift[0] = deadline.at - 0.5 - time.time()  # the round's last half second
        service.start()  # its first tick warns, and sees the deadline come before the cadence's next tick
        await asyncio.wait_for(results.wait(), 60)  # half the cadence: the close came from the deadline's tick
        await service.stop()  # the closing tick ends (its results were handed over before it did)
        assert referee.next_clock_work() > deadline.at  # nothing left to wake for at the closed deadline
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()


def test_the_next_clock_work_is_the_warning_then_the_deadline(tmp_path: Any) -> None:
    """What the service wakes for, as each tick sees the round: its warning (30 s before a minute's
    deadline), then its deadline; nothing once it closed."""
    from bot.games.duplicate.rounds import WARNING_SECONDS
    from bot.storage import SQLiteStorage

    now = [START]
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    referee = Referee(storage, ready_registry(), now=lambda: now[0], images=False)
    try:
        referee.handle(Incoming("discord:1", "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
        assert referee.tick() == []
        assert referee.next_clock_work() == float("inf")
        referee.handle(Incoming("discord:1", "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        (deadline,) = storage.deadlines()
        referee.tick()
        assert referee.next_clock_work() == deadline.at - WARNING_SECONDS
        now[0] = deadline.at - WARNING_SECONDS
        assert any("secondes" in r.text for r in referee.tick())
        assert referee.next_clock_work() == deadline.at
        now[0] = deadline.at  # past it, with no other process on the store, the round closes at once
        assert any("Top :" in r.text for r in referee.tick())
        assert storage.deadlines() == []
        assert referee.next_clock_work() == float("inf")
    finally:
        referee.clock.shutdown()
        storage.close()
