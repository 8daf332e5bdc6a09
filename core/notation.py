"""Reading and writing references, words and moves in FISF and GCG notation.

FISF (French): rows are letters A-O, columns numbers 1-15; ``H4`` is row H from
column 4, horizontal; ``4H`` is column 4 from row H, vertical.
GCG (English): columns are letters, rows numbers; ``8D`` is row 8 from column D,
horizontal; ``D8`` is column D from row 8, vertical. In both, "row first" means
horizontal. Internally a square is (row, col) from 0, the same in both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from .alphabet import LATIN, Alphabet
from .board import ROW_LETTERS, SIZE
from .edition import EDITIONS, fold_accents
from .errors import RackSyntaxError, RefSyntaxError, SyntaxProblem, WordSyntaxError

_LETTERS = ROW_LETTERS  # A-O name rows in FISF and columns in GCG


class Notation(Enum):
    """Which convention names the squares."""

    FISF = "fisf"
    GCG = "gcg"

    def __str__(self) -> str:
        return self.value

    def square(self, row: int, col: int) -> str:
        """A square's name: ``H8`` (FISF: row letter, column number) or ``D8`` (GCG: column letter, row number)."""
        if self is Notation.FISF:
            return f"{_LETTERS[row]}{col + 1}"
        return f"{_LETTERS[col]}{row + 1}"


def default_notation(edition_code: str) -> Notation:
    """The convention a game of this edition uses unless told otherwise (its data says; GCG for unknown codes)."""
    edition = EDITIONS.get(edition_code)
    return Notation(edition.notation) if edition is not None else Notation.GCG


def notation_by_name(name: str) -> Notation:
    """``fisf`` or ``gcg``, any case."""
    try:
        return Notation(name.strip().lower())
    except ValueError:
        raise ValueError(f"unknown notation {name!r}; known: fisf, gcg") from None


@dataclass(frozen=True, order=True)
class Ref:
    """Where a word starts and which way it runs. ``str()`` is the FISF form."""

    row: int
    col: int
    horizontal: bool

    def __post_init__(self) -> None:
        if not (0 <= self.row < SIZE and 0 <= self.col < SIZE):
            raise ValueError(f"square ({self.row}, {self.col}) is off the board")

    def __str__(self) -> str:
        return format_ref(self, Notation.FISF)

    def squares(self, length: int) -> list[tuple[int, int]]:
        """The ``length`` squares from the start along the direction (possibly off the board)."""
        if self.horizontal:
            return [(self.row, self.col + i) for i in range(length)]
        return [(self.row + i, self.col) for i in range(length)]


_REF_ROW_FIRST = re.compile(r"^([A-Za-z])\s*([0-9]{1,2})$")
_REF_NUMBER_FIRST = re.compile(r"^(\d{1,2})\s*([A-Za-z])$")


def parse_ref(text: str, notation: Notation = Notation.FISF) -> Ref:
    """Read ``H8``, ``8h``, ``H 8`` ... in the given convention."""
    stripped = text.strip()
    letter_first = _REF_ROW_FIRST.match(stripped)
    number_first = _REF_NUMBER_FIRST.match(stripped)
    if letter_first:
        letter, number = letter_first.group(1), letter_first.group(2)
    elif number_first:
        number, letter = number_first.group(1), number_first.group(2)
    else:
        raise RefSyntaxError(text, SyntaxProblem.REF_FORM)
    index = _LETTERS.find(letter.upper())
    if index < 0:
        raise RefSyntaxError(text, SyntaxProblem.ROW_LETTER, letter.upper())
    number_value = int(number)
    if not 1 <= number_value <= SIZE:
        raise RefSyntaxError(text, SyntaxProblem.COLUMN_NUMBER, str(number_value))
    if notation is Notation.FISF:
        # letter = row; letter first = horizontal
        return Ref(index, number_value - 1, horizontal=bool(letter_first))
    # GCG: number = row; number first = horizontal
    return Ref(number_value - 1, index, horizontal=bool(number_first))


