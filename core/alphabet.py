"""An edition's alphabet: tile labels by integer code, and how typed text becomes tiles.

Three forms of a tile, from the outside in:

* its **label**, what players type and read: ``A``, ``Ñ``, ``CH``, ``L·L``;
* its **symbol**, one character standing for it in the engine's strings (racks, draws,
  board tiles, words): the label itself when it is one character, otherwise a
  character the alphabet assigns (a fullwidth Latin capital, ``Ｃ`` for ``CH``), so
  that a rack, a draw or a word is a ``str`` with one character per tile;
* its **code**, an integer from 0 in the order the edition lists its tiles; the
  lexicon and the move generator work on codes (bit ``1 << code`` in their masks).

For the A-Z alphabet of the French and English editions the three agree
(``A`` = ``A`` = code 0), so their strings are plain uppercase words.

Typed text is read in three steps: the alphabet's ``folds`` replace letters
(``Œ`` -> ``OE``); any other character that is not part of a label loses its
accents (``É`` -> ``E``, while a Spanish ``Ñ`` stays ``Ñ``); then the text is cut
into tiles from left to right, each time the longest label that matches there,
ignoring case but only over letters of one case (``CH`` and ``ch`` are the tile CH,
``Ch`` is C then h). The middle dot of a label (Catalan ``L·L``) may be typed as a full stop or a
hyphen, as keyboards make it (``COL.LEGI``, ``COL-LEGI`` and ``COL·LEGI`` are the same tiles; a
full stop anywhere else keeps its meaning). In an alphabet with multi-letter labels, square brackets force a
cut: ``C[H]`` is C then H, each bracket holding exactly one tile. ``spell`` writes symbols back as labels with
the brackets needed to read them back the same.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

# Letter codes are bits of the lexicon's node heads: an alphabet of up to 32 tiles fits 32-bit words (French,
# English, Polish...), a larger one 64-bit words (``core.lexicon_layout``); 63 tiles at most, so that their code
# characters ``chr(65 + code)`` stay ASCII, as the compiler needs.
MAX_TILES = 63
_ASCII_CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FULLWIDTH_A = 0xFF21  # FULLWIDTH LATIN CAPITAL LETTER A; symbols of multi-letter tiles are taken from there
OPEN, CLOSE = "[", "]"
MIDDLE_DOT = "·"
DOT_STAND_INS = ".-"  # what keyboards type for the middle dot of a label such as L·L


def _strip_accents(char: str) -> str:
    decomposed = unicodedata.normalize("NFD", char)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _dot_variants(label: str) -> list[str]:
    """The other ways of typing a label with a middle dot: ``L.L`` and ``L-L`` for ``L·L``."""
    if MIDDLE_DOT not in label:
        return []
    return [label.replace(MIDDLE_DOT, stand_in) for stand_in in DOT_STAND_INS]


def _one_case(text: str) -> bool:
    """Whether the cased letters of ``text`` are all uppercase or all lowercase."""
    return text == text.upper() or text == text.lower()


class _FoldTable(dict[int, str]):
    """``str.translate``'s table for :meth:`Alphabet.fold`: each character's fold, worked out when first met."""

    def __init__(self, folds: Mapping[str, str], keep: frozenset[str]) -> None:
        super().__init__()
        self._folds = folds
        self._keep = keep

    def __missing__(self, point: int) -> str:
        char = chr(point)
        if char in self._folds:
            folded = self._folds[char]
        elif char in self._keep or char.isascii():
            folded = char
        else:
            folded = _strip_accents(char)
        self[point] = folded
        return folded


@dataclass(frozen=True)
class Piece:
    """A piece of typed text once read: a tile (its ``symbol``) or, when ``symbol`` is None, one other character.

    ``typed`` is the text as typed (after folding), so its case can be read.
    """

    symbol: str | None
    typed: str

    @property
    def lowercase(self) -> bool:
        """Whether the tile was typed in lowercase (a joker in strict notation)."""
        return self.typed != self.typed.upper()


@dataclass(frozen=True)
class Alphabet:
    """Tile labels by code (uppercase, each one or more characters) and the letter folds applied to typed text."""

    labels: tuple[str, ...]
    folds: Mapping[str, str] = field(default_factory=dict)
    symbols: str = field(init=False, compare=False)
    plain: bool = field(init=False, compare=False, repr=False)  # exactly A to Z: symbol = label = chr(65 + code)
    multiletter: bool = field(init=False, compare=False, repr=False)  # some label has several letters
    _codes: dict[str, int] = field(init=False, compare=False, repr=False)
    _reading: tuple[frozenset[str], dict[str, tuple[str, ...]], dict[str, str]] = field(
        init=False, compare=False, repr=False
    )  # characters kept as typed, labels by first character (longest first), symbol by label or symbol
    _ascii_folds: bool = field(init=False, compare=False, repr=False)
    _fold_table: dict[int, str] = field(init=False, compare=False, repr=False)  # str.translate's, filled as read
    _uppercase_tiles: re.Pattern[str] = field(init=False, compare=False, repr=False)  # long labels, longest first
    _symbol_set: frozenset[str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        labels = tuple(self.labels)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "folds", MappingProxyType(dict(self.folds)))
        if not 1 <= len(labels) <= MAX_TILES:
            raise ValueError(f"an alphabet has 1 to {MAX_TILES} tiles, not {len(labels)}")
        if len(set(labels)) != len(labels):
            raise ValueError("an alphabet lists each label once")
        for label in labels:
            if not label or label != label.upper() or label.strip() != label or any(c in "?+.()[] " for c in label):
                raise ValueError(f"{label!r} is not an uppercase tile label")
        singles = {label for label in labels if len(label) == 1}
        free = [chr(_FULLWIDTH_A + i) for i in range(26)]
        symbols: list[str] = []
        for label in labels:
            if len(label) == 1:
                symbols.append(label)
                continue
            initial = _ASCII_CAPITALS.find(label[0])
            preferred = [free[initial]] if initial >= 0 else []
            symbol = next((c for c in preferred + free if c not in symbols and c not in singles), None)
            if symbol is None:
                raise ValueError("an alphabet has at most 26 multi-letter labels")
            symbols.append(symbol)
        object.__setattr__(self, "symbols", "".join(symbols))
        object.__setattr__(self, "_codes", {symbol: code for code, symbol in enumerate(symbols)})
        keep = {c for text in labels + tuple(symbols) for c in text + text.lower()}
        starts: dict[str, list[str]] = {}
        for label in labels:
            starts.setdefault(label[0], []).append(label)
        by_label = dict(zip(labels, symbols))
        for label, symbol in zip(labels, symbols):
            for variant in _dot_variants(label):
                starts[label[0]].append(variant)
                by_label[variant] = symbol
        longest = {first: tuple(sorted(found, key=len, reverse=True)) for first, found in starts.items()}
        by_label.update({symbol: symbol for symbol in symbols})
        object.__setattr__(self, "_reading", (frozenset(keep), longest, by_label))
        object.__setattr__(self, "_ascii_folds", any(key.isascii() for key in self.folds))
        object.__setattr__(self, "_fold_table", _FoldTable(self.folds, frozenset(keep)))
        # a one-character label or a symbol stands for itself: only the longer labels need replacing
        longer = sorted((label for label in by_label if len(label) > 1), key=len, reverse=True)
        object.__setattr__(self, "_uppercase_tiles", re.compile("|".join(map(re.escape, longer)) or "(?!)"))
        object.__setattr__(self, "_symbol_set", frozenset(symbols))
        object.__setattr__(self, "plain", self.symbols == _ASCII_CAPITALS and labels == tuple(_ASCII_CAPITALS))
        object.__setattr__(self, "multiletter", any(len(label) > 1 for label in labels))

    def __hash__(self) -> int:
        return hash((self.labels, tuple(sorted(self.folds.items()))))

    # --- codes, symbols and labels ------------------------------------------------------

    def __len__(self) -> int:
        return len(self.labels)

    def __contains__(self, symbol: object) -> bool:
        """Whether ``symbol`` is the symbol of one of the tiles."""
        return isinstance(symbol, str) and len(symbol) == 1 and symbol in self._codes

    def all_tiles(self, symbols: str) -> bool:
        """Whether every character of ``symbols`` is the symbol of a tile."""
        return self._symbol_set.issuperset(symbols)

    def code(self, symbol: str) -> int:
        """The code of a tile symbol; KeyError for anything else."""
        return self._codes[symbol]

    def label(self, symbol: str) -> str:
        """The label of a tile symbol (``Ｃ`` -> ``CH``); anything else is returned as it is."""
        code = self._codes.get(symbol)
        return symbol if code is None else self.labels[code]

    def sort_key(self, symbol: str) -> int:
        """Order of tiles in records: by code, anything that is not a tile (the joker ``?``) after them."""
        return self._codes.get(symbol, len(self.labels))

    # --- reading typed text ---------------------------------------------------------------

    def fold(self, text: str) -> str:
        """Typed text with the alphabet's folds applied and accents taken off letters that are not part of a label.

        Case and every other character are kept: ``Œufs`` -> ``OEufs``; ``Año`` stays ``Año`` in an
        alphabet with Ñ and gives ``Ano`` in one without.
        """
        if text.isascii() and not self._ascii_folds:
            return text
        return text.translate(self._fold_table)

    def scan(self, text: str) -> list[Piece]:
        """Folded typed text as tiles (longest label first, one case per tile) and other characters.

        In an alphabet with multi-letter labels, ``[X]`` is one forced tile, and a bracket that
        does not hold exactly one tile is one piece with no symbol, the brackets included.
        """
        folded = self.fold(text)
        if self.plain:
            return [Piece(c.upper() if c.isascii() and c.isalpha() else None, c) for c in folded]
        _keep, starts, by_label = self._reading
        brackets = self.multiletter
        pieces: list[Piece] = []
        i = 0
        size = len(folded)
        while i < size:
            char = folded[i]
            if char == OPEN and brackets:
                close = folded.find(CLOSE, i + 1)
                inside = folded[i + 1 : close] if close > 0 else ""
                found = self._longest(inside, 0, starts, by_label) if inside else None
                if close < 0 or found is None or len(found[1]) != len(inside):
                    end = size if close < 0 else close + 1
                    pieces.append(Piece(None, folded[i:end]))
                    i = end
                    continue
                pieces.append(Piece(found[0], inside))
                i = close + 1
                continue
            found = self._longest(folded, i, starts, by_label)
            if found is None:
                pieces.append(Piece(None, char))
                i += 1
            else:
                pieces.append(Piece(found[0], found[1]))
                i += len(found[1])
        return pieces

    @staticmethod
    def _longest(
        text: str, at: int, starts: dict[str, tuple[str, ...]], by_label: dict[str, str]
    ) -> tuple[str, str] | None:
        """(symbol, typed text) of the longest tile label at ``text[at:]``, or None."""
        first = text[at].upper()
        symbol = by_label.get(first)
        if symbol is not None and first not in starts:  # a symbol typed as such
            return symbol, text[at]
        for label in starts.get(first, ()):
            typed = text[at : at + len(label)]
            if typed.upper() == label and _one_case(typed):
                return by_label[label], typed
        return None

    def tiles(self, text: str) -> str:
        """Typed text as a string of uppercase symbols, one per tile; other characters uppercased as they are."""
        folded = self.fold(text)
        if self.plain or not self.multiletter:  # each label is one letter, its own symbol
            return folded.upper()
        if OPEN not in folded and folded == folded.upper():  # what scan reads, without a piece per character
            by_label = self._reading[2]
            return self._uppercase_tiles.sub(lambda found: by_label[found.group()], folded)
        return "".join(p.symbol if p.symbol is not None else p.typed.upper() for p in self.scan(text))

    # --- writing --------------------------------------------------------------------------

    def spell(self, symbols: str, jokers: Sequence[bool] | None = None) -> str:
        """Tiles written as labels that read back the same: ``CH`` + ``O`` -> ``CHO``, ``C`` + ``H`` -> ``C[H]``.

        Jokers (``jokers[i]`` true) are written in lowercase; characters that are not tiles are kept.
        """
        if self.plain or not self.multiletter:  # each label is one letter, its own symbol: nothing to bracket
            if jokers is None:
                return symbols
            return "".join(s.lower() if j else s for s, j in zip(symbols, jokers))
        written = [
            self.label(s).lower() if jokers is not None and jokers[i] else self.label(s) for i, s in enumerate(symbols)
        ]
        _keep, starts, by_label = self._reading
        out: list[str] = []
        bracketed = False
        codes = self._codes
        for i, text in enumerate(written):
            is_tile = symbols[i] in codes
            longer = False
            if is_tile and not bracketed and i + 1 < len(written):
                # would reading from this tile on take more than its own label?
                found = self._longest("".join(written[i:]), 0, starts, by_label)
                longer = found is None or len(found[1]) != len(text)
            # a tile whose label runs on into a character that is no tile (L then a board letter's ``.``,
            # read as L·L) is bracketed itself; one that runs on into the next tile brackets that one
            alone = longer and symbols[i + 1] not in codes
            out.append(f"{OPEN}{text}{CLOSE}" if is_tile and (bracketed or alone) else text)
            bracketed = longer and not alone
        return "".join(out)

    def spell_tiles(self, tiles: Iterable[str]) -> str:
        """Tiles (``?`` jokers among them) in record order, by code with jokers last, written as labels."""
        ordered = sorted(tiles, key=self.sort_key)
        return self.spell("".join(ordered))


def _latin() -> Alphabet:
    return Alphabet(tuple(_ASCII_CAPITALS), {"Œ": "OE", "œ": "oe", "Æ": "AE", "æ": "ae", "ß": "SS"})


LATIN = _latin()
"""A to Z with the usual ligature folds: the alphabet of the French and English editions."""
