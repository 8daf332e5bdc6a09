"""The node table of a compiled word list: its layout and the constants every lexicon module shares.

Node layout (public so that the move generator can walk it without calls):
the graph is one array of unsigned words (``Lexicon.table``): 32-bit (``array('I')``) for an
alphabet of up to 31 tiles, 64-bit (``array('Q')``) for one of 32 to 63 (Polish has 32);
``typecode`` says which. A node id is an index in it.

* ``table[node]``, the head: bits 0 to n - 1 say which letters have an edge out of
  the node (bit c for the tile of code c; bits 0-25 = A-Z for French and English);
  bit n (``Lexicon.final``, ``FINAL`` = bit 26 for A-Z) says the letters read from the root to this node form a word;
* ``table[node + 1]``, the lengths: bit d is set when some word goes on exactly d
  more letters from this node (bit 0 = the node is final);
* then the ids of the children, in letter order: the child reached by the letter
  whose bit is ``b`` is ``table[node + 2 + (head & (b - 1)).bit_count()]``.

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
FINAL = 1 << 26  # the final flag of an A-Z lexicon (``Lexicon.final`` for any alphabet)
CHILDREN = 2  # offset of the first child id from the node id
LOOKAHEAD = 6

# The node table and lookahead arrays: an owned array, or a view of the bytes a lexicon was loaded from.
Table: TypeAlias = "array[int] | memoryview[int]"

NARROW: Literal["I"] = "I"  # the typecode of a table of 32-bit words
WIDE: Literal["Q"] = "Q"  # and of 64-bit words
NARROW_TILES = 31  # the largest alphabet whose heads (its letters and the final bit) fit 32 bits


def typecode(tiles: int) -> Literal["I", "Q"]:
    """The array typecode of the node table and lookahead arrays of an alphabet of ``tiles`` tiles."""
    return NARROW if tiles <= NARROW_TILES else WIDE


if array(NARROW).itemsize != 4 or array(WIDE).itemsize != 8:  # pragma: no cover - every supported platform
    raise ImportError("core.lexicon needs array('I') items of 4 bytes and array('Q') items of 8")