def format_ref(ref: Ref, notation: Notation = Notation.FISF) -> str:
    """The canonical text of a reference: ``H4``/``4H`` (FISF) or ``8D``/``D8`` (GCG)."""
    if notation is Notation.FISF:
        row, col = _LETTERS[ref.row], ref.col + 1
        return f"{row}{col}" if ref.horizontal else f"{col}{row}"
    col_letter, row_number = _LETTERS[ref.col], ref.row + 1
    return f"{row_number}{col_letter}" if ref.horizontal else f"{col_letter}{row_number}"


@dataclass(frozen=True)
class TypedLetter:
    """One tile of a typed word (``letter`` is its symbol, see ``core.alphabet``); None stands for ``.``."""

    letter: str | None
    joker: bool = False

    def __str__(self) -> str:
        if self.letter is None:
            return "."
        return self.letter.lower() if self.joker else self.letter


def parse_word(text: str, *, lowercase_is_plain: bool = True, alphabet: Alphabet = LATIN) -> tuple[TypedLetter, ...]:
    """Read a typed word: accents folded, lowercase or ``(X)`` for jokers, ``.`` for a board letter.

    With ``lowercase_is_plain`` (the chat default), a word with no uppercase letter at all
    (``vague``) is read as plain letters, since people type in lowercase; jokers are then
    written ``(X)``. GCG records use strict mode: every lowercase letter is a joker.
    Tiles are read by the alphabet (``core.alphabet``): in an edition with CH, ``CHICO`` is
    CH I C O, ``C[H]ICO`` C H I C O, ``(CH)ICO`` a joker for CH then I C O.
    """
    if not alphabet.plain:
        return _parse_tiles(text, lowercase_is_plain, alphabet)
    folded = fold_accents(text.strip())
    if not folded:
        raise WordSyntaxError(text, SyntaxProblem.EMPTY)
    outside_brackets = re.sub(r"\([^)]*\)", "", folded)
    all_plain = lowercase_is_plain and not any(c.isupper() for c in outside_brackets)
    letters: list[TypedLetter] = []
    i = 0
    while i < len(folded):
        char = folded[i]
        if char == "(":
            close = folded.find(")", i)
            inside = folded[i + 1 : close] if close > 0 else ""
            if close < 0 or len(inside) != 1 or not _is_ascii_letter(inside):
                raise WordSyntaxError(text, SyntaxProblem.JOKER_BRACKET)
            letters.append(TypedLetter(inside.upper(), joker=True))
            i = close + 1
            continue
        if char == ".":
            letters.append(TypedLetter(None))
        elif _is_ascii_letter(char):
            joker = char.islower() and not all_plain
            letters.append(TypedLetter(char.upper(), joker=joker))
        else:
            raise WordSyntaxError(text, SyntaxProblem.NOT_A_LETTER, char)
        i += 1
    return tuple(letters)


_JOKER_GROUP = re.compile(r"(\([^)]*\)?)")


def _parse_tiles(text: str, lowercase_is_plain: bool, alphabet: Alphabet) -> tuple[TypedLetter, ...]:
    """``parse_word`` for any alphabet: tiles read by longest label (see ``core.alphabet``)."""
    folded = alphabet.fold(text.strip())
    if not folded:
        raise WordSyntaxError(text, SyntaxProblem.EMPTY)
    outside_brackets = re.sub(r"\([^)]*\)", "", folded)
    all_plain = lowercase_is_plain and not any(c.isupper() for c in outside_brackets)
    letters: list[TypedLetter] = []
    for part in _JOKER_GROUP.split(folded):
        if part.startswith("("):
            inside = alphabet.scan(part[1:-1]) if part.endswith(")") else []
            if len(inside) != 1 or inside[0].symbol is None:
                raise WordSyntaxError(text, SyntaxProblem.JOKER_BRACKET)
            letters.append(TypedLetter(inside[0].symbol, joker=True))
            continue
        for piece in alphabet.scan(part):
            if piece.symbol is not None:
                letters.append(TypedLetter(piece.symbol, joker=piece.lowercase and not all_plain))
            elif piece.typed == ".":
                letters.append(TypedLetter(None))
            elif piece.typed.startswith("["):
                raise WordSyntaxError(text, SyntaxProblem.TILE_BRACKET, piece.typed)
            else:
                raise WordSyntaxError(text, SyntaxProblem.NOT_A_LETTER, piece.typed)
    return tuple(letters)


