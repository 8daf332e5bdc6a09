"""House words: a channel's own additions to and removals from its word list.

A club whose list lags an edition, or that plays on the bundled list, accepts a
few more words (``+KA``) or rejects some (``-NEW``). ``HouseWords`` is that set;
``HouseList`` answers "is this a word?" for a list with its house words applied
(additions accepted, removals rejected, everything else as the list says), and
``house_lexicon`` patches the same into the compiled list for the move generator
(``Lexicon.patched``: the nodes of the changed words copied, nothing compiled again).

House words belong to a list: a channel keeps a set for each list its games use
(a French channel's additions never decide an English game). A change is stored
with its list, who made it and when (``HouseWordChange``); ``HouseWords.replay``
gives the set the changes leave, the last change of a word deciding. Only what
changes a verdict is stored (``HouseWords.change_for``): removing an added word
undoes the addition (``CLEAR``), and a word the list already settles the wanted
way is not kept, so the count is what is in force. Offline tools read the same
set from a file: one word per line, a leading ``-`` removes it, ``#`` starts a
comment.

Words are kept as the tiles of the list's edition (``core.alphabet`` symbols: ``AÑO`` stays three
tiles in an edition with Ñ, ``CHORRO`` is four in one with CH and RR); ``spell`` writes them back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from core.adjudication import WordList
from core.alphabet import LATIN, Alphabet
from core.errors_lexicon import InvalidWordError
from core.lexicon import Lexicon, normalise_word

from ..operator_files import OperatorFileError, read_text_bounded

ADD = "add"
REMOVE = "remove"
CLEAR = "clear"  # the word's house entry dropped: the list decides it again


MAX_HOUSE_BYTES = 1 << 20  # a house words file (a club's: a few hundred words) is read whole up to this


class HouseFileError(Exception):
    """A house words file that cannot be used, with the file and line at fault."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class HouseWordChange:
    """One stored change: ``word`` added, removed or cleared (``action``) for the list ``lexicon`` of
    ``channel``, by ``author`` at ``at``."""

    channel: str
    action: str  # ADD | REMOVE | CLEAR
    word: str
    author: str  # the account
    name: str  # its display name when it made the change
    at: float
    lexicon: str = ""  # the list (``fr``, ``en`` or the operator's path) whose house words it changes


@dataclass(frozen=True)
class HouseWords:
    """Words a channel accepts beyond its list (``added``) and words it rejects (``removed``)."""

    added: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()

    def __len__(self) -> int:
        return len(self.added) + len(self.removed)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)

    def tokens(self) -> list[str]:
        """``+KA``, ``+OM``, ``-NEW``: additions then removals, each alphabetically (as stored: tile symbols)."""
        return [f"+{w}" for w in sorted(self.added)] + [f"-{w}" for w in sorted(self.removed)]

    def shown(self, alphabet: Alphabet) -> list[str]:
        """``tokens`` written in the alphabet's labels, for people to read (``+ÑANDU``, ``-C[H]E``)."""
        return [token[0] + alphabet.spell(token[1:]) for token in self.tokens()]

    @property
    def digest(self) -> str:
        """The sha256 of the tokens: two equal sets have the same digest."""
        return hashlib.sha256("\n".join(self.tokens()).encode("utf-8")).hexdigest()

    def changed(self, action: str, word: str) -> HouseWords:
        """The set after one change: the word's last change decides (``CLEAR`` leaves it to the list)."""
        added, removed = set(self.added), set(self.removed)
        added.discard(word)
        removed.discard(word)
        if action == ADD:
            added.add(word)
        elif action == REMOVE:
            removed.add(word)
        return HouseWords(frozenset(added), frozenset(removed))

    def change_for(self, word: str, valid: bool, in_list: bool) -> str | None:
        """The change that makes ``word`` valid (or not) over a list that has it (``in_list``) or not:
        None when it already is; ``CLEAR`` when the list alone answers as wanted (an added word
        removed again, a refused one accepted again); else ``ADD`` or ``REMOVE``."""
        wanted = None if valid == in_list else (ADD if valid else REMOVE)
        current = ADD if word in self.added else REMOVE if word in self.removed else None
        if wanted == current:
            return None
        return CLEAR if wanted is None else wanted

    @classmethod
    def replay(cls, changes: Iterable[HouseWordChange]) -> HouseWords:
        """The set stored changes leave, in their order."""
        house = cls()
        for change in changes:
            house = house.changed(change.action, change.word)
        return house

    @classmethod
    def from_tokens(cls, tokens: Iterable[str]) -> HouseWords:
        """The set ``tokens()`` wrote (``+KA``, ``-NEW``)."""
        added = frozenset(t[1:] for t in tokens if t.startswith("+"))
        removed = frozenset(t[1:] for t in tokens if t.startswith("-"))
        return cls(added, removed)

    def decides(self, word: str) -> bool:
        """Whether the house words, not the list, settle this word."""
        return word in self.added or word in self.removed


class HouseList:
    """A word list with house words applied; ``spec`` names the list (``fr``, ``en`` or a path)."""

    def __init__(self, base: WordList, house: HouseWords, spec: str, alphabet: Alphabet | None = None) -> None:
        self.base = base
        self.house = house
        self.spec = spec
        found = getattr(base, "alphabet", LATIN) if alphabet is None else alphabet
        self.alphabet: Alphabet = found if isinstance(found, Alphabet) else LATIN  # the tiles its words are spelt in

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` (tile symbols, as ``core.adjudication`` gives them) is a word here."""
        if word in self.house.added:
            return True
        if word in self.house.removed:
            return False
        if isinstance(word, str) and self.alphabet.multiletter:
            word = self.alphabet.spell(word)  # read back as these tiles: C then H stays two tiles, not CH
        return word in self.base


def read_house_file(path: Path, alphabet: Alphabet = LATIN) -> HouseWords:
    """House words from a file, read as ``alphabet``'s tiles: one word per line, ``-WORD`` removes it,
    ``#`` comments, blank lines skipped.

    A later line about the same word wins. Raises HouseFileError naming the line of a word that is not one (never
    what the line holds: the file may be any file), or the file when it is not a regular UTF-8 text file of at most
    ``MAX_HOUSE_BYTES``.
    """
    try:
        text = read_text_bounded(path, MAX_HOUSE_BYTES)
    except OperatorFileError as error:
        raise HouseFileError(path, 0, error.reason) from None
    house = HouseWords()
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        action = REMOVE if content.startswith("-") else ADD
        typed = content.lstrip("+-").strip()
        try:
            word = normalise_word(typed, alphabet)
        except InvalidWordError:
            raise HouseFileError(path, number, "not a word (2-15 letters)") from None  # its text is never shown
        house = house.changed(action, word)
    return house


def house_lexicon(base: Lexicon, house: HouseWords, name: str = "") -> Lexicon:
    """``base`` with the house words applied, for the move generator: patched, never compiled again."""
    return base.patched(house.added, house.removed, name=name or base.name)
