"""The tops searched ahead give way: a search for a round closing more than ``LEAD_SECONDS`` later waits while
rounds are being closed or while the process holds answers it has not acknowledged (a burst: 300 rooms of 50
players, three PostgreSQL processes, p99 of the acknowledgements 0.5-0.75 s with the next rounds' tops searched
in the middle of the burst, 0.25-0.27 s once they waited); one closing sooner never waits, and whoever needs a
search that has not begun runs it at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from bot.play.top_searches import LEAD_SECONDS, TopSearches

NOW = 1_800_000_000.0
GUARD = 30.0  # seconds: a bound on a wait that should end at once (never reached when the code is right)


class Answers:
    """The process's answers not acknowledged yet, as the search thread asks about them."""

    def __init__(self) -> None:
        self.waiting = True
        self.asked = 0
        self._asked = threading.Condition()

    def __call__(self) -> bool:
        with self._asked:
            self.asked += 1
            self._asked.notify_all()
        return self.waiting

    def asked_twice_more(self) -> None:
        """Until the search thread has looked twice more (it decided on the first look, then waited)."""
        with self._asked:
            target = self.asked + 2
            assert self._asked.wait_for(lambda: self.asked >= target, GUARD)


@pytest.fixture
def searches() -> Iterator[tuple[TopSearches, Answers]]:
    made = TopSearches(lambda: NOW)
    answers = Answers()
    made.held_back = answers
    yield made, answers
    answers.waiting = False
    made.shutdown()


def test_a_search_far_from_its_close_waits_while_answers_do(searches: tuple[TopSearches, Answers]) -> None:
    made, answers = searches
    far = made.submit(NOW + LEAD_SECONDS + 20, lambda: "far top")
    answers.asked_twice_more()
    assert (far.running(), far.done()) == (False, False)
    answers.waiting = False
    assert far.result(GUARD) == "far top"


def test_a_search_near_its_close_never_waits(searches: tuple[TopSearches, Answers]) -> None:
    made, _ = searches
    near = made.submit(NOW + LEAD_SECONDS - 1, lambda: "near top")
    ran = threading.Event()
    near.add_done_callback(lambda _: ran.set())
    assert ran.wait(GUARD)  # run by the search thread, the answers still waiting
    assert near.result(0) == "near top"


def test_the_close_that_needs_a_waiting_search_runs_it_itself(searches: tuple[TopSearches, Answers]) -> None:
    made, answers = searches
    far = made.submit(NOW + LEAD_SECONDS + 20, lambda: threading.current_thread().name)
    answers.asked_twice_more()
    assert far.result(GUARD) == threading.current_thread().name  # not the search thread's


def test_a_search_far_from_its_close_waits_while_rounds_close(searches: tuple[TopSearches, Answers]) -> None:
    made, answers = searches
    answers.waiting = False
    with made.closing():
        far = made.submit(NOW + LEAD_SECONDS + 20, lambda: "far top")
        near = made.submit(NOW + 1, lambda: "near top")  # first in line: its round closes first
        ran = threading.Event()
        near.add_done_callback(lambda _: ran.set())
        assert ran.wait(GUARD)  # by the search thread, which then looks at the far one
        assert (far.running(), far.done()) == (False, False)
    assert far.result(GUARD) == "far top"
