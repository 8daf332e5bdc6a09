"""A compiled list with a few words added and removed, without compiling it again.

A club's house words change a list by a handful of words; compiling the whole list again
takes seconds (``Lexicon.from_words``), copying it takes milliseconds. ``patch`` copies the
nodes on the path of each changed word (in the word graph) and of each changed key (in the
anagram map: a key added with its first word, removed with its last), changes the copies,
and shares every other node with the original: the original is left as it was.

The result (``Lexicon.patched``) is a ``Lexicon`` like any other for look-ups, prefix walks, cross-checks,
anagrams and the move generator: its word graph is the original's followed by the copied
nodes (so that its lookahead arrays stay as short as the word graph), and its anagram map
is in a table of its own (``Lexicon.anagram_table``). Copies are made children first, so a
node's children still have smaller ids than the node. A removed word's path is kept as
long as other words use it; an edge to a node below which no word remains is dropped.
The patched lexicon is not minimal (a copied node may equal an existing one), which
changes nothing for its users, and has no binary form: the original is what is cached.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from .lexicon_layout import CHILDREN, FINAL, LOOKAHEAD, Table, spell_words, typecode


class Patchable(Protocol):
    """What ``patch`` reads of a lexicon (``core.lexicon.Lexicon`` has it all)."""

    table: Table
    root: int
    anagram_root: int
    anagram_table: Table
    lookahead: tuple[Table, ...]
    letters: int

    def __len__(self) -> int: ...

    def _contains_codes(self, word: str) -> bool: ...


@dataclass
class _Trie:
    """The changes below one node: the final flag to set (None: unchanged) and the changes below each child."""

    final: bool | None = None
    below: dict[int, _Trie] = field(default_factory=dict)


def _trie(changes: Iterable[tuple[str, bool]]) -> _Trie:
    """The changes (a code string, whether it becomes a word) as a trie of tile codes."""
    root = _Trie()
    for codes, final in changes:
        node = root
        for char in codes:
            node = node.below.setdefault(ord(char) - 65, _Trie())
        node.final = final
    return root


class _Builder:
    """Appends changed copies of nodes to a table (``table`` holds the nodes read and the copies)."""

    def __init__(self, table: array[int], letters: int) -> None:
        self.table = table
        self.letters = letters
        self.made: list[int] = []  # ids of the copies, children first

    def copy(self, node: int | None, changes: _Trie) -> int:
        """The id of ``node`` (None: no node yet) with ``changes`` applied."""
        table = self.table
        children: dict[int, int] = {}
        final = False
        if node is not None:
            head = table[node]
            final = bool(table[node + 1] & FINAL)
            index = node + CHILDREN
            edges = head & self.letters
            code = 0
            while edges:
                if edges & 1:
                    children[code] = table[index]
                    index += 1
                edges >>= 1
                code += 1
        for code, below in changes.below.items():
            child = self.copy(children.get(code), below)
            if table[child + 1]:
                children[code] = child
            else:  # no word goes on below it
                children.pop(code, None)
        if changes.final is not None:
            final = changes.final
        ordered = sorted(children.items())
        head = sum(1 << code for code, _ in ordered)
        lengths = int(final)
        for _, child in ordered:
            lengths |= table[child + 1] << 1
        made = len(table)
        table.extend((head, lengths, *(child for _, child in ordered)))
        self.made.append(made)
        return made


def _lookahead(original: tuple[Table, ...], builder: _Builder, size: int) -> tuple[array[int], ...]:
    """The original lookahead arrays, extended over the copied nodes of the word graph (``size`` entries)."""
    table, every = builder.table, builder.letters
    depths = []
    for depth in original:
        extended: array[int] = array(table.typecode, depth)
        extended.frombytes(bytes(table.itemsize * (size - len(extended))))
        depths.append(extended)
    for node in builder.made:  # children first: their values are known
        count = (table[node] & every).bit_count()
        children = table[node + CHILDREN : node + CHILDREN + count]
        below = 0
        for child in children:
            below |= table[child]
        depths[0][node] = below & every
        for d in range(1, LOOKAHEAD):
            mask = 0
            previous = depths[d - 1]
            for child in children:
                mask |= previous[child]
            depths[d][node] = mask
    return tuple(depths)


def patch(
    lexicon: Patchable, added: list[str], removed: list[str]
) -> tuple[array[int], int, int, tuple[array[int], ...], int, array[int]]:
    """The table, root, anagram root, lookahead arrays, word count and anagram table of ``lexicon``
    with the code strings ``added`` in and ``removed`` out (see the module docstring)."""
    out = set(removed)  # a word both added and removed is removed
    wanted = [(w, True) for w in dict.fromkeys(added) if w not in out and not lexicon._contains_codes(w)]
    dropped = [(w, False) for w in dict.fromkeys(removed) if lexicon._contains_codes(w)]
    changes = wanted + dropped
    graph = len(lexicon.lookahead[0])
    tiles = lexicon.letters.bit_length()  # letters = (1 << tiles) - 1
    code = typecode(tiles)
    words = _Builder(array(code, lexicon.table[:graph]), lexicon.letters)
    root = words.copy(lexicon.root, _trie(changes)) if changes else lexicon.root
    anagrams = _Builder(array(code, lexicon.anagram_table), lexicon.letters)
    # a key goes in with a word added, and out with a removed word when no word of the patched list has it
    keys = {"".join(sorted(w)): True for w, _ in wanted}
    for word, _ in dropped:
        key = "".join(sorted(word))
        if key not in keys and not spell_words(words.table, root, [ord(c) - 65 for c in key], tiles):
            keys[key] = False
    anagram_root = anagrams.copy(lexicon.anagram_root, _trie(keys.items())) if keys else lexicon.anagram_root
    lookahead = _lookahead(lexicon.lookahead, words, len(words.table))
    count = len(lexicon) + len(wanted) - len(dropped)
    return words.table, root, anagram_root, lookahead, count, anagrams.table
