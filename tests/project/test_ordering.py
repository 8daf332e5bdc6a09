"""The order the test processes take the tests in (``tests.ordering``)."""

from __future__ import annotations

from tests.ordering import block_sizes, dealt


def test_blocks_are_the_ones_worksteal_hands_out() -> None:
    assert block_sizes(10, 4) == [2, 2, 3, 3]
    assert sum(block_sizes(3401, 4)) == 3401


def test_each_block_opens_with_its_share_of_the_long_tests() -> None:
    seconds = {"a": 40.0, "b": 30.0, "c": 20.0, "d": 10.0, "e": 5.0}
    items = ["x1", "a", "x2", "b", "x3", "c", "x4", "d", "x5", "e", "x6", "x7"]
    ordered = dealt(items, lambda item: seconds.get(item, 0.0), 3)
    assert sorted(ordered) == sorted(items)
    blocks = [ordered[0:4], ordered[4:8], ordered[8:12]]
    assert [block[0] for block in blocks] == ["a", "b", "c"]  # the longest, one a block
    # each next one to the block with the fewest seconds so far: d to c's (20 s), then e to b's (30 s, as c+d)
    assert (blocks[1][:2], blocks[2][:2]) == (["b", "e"], ["c", "d"])
    assert [item for item in ordered if item.startswith("x")] == ["x1", "x2", "x3", "x4", "x5", "x6", "x7"]


def test_one_process_takes_the_longest_first() -> None:
    assert dealt(["x", "a", "y", "b"], lambda item: {"a": 1.0, "b": 2.0}.get(item, 0.0), 1) == ["b", "a", "x", "y"]
