"""Several processes on one PostgreSQL database: a round's close waits for the answers another process
received before the deadline and has not recorded yet (issue 21; FISF: an answer handed in before the end
counts), as that process says them (``Storage.hold_arrivals``), at most ``ANSWERS_AWAITED_SECONDS``; a
process that dies says nothing any more. The other process is a real one (a Python child holding the
arrival locks through ``PostgresStorage``); the clock of the closing referee is driven by the test."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from bot.chat import Incoming, Reply
from bot.games.duplicate.rounds import ANSWERS_AWAITED_SECONDS, ARRIVALS_SAID_SECONDS
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage.sql.postgres import ARRIVAL_LOCKS
from tests.paths import REPO_ROOT
from tests.postgres_server import wait_until_lock_is_free
from tests.ready_lists import ready_registry
from tests.waiting import eventually

CHANNEL = "discord:100"
START = 1_800_000_000.0
DEADLINE = START + 60  # "/duplicate 1 manuel", drawn at START

# the other process: says it lives (its heartbeat) and holds answers sent in the channels it is told,
# then gives them back (answered) or is killed
OTHER = textwrap.dedent(
    """
    import sys
    from bot.outbox import process_name
    from bot.storage import ArrivalsSaid
    from bot.storage.sql.postgres import PostgresStorage
    storage = PostgresStorage(sys.argv[1])
    me = process_name()
    storage.outbox_alive(me, 2e9)
    for line in sys.stdin:
        at, *channels = line.split()
        storage.hold_arrivals(set(channels), ArrivalsSaid(me, float(at)))
        print("said", flush=True)
    """
)


class Other:
    """The other bot process, holding the arrival locks of the channels it is given."""

    def __init__(self, url: str) -> None:
        root = str(REPO_ROOT)
        self.process = subprocess.Popen(
            [sys.executable, "-c", OTHER, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=root,
            env={"PYTHONPATH": root, "PATH": "/usr/bin:/bin"},
        )

    def holds(self, *channels: str, at: float = START) -> None:
        """It says it holds messages sent in ``channels``, every message it received before ``at`` among them."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(" ".join([repr(at), *channels]) + "\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "said"

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(30)


@pytest.fixture
def other(postgres_url: str) -> Iterator[Other]:
    started = Other(postgres_url)
    started.holds()  # it lives and has said nothing yet
    yield started
    started.kill()


def closes(referee: Referee, clock: list[float], at: float) -> bool:
    """Whether the clock, ticking at ``at``, closed round 1."""
    clock[0] = at
    return any("Top :" in r.text for r in referee.tick())


