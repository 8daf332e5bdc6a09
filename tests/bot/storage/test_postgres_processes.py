"""Several bot processes on one PostgreSQL database, one truth: the duplicate clock of a channel survives
its owner's ``kill -9``, a round is closed exactly once whatever the races, and no acknowledged
submission is lost.

The processes are ``tests.referee_worker`` (the referee service, driven through stdin) on a real
server started by the ``postgres_server`` fixture.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.worker_pool import Ack, Workers, say, whisper

LEASE = 2.0  # seconds: how long a dead owner's clock waits for another process
SLACK = 10.0  # seconds of scheduling on a loaded 2-core machine, on top of the lease
RACE = 6.0  # seconds of traffic, the victim killed half-way (12 s gave 4 times the closes and acks asserted)


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {timeout:.0f} s: {what}")
        time.sleep(0.05)


def rows(url: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def closes_per_round(url: str) -> Counter[tuple[int, int]]:
    """How many close events each (game, round) has in the event logs."""
    counts: Counter[tuple[int, int]] = Counter()
    rounds: Counter[int] = Counter()
    for game, kind in rows(url, "select game, kind from events order by game, seq"):
        if kind == "close":
            rounds[int(game)] += 1
            counts[(int(game), rounds[int(game)])] += 1
    return counts


def submissions(url: str) -> set[tuple[str, int]]:
    """(player, claimed score) of every stored answer: each test play claims a number of its own (an answer
    received before its round's end but stored after its close counts in that round, as a correction)."""
    found = set()
    for (data,) in rows(url, "select data from events where kind in ('submit', 'correct')"):
        event = json.loads(str(data))
        found.add((event["player"], event.get("claimed")))
    return found


@pytest.mark.long(5)
def test_postgres_clock_owner_killed_another_process_closes_the_round(postgres_url: str, tmp_path: Path) -> None:
    """Real time: real processes, one killed with kill -9, on a real PostgreSQL server; the round lasts 4.5 s
    (the six players join and play in about 0.4 s at a load of 8 on 2 cores), the lease 2 s."""
    with Workers(postgres_url, tmp_path, 2, lease=LEASE) as workers:
        first, second = workers.all
        started = workers.send(first, say("pg:1", "u:ref", "/duplicate 0.075", admin=True))  # 4.5 s rounds
        assert started is not None
        assert not first.wait_ack(started).error
        acked: list[Ack] = []
        for i in range(6):  # players join and play through both processes
            worker = workers.all[i % 2]
            joined = workers.send(worker, say("pg:1", f"u:p{i}", "/rejoindre"))
            assert joined is not None
            assert not worker.wait_ack(joined).error
            played = workers.send(worker, whisper(f"u:p{i}", f"/jouer H8 ZOO {100 + i}"))
            assert played is not None
            acked.append(worker.wait_ack(played))
        assert not any(a.error for a in acked), [a.texts for a in acked]
        wait_until(lambda: bool(rows(postgres_url, "select 1 from clock_leases")), 20, "a process takes the clock")
        ((owner,),) = rows(postgres_url, "select owner from clock_leases where channel = 'pg:1'")
        victim, survivor = (first, second) if owner == first.name else (second, first)
        ((game, deadline),) = rows(postgres_url, "select game, at from deadlines where round = 1")
        time.sleep(max(0.0, float(deadline) - time.time() - 1.0))
        assert not rows(postgres_url, "select 1 from closes"), "the round closed before its owner was killed"
        victim.kill()  # one second before the deadline: the round is the survivor's to close
        killed = time.time()
        wait_until(
            lambda: bool(rows(postgres_url, "select 1 from closes where game = %s and round = 1", (game,))),
            LEASE + SLACK + 5,
            "the survivor closes the round",
        )
        ((closed_at,),) = rows(postgres_url, "select at from closes where game = %s and round = 1", (game,))
        late = float(closed_at) - max(float(deadline), killed)
        assert late <= LEASE + SLACK, f"closed {late:.1f} s after the deadline and the kill"
        assert rows(postgres_url, "select owner from clock_leases where channel = 'pg:1'") == [(survivor.name,)]
        # every acknowledged move is in the round the survivor closed, and its results were posted
        assert {(f"p{i}", 100 + i) for i in range(6)} <= submissions(postgres_url)

        def posted() -> list[str]:
            return [r["text"] for r in survivor.delivered() if r["channel"] == "pg:1" and r["to"] is None]

        # the results go out once the close is stored (after the next draw): waited for, not raced
        wait_until(lambda: any("Top" in text for text in posted()), SLACK, f"the results posted: {posted()[-5:]}")
        assert closes_per_round(postgres_url)[(int(game), 1)] == 1
        assert survivor.finish() == 0


@pytest.mark.long(28)
def test_postgres_three_processes_race_closes_and_lose_nothing(postgres_url: str, tmp_path: Path) -> None:
    """Three processes serve eight channels of 3-second rounds for RACE seconds; the referee types /cloture and
    players play through any of them at random; one process is killed with kill -9 half-way. Real time: real
    processes and a real PostgreSQL server, the races being the point."""
    rng = random.Random(14)
    channels = [f"pg:{n}" for n in range(8)]
    with Workers(postgres_url, tmp_path, 3, lease=LEASE, tick=0.05) as workers:
        opened = []  # the eight games started at once, each through a process of its own choosing
        for channel in channels:
            worker = rng.choice(workers.all)
            opened.append((worker, workers.send(worker, say(channel, "u:ref", "/duplicate 0.05", admin=True))))
        for worker, sent in opened:
            assert sent is not None
            assert not worker.wait_ack(sent).error
        plays: dict[int, tuple[str, int]] = {}  # message -> (player, claimed score)
        claimed = 0
        stop_at = time.monotonic() + RACE
        kill_at = time.monotonic() + RACE / 2
        victim = workers.all[1]
        while time.monotonic() < stop_at:
            if not victim.killed and time.monotonic() > kill_at:
                victim.kill()
            worker = rng.choice(workers.alive())
            channel = rng.choice(channels)
            if rng.random() < 0.15:
                workers.send(worker, say(channel, "u:ref", rng.choice(["/cloture", "/etat"]), admin=True))
            else:
                player = f"{channel.replace(':', '')}x{rng.randrange(3)}"
                claimed += 1
                if player_joined(workers, worker, channel, player):
                    sent = workers.send(worker, whisper(f"u:{player}", f"/jouer H8 ZOO {claimed}"))
                    if sent is not None:
                        plays[sent] = (player, claimed)
            time.sleep(0.01)
        survivors = workers.alive()
        for worker in survivors:
            worker.wait_all()
        # rounds past their deadline are all closed again within the lease (the victim's included)
        wait_until(
            lambda: not rows(postgres_url, "select 1 from deadlines where at < %s", (time.time() - LEASE - 2,)),
            LEASE + SLACK + 5,
            "every round past its deadline is closed",
        )
        acknowledged = {
            plays[m]
            for w in workers.all
            for m, ack in list(w.acks.items())
            if m in plays and not ack.error  # a refused move is not stored; any other answer says it is
        }
        refused = [ack.texts for w in workers.all for m, ack in w.acks.items() if ack.error and m in plays]
        # the survivors' clocks go on closing 3-second rounds: on a busy machine the race itself may have
        # closed fewer than three a channel (21 of 24 beside a benchmark), which says nothing of the races
        wait_until(
            lambda: sum(closes_per_round(postgres_url).values()) >= 3 * len(channels),
            60,
            "the clock and /cloture closed three rounds a channel",
        )
        for worker in survivors:
            assert worker.finish() == 0
    counts = closes_per_round(postgres_url)
    assert sum(counts.values()) >= 3 * len(channels), counts  # the clock and /cloture closed many rounds
    assert [key for key, n in counts.items() if n > 1] == []  # none twice
    ((table,),) = rows(postgres_url, "select count(*) from closes")
    assert table == sum(counts.values())
    assert len(acknowledged) > 50, (len(acknowledged), refused[:3])
    assert acknowledged <= submissions(postgres_url)  # no acknowledged move lost, the victim's included
    assert not any("quelque chose s'est mal passé" in t for w in workers.all for a in w.acks.values() for t in a.texts)


_JOINED: set[tuple[str, str]] = set()


def player_joined(workers: Workers, worker: object, channel: str, player: str) -> bool:
    """Seat the player in the channel's game once (through any live process); whether it is seated."""
    if (channel, player) in _JOINED:
        return True
    for candidate in workers.alive():
        sent = workers.send(candidate, say(channel, f"u:{player}", "/rejoindre"))
        if sent is None:
            continue
        try:
            ack = candidate.wait_ack(sent, 30)
        except TimeoutError:
            continue
        if not ack.error:
            _JOINED.add((channel, player))
            return True
    return False


@pytest.fixture(autouse=True)
def _forget_seats() -> None:
    _JOINED.clear()
