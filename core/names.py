"""When two player names are the same person: case, accents, compatibility forms (fullwidth letters),
invisible format characters and letters of another script that look like Latin ones are ignored, so that
``Аna`` (a Cyrillic А) or ``Ana`` with a zero-width space is never a second "Ana" in a game; and which
names mix Latin letters with look-alike Cyrillic or Greek ones."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .edition import fold_accents

# Cyrillic and Greek letters (after casefold) drawn like a Latin letter, and that letter
_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q",
        "ԝ": "w", "ү": "y", "ӏ": "l",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j",
    }
)  # fmt: skip


def without_format_characters(text: str) -> str:
    """``text`` without invisible format characters (Unicode category Cf: zero-width spaces and joiners,
    direction marks, soft hyphens, byte order marks)."""
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


def mixes_scripts(name: str) -> bool:
    """Whether ``name`` mixes Latin letters with Cyrillic or Greek ones (``Аna`` with a Cyrillic А): a
    name drawn like a Latin one that is not it."""
    scripts = set()
    for char in unicodedata.normalize("NFKC", name):
        if char.isalpha():
            scripts.add(unicodedata.name(char, "?").split(" ")[0])
    return "LATIN" in scripts and bool(scripts & {"CYRILLIC", "GREEK"})


@lru_cache(maxsize=65536)  # a name is compared with every seat of its game at each join: folded once
def player_key(name: str) -> str:
    """The form under which two player names are the same person (see the module)."""
    plain = without_format_characters(unicodedata.normalize("NFKC", name)).strip()
    return fold_accents(plain).casefold().translate(_LOOK_ALIKES)
