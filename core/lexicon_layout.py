"""The node table of a compiled word list: its layout and the constants every lexicon module shares.

Node layout (public so that the move generator can walk it without calls):
the graph is one array of unsigned words (``Lexicon.table``): 32-bit (``array('I')``) for an
alphabet of up to 32 tiles (every shipped edition, Polish's 32 included), 64-bit (``array('Q')``)
for one of 33 to 63; ``typecode`` says which. A node id is an index in it.

* ``table[node]``, the head: bits 0 to n - 1 say which letters have an edge out of
  the node (bit c for the tile of code c; bits 0-25 = A-Z for French and English), and nothing else;
* ``table[node + 1]``, the lengths: bit d is set when some word goes on exactly d
  more letters from this node; bit 0 (``FINAL``) says the letters read from the root to this
  node form a word;
* then the ids of the children, in letter order: the child reached by the letter
  whose bit is ``b`` is ``table[node + 2 + (head & (b - 1)).bit_count()]``.

Two graphs share the table: the word graph, and the anagram map, the minimal graph of the words'
keys (each word's tiles in code order, ``ACEHNTZ`` for CHANTEZ). In a list of up to
``ANAGRAM_WORDS_LIMIT`` words each key is followed by each of its words (``ACEHNTZCHANTEZ``): below a
key's node the paths of exactly n letters are its words, read at once. A larger list keeps the keys
alone (a key's last node final; ``Lexicon.anagram_words`` false): a path per word would make most of
its size (Polish: 316 of 355 MB), so the words of a key are spelt from the word graph with exactly the
key's tiles (``spell_words``) instead.

The table and the lookahead arrays are arrays (of that typecode), or, for a lexicon loaded
with ``from_bytes(..., copy=False)``, views (``memoryview`` cast to it) of the bytes
it was loaded from: both index and slice alike (``Table``).

Lookahead (``Lexicon.lookahead``): for the nodes of the word graph (ids below
``len(lookahead[0])``), ``lookahead[d - 1][node]`` is the set of letters that some
word has d letters after the node's next one (d = 1 to ``LOOKAHEAD``): the move
generator uses it to drop a prefix that cannot meet a board letter or a cross-check
d squares further on.
"""

from __future__ import annotations

from array import array
from typing import Literal, TypeAlias

ALL_LETTERS = (1 << 26) - 1  # every letter of A-Z (``Lexicon.letters`` for any alphabet)
FINAL = 1  # the bit of a node's lengths word (``table[node + 1]``) that says the node ends a word
CHILDREN = 2  # offset of the first child id from the node id
LOOKAHEAD = 6
ANAGRAM_WORDS_LIMIT = 2_000_000  # the largest list whose anagram map holds its words (Polish's 2.9 million do not)

# The node table and lookahead arrays: an owned array, or a view of the bytes a lexicon was loaded from.
Table: TypeAlias = "array[int] | memoryview[int]"

NARROW: Literal["I"] = "I"  # the typecode of a table of 32-bit words
WIDE: Literal["Q"] = "Q"  # and of 64-bit words
NARROW_TILES = 32  # the largest alphabet whose heads (one bit per letter) fit 32 bits


def typecode(tiles: int) -> Literal["I", "Q"]:
    """The array typecode of the node table and lookahead arrays of an alphabet of ``tiles`` tiles."""
    return NARROW if tiles <= NARROW_TILES else WIDE


def spell_words(table: Table, root: int, key: list[int] | tuple[int, ...], tiles: int) -> list[list[int]]:
    """The words (lists of codes, in graph order) of the word graph at ``root`` made of exactly the tiles of
    ``key`` (codes, any order); ``tiles`` is the alphabet's size."""
    counts = [0] * tiles
    mask = 0
    for code in key:
        counts[code] += 1
        mask |= 1 << code
    length = len(key)
    word = [0] * length
    found: list[list[int]] = []

    def walk(node: int, depth: int, left: int) -> None:
        if depth == length:
            found.append(list(word))
            return
        head = table[node]
        allowed = head & left
        rest = length - depth - 1
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            child = table[node + 2 + (head & (bit - 1)).bit_count()]
            if table[child + 1] >> rest & 1:
                code = bit.bit_length() - 1
                word[depth] = code
                counts[code] -= 1
                walk(child, depth + 1, left if counts[code] else left ^ bit)
                counts[code] += 1

    if length and table[root + 1] >> length & 1:
        walk(root, 0, mask)
    return found


