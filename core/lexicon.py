"""A compiled word list: a minimal DAWG in one flat array, with a versioned binary form.

The lexicon is a minimal deterministic acyclic word graph (every word of the
list spelt along one path from the root to a final node, equal suffix graphs
shared). It is built once from a sorted word list and saved with ``to_bytes``;
``from_bytes`` wraps the saved array without rebuilding anything.

The same table holds a second graph, the anagram map (``anagram_root``): for each
word, its letters in alphabetical order followed by the word itself
(``ACEHNTZCHANTEZ``). Walking the n sorted letters of a key leads to a node below
which the paths of exactly n letters are the words made of those letters, so
"which words use exactly these tiles" takes a few steps instead of a search; the
move generator finds bingos that way. A list of more than ``ANAGRAM_WORDS_LIMIT`` words keeps
the keys alone (``anagram_words`` false): the words of a key are then spelt from the word graph
with exactly the key's tiles (``core.lexicon_layout.spell_words``).

The node table, its lookahead arrays and the constants they share are described in
``core.lexicon_layout``; ``core.lexicon_build`` compiles a word list into them,
``core.lexicon_format`` is the binary form, ``core.lexicon_patch`` adds and removes words.

Strings: the public methods take and give words as tile symbols (``core.alphabet``;
for A-Z, plain uppercase words). Inside, and in the ``*_codes`` methods the move
generator calls, a word is a "code string": one character ``chr(65 + code)`` per tile,
which sorts in alphabet order; for A-Z both forms are the same string.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .alphabet import LATIN, MAX_TILES, Alphabet
from .edition import fold_accents
from .errors_lexicon import AlphabetMismatchError, CorruptLexiconError, InvalidWordError
from .lexicon_build import build_graph
from .lexicon_format import decode, encode
from .lexicon_layout import (
    ALL_LETTERS,
    ANAGRAM_WORDS_LIMIT,
    CHILDREN,
    FINAL,
    Table,
    key_nodes,
    spell_words,
    words_below,
)
from .lexicon_patch import patch

MIN_WORD = 2
MAX_WORD = 15

_CROSS_CACHE_LIMIT = 200_000


def normalise_word(text: str, alphabet: Alphabet = LATIN) -> str:
    """The word as stored: tiles of the alphabet as symbols (accents folded, spaces around removed, uppercase).

    Raises InvalidWordError unless the result is 2 to 15 tiles of the alphabet.
    """
    if alphabet.plain:
        folded = text if text.isascii() else fold_accents(text)
        word = folded.strip().upper()
        if not (MIN_WORD <= len(word) <= MAX_WORD and word.isascii() and word.isalpha()):
            raise InvalidWordError(text)
        return word
    word = alphabet.tiles(text.strip())
    if not (MIN_WORD <= len(word) <= MAX_WORD and alphabet.all_tiles(word)):
        raise InvalidWordError(text)
    return word


def _distinct(ordered: list[str]) -> list[str]:
    """A sorted list without its repeats (the same list when it has none)."""
    if all(a != b for a, b in zip(ordered, ordered[1:])):
        return ordered
    return [word for index, word in enumerate(ordered) if not index or word != ordered[index - 1]]


def _code_table(alphabet: Alphabet) -> dict[int, int]:
    """A ``str.translate`` table from symbols to code characters (anything else to NUL, never a code)."""
    to_codes = {65 + code: 0 for code in range(MAX_TILES)}
    to_codes.update({ord(symbol): 65 + code for code, symbol in enumerate(alphabet.symbols)})
    return to_codes


class Lexicon:
    """A set of words (2-15 tiles of one alphabet, A-Z by default) stored as a minimal DAWG, with prefix walks."""

    __slots__ = (
        "name",
        "table",
        "root",
        "anagram_root",
        "anagram_table",
        "anagram_words",
        "lookahead",
        "alphabet",
        "letters",
        "_size",
        "_to_codes",
        "_count",
        "_cross_cache",
    )

    name: str
    table: Table
    root: int
    anagram_root: int
    anagram_table: Table  # the table holding the anagram map: ``table`` itself, but for a patched lexicon
    anagram_words: bool  # whether the anagram map holds each key's words after it (else the keys alone)
    lookahead: tuple[Table, ...]
    alphabet: Alphabet
    letters: int  # the head bits of every tile: (1 << number of tiles) - 1 (``FINAL`` is in the lengths word)

    def __init__(
        self,
        table: Table,
        root: int,
        anagram_root: int,
        lookahead: tuple[Table, ...],
        count: int,
        name: str = "",
        alphabet: Alphabet = LATIN,
        anagram_table: Table | None = None,
        anagram_words: bool = True,
    ) -> None:
        """Wrap an already built table (use ``from_words``, ``from_bytes`` or ``patched``); the anagram map
        is in ``table`` unless ``anagram_table`` holds it, with each key's words unless ``anagram_words`` is
        false."""
        self.name = name
        self.table = table
        self.root = root
        self.anagram_root = anagram_root
        self.anagram_table = table if anagram_table is None else anagram_table
        self.anagram_words = anagram_words
        self.lookahead = lookahead
        self.alphabet = alphabet
        self._size = len(alphabet)
        self.letters = (1 << self._size) - 1
        self._to_codes = None if alphabet.plain else _code_table(alphabet)
        self._count = count
        self._cross_cache: dict[tuple[str, str], int] = {}

    # --- building and loading ---------------------------------------------------------

    @classmethod
    def from_words(
        cls,
        words: Iterable[str],
        name: str = "",
        *,
        skip_invalid: bool = False,
        alphabet: Alphabet = LATIN,
        anagram_words: bool | None = None,
    ) -> Lexicon:
        """Compile a word list (any case or accents, duplicates allowed) of the alphabet's tiles.

        A word that is not 2-15 tiles raises InvalidWordError, or is left out
        with ``skip_invalid`` (for lists such as ENABLE that hold longer words). ``anagram_words``: whether
        the anagram map holds the words (by default, up to ``ANAGRAM_WORDS_LIMIT`` words).
        """
        # code strings in a list (a set of millions of strings costs more than they do), sorted and deduplicated
        kept: list[str] = []
        keep = kept.append
        plain = alphabet.plain
        to_codes = None if plain else _code_table(alphabet)
        for word in words:
            if plain and MIN_WORD <= len(word) <= MAX_WORD and word.isascii() and word.isalpha() and word.isupper():
                keep(word)  # already in stored form
                continue
            try:
                stored = normalise_word(word, alphabet)
            except InvalidWordError:
                if not skip_invalid:
                    raise
                continue
            keep(stored if to_codes is None else stored.translate(to_codes))
        kept.sort()
        kept = _distinct(kept)
        if anagram_words is None:
            anagram_words = len(kept) <= ANAGRAM_WORDS_LIMIT
        count = len(kept)
        table, root, anagram_root, lookahead = build_graph(kept, len(alphabet), anagram_words)  # empties kept
        return cls(table, root, anagram_root, lookahead, count, name, alphabet, anagram_words=anagram_words)

    def patched(self, added: Iterable[str], removed: Iterable[str], name: str = "") -> Lexicon:
        """This list with ``added`` words in and ``removed`` words out, without compiling it again
        (``core.lexicon_patch``): milliseconds where ``from_words`` takes seconds."""

        def codes(words: Iterable[str]) -> list[str]:
            return [self._encode(normalise_word(word, self.alphabet)) for word in words]

        table, root, anagram_root, lookahead, count, anagram_table = patch(self, codes(added), codes(removed))
        return Lexicon(
            table,
            root,
            anagram_root,
            lookahead,
            count,
            name or self.name,
            self.alphabet,
            anagram_table=anagram_table,
            anagram_words=self.anagram_words,
        )

    def to_bytes(self) -> bytes:
        """The versioned binary form (``core.lexicon_format``); a patched lexicon has none (save the
        list it was patched from, and patch it again)."""
        if self.anagram_table is not self.table:
            raise ValueError("a patched lexicon has no binary form")
        return encode(
            self.name,
            self.table,
            self.lookahead,
            self.root,
            self.anagram_root,
            self._count,
            self.alphabet,
            self.anagram_words,
        )

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview, name: str = "", *, copy: bool = True) -> Lexicon:
        """Load the binary form; raises CorruptLexiconError on truncated or damaged data.

        ``name`` overrides the name stored in the data when it is not empty. With
        ``copy=False`` the table and lookahead arrays are views of ``data`` instead of
        copies (on little-endian hosts; others copy anyway): nothing is copied, which
        suits a memory-mapped file read once, but ``data`` must not change afterwards.
        """
        table, root, anagram_root, lookahead, count, stored_name, alphabet, words = decode(data, copy=copy)
        return cls(table, root, anagram_root, lookahead, count, name or stored_name, alphabet, anagram_words=words)

    def verify(self) -> None:
        """Check that the table is a well-formed graph; raises CorruptLexiconError if not.

        ``from_bytes`` only checks the header and the checksum: bytes that were crafted
        (or produced by a faulty writer) with a valid checksum could still hold child
        ids out of range, and every lookup would then fail. This walks every node once
        (about 0.6 s for 400,000 words) so that a caller reading untrusted bytes can
        refuse them once instead.
        """
        table = self.table
        size = len(table)
        letters = self.letters
        flags_end = self._size
        starts = bytearray(size + 1)  # 1 where a node begins
        node = 0
        while node < size:
            head = table[node]
            count = (head & letters).bit_count()
            end = node + CHILDREN + count
            if head >> flags_end or end > size:
                raise CorruptLexiconError(f"node {node} runs past the table or has unknown flags")
            if count == 1:
                child = table[node + CHILDREN]
                if child >= node or not starts[child]:
                    raise CorruptLexiconError(f"node {node} has a child that is not an earlier node")
            elif count:
                children = table[node + CHILDREN : end]
                if max(children) >= node or not all(map(starts.__getitem__, children)):
                    raise CorruptLexiconError(f"node {node} has a child that is not an earlier node")
            starts[node] = 1
            node = end
        graph = len(self.lookahead[0]) if self.lookahead else 0
        if not (starts[self.root] and starts[self.anagram_root] and (graph == size or starts[graph])):
            raise CorruptLexiconError("a root or the word graph's end is not a node boundary")

    # --- the word set -------------------------------------------------------------------

    def __len__(self) -> int:
        return self._count

    def __repr__(self) -> str:
        return f"<Lexicon {self.name!r}: {self._count} words>"

    def _encode(self, word: str) -> str:
        """Tile symbols as a code string (characters that are not tiles become NUL, never a code)."""
        return word if self._to_codes is None else word.translate(self._to_codes)

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` (tiles typed in any case, accents folded) is in the list; False for anything else."""
        if not isinstance(word, str):
            return False
        if self._to_codes is not None:
            return self._contains_codes(self.alphabet.tiles(word.strip()).translate(self._to_codes))
        # A-Z: the same walk with its constants (the hottest lookup of the chat)
        if not word.isascii():
            word = fold_accents(word)
        word = word.strip().upper()
        if not MIN_WORD <= len(word) <= MAX_WORD:
            return False
        table = self.table
        node = self.root
        for char in word:
            code = ord(char) - 65
            if code < 0 or code > 25:
                return False
            bit = 1 << code
            head = table[node]
            if not head & bit:
                return False
            node = table[node + 2 + (head & (bit - 1)).bit_count()]
        return bool(table[node + 1] & FINAL)

    def _contains_codes(self, word: str) -> bool:
        """Whether a code string is a word of the list."""
        if not MIN_WORD <= len(word) <= MAX_WORD:
            return False
        node = self.walk_codes(word)
        return node is not None and bool(self.table[node + 1] & FINAL)

    def words(self) -> Iterator[str]:
        """Every word (tile symbols), in alphabet order."""
        table = self.table
        symbols = self.alphabet.symbols
        stack: list[tuple[int, str]] = [(self.root, "")]
        while stack:
            node, prefix = stack.pop()
            head = table[node]
            if table[node + 1] & FINAL and prefix:
                yield prefix
            letters = head & self.letters
            pending: list[tuple[int, str]] = []
            index = node + 2
            code = 0
            while letters:
                if letters & 1:
                    pending.append((table[index], prefix + symbols[code]))
                    index += 1
                letters >>= 1
                code += 1
            stack.extend(reversed(pending))

    # --- prefix walks -----------------------------------------------------------------

    def child(self, node: int, letter: str) -> int | None:
        """The node reached from ``node`` by ``letter`` (a tile symbol, any case), or None."""
        if len(letter) != 1:
            return None
        code = ord(self._encode(letter.upper())) - 65
        if code < 0 or code >= self._size:
            return None
        bit = 1 << code
        head = self.table[node]
        if not head & bit:
            return None
        return self.table[node + 2 + (head & (bit - 1)).bit_count()]

    def children(self, node: int) -> Iterator[tuple[str, int]]:
        """Each tile (its symbol) leaving ``node`` with the node it leads to, in alphabet order."""
        table = self.table
        symbols = self.alphabet.symbols
        letters = table[node] & self.letters
        index = node + 2
        code = 0
        while letters:
            if letters & 1:
                yield symbols[code], table[index]
                index += 1
            letters >>= 1
            code += 1

    def is_final(self, node: int) -> bool:
        """Whether the letters read from the root to ``node`` form a word."""
        return bool(self.table[node + 1] & FINAL)

    def lengths(self, node: int) -> int:
        """Bit set of the numbers d such that some word goes on exactly d more letters from ``node``."""
        return self.table[node + 1]

    def height(self, node: int) -> int:
        """The number of letters of the longest word continuation from ``node`` (0 when none)."""
        return max(self.table[node + 1].bit_length() - 1, 0)

    def has_anagram(self, letters: str, jokers: int = 0) -> bool:
        """Whether some word is made of exactly ``letters`` (tile symbols) plus ``jokers`` tiles of any kind."""
        if self._to_codes is not None:
            letters = letters.translate(self._to_codes)
        return self.has_anagram_codes(letters, jokers)

    def has_anagram_codes(self, letters: str, jokers: int = 0) -> bool:
        """``has_anagram`` for a code string."""
        codes = sorted(ord(c) - 65 for c in letters)
        length = len(codes) + jokers
        size = self._size
        if any(c < 0 or c >= size for c in codes) or not MIN_WORD <= length <= MAX_WORD:
            return False
        table = self.anagram_table
        found = anagram_keys(
            table, self.anagram_root, codes, jokers, self.anagram_words, first_only=True, letters=self.letters
        )
        return bool(found)

    def anagrams(self, letters: str, jokers: int = 0) -> Iterator[str]:
        """The words made of exactly ``letters`` (tile symbols) plus ``jokers`` tiles of any kind, in
        alphabet order of their keys (the jokers' letters), then of the words."""
        codes = sorted(ord(c) - 65 for c in self._encode(letters))
        length = len(codes) + jokers
        size = self._size
        if any(c < 0 or c >= size for c in codes) or not MIN_WORD <= length <= MAX_WORD:
            return
        table = self.anagram_table
        symbols = self.alphabet.symbols
        below = self.anagram_words
        for key_node, key in anagram_keys(table, self.anagram_root, codes, jokers, below, letters=self.letters):
            words = words_below(table, key_node, length) if below else spell_words(self.table, self.root, key, size)
            for word in words:
                yield "".join(symbols[code] for code in word)

    def walk(self, letters: str) -> int | None:
        """The node reached from the root by ``letters`` (tile symbols), or None when no word starts so."""
        if self._to_codes is not None:
            letters = letters.translate(self._to_codes)
        return self.walk_codes(letters)

    def walk_codes(self, letters: str) -> int | None:
        """``walk`` for a code string."""
        table = self.table
        node = self.root
        size = self._size
        for char in letters:
            code = ord(char) - 65
            if code < 0 or code >= size:
                return None
            bit = 1 << code
            head = table[node]
            if not head & bit:
                return None
            node = table[node + 2 + (head & (bit - 1)).bit_count()]
        return node

    def has_prefix(self, prefix: str) -> bool:
        """Whether some word starts with ``prefix`` (tiles typed in any case, accents folded); "" starts any word."""
        if self._to_codes is None:
            if not prefix.isascii():
                prefix = fold_accents(prefix)
            prefix = prefix.strip().upper()
        else:
            prefix = self.alphabet.tiles(prefix.strip())
        if not prefix:
            return self._count > 0
        return self.walk(prefix) is not None

    def cross_mask(self, before: str, after: str) -> int:
        """Bit set of the tiles x (bit c for code c) for which ``before + x + after`` is a word.

        ``before`` and ``after`` are tile symbols; results are remembered.
        """
        return self.cross_mask_codes(self._encode(before), self._encode(after))

    def cross_mask_codes(self, before: str, after: str) -> int:
        """``cross_mask`` for code strings (what the move generator calls)."""
        key = (before, after)
        cached = self._cross_cache.get(key)
        if cached is not None:
            return cached
        mask = 0
        start = self.walk_codes(before)
        if start is not None:
            table = self.table
            head = table[start]
            letters = head & self.letters
            index = start + 2
            while letters:
                low = letters & -letters
                letters ^= low
                node = table[index]
                index += 1
                for char in after:
                    bit = 1 << (ord(char) - 65)
                    node_head = table[node]
                    if not node_head & bit:
                        break
                    node = table[node + 2 + (node_head & (bit - 1)).bit_count()]
                else:
                    if table[node + 1] & FINAL:
                        mask |= low
        if len(self._cross_cache) >= _CROSS_CACHE_LIMIT:
            self._cross_cache.clear()
        self._cross_cache[key] = mask
        return mask

    def check_alphabet(self, alphabet: Alphabet) -> None:
        """Raise AlphabetMismatchError unless the lexicon's words are spelt in ``alphabet``'s tiles."""
        if alphabet is not self.alphabet and alphabet.labels != self.alphabet.labels:
            raise AlphabetMismatchError(self.name, self.alphabet.labels, alphabet.labels)


