"""The order the test processes take the tests in: pytest-xdist's ``worksteal`` gives each of the ``n`` processes
one contiguous block of the collection (the first ``len // n`` tests to the first, and so on), and an idle process
then takes half of the longest queue left, from its end. The long tests are dealt out to the heads of the blocks,
the longest first, each to the block with the fewest seconds of long tests so far, so that every process starts
with its share of them and none is left to start one near the end of the run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def block_sizes(total: int, workers: int) -> list[int]:
    """The sizes of the blocks worksteal hands out first (``pending // processes left`` each, in turn)."""
    sizes, left = [], total
    for i in range(workers):
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    return sizes


def dealt(items: Sequence[T], seconds: Callable[[T], float], workers: int) -> list[T]:
    """``items`` ordered for ``workers`` processes: each block opens with its long items (the longest first), then
    the other items in their own order fill the blocks one after another."""
    if workers < 2:
        return sorted(items, key=seconds, reverse=True)  # stable: the others keep their order
    sizes = block_sizes(len(items), workers)
    long = sorted((item for item in items if seconds(item) > 0), key=seconds, reverse=True)
    heads: list[list[T]] = [[] for _ in sizes]
    loads = [0.0 for _ in sizes]
    for item in long:
        open_blocks = [b for b in range(workers) if len(heads[b]) < sizes[b]]
        block = min(open_blocks, key=lambda b: (loads[b], b))
        heads[block].append(item)
        loads[block] += seconds(item)
    rest = iter(item for item in items if seconds(item) <= 0)
    ordered: list[T] = []
    for head, size in zip(heads, sizes, strict=True):
        ordered += head
        ordered += [next(rest) for _ in range(size - len(head))]
    return ordered
