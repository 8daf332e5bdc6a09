"""Which starts of the top search (``core.movegen_search``) may lead to a play, when the word must begin with tiles
alone: the word beginnings a rack's tiles spell, read once a search, and the checks made at such a start before
its walk (the board letters reached, and what may follow them)."""

from __future__ import annotations

from .board import SIZE
from .lexicon_layout import Table
from .movegen_board import Line

Beginning = tuple[int, int, int]
"""A word beginning spelt with a rack's tiles: its node, the state of the tiles left (``Search.place``), and the
letters of those tiles as a mask."""


def rack_beginnings(
    table: Table, root: int, width: int, place: list[int], counts: list[int], first_state: int, mask: int, shift: int
) -> tuple[dict[int, int], list[list[Beginning]]]:
    """Every word beginning read from the root with the tiles of a rack alone (its letter ``counts``, state
    ``first_state`` and letters ``mask``): per beginning (key: ``node << shift | state``), the letters that may
    follow it once k more of the tiles left are read, for every k, as one number (``width`` bits per k, k = 0
    lowest); and the beginnings by their number of tiles."""
    found: dict[int, int] = {}
    counts = list(counts)
    beginnings: list[list[Beginning]] = [[] for _ in range(SIZE + 1)]

    def walk(node: int, state: int, mask: int, length: int) -> int:
        # ``mask``: the letters of the tiles left
        head = table[node]
        beginnings[length].append((node, state, mask))
        ahead = 0
        ready = head & mask
        while ready:
            bit = ready & -ready
            ready ^= bit
            code = bit.bit_length() - 1
            left = counts[code] - 1
            counts[code] = left
            child = table[node + 2 + (head & (bit - 1)).bit_count()]
            ahead |= walk(child, state - place[code], mask if left else mask ^ bit, length + 1)
            counts[code] = left + 1
        packed = found[node << shift | state] = head | ahead << width
        return packed

    walk(root, first_state, mask, 0)
    return found, beginnings


class StartCheck:
    """The checks at a start whose word begins with tiles alone, on the line of the task that runs (``use``).

    ``counts`` is the search's list of the rack's letter counts (as the walk leaves it between tasks), ``depth``
    the word graph and its lookahead tables (``depth[k][node]``: the letters k tiles on), ``every`` every letter.
    """

    __slots__ = ("table", "depth", "counts", "every", "fixed", "cross_mask")

    def __init__(self, table: Table, depth: list[Table], counts: list[int], every: int) -> None:
        self.table = table
        self.depth = depth
        self.counts = counts
        self.every = every
        self.fixed: list[int] = []
        self.cross_mask: list[int] = []

    def use(self, line: Line) -> None:
        """Check the starts of this line from now on."""
        self.fixed = line.fixed
        self.cross_mask = line.cross_mask

    def lengths_after(self, target: int, end: int) -> int:
        """The lengths a word may still have (bit k: k more tiles) from the empty square after the board letters
        from target, in a stretch ending at ``end``."""
        fixed = self.fixed
        q = target
        while fixed[q] >= 0:
            q += 1
        lengths = 0
        for pos in range(q, end + 1):
            if fixed[pos + 1] < 0:
                lengths |= 2 << (pos - q)
        return lengths

    def through(self, node: int, pos: int) -> tuple[int, int]:
        """The node read from ``node`` through the board letters from ``pos`` (-1 when they do not follow in
        any word), and the empty square after them."""
        table, fixed = self.table, self.fixed
        code = fixed[pos]
        while code >= 0:
            bit = 1 << code
            head = table[node]
            if not head & bit:
                return -1, pos
            node = table[node + 2 + (head & (bit - 1)).bit_count()]
            pos += 1
            code = fixed[pos]
        return node, pos

    def goes_on(self, node: int, pos: int, letters: int, lengths_there: int) -> bool:
        """Whether a word read to node may end before the empty square ``pos``, or go on there with one of
        ``letters`` to one of the lengths ``lengths_there``."""
        table = self.table
        lengths = table[node + 1]
        return bool(lengths & 1 or (lengths & lengths_there and table[node] & self.cross_mask[pos] & letters))

    def alive(self, target: int, lengths_there: int, starts: list[Beginning]) -> bool:
        """Whether one of these beginnings, followed by the board letters from target, may end or go on
        (``lengths_there``: ``lengths_after`` target)."""
        for node, _, mask in starts:
            node, pos = self.through(node, target)
            if node >= 0 and self.goes_on(node, pos, mask, lengths_there):
                return True
        return False

    def witness(self, node: int, tiles: int, mask: int, jokers: int, target: int, lengths_there: int) -> bool:
        """Whether ``tiles`` more tiles (letters ``mask`` of the rack's tiles left, and ``jokers``) may be read
        from node so that the board letters from target follow, and the word may end or go on after them
        (``lengths_there``: ``lengths_after`` target). A letter of the rack is read as its tile only: what a
        joker would do there, the tile does as well."""
        if not tiles:
            node, pos = self.through(node, target)
            return node >= 0 and self.goes_on(node, pos, self.every if jokers else mask, lengths_there)
        table = self.table
        counts = self.counts
        head = table[node]
        ready = head & (self.every if jokers else mask)
        fixed = self.fixed
        depth = self.depth
        letter = 1 << fixed[target]
        below = depth[tiles - 1]
        # the board letter after it, when there is one and the lookahead reaches it: one square further
        after = fixed[target + 1]
        second = 1 << after if after >= 0 and tiles < len(depth) else 0
        below_second = depth[tiles] if second else below
        while ready:
            bit = ready & -ready
            ready ^= bit
            child = table[node + 2 + (head & (bit - 1)).bit_count()]
            if not below[child] & letter or (second and not below_second[child] & second):
                continue
            if mask & bit:
                tile = bit.bit_length() - 1
                left = counts[tile] - 1
                counts[tile] = left
                found = self.witness(child, tiles - 1, mask if left else mask ^ bit, jokers, target, lengths_there)
                counts[tile] = left + 1
            else:
                found = self.witness(child, tiles - 1, mask, jokers - 1, target, lengths_there)
            if found:
                return True
        return False