@pytest.fixture
def closer(postgres_url: str) -> Iterator[tuple[Referee, RefereeService, list[float]]]:
    """This process's referee on the database, a round drawn in CHANNEL and Ana seated, its heartbeat given."""
    from bot.storage.sql.postgres import PostgresStorage

    clock = [START]
    storage = PostgresStorage(postgres_url)
    referee = Referee(storage, ready_registry(), now=lambda: clock[0], images=False)

    async def deliver(replies: list[Reply]) -> None:
        return None

    service = RefereeService(referee, deliver)
    try:
        referee.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
        referee.handle(Incoming(CHANNEL, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        referee.handle(Incoming(CHANNEL, "u:ana", "Ana", "/jouer H8 CHAT", private=True))
        yield referee, service, clock
    finally:
        referee.clock.shutdown()
        storage.close()


@pytest.mark.parametrize(
    ("held", "waits"),
    [(CHANNEL, True), ("u:ana", True), ("discord:200", False)],
    ids=["the-room", "a-seated-player-s-private-chat", "another-room"],
)
def test_a_close_waits_for_what_another_process_holds(
    closer: tuple[Referee, RefereeService, list[float]], other: Other, held: str, waits: bool
) -> None:
    referee, service, clock = closer
    service.beat()  # the other process lives: the close waits for what it says
    assert referee.clock.others_alive
    other.holds(held)
    assert not closes(referee, clock, DEADLINE + ARRIVALS_SAID_SECONDS / 2)  # it may not have said yet
    if not waits:
        assert closes(referee, clock, DEADLINE + ARRIVALS_SAID_SECONDS + 0.5)
        return
    assert not closes(referee, clock, DEADLINE + ARRIVALS_SAID_SECONDS + 0.5)
    assert not closes(referee, clock, DEADLINE + ANSWERS_AWAITED_SECONDS - 0.5)
    other.holds()  # answered: nothing held any more
    assert closes(referee, clock, DEADLINE + ANSWERS_AWAITED_SECONDS - 0.4)


def test_a_process_that_dies_holds_up_no_close(
    closer: tuple[Referee, RefereeService, list[float]], other: Other, postgres_url: str
) -> None:
    referee, service, clock = closer
    service.beat()
    other.holds(CHANNEL)
    assert not closes(referee, clock, DEADLINE + 1)
    other.kill()  # kill -9: its session ends, with its locks
    wait_until_lock_is_free(postgres_url, ARRIVAL_LOCKS, CHANNEL)
    assert closes(referee, clock, DEADLINE + 1.5)


def test_the_wait_is_bounded(closer: tuple[Referee, RefereeService, list[float]], other: Other) -> None:
    referee, service, clock = closer
    service.beat()
    other.holds(CHANNEL, "u:ana")
    assert not closes(referee, clock, DEADLINE + 1)
    assert closes(referee, clock, DEADLINE + ANSWERS_AWAITED_SECONDS + 0.1)  # what it holds comes too late


def test_alone_the_close_does_not_wait(closer: tuple[Referee, RefereeService, list[float]]) -> None:
    """No other live process: the round closes at the first tick past its deadline, as on SQLite."""
    referee, service, clock = closer
    service.beat()
    assert not referee.clock.others_alive
    assert closes(referee, clock, DEADLINE + 0.1)


def test_once_the_other_process_said_past_the_deadline_the_close_waits_no_longer(
    closer: tuple[Referee, RefereeService, list[float]], other: Other
) -> None:
    referee, service, clock = closer
    service.beat()
    other.holds(at=DEADLINE - 0.01)  # what it received in the last 0.01 s is not said yet
    assert not closes(referee, clock, DEADLINE + 0.05)
    other.holds(at=DEADLINE + 0.01)  # every message it received before the deadline said: it holds none
    assert closes(referee, clock, DEADLINE + 0.06)


def test_said_past_the_deadline_what_it_holds_is_still_waited_for(
    closer: tuple[Referee, RefereeService, list[float]], other: Other
) -> None:
    referee, service, clock = closer
    service.beat()
    other.holds(CHANNEL, at=DEADLINE + 0.01)
    assert not closes(referee, clock, DEADLINE + 0.05)
    assert not closes(referee, clock, DEADLINE + ARRIVALS_SAID_SECONDS + 0.5)
    other.holds(at=DEADLINE + 0.9)
    assert closes(referee, clock, DEADLINE + 1)


def test_every_other_process_must_have_said_past_the_deadline(
    closer: tuple[Referee, RefereeService, list[float]], other: Other, postgres_url: str
) -> None:
    referee, service, clock = closer
    service.beat()
    second = Other(postgres_url)
    try:
        second.holds()  # it lives, and said before the deadline
        other.holds(at=DEADLINE + 0.01)
        assert not closes(referee, clock, DEADLINE + 0.05)
        second.holds(at=DEADLINE + 0.02)
        assert closes(referee, clock, DEADLINE + 0.07)
    finally:
        second.kill()


def test_a_process_says_again_once_a_deadline_it_knows_has_passed(
    closer: tuple[Referee, RefereeService, list[float]], postgres_url: str
) -> None:
    """The other process is a whole service, given no message at all: it says what it holds at start, and
    again once the round's deadline passes on its clock, without waiting for a message to change it; though
    it runs another platform's clocks (its Telegram rooms on the database the Discord rooms share)."""
    from bot.storage.sql.postgres import PostgresStorage

    referee, service, _ = closer
    storage = PostgresStorage(postgres_url)
    elsewhere = [START + 1]
    other = Referee(storage, ready_registry(), now=lambda: elsewhere[0], images=False, clock_scope="telegram:")

    async def deliver(replies: list[Reply]) -> None:
        return None

    other_service = RefereeService(other, deliver)
    me = service.outbox.owner

    async def run() -> None:
        other_service.start()
        try:
            await eventually(lambda: referee.storage.arrivals_said_through(me, START + 1) == START + 1)
            await eventually(lambda: other_service.ticks > 0)  # its clock read the round's deadline
            assert referee.storage.arrivals_said_through(me, START + 1) == START + 1  # nothing changed since
            elsewhere[0] = DEADLINE + 0.02
            await eventually(lambda: referee.storage.arrivals_said_through(me, DEADLINE) == DEADLINE + 0.02)
        finally:
            await other_service.stop()

    try:
        asyncio.run(run())
    finally:
        other.clock.shutdown()
        storage.close()