JOKER = "?"


def parse_tiles(text: str, alphabet: Alphabet = LATIN) -> str:
    """Read typed tiles (a rack): one symbol per tile (``core.alphabet``), ``?`` for a joker, in the order typed.

    Case, spaces and accents the alphabet's tiles do not have are ignored; multi-letter tiles are read by
    longest label (in Spanish ``NLLRREN`` is N LL RR E N, ``N[L][L][R][R]EN`` seven tiles); the engine's
    functions (``core.movegen``) take the result, never typed text. Raises RackSyntaxError (``EMPTY``,
    ``NOT_A_TILE``) on anything else.
    """
    tiles = alphabet.tiles(text).replace(" ", "")
    if not tiles:
        raise RackSyntaxError(text, SyntaxProblem.EMPTY)
    for char in tiles:
        if char != JOKER and char not in alphabet:
            raise RackSyntaxError(text, SyntaxProblem.NOT_A_TILE, alphabet.label(char))
    return tiles


def _is_ascii_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def format_word(letters: tuple[TypedLetter, ...], alphabet: Alphabet = LATIN) -> str:
    """The canonical text of a typed word; jokers are written ``(X)`` when the word has no uppercase letter."""
    has_plain = any(t.letter is not None and not t.joker for t in letters)
    if alphabet.plain:
        if has_plain:
            return "".join(str(t) for t in letters)
        return "".join("." if t.letter is None else f"({t.letter})" for t in letters)
    if has_plain:
        symbols = "".join("." if t.letter is None else t.letter for t in letters)
        return alphabet.spell(symbols, [t.joker for t in letters])
    return "".join("." if t.letter is None else f"({alphabet.label(t.letter)})" for t in letters)


@dataclass(frozen=True)
class Move:
    """A move as typed: where it starts, which way, its tiles and their alphabet. ``str()`` is FISF."""

    ref: Ref
    letters: tuple[TypedLetter, ...]
    alphabet: Alphabet = field(default=LATIN, compare=False, repr=False)

    def __str__(self) -> str:
        return format_move(self, Notation.FISF)

    @property
    def word(self) -> str:
        """The typed word in canonical form."""
        return format_word(self.letters, self.alphabet)


_MOVE = re.compile(r"^\s*(?P<ref>[A-Za-z]\s*[0-9]{1,2}|[0-9]{1,2}\s*[A-Za-z])\s+(?P<word>\S+)\s*$")


def parse_move(
    text: str, notation: Notation = Notation.FISF, *, lowercase_is_plain: bool = True, alphabet: Alphabet = LATIN
) -> Move:
    """Read ``H8 VAGUE`` (reference then word) in the given convention, tiles of the given alphabet."""
    match = _MOVE.match(text)
    if not match:
        raise WordSyntaxError(text, SyntaxProblem.MOVE_FORM)
    ref = parse_ref(match.group("ref"), notation)
    word = parse_word(match.group("word"), lowercase_is_plain=lowercase_is_plain, alphabet=alphabet)
    return Move(ref, word, alphabet)


def format_move(move: Move, notation: Notation = Notation.FISF) -> str:
    """The canonical text of a move: ``H8 VAGUE`` (tiles written as the move's alphabet labels them)."""
    return f"{format_ref(move.ref, notation)} {format_word(move.letters, move.alphabet)}"
