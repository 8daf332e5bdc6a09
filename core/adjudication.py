"""Settling "is this a word?": the words a move forms, each valid or not."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .alphabet import LATIN, Alphabet

if TYPE_CHECKING:  # only named in annotations: looking words up needs no board
    from .placement import Placement


class WordList(Protocol):
    """Anything that answers membership for words as uppercase tile symbols (a ``core.lexicon.Lexicon``, a set)."""

    def __contains__(self, word: object) -> bool: ...


@dataclass(frozen=True)
class Verdict:
    """One word (uppercase tile symbols) and whether the word list has it."""

    word: str
    valid: bool

    def __str__(self) -> str:
        return f"{self.word} {'valid' if self.valid else 'invalid'}"


def normalise_query(word: str, alphabet: Alphabet = LATIN) -> str:
    """A word as typed by a player, read as the alphabet's tiles: ``Écoles`` -> ``ECOLES``; in Catalan
    ``COL.LEGI`` and ``COL-LEGI`` -> ``COL·LEGI`` (``core.alphabet``)."""
    return alphabet.tiles(word.strip())


def check_words(words: Iterable[str], word_list: WordList, alphabet: Alphabet = LATIN) -> tuple[Verdict, ...]:
    """Each word (any case, accents allowed) with its verdict, in the order given."""
    return tuple(Verdict(w, w in word_list) for w in (normalise_query(word, alphabet) for word in words))


def adjudicate(placement: Placement, word_list: WordList) -> tuple[Verdict, ...]:
    """Every word a placement forms (main word first) with its verdict."""
    return check_words((w.text for w in placement.words), word_list, placement.alphabet)
