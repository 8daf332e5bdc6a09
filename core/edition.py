"""Editions of the game as data: letters, values, counts, vowels, accent folding."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

JOKER = "?"

# Letters that do not decompose into a base letter plus accents under NFD.
_LIGATURES = {"Œ": "OE", "œ": "oe", "Æ": "AE", "æ": "ae", "ß": "SS"}


def fold_accents(text: str) -> str:
    """Strip accents and expand ligatures, keeping case: ``Écoles`` -> ``Ecoles``, ``Œuf`` -> ``OEuf``."""
    out: list[str] = []
    for char in text:
        if char in _LIGATURES:
            out.append(_LIGATURES[char])
            continue
        decomposed = unicodedata.normalize("NFD", char)
        out.append("".join(c for c in decomposed if not unicodedata.combining(c)))
    return "".join(out)


@dataclass(frozen=True)
class Edition:
    """A tile set: every letter's value and count, the jokers, which letters are vowels."""

    code: str
    name: str
    values: Mapping[str, int]
    counts: Mapping[str, int]
    jokers: int
    vowels: frozenset[str]
    rack_size: int = 7
    bingo_bonus: int = 50
    alphabet: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))
        object.__setattr__(self, "alphabet", "".join(sorted(self.values)))

    def __str__(self) -> str:
        return self.code

    @property
    def tile_count(self) -> int:
        """Number of tiles in the bag at the start, jokers included."""
        return sum(self.counts.values()) + self.jokers

    def value(self, letter: str) -> int:
        """Value of an uppercase letter tile."""
        return self.values[letter]

    def is_vowel(self, letter: str) -> bool:
        """Whether an uppercase letter counts as a vowel in this edition."""
        return letter in self.vowels

    def bag(self) -> list[str]:
        """Every tile of a full bag, jokers as ``?``, in alphabetical order."""
        tiles = [letter for letter in self.alphabet for _ in range(self.counts[letter])]
        return tiles + [JOKER] * self.jokers


def _table(rows: str) -> tuple[dict[str, int], dict[str, int]]:
    """Read ``"1: E15 A9 ...; 2: D3 ..."`` into value and count maps."""
    values: dict[str, int] = {}
    counts: dict[str, int] = {}
    for group in rows.split(";"):
        value_text, letters = group.split(":")
        for item in letters.split():
            values[item[0]] = int(value_text)
            counts[item[0]] = int(item[1:])
    return values, counts


_FR_VALUES, _FR_COUNTS = _table(
    "1: E15 A9 I8 N6 O6 R6 S6 T6 U6 L5; 2: D3 M3 G2; 3: B2 C2 P2; 4: F2 H2 V2; 8: J1 Q1; 10: K1 W1 X1 Y1 Z1"
)
_EN_VALUES, _EN_COUNTS = _table(
    "1: E12 A9 I9 O8 N6 R6 T6 L4 S4 U4; 2: D4 G3; 3: B2 C2 M2 P2; 4: F2 H2 V2 W2 Y2; 5: K1; 8: J1 X1; 10: Q1 Z1"
)

FRENCH = Edition(
    code="fr",
    name="Français (FISF)",
    values=_FR_VALUES,
    counts=_FR_COUNTS,
    jokers=2,
    vowels=frozenset("AEIOU"),  # Y is a draw-rule setting (core.duplicate)
)

ENGLISH = Edition(
    code="en",
    name="English",
    values=_EN_VALUES,
    counts=_EN_COUNTS,
    jokers=2,
    vowels=frozenset("AEIOU"),
)

EDITIONS: Mapping[str, Edition] = MappingProxyType({"fr": FRENCH, "en": ENGLISH})


def edition_by_code(code: str) -> Edition:
    """The edition named ``fr`` or ``en`` (any case)."""
    try:
        return EDITIONS[code.strip().lower()]
    except KeyError:
        raise KeyError(f"unknown edition {code!r}; known: {', '.join(EDITIONS)}") from None
