"""The process that opens a round keeps its clock, though a tick of its own read the open rounds just before the
round was stored (a command and the clock run in two threads): before, that tick gave the lease up as a round
over, and the channel went unheld until its warning was due (``arbitre_clock_leases`` read 0 in a loaded run).

The races are played in order, on a real SQLite file: the tick's reading of the rounds is the set of channels
given to the clock's lease keeping, as the tick would have read it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.chat import Incoming
from bot.games.duplicate.rounds import _hold_clocks
from bot.play.clock_lease import ClockLease
from bot.referee import Referee
from bot.storage.sql.sqlite import SQLiteStorage
from tests.ready_lists import ready_registry

CHANNEL = "discord:100"
START = 1_800_000_000.0


@pytest.fixture
def referee(storage: SQLiteStorage) -> Iterator[Referee]:
    """A referee whose command opened round 1 of an automatic duplicate in CHANNEL (its clock claimed)."""
    made = Referee(storage, ready_registry(), now=lambda: START, images=False, clock_lease=ClockLease("here", 600.0))
    try:
        replies = made.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 1", admin=True))
        assert any("Coup 1" in r.text for r in replies)
        yield made
    finally:
        made.clock.shutdown()


def test_a_tick_that_read_the_rounds_before_the_new_one_keeps_its_lease(
    referee: Referee, storage: SQLiteStorage
) -> None:
    assert referee.clock.held == {CHANNEL}
    services = referee.services()
    held = _hold_clocks(services, set(), set(), START + 1)  # read before round 1 was stored: no open round
    assert held == referee.clock.held == {CHANNEL}
    assert storage.hold_clocks("other", [CHANNEL], START + 2, 600.0) == set()  # still this process's


def test_an_update_of_the_held_channels_lost_to_another_thread_is_made_again(referee: Referee) -> None:
    services = referee.services()
    referee.clock.held = set()  # another thread's assignment, from a read made before the claim
    assert _hold_clocks(services, {CHANNEL}, set(), START + 1) == {CHANNEL}
    assert referee.clock.held == {CHANNEL}


def test_leases_given_up_forget_the_rounds_opened(referee: Referee, storage: SQLiteStorage) -> None:
    referee.release_clocks()  # a clean stop, or a restart: another process runs the clock
    assert _hold_clocks(referee.services(), set(), set(), START + 1) == set()
    assert storage.hold_clocks("other", [CHANNEL], START + 2, 600.0) == {CHANNEL}
