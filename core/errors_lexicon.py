"""Exceptions of word lists and compiled lexicons."""

from __future__ import annotations

from .errors import ArbitreError

# --- lexicon ------------------------------------------------------------------


class LexiconError(ArbitreError):
    """A word list or a compiled lexicon that cannot be used."""


class InvalidWordError(LexiconError, ValueError):
    """Text that is not a word of 2 to 15 tiles (letters A-Z for French and English) once accents are folded."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text!r}: a word is 2 to 15 letters A-Z")
        self.text = text


class AlphabetMismatchError(LexiconError, ValueError):
    """A lexicon used with an edition whose tiles are not the ones its words are spelt in."""

    def __init__(self, lexicon: str, lexicon_labels: tuple[str, ...], edition_labels: tuple[str, ...]) -> None:
        super().__init__(
            f"lexicon {lexicon!r} is spelt in {' '.join(lexicon_labels)}, the edition has {' '.join(edition_labels)}"
        )
        self.lexicon = lexicon
        self.lexicon_labels = lexicon_labels
        self.edition_labels = edition_labels


class CorruptLexiconError(LexiconError):
    """Compiled lexicon bytes that are truncated, damaged or of an unknown format."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"corrupt lexicon: {reason}")
        self.reason = reason