def words_below(table: Table, node: int, length: int) -> list[list[int]]:
    """The words below a key's node in an anagram map that holds each key's words (the paths of exactly
    ``length`` letters from ``node``, the key's length), as lists of codes, in alphabet order."""
    word = [0] * length
    found: list[list[int]] = []

    def spell(node: int, depth: int) -> None:
        if depth == length:
            found.append(list(word))
            return
        head = table[node]
        rest = length - depth - 1  # letters after the next one
        letters = head
        while letters:
            bit = letters & -letters
            letters ^= bit
            child = table[node + 2 + (head & (bit - 1)).bit_count()]
            if table[child + 1] >> rest & 1:
                word[depth] = bit.bit_length() - 1
                spell(child, depth + 1)

    spell(node, 0)
    return found


def key_nodes(table: Table, root: int, codes: list[int], jokers: int, first_only: bool, every: int) -> list[int]:
    """``core.lexicon.anagram_keys`` of a map holding each key's words: the key nodes alone (the hot path of
    bingos), each key once, in the order of the walk; ``every`` is the lexicon's ``letters``."""
    given = len(codes)
    found: list[int] = []

    def rest_of_key(node: int, index: int, rest: int) -> int:
        # no free letter left: the given letters from ``index`` read in one pass; the key's node, or -1
        while table[node + 1] >> rest & 1:
            if index == given:
                return node
            bit = 1 << codes[index]
            head = table[node]
            if not head & bit:
                return -1
            node = table[node + 2 + (head & (bit - 1)).bit_count()]
            index += 1
            rest -= 1
        return -1

    def walk(node: int, index: int, free: int, rest: int) -> None:
        # `rest` letters (the rest of the key, then the word) must go on from here; ``free`` is at least 1
        if not table[node + 1] >> rest & 1:
            return
        head = table[node]
        if index == given:
            letters = head & every
        else:
            bit = 1 << codes[index]
            if head & bit:
                walk(table[node + 2 + (head & (bit - 1)).bit_count()], index + 1, free, rest - 1)
                if first_only and found:
                    return
            letters = head & (bit - 1)
        while letters:
            low = letters & -letters
            letters ^= low
            child = table[node + 2 + (head & (low - 1)).bit_count()]
            if free > 1:
                walk(child, index, free - 1, rest - 1)
            else:  # the last free letter: ``rest_of_key`` inline (the hot loop)
                at = index
                left = rest - 1
                while table[child + 1] >> left & 1:
                    if at == given:
                        found.append(child)
                        break
                    given_bit = 1 << codes[at]
                    child_head = table[child]
                    if not child_head & given_bit:
                        break
                    child = table[child + 2 + (child_head & (given_bit - 1)).bit_count()]
                    at += 1
                    left -= 1
            if first_only and found:
                return

    if jokers:
        walk(root, 0, jokers, 2 * (given + jokers))
    else:
        key = rest_of_key(root, 0, 2 * given)
        if key >= 0:
            found.append(key)
    return found


def is_key(table: Table, root: int, codes: list[int], words_below: bool) -> bool:
    """Whether the sorted ``codes`` are a key of the anagram map at ``root`` (``core.lexicon.anagram_keys``
    without free letters, read in one pass): a map with each key's words (``words_below``) holds a word of
    exactly those tiles below the key's node, a map of keys alone ends the key on a final node."""
    rest = 2 * len(codes) if words_below else len(codes)  # the letters still to read: the key, then a word
    node = root
    for code in codes:
        if not table[node + 1] >> rest & 1:
            return False
        bit = 1 << code
        head = table[node]
        if not head & bit:
            return False
        node = table[node + 2 + (head & (bit - 1)).bit_count()]
        rest -= 1
    return bool(table[node + 1] >> rest & 1)


if array(NARROW).itemsize != 4 or array(WIDE).itemsize != 8:  # pragma: no cover - every supported platform
    raise ImportError("core.lexicon needs array('I') items of 4 bytes and array('Q') items of 8")
