"""Clock leases on PostgreSQL last while their owner lives (issue 21): a process killed with ``kill -9``
leaves the channels whose clock it ran to the others at once, instead of holding them until its lease
expires (a burst of 300 rounds closed 5 to 8 s late). And each process takes at most its share of the
due channels, so that the live processes close a burst in parallel.

The owner that dies is a real process (a Python child taking a lease through ``PostgresStorage``); the
referee that closes the round has a clock the test drives.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.chat import Incoming
from bot.play.clock_lease import ClockLease
from bot.referee import Referee
from bot.storage import Storage
from bot.storage.sql.dialect import CLOCK_OWNER_LOCKS
from tests.paths import REPO_ROOT
from tests.postgres_server import wait_until_lock_is_free
from tests.ready_lists import ready_registry

CHANNEL = "discord:100"
START = 1_800_000_000.0
DEADLINE = START + 60  # "/duplicate 1 manuel", drawn at START
CLOSE_BOUND = 2.0  # seconds after its deadline by which a round is closed (issue 21)

# the other process: takes the clock leases of the channels it is given, for ten minutes, and says which
# it holds; then it is killed
OTHER = textwrap.dedent(
    """
    import sys
    from bot.storage.sql.postgres import PostgresStorage
    storage = PostgresStorage(sys.argv[1])
    for line in sys.stdin:
        at, *channels = line.split()
        print(" ".join(sorted(storage.hold_clocks("other", channels, float(at), 600.0))), flush=True)
    """
)


class Other:
    """Another bot process, owner of clock leases."""

    def __init__(self, url: str) -> None:
        root = str(REPO_ROOT)
        self.process = subprocess.Popen(
            [sys.executable, "-c", OTHER, url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            cwd=root, env={"PYTHONPATH": root, "PATH": "/usr/bin:/bin"},
        )  # fmt: skip

    def hold(self, at: float, *channels: str) -> set[str]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(" ".join([repr(at), *channels]) + "\n")
        self.process.stdin.flush()
        return set(self.process.stdout.readline().split())

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(30)


@pytest.fixture
def other(postgres_url: str) -> Iterator[Other]:
    started = Other(postgres_url)
    yield started
    started.kill()


@pytest.fixture
def closer(postgres_url: str) -> Iterator[tuple[Referee, list[float]]]:
    """This process's referee on the database, a round drawn in CHANNEL and Ana's answer in, its clock
    leases given up (as after a restart: the other process runs the channel's clock)."""
    from bot.storage.sql.postgres import PostgresStorage

    clock = [START]
    storage = PostgresStorage(postgres_url)
    referee = Referee(storage, ready_registry(), now=lambda: clock[0], images=False,
                      clock_lease=ClockLease("closer", 600.0))  # fmt: skip
    try:
        referee.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
        referee.handle(Incoming(CHANNEL, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        referee.handle(Incoming(CHANNEL, "u:ana", "Ana", "/jouer H8 CHAT", private=True))
        referee.release_clocks()
        yield referee, clock
    finally:
        referee.clock.shutdown()
        storage.close()


def closes(referee: Referee, clock: list[float], at: float) -> bool:
    """Whether the clock, ticking at ``at``, closed round 1."""
    clock[0] = at
    return any("Top :" in r.text for r in referee.tick())


def test_a_live_owner_keeps_its_channel(closer: tuple[Referee, list[float]], other: Other) -> None:
    referee, clock = closer
    assert other.hold(DEADLINE - 5, CHANNEL) == {CHANNEL}
    assert not closes(referee, clock, DEADLINE + 0.1)  # the other process closes it: this one leaves it alone
    assert CHANNEL not in referee.clock.held


def test_a_killed_owner_s_channel_is_closed_at_once_by_another_process(
    closer: tuple[Referee, list[float]], other: Other, postgres_url: str
) -> None:
    """Before: the lease of the killed process held its channel 600 s; the round closed that late."""
    referee, clock = closer
    assert other.hold(DEADLINE - 5, CHANNEL) == {CHANNEL}
    assert not closes(referee, clock, DEADLINE - 1)
    other.kill()  # kill -9 one second before the deadline: its session ends, with its owner lock
    wait_until_lock_is_free(postgres_url, CLOCK_OWNER_LOCKS, "other")
    assert closes(referee, clock, DEADLINE + 0.1)
    assert CHANNEL in referee.clock.held


def test_a_lease_taken_over_is_not_taken_back_by_a_restarted_owner(
    closer: tuple[Referee, list[float]], other: Other, postgres_url: str
) -> None:
    referee, clock = closer
    other.hold(DEADLINE - 5, CHANNEL)
    other.kill()
    wait_until_lock_is_free(postgres_url, CLOCK_OWNER_LOCKS, "other")
    assert closes(referee, clock, DEADLINE + 0.1)
    again = Other(postgres_url)  # the same owner, restarted: the lease is the live process's now
    try:
        assert again.hold(DEADLINE + 1, CHANNEL) == set()
    finally:
        again.kill()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        from bot.storage import SQLiteStorage

        opened: Storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    else:
        from bot.storage.sql.postgres import PostgresStorage

        opened = PostgresStorage(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("most", "taken"),
    [(0, 0), (2, 2), (4, 4), (9, 5), (None, 5)],
    ids=["none", "two", "four", "more-than-free", "unbounded"],
)
def test_a_process_takes_at_most_its_share_of_free_channels(store: Storage, most: int | None, taken: int) -> None:
    mine = {"c0", "c1"}
    free = {f"f{n}" for n in range(5)}
    assert store.hold_clocks("p1", sorted(mine), 100.0, 10.0) == mine
    assert store.hold_clocks("p2", ["c2"], 100.0, 10.0) == {"c2"}  # another live owner's
    held = store.hold_clocks("p1", sorted(mine | free | {"c2"}), 101.0, 10.0, most)
    assert mine <= held
    assert "c2" not in held
    assert len(held & free) == taken
    rest = store.hold_clocks("p3", sorted(free), 102.0, 10.0)
    assert rest == free - held  # the free ones left are another process's to take


def test_live_processes_share_a_burst_of_closes(postgres_url: str) -> None:
    """Six rounds closing in the same second, two live processes: each warns and closes three (before:
    whichever ticked first took every due channel and closed the six one after the other)."""
    from bot.storage.sql.postgres import PostgresStorage

    clock = [START]
    stores = [PostgresStorage(postgres_url), PostgresStorage(postgres_url)]
    referees = [
        Referee(s, ready_registry(), now=lambda: clock[0], images=False, clock_lease=ClockLease(f"p{n}", 600.0))
        for n, s in enumerate(stores)
    ]
    try:
        for n in range(6):
            channel = f"discord:{200 + n}"
            referees[0].handle(Incoming(channel, "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
            referees[0].handle(Incoming(channel, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        referees[0].release_clocks()  # as after a restart: nobody runs these clocks yet
        clock[0] = START + 1
        assert [referee.tick() for referee in referees] == [[], []]  # both run the clock: nothing due yet
        clock[0] = DEADLINE - 10  # due: the warnings, each process its share of the channels
        warned = [sum("secondes" in r.text for r in referee.tick()) for referee in referees]
        assert warned == [3, 3]
        assert not referees[0].clock.held & referees[1].clock.held
        clock[0] = DEADLINE + 0.1
        closed = [sum("Top :" in r.text for r in referee.tick()) for referee in referees]
        assert closed == [3, 3]
    finally:
        for referee, store in zip(referees, stores, strict=True):
            referee.clock.shutdown()
            store.close()
