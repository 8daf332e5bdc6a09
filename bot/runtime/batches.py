"""Work that arrives while the previous work runs, done together: one thread call for the lot.

Under a burst, one call (one transaction, one statement) serves many callers; alone, a caller's item goes
at once. Each caller awaits its own result; if the call raises, every caller of the batch hears it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Batches(Generic[T, R]):
    """Items handed to ``run`` (in a thread) in batches of at most ``most``, in the order they came."""

    def __init__(self, run: Callable[[list[T]], list[R]], most: int | None = None) -> None:
        """``run``: every item's result, in order."""
        self._run = run
        self._most = most
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._runner: asyncio.Task[None] | None = None
        self.runs = 0  # calls of ``run`` so far (with ``items``: how large the batches were)
        self.items = 0

    async def submit(self, item: T) -> R:
        """The item's result, once a batch that holds it has run."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[R] = loop.create_future()
        self._waiting.append((item, done))
        if self._runner is None or self._runner.done():
            self._runner = loop.create_task(self._run_all())
        return await done

    async def _run_all(self) -> None:
        while self._waiting:
            cut = len(self._waiting) if self._most is None else self._most
            batch, self._waiting = self._waiting[:cut], self._waiting[cut:]
            self.runs += 1
            self.items += len(batch)
            try:
                results = await asyncio.to_thread(self._run, [item for item, _ in batch])
            except BaseException as error:  # each caller hears it, as if it had run alone
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error) if isinstance(error, Exception) else done.cancel()
                if not isinstance(error, Exception):
                    raise
            else:
                for (_, done), result in zip(batch, results):
                    if not done.done():
                        done.set_result(result)
