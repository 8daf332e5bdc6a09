"""Compiling sorted code strings into the node table of a minimal DAWG (``core.lexicon_layout``).

One table holds two graphs: the word graph, and the anagram map (each word's letters in
alphabet order followed by the word itself); the lookahead arrays cover the word graph.
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Iterable

from .alphabet import MAX_TILES
from .lexicon_layout import FINAL, LOOKAHEAD, typecode

LETTER_BITS = {chr(65 + code): 1 << code for code in range(MAX_TILES)}  # by code character


def build_graph(words: Iterable[str], final: int) -> tuple[array[int], int, int, tuple[array[int], ...]]:
    """The table, word-graph root, anagram-map root and lookahead arrays of distinct code strings;
    ``final`` is the head bit of final nodes (``Lexicon.final``, ``1 << tiles``), which sets the arrays' width."""
    unique = sorted(words)
    keyed = sorted("".join(sorted(word)) + word for word in unique)
    # Building makes millions of small containers that live to the end: the cyclic
    # collector would walk them again and again for nothing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        table, (root, anagram_root), sizes = _compile([unique, keyed], final)
    finally:
        if collecting:
            gc.enable()
    lookahead = _lookahead(table, sizes[0], final - 1)
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


def _compile(lists: list[list[str]], final_flag: int = FINAL) -> tuple[array[int], list[int], list[int]]:
    """One table holding the minimal DAWG of each sorted list of distinct code strings, their roots,
    and the table's length after each list (graphs share their equal nodes); ``final_flag`` is the
    head bit of final nodes."""
    # Incremental construction for sorted input: after each word, the nodes of the
    # previous word beyond the common prefix can no longer change, so they are replaced
    # by an equal registered node or registered themselves. The register is shared.
    # Knowing the next word as well, the part of a word beyond both its common prefixes
    # is final at once: a chain whose right language is that one suffix, looked up by
    # the suffix itself (``chains``) and only built, bottom-up, where it is new. Most of
    # an anagram key's word part is such a chain, so most letters cost one lookup.
    table: array[int] = array(typecode(final_flag.bit_length() - 1))
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
        extend((sum(node[1::2]) | (final_flag if final else 0), final | below << 1))
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

    roots: list[int] = []
    sizes: list[int] = []
    bits = LETTER_BITS
    known = chains.get
    for words in lists:
        # The nodes still open: the path of the last word, stack[d] at depth d.
        stack: list[list[int]] = [[0]]
        prefixes = _common_prefixes(words)
        previous = ""
        for word, common, shared in zip(words, prefixes, prefixes[1:]):
            # `common` letters with the previous word, `shared` with the next one
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
        top = len(stack) - 1
        while top > 0:
            node = freeze(stack.pop())
            top -= 1
            stack[top] += (bits[previous[top]], node)
        roots.append(freeze(stack[0]))
        sizes.append(len(table))
    return table, roots, sizes


def _common_prefixes(words: list[str]) -> list[int]:
    """``n + 1`` numbers for ``n`` words: item i is the length of the common prefix of
    ``words[i - 1]`` and ``words[i]``, 0 for the first item and the last."""
    # Each word as one big-endian number, zero-padded to a common width: the first
    # byte where two words differ is where the bits of their exclusive or begin.
    width = max(map(len, words), default=0)
    bits = 8 * width
    numbers = [int.from_bytes(word.encode("ascii").ljust(width, b"\0"), "big") for word in words]
    lengths = [(bits - (a ^ b).bit_length()) >> 3 for a, b in zip(numbers, numbers[1:])]
    return [0, *lengths, 0]
