"""Words and moves of a shipped edition picked from its bundled list, for the end-to-end tests.

Every pick is a walk of the compiled list in alphabet order, so the same list gives the same words; no
word is written in a test. Scores are worked out here from the edition's values and the premium squares
(``docs/rules.md``, "Scoring"), not asked of the referee.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from core.board import SIZE, Board, Tile, premium_at
from core.edition import Edition
from core.lexicon import Lexicon
from core.notation import Notation, Ref, format_ref

INDEX = Path(__file__).resolve().parent.parent / "core" / "editions" / "index.json"


def shipped_codes() -> list[str]:
    """The editions the index ships (an edition added to it is played by these tests too)."""
    return list(json.loads(INDEX.read_text(encoding="utf-8"))["editions"])


def special_symbols(edition: Edition) -> list[str]:
    """The tiles a player types otherwise than one A-Z letter: several letters (``L·L``, ``CH``) or a letter of
    the language's own (``Ñ``, ``Ă``); the highest-valued tile for an A-Z edition, so that each has one."""
    alphabet = edition.alphabet
    found = [s for s in alphabet.symbols if not ("A" <= alphabet.label(s) <= "Z" and len(alphabet.label(s)) == 1)]
    multi = [s for s in found if len(alphabet.label(s)) > 1]
    rest = [s for s in found if s not in multi]
    if found:
        return multi + rest
    return [max(alphabet.symbols, key=lambda s: (edition.values[s], -alphabet.code(s)))]


def find_word(
    lexicon: Lexicon, edition: Edition, must: str, lengths: tuple[int, ...], bag: Counter[str] | None = None
) -> str | None:
    """The first word of the list (tile symbols, alphabet order) of one of ``lengths`` (tried in that order)
    that holds the tile ``must`` and no more of each tile than ``bag`` (the edition's full bag by default)."""
    left = Counter(bag if bag is not None else edition.counts)
    for length in lengths:
        found = _walk(lexicon, lexicon.root, "", length, must, left)
        if found is not None:
            return found
    return None


def _walk(lexicon: Lexicon, node: int, prefix: str, length: int, must: str, left: Counter[str]) -> str | None:
    rest = length - len(prefix)
    if rest == 0:
        return prefix if lexicon.is_final(node) and must in prefix else None
    if not lexicon.lengths(node) >> rest & 1:
        return None
    for symbol, child in lexicon.children(node):
        if left[symbol] <= 0 or (rest == 1 and must not in prefix and symbol != must):
            continue
        left[symbol] -= 1
        found = _walk(lexicon, child, prefix + symbol, length, must, left)
        left[symbol] += 1
        if found is not None:
            return found
    return None


def first_move_ref(notation: Notation) -> str:
    """The reference of a first move from the centre square to the right (H8 in FISF, 8H in GCG)."""
    return format_ref(Ref(7, 7, horizontal=True), notation)


def first_move_score(edition: Edition, word: str) -> int:
    """The score of ``word`` (symbols, 2 to 7 tiles) laid from the centre to the right: the letters on a
    double or triple letter square counted two or three times, the centre doubles the word, 50 for 7 tiles."""
    assert 2 <= len(word) <= 7
    letters, word_multiplier = 0, 1
    for offset, symbol in enumerate(word):
        premium = premium_at(7, 7 + offset)
        letters += edition.values[symbol] * premium.letter_multiplier
        word_multiplier *= premium.word_multiplier
    return letters * word_multiplier + (edition.bingo_bonus if len(word) == edition.rack_size else 0)


def first_move_board(word: str) -> Board:
    """The board after ``word`` (symbols) laid from the centre to the right."""
    board = Board()
    for offset, symbol in enumerate(word):
        board.place(7, 7 + offset, Tile(symbol))
    return board


def not_a_word(lexicon: Lexicon, edition: Edition, word: str) -> str:
    """Tiles that the list does not hold: ``word`` turned around, or with its tiles rotated."""
    for shift in range(len(word)):
        candidate = (word[shift:] + word[:shift])[::-1]
        if candidate not in lexicon:
            return candidate
    raise AssertionError(f"every arrangement of {edition.alphabet.spell(word)} is a word")


@dataclass(frozen=True)
class Phony:
    """A legal placement forming a word the list does not hold: two new tiles below a tile of the board."""

    ref: Ref
    word: str  # symbols, the board's tile first
    new: str  # the symbols of the two new tiles


def phony_below(board: Board, lexicon: Lexicon, edition: Edition, bag: Counter[str]) -> Phony:
    """Two tiles of the bag under a tile of ``board`` (free above it, below it and beside the new tiles),
    making a column word that is not in the list: the only word the placement forms."""
    letters = sorted((s for s in bag if bag[s] > 0), key=lambda s: (-bag[s], edition.alphabet.code(s)))

    def free(row: int, col: int) -> bool:
        return not (0 <= row < SIZE and 0 <= col < SIZE) or board.get(row, col) is None

    for row, col, tile in sorted(board.tiles(), key=lambda found: (found[1], found[0])):
        new_cells = [(row + 1, col), (row + 2, col)]
        if row + 2 >= SIZE or not free(row - 1, col) or not free(row + 3, col):
            continue
        if not all(free(r, c) and free(r, c - 1) and free(r, c + 1) for r, c in new_cells):
            continue
        for first in letters:
            for second in letters:
                if first == second and bag[first] < 2:
                    continue
                word = tile.letter + first + second
                if word not in lexicon:
                    return Phony(Ref(row, col, horizontal=False), word, first + second)
    raise AssertionError("no free column under the board's tiles")


def label_counts(text: str) -> dict[str, int]:
    """``?x2 Ax11 Ç L·L`` as {label: count} (a label alone is one tile)."""
    counts: dict[str, int] = {}
    for token in text.split():
        label, _, times = token.partition("x")
        if times and not times.isdigit():  # a label holding an x (none of the shipped editions has one)
            label, times = token, ""
        counts[label] = int(times) if times else 1
    return counts
