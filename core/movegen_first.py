"""The first move's plays without a joker, for the move generator's search (``core.movegen``): read from the
anagram map instead of walked square by square.

On the empty board a word of the rack scores by its tiles and the premiums of the squares it covers alone,
so the search needs the rack's sub-racks that are anagram keys, once, not a walk of the word graph from
each square where a play may start. Each key is bounded by its best placement (its best values on the
best letter premiums of the window with the highest word multiplier), the keys are read best bound first,
and their words, once spelt, are scored at every place covering the centre and offered to the search, which
keeps the best as for any other play (``core.movegen_search.Search.see``).
"""

from __future__ import annotations

from operator import mul
from typing import TYPE_CHECKING

from .board import SIZE
from .lexicon_layout import spell_words, words_below

if TYPE_CHECKING:
    from .movegen_board import Line
    from .movegen_search import Search


def rack_keys(search: Search, shortest: int = 2) -> list[tuple[tuple[int, ...], int, int, int]]:
    """The rack's sub-racks of at least ``shortest`` tiles that are keys of the anagram map (some word is made
    of exactly those tiles), each with its node, its tiles' value and its best tile's value."""
    table = search.anagram_table
    words_below = search.anagram_words
    values = search.values
    counts = list(search.rack.counts)
    size = search.rack.size
    codes = [code for code, number in enumerate(counts) if number]
    found: list[tuple[tuple[int, ...], int, int, int]] = []
    path: list[int] = []
    # by the length of the path read: the node's lengths bit that says it ends a key (a path of exactly that many
    # letters more: the key's words, or none in a map of keys alone), and those that say a longer key goes on
    ends = [length if words_below else 0 for length in range(size + 1)]
    longer = [
        sum(1 << (2 * more - length if words_below else more - length) for more in range(length + 1, size + 1))
        for length in range(size + 1)
    ]

    def walk(node: int, after: int, depth: int, total: int, best: int) -> None:
        # ``path`` (depth codes, in order, worth ``total``, the best ``best``) read to ``node``; the next code
        # comes from ``codes[after:]``
        head = table[node]
        length = depth + 1
        for index in range(after, len(codes)):
            code = codes[index]
            bit = 1 << code
            if not head & bit:
                continue
            child = table[node + 2 + (head & (bit - 1)).bit_count()]
            value = values[code]
            worth = total + value
            top = value if value > best else best
            lengths = table[child + 1]
            path.append(code)
            if length >= shortest and lengths >> ends[length] & 1:
                found.append((tuple(path), child, worth, top))
            if lengths & longer[length]:
                left = counts[code] - 1
                counts[code] = left
                walk(child, index if left else index + 1, length, worth, top)
                counts[code] = left + 1
            path.pop()

    walk(search.anagram_root, 0, 0, 0, 0)
    return found


def _words(search: Search, key: tuple[int, ...], node: int) -> list[list[int]]:
    """The words of a key (codes in word order)."""
    if search.anagram_words:
        return words_below(search.anagram_table, node, len(key))
    return spell_words(search.table, search.root, key, search.tiles)


# The places of a word of each length covering the centre of an empty line, by (direction, line, centre, longest
# word): per length, each place's first square, word multiplier and letter multipliers; and the distinct
# (word multiplier, extra letter weight: the sum over the place's squares of their letter multiplier less one)
# that bound the plays of that length
Places = list[list[tuple[int, int, tuple[int, ...]]]]
Bounds = list[list[tuple[int, int]]]
_PLACES: dict[tuple[bool, int, int, int], tuple[Places, Bounds]] = {}


def _places(line: Line, longest: int) -> tuple[Places, Bounds]:
    """The places and bound shapes of ``_PLACES`` for a line of the empty board (made once): its one hook is
    the centre."""
    centre = line.hook.index(True)
    known = _PLACES.get((line.horizontal, line.index, centre, longest))
    if known is not None:
        return known
    lm, wm = line.lm, line.wm
    places: Places = [[] for _ in range(longest + 1)]
    bounds: Bounds = [[] for _ in range(longest + 1)]
    for length in range(2, longest + 1):
        for start in range(max(0, centre - length + 1), min(centre, SIZE - length) + 1):
            mult = 1
            for pos in range(start, start + length):
                mult *= wm[pos]
            multipliers = tuple(lm[start : start + length])
            places[length].append((start, mult, multipliers))
            shape = (mult, sum(multipliers) - length)
            if shape not in bounds[length]:
                bounds[length].append(shape)
    _PLACES[line.horizontal, line.index, centre, longest] = places, bounds
    return places, bounds


def first_plays(search: Search, lines: list[Line]) -> tuple[int, int]:
    """Offer ``search`` the plays of its rack (no joker) on the empty board's ``lines`` (``make_lines``: each
    crosses the centre, its one hook) that may score its threshold or more; (keys of the rack, keys read)."""
    values = search.values
    bingo = search.bingo
    total = search.rack.size
    shapes = [_places(line, total) for line in lines]
    keys: list[tuple[int, tuple[int, ...], int]] = []
    for key, node, worth, best in rack_keys(search):
        # at most the key's value, its best tile on every letter premium, times the word multiplier
        length = len(key)
        bound = 0
        for _, bounds in shapes:
            for mult, extra in bounds[length]:
                score = mult * (worth + best * extra)
                if score > bound:
                    bound = score
        keys.append((-bound - (bingo if length == total else 0), key, node))
    keys.sort()
    read = 0
    for minus_bound, key, node in keys:
        if -minus_bound < search.threshold:
            break
        read += 1
        length = len(key)
        bonus = bingo if length == total else 0
        no_jokers = (False,) * length
        for word in _words(search, key, node):
            word_values = [values[code] for code in word]
            letters = tuple(word)
            for line, (places, _) in zip(lines, shapes):
                horizontal, index = line.horizontal, line.index
                for start, mult, multipliers in places[length]:
                    score = mult * sum(map(mul, word_values, multipliers)) + bonus
                    if score < search.threshold:  # seen, and dropped as ``Search.see`` would drop it
                        search.seen += 1
                        continue
                    search.see(
                        (
                            score,
                            0,
                            (0, index, start) if horizontal else (1, start, index),
                            line,
                            start,
                            start + length,
                            tuple(range(start, start + length)),
                            letters,
                            no_jokers,
                        )
                    )
    return len(keys), read