def anagram_keys(
    table: Table,
    root: int,
    codes: list[int],
    jokers: int,
    words_below: bool,
    *,
    first_only: bool = False,
    letters: int = ALL_LETTERS,
) -> list[tuple[int, tuple[int, ...]]]:
    """The keys of the anagram map (sorted codes) made of sorted ``codes`` plus ``jokers`` free letters,
    each with its node.

    Each key once, the free letters' codes in it (an empty key when ``words_below``: its node says it all);
    with ``first_only``, at most one key. ``words_below``:
    the map holds each key's words below its node (``Lexicon.anagram_words``; the paths of exactly
    ``len(codes) + jokers`` letters below it are its words), else a key's node is final and its words are
    ``spell_words`` of it. ``letters`` is the lexicon's ``letters``.
    """
    if words_below:
        return [(node, ()) for node in key_nodes(table, root, codes, jokers, first_only, letters)]
    every = letters
    # A free letter placed before the next given letter is strictly smaller than it,
    # so that each key is reached once.
    given = len(codes)
    found: list[tuple[int, tuple[int, ...]]] = []
    path: list[int] = []  # the key read so far

    def walk(node: int, index: int, free: int, rest: int) -> None:
        # `rest` letters of the key must go on from here
        if not table[node + 1] >> rest & 1:
            return
        head = table[node]
        if index == given:
            if not free:
                found.append((node, tuple(path)))
                return
            letters = head & every
        else:
            code = codes[index]
            bit = 1 << code
            if head & bit:
                path.append(code)
                walk(table[node + 2 + (head & (bit - 1)).bit_count()], index + 1, free, rest - 1)
                path.pop()
                if first_only and found:
                    return
            if not free:
                return
            letters = head & (bit - 1)
        while letters:
            low = letters & -letters
            letters ^= low
            path.append(low.bit_length() - 1)
            walk(table[node + 2 + (head & (low - 1)).bit_count()], index, free - 1, rest - 1)
            path.pop()
            if first_only and found:
                return

    walk(root, 0, jokers, given + jokers)
    return found
