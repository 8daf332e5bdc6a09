"""How much of real games a word list accepts: the words formed by the plays of GCG records, looked up.

``arbitre lexicon coverage LIST --games PATH...`` reports it; a club that points the bot at a list of its own
(``--lexicon PATH``, or a file of the operator's folder chosen in the chat) checks it this way against the games
it has published (``tests/bot/words/test_coverage.py`` runs it on the GCG records of ``tests/data/gcg``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.edition import Edition
    from core.lexicon import Lexicon


@dataclass(frozen=True)
class Coverage:
    """The words of the games (each occurrence counted) and those the list lacks."""

    games: int
    words: Counter[str]  # spelled as a player types them, with their occurrences
    missing: Counter[str]

    @property
    def total(self) -> int:
        return sum(self.words.values())

    @property
    def accepted(self) -> int:
        return self.total - sum(self.missing.values())

    @property
    def percent(self) -> float:
        return 100.0 * self.accepted / self.total if self.total else 100.0


def game_files(paths: Iterable[Path]) -> list[Path]:
    """The ``.gcg`` files named, and those of the folders named (recursively), sorted."""
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.rglob("*.gcg")) if path.is_dir() else [path])
    return found


def played_words(data: bytes, edition: Edition | None = None) -> list[str]:
    """Every word formed by the plays of one GCG record that stood (not taken back after a challenge), main
    and cross words, spelled in the edition's tiles."""
    from core.gcg import read_gcg

    record = read_gcg(data, edition=edition)
    alphabet = record.game.edition.alphabet
    words: list[str] = []
    for line in record.game.lines:
        if line.placement is None or line.removal is not None:
            continue
        words.extend(alphabet.spell(word.text) for word in line.placement.words)
    return words


def coverage(lexicon: Lexicon, files: Sequence[Path], edition: Edition | None = None) -> Coverage:
    """The words of the games in ``files`` and those ``lexicon`` lacks."""
    words: Counter[str] = Counter()
    for path in files:
        words.update(played_words(path.read_bytes(), edition))
    missing = Counter({word: count for word, count in words.items() if word not in lexicon})
    return Coverage(len(files), words, missing)
