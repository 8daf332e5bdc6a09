"""Compiling sorted code strings into the node table of a minimal DAWG (``core.lexicon_layout``).

One table holds two graphs: the word graph, and the anagram map (the minimal graph of the words'
keys: each word's letters in alphabet order); the lookahead arrays cover the word graph.
"""

from __future__ import annotations

import gc
from array import array

from .alphabet import MAX_TILES
from .lexicon_layout import LOOKAHEAD, typecode

LETTER_BITS = {chr(65 + code): 1 << code for code in range(MAX_TILES)}  # by code character


def build_graph(words: list[str], tiles: int) -> tuple[array[int], int, int, tuple[array[int], ...]]:
    """The table, word-graph root, anagram-map root and lookahead arrays of sorted distinct code strings of
    an alphabet of ``tiles`` tiles (which sets the arrays' width, ``core.lexicon_layout.typecode``)."""
    # Building makes millions of small containers that live to the end: the cyclic
    # collector would walk them again and again for nothing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        table, root, graph = _compile(array(typecode(tiles)), words)
        keys = ["".join(sorted(word)) for word in words]
        keys.sort()
        keys = [key for index, key in enumerate(keys) if not index or key != keys[index - 1]]
        table, anagram_root, _ = _compile(table, keys)
    finally:
        if collecting:
            gc.enable()
    lookahead = _lookahead(table, graph, (1 << tiles) - 1)
    return table, root, anagram_root, lookahead


def _lookahead(table: array[int], size: int, every: int) -> tuple[array[int], ...]:
    """For each node below ``size``, the letters found d + 1 letters further (d = 1 .. LOOKAHEAD);
    ``every`` is the mask of every letter of the alphabet."""
    # Children have smaller ids than their parents: one pass in id order suffices.
    code = table.typecode
    depths = [array(code, bytes(table.itemsize * size)) for _ in range(LOOKAHEAD)]
    node = 0
    while node < size:
        head = table[node]
        count = (head & every).bit_count()
        children = table[node + 2 : node + 2 + count]
        below = 0
        for child in children:
            below |= table[child]
        depths[0][node] = below & every
        for d in range(1, LOOKAHEAD):
            deeper = depths[d - 1]
            mask = 0
            for child in children:
                mask |= deeper[child]
            depths[d][node] = mask
        node += 2 + count
    return tuple(depths)


def _compile(table: array[int], words: list[str]) -> tuple[array[int], int, int]:
    """``table`` with the minimal DAWG of a sorted list of distinct code strings appended, its root, and the
    table's length once built (a graph built after it may share its nodes)."""
    # Incremental construction for sorted input: after each word, the nodes of the
    # previous word beyond the common prefix can no longer change, so they are replaced
    # by an equal registered node or registered themselves.
    # Knowing the next word as well, the part of a word beyond both its common prefixes
    # is final at once: a chain whose right language is that one suffix, looked up by
    # the suffix itself (``chains``) and only built, bottom-up, where it is new.
    register: dict[tuple[int, ...], int] = {}
    extend = table.extend

    def freeze(node: list[int]) -> int:
        """The id of a node given as ``[final, letter bit, child, letter bit, child...]``."""
        key = tuple(node)
        found = register.get(key)
        if found is not None:
            return found
        found = len(table)
        final = node[0]
        below = 0  # the lengths of the children's continuations
        for child in node[2::2]:
            below |= table[child + 1]
        extend((sum(node[1::2]), final | below << 1))
        extend(node[2::2])
        register[key] = found
        return found

    chains: dict[str, int] = {"": freeze([1])}

    def chain(suffix: str) -> int:
        """The node whose only continuation is ``suffix`` (the final leaf for "").

        Such a node is never made by ``freeze`` (a node still open to later words has
        at least two continuations), so ``chains`` alone keeps them unique.
        """
        node = chains.get(suffix)
        if node is not None:
            return node
        missing = [suffix]  # the suffixes still without a node, longest first
        start = 1
        while True:
            tail = suffix[start:]
            node = chains.get(tail)
            if node is not None:
                break
            missing.append(tail)
            start += 1
        for tail in reversed(missing):
            found = len(table)
            # one letter out, and exactly one continuation, of len(tail) letters
            extend((LETTER_BITS[tail[0]], 1 << len(tail), node))
            node = chains[tail] = found
        return node

    bits = LETTER_BITS
    known = chains.get
    # The nodes still open: the path of the last word, stack[d] at depth d.
    stack: list[list[int]] = [[0]]
    previous = ""
    common = 0
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        shared = _common_prefix(word, following)  # `common` letters with the previous word, `shared` with the next
        top = len(stack) - 1
        while top > common:
            node = freeze(stack.pop())
            top -= 1
            stack[top] += (bits[previous[top]], node)
        if shared > common:  # the word's nodes still open to later words
            for _ in range(common, shared):
                stack.append([0])
            depth = shared
        else:
            depth = common
        if depth == len(word):
            stack[-1][0] = 1
        else:
            tail = word[depth + 1 :]
            found = known(tail)
            stack[-1] += (bits[word[depth]], chain(tail) if found is None else found)
        previous = word
        common = shared
    top = len(stack) - 1
    while top > 0:
        node = freeze(stack.pop())
        top -= 1
        stack[top] += (bits[previous[top]], node)
    root = freeze(stack[0])
    return table, root, len(table)


def _common_prefix(a: str, b: str) -> int:
    """The length of the common prefix of two code strings."""
    if a[:1] != b[:1]:
        return 0
    size = min(len(a), len(b))
    low, high = 1, size  # a[:low] == b[:low]; the answer is at most high
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low
