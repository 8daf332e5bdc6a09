"""Work that arrives while earlier work runs is done together (``bot.runtime.batches``): one call for the lot, each
caller its own result, a failure heard by every caller of its batch."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.runtime.batches import Batches


class Doubler:
    """Doubles numbers, one call per batch, remembering each batch (and refusing 13)."""

    def __init__(self) -> None:
        self.calls: list[list[int]] = []
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # a call has started (and may wait at the gate)

    def __call__(self, items: list[int]) -> list[int]:
        self.entered.set()
        self.gate.wait(10)
        self.calls.append(items)
        if 13 in items:
            raise ValueError("13")
        return [2 * n for n in items]


@pytest.mark.asyncio
async def test_items_that_arrive_together_are_one_call_each_with_its_result() -> None:
    run = Doubler()
    batches = Batches(run)
    assert await asyncio.gather(*(batches.submit(n) for n in range(10))) == [2 * n for n in range(10)]
    assert run.calls == [list(range(10))]


@pytest.mark.asyncio
async def test_what_arrives_while_a_batch_runs_is_the_next_batch_and_most_is_kept() -> None:
    run = Doubler()
    batches = Batches(run, most=3)
    run.gate.clear()
    first = asyncio.ensure_future(batches.submit(1))
    assert await asyncio.to_thread(run.entered.wait, 10)  # the first batch has started (waiting at the gate)
    later = [asyncio.ensure_future(batches.submit(n)) for n in range(2, 9)]
    await asyncio.sleep(0)
    run.gate.set()
    assert await first == 2
    assert await asyncio.gather(*later) == [2 * n for n in range(2, 9)]
    assert run.calls == [[1], [2, 3, 4], [5, 6, 7], [8]]


@pytest.mark.asyncio
async def test_a_failed_batch_is_heard_by_each_of_its_callers_and_the_next_batch_runs() -> None:
    run = Doubler()
    batches = Batches(run)
    results = await asyncio.gather(*(batches.submit(n) for n in (12, 13, 14)), return_exceptions=True)
    assert all(isinstance(r, ValueError) for r in results), results
    assert await batches.submit(5) == 10


@pytest.mark.asyncio
async def test_runs_and_items_count_the_batches_as_they_were_called() -> None:
    run = Doubler()
    batches = Batches(run, most=3)
    run.gate.clear()
    first = asyncio.ensure_future(batches.submit(1))
    assert await asyncio.to_thread(run.entered.wait, 10)  # the first batch has started (waiting at the gate)
    later = [asyncio.ensure_future(batches.submit(n)) for n in range(2, 7)]
    await asyncio.sleep(0)
    run.gate.set()
    await asyncio.gather(first, *later)
    assert (batches.runs, batches.items) == (len(run.calls), sum(len(call) for call in run.calls))
    assert (batches.runs, batches.items) == (3, 6)  # [1], [2, 3, 4], [5, 6]
