"""The tops of open rounds searched ahead, in one background thread, the round that closes soonest first.

A search is CPU work for the whole interpreter: run beside a storm of closes (300 rounds closing in the same
second), it would take the interpreter from them at every statement they run; beside a burst of answers, it
holds each answer's acknowledgement back. So while the clock is closing rounds, or while the process holds
messages it has not answered (``held_back``), a search for a round that closes more than ``LEAD_SECONDS`` later
waits; and whoever needs a search that has not begun (the close of its round) runs it at once in its own thread
instead of waiting in line.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

LEAD_SECONDS = 10.0  # a search for a round closing sooner than this never waits for the closes
HELD_BACK_SECONDS = 0.1  # while answers are waiting, how often a waiting search looks again


class Search(Future[Any]):
    """One top search: run by the background thread, or by the first caller of ``result`` if it has not
    begun by then."""

    def __init__(self, due: float, work: Callable[[], Any]) -> None:
        super().__init__()
        self.due = due
        self._work = work
        self._taken = threading.Lock()

    def run_if_waiting(self) -> None:
        """Run the search here unless someone already has (or is)."""
        if not self._taken.acquire(blocking=False):
            return
        if not self.set_running_or_notify_cancel():
            return
        try:
            found = self._work()
        except BaseException as error:
            self.set_exception(error)
        else:
            self.set_result(found)

    def result(self, timeout: float | None = None) -> Any:
        self.run_if_waiting()
        return super().result(timeout)


class TopSearches:
    """Searches in order of their round's deadline, one at a time, in a thread of their own; ``now`` is
    the referee's clock."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._queue: list[tuple[float, int, Search]] = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._closing = 0  # closes under way (``closing``)
        self._stopped = False
        self._thread: threading.Thread | None = None
        # whether the process holds messages it has not answered (set by the service that receives them)
        self.held_back: Callable[[], bool] = lambda: False

    def submit(self, due: float, work: Callable[..., Any], *args: Any) -> Search:
        """Search ``work(*args)`` for a round whose deadline is ``due`` (infinity: none set)."""
        search = Search(due, lambda: work(*args))
        with self._changed:
            if self._stopped:
                raise RuntimeError("top searches stopped")
            heapq.heappush(self._queue, (due, next(self._order), search))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="arbitre-top", daemon=True)
                self._thread.start()
            self._changed.notify_all()
        return search

    @contextmanager
    def closing(self) -> Iterator[None]:
        """While rounds are being closed: searches for later rounds wait."""
        with self._changed:
            self._closing += 1
        try:
            yield
        finally:
            with self._changed:
                self._closing -= 1
                self._changed.notify_all()

    def _next(self) -> Search | None:
        """The next search to run (None: stopped), once it may run."""
        with self._changed:
            while True:
                while self._queue and self._queue[0][2].done():  # run meanwhile by whoever needed it
                    heapq.heappop(self._queue)
                waiting = 1.0  # the referee's clock may move without notice
                if self._queue:
                    due = self._queue[0][0]
                    if self._stopped or due - self._now() <= LEAD_SECONDS:
                        return heapq.heappop(self._queue)[2]
                    if not self._closing:
                        if not self.held_back():
                            return heapq.heappop(self._queue)[2]
                        waiting = HELD_BACK_SECONDS  # answers are not said to end
                elif self._stopped:
                    return None
                self._changed.wait(timeout=waiting)

    def _run(self) -> None:
        while (search := self._next()) is not None:
            search.run_if_waiting()

    def shutdown(self) -> None:
        """Finish the searches submitted, then stop the thread."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()
