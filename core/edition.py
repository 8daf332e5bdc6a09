"""Editions of the game as data: tiles, values, counts, vowels, folding, default notation and rules.

An edition is a JSON document (``core/editions/*.json`` ship with the package and are
read once, through the package's loader, when this module is imported; another one is
given to ``edition_from_json``)::

    {
      "code": "fr", "name": "Français (FISF)",
      "notation": "fisf",            // default notation of its games: "fisf" or "gcg"
      "rules": "box-fr",             // default rule set of its classic games (core.rules)
      "rack_size": 7, "bingo_bonus": 50, "jokers": 2,
      "fold": {"Œ": "OE", "œ": "oe"}, // typed letters replaced before reading tiles
      "tiles": [                      // in alphabet order: the order gives the codes 0, 1, 2...
        {"label": "A", "value": 1, "count": 9, "kind": "vowel"},
        {"label": "CH", "value": 5, "count": 1, "kind": "consonant"},
        {"label": "Y", "value": 10, "count": 1, "kind": "either"}
      ]
    }

``kind`` places a tile in the duplicate draw rule: a vowel, a consonant, or ``either``
(counted as the game's draw rule says for Y: vowel, consonant or whichever the draw needs).
Labels are uppercase and may have several letters; see ``core.alphabet`` for how typed
text becomes tiles and for the one-character symbols that stand for tiles in strings.
Values and counts are keyed by symbol (for A-Z editions, the letter itself).
"""

from __future__ import annotations

import json
import pkgutil
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .alphabet import LATIN, Alphabet
from .errors import EditionDataError
from .rule_codes import RULE_SET_CODES

# What an edition file may hold: read whole only under MAX_DOCUMENT_CHARS, its numbers and texts bounded, so
# that a file handed in (an operator's, a channel's) is one EditionDataError, never a memory error, and
# names nothing a message or a path could misuse.
MAX_DOCUMENT_CHARS = 1 << 18
MAX_RACK = 20  # tiles on a rack (7, 8 in some duplicate formats)
MAX_COUNT = 1000  # copies of a tile, jokers, and tiles in the whole bag
MAX_NUMBER = 1000  # a tile's value, the bingo bonus
MAX_LABEL = 8  # characters of a tile's label ("L·L")
MAX_NAME = 80  # characters of an edition's name
MAX_FOLDS = 500  # entries of "fold"
CODE = re.compile(r"[a-z][a-z0-9_-]{0,31}")  # an edition's code: a key, a word list's name, part of a path

JOKER = "?"
KINDS = ("vowel", "consonant", "either")

# Letters that do not decompose into a base letter plus accents under NFD.
_LIGATURES = {"Œ": "OE", "œ": "oe", "Æ": "AE", "æ": "ae", "ß": "SS"}


def fold_accents(text: str) -> str:
    """Strip accents and expand ligatures, keeping case: ``Écoles`` -> ``Ecoles``, ``Œuf`` -> ``OEuf``.

    For names and other free text; typed tiles are read by an edition's alphabet (``Edition.tiles``).
    """
    if text.isascii():  # nothing to fold (the usual command and name)
        return text
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
    """A tile set: every tile's value and count, the jokers, which tiles are vowels, how text folds to tiles."""

    code: str
    name: str
    values: Mapping[str, int]
    counts: Mapping[str, int]
    jokers: int
    vowels: frozenset[str]
    rack_size: int = 7
    bingo_bonus: int = 50
    alphabet: Alphabet = LATIN
    flexible: frozenset[str] = frozenset("Y")  # tiles counted as the draw rule says for Y
    notation: str = "gcg"
    rules: str = "box-en"
    # a duplicate format of FISF section 3.8 changes these (core.duplicate.formats): tiles a draw holds
    # (0: rack_size) and the bonus for each number of tiles placed (empty: bingo_bonus for rack_size)
    draw_tiles: int = 0
    bonuses: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))
        symbols = set(self.alphabet.symbols)
        if set(self.values) != symbols or set(self.counts) != symbols:
            raise EditionDataError(self.code, "tiles", "values and counts must name every tile of the alphabet")
        object.__setattr__(self, "flexible", frozenset(s for s in self.flexible if s in symbols))

    def __str__(self) -> str:
        return self.code

    @property
    def draw_size(self) -> int:
        """How many tiles a full duplicate draw holds (the rack, or more in the 7/8 formats)."""
        return self.draw_tiles or self.rack_size

    def bonus_for(self, placed: int) -> int:
        """The bonus for placing ``placed`` tiles in one move."""
        if self.bonuses:
            return dict(self.bonuses).get(placed, 0)
        return self.bingo_bonus if placed == self.rack_size else 0

    @property
    def tile_count(self) -> int:
        """Number of tiles in the bag at the start, jokers included."""
        return sum(self.counts.values()) + self.jokers

    def value(self, letter: str) -> int:
        """Value of a tile (its symbol)."""
        return self.values[letter]

    def is_vowel(self, letter: str) -> bool:
        """Whether a tile (its symbol) counts as a vowel in this edition."""
        return letter in self.vowels

    def bag(self) -> list[str]:
        """Every tile of a full bag (symbols, in alphabet order), jokers as ``?`` at the end."""
        tiles = [symbol for symbol in self.alphabet.symbols for _ in range(self.counts[symbol])]
        return tiles + [JOKER] * self.jokers

    # --- text in and out ------------------------------------------------------------------

    def tiles(self, text: str) -> str:
        """Typed tiles (a rack, a draw, a word) as symbols, uppercase; other characters kept, uppercased."""
        return self.alphabet.tiles(text)

    def label(self, symbol: str) -> str:
        """The label of a tile symbol (``?`` and other characters as they are)."""
        return self.alphabet.label(symbol)

    def spell(self, symbols: str) -> str:
        """A word or tiles in the given order, written as labels that read back the same."""
        return self.alphabet.spell(symbols)

    def spell_word(self, symbols: str, jokers: Sequence[bool]) -> str:
        """A word with its jokers (``jokers[i]`` true) in lowercase, written as labels that read back the same."""
        return self.alphabet.spell(symbols, jokers)

    def spell_tiles(self, tiles: Iterable[str]) -> str:
        """Tiles in record order (alphabet order, jokers last), written as labels."""
        return self.alphabet.spell_tiles(tiles)


def _need(data: Mapping[str, Any], key: str, kind: type, code: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise EditionDataError(code, key, f"must be a {kind.__name__}")
    return value


def _shown(text: str, most: int) -> bool:
    """Whether ``text`` may be shown as a label or a name: 1 to ``most`` printable characters, no control,
    format (a right-to-left override, a zero-width space) or line-breaking character."""
    return 1 <= len(text) <= most and text.isprintable() and text == text.strip()


def _label(text: str) -> bool:
    """A tile's label: shown as is, and without a space."""
    return _shown(text, MAX_LABEL) and not any(c.isspace() for c in text)


def edition_from_data(data: Mapping[str, Any]) -> Edition:
    """The edition a parsed JSON document describes (see the module docstring); EditionDataError if malformed."""
    if not isinstance(data, Mapping):
        raise EditionDataError("?", "document", "must be an object")
    typed = data.get("code")
    if not isinstance(typed, str) or not CODE.fullmatch(typed):
        raise EditionDataError("?", "code", "must be 1 to 32 lowercase letters, digits, - or _, a letter first")
    code = typed
    name = _need(data, "name", str, code)
    if not _shown(name, MAX_NAME):
        raise EditionDataError(code, "name", f"must be 1 to {MAX_NAME} printable characters")
    tiles = _need(data, "tiles", list, code)
    folds = data.get("fold", {})
    if (
        not isinstance(folds, Mapping)
        or len(folds) > MAX_FOLDS
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in folds.items())
    ):
        raise EditionDataError(code, "fold", "must map typed text to text")
    if not all(_label(k) and (v == "" or _label(v)) for k, v in folds.items()):
        raise EditionDataError(code, "fold", f"maps texts of 1 to {MAX_LABEL} printable characters")
    labels: list[str] = []
    values: list[int] = []
    counts: list[int] = []
    kinds: list[str] = []
    for number, tile in enumerate(tiles, start=1):
        where = f"tiles[{number}]"
        if not isinstance(tile, Mapping):
            raise EditionDataError(code, where, "must be an object")
        labels.append(_need(tile, "label", str, code))
        values.append(_need(tile, "value", int, code))
        counts.append(_need(tile, "count", int, code))
        kind = tile.get("kind", "consonant")
        if not isinstance(kind, str) or kind not in KINDS or not 0 <= values[-1] <= MAX_NUMBER:
            raise EditionDataError(code, where, f"kind is one of {', '.join(KINDS)}; value 0 to {MAX_NUMBER}")
        if not 0 <= counts[-1] <= MAX_COUNT:
            raise EditionDataError(code, where, f"count is 0 to {MAX_COUNT}")
        if not _label(labels[-1]):
            raise EditionDataError(code, where, f"label is 1 to {MAX_LABEL} printable characters, no space")
        kinds.append(kind)
    try:
        alphabet = Alphabet(tuple(labels), folds)
    except ValueError as error:
        raise EditionDataError(code, "tiles", str(error)) from None
    if alphabet == LATIN:
        alphabet = LATIN  # one object: lexicons and editions of A-Z compare by identity
    symbols = alphabet.symbols
    notation = data.get("notation", "gcg")
    if notation not in ("fisf", "gcg"):
        raise EditionDataError(code, "notation", "is fisf or gcg")
    numbers = {key: data.get(key, default) for key, default in (("rack_size", 7), ("bingo_bonus", 50), ("jokers", 2))}
    for key, number in numbers.items():
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise EditionDataError(code, key, "must be a whole number, 0 or more")
    if not 1 <= numbers["rack_size"] <= MAX_RACK:
        raise EditionDataError(code, "rack_size", f"must be 1 to {MAX_RACK}")
    if numbers["bingo_bonus"] > MAX_NUMBER:
        raise EditionDataError(code, "bingo_bonus", f"must be 0 to {MAX_NUMBER}")
    if sum(counts) + numbers["jokers"] > MAX_COUNT:
        raise EditionDataError(code, "tiles", f"the bag holds at most {MAX_COUNT} tiles, jokers included")
    rules = data.get("rules", "box-en")
    if not isinstance(rules, str) or rules not in RULE_SET_CODES:
        raise EditionDataError(code, "rules", f"is one of {', '.join(RULE_SET_CODES)}")
    return Edition(
        code=code,
        name=name,
        values=dict(zip(symbols, values)),
        counts=dict(zip(symbols, counts)),
        jokers=numbers["jokers"],
        vowels=frozenset(s for s, k in zip(symbols, kinds) if k == "vowel"),
        rack_size=numbers["rack_size"],
        bingo_bonus=numbers["bingo_bonus"],
        alphabet=alphabet,
        flexible=frozenset(s for s, k in zip(symbols, kinds) if k == "either"),
        notation=notation,
        rules=rules,
    )


def edition_from_json(text: str) -> Edition:
    """The edition a JSON document describes; EditionDataError if it is not valid JSON, malformed or out of
    bounds (longer than ``MAX_DOCUMENT_CHARS``, nested too deeply, numbers or texts past their limits)."""
    if len(text) > MAX_DOCUMENT_CHARS:
        raise EditionDataError("?", "document", f"longer than {MAX_DOCUMENT_CHARS:,} characters")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:  # where, never what (a file's content is not shown)
        raise EditionDataError("?", "document", f"not JSON (line {error.lineno}, column {error.colno})") from None
    except RecursionError:
        raise EditionDataError("?", "document", "nested too deeply") from None
    except ValueError:  # a number of thousands of digits
        raise EditionDataError("?", "document", "a number is too long") from None
    return edition_from_data(data)


def _package_text(name: str) -> str:
    """A data file of the ``core.editions`` package, read through the package's own loader.

    ``pkgutil.get_data`` rather than ``importlib.resources``: the same loader call, without
    importing ``importlib.resources`` (about 7 ms of every process start, measured).
    """
    data = pkgutil.get_data("core.editions", name)
    if data is None:  # pragma: no cover - a loader that cannot read data files
        raise EditionDataError(name, "file", "the package's loader cannot read it")
    return data.decode("utf-8")


def _shipped() -> dict[str, Edition]:
    """The editions of ``core/editions``, by code, in the order of its ``index.json``."""
    index = json.loads(_package_text("index.json"))
    found: dict[str, Edition] = {}
    for code in index["editions"]:
        edition = edition_from_json(_package_text(f"{code}.json"))
        if edition.code != code:
            raise EditionDataError(code, "code", f"{code}.json says {edition.code!r}")
        found[code] = edition
    return found


_KNOWN = _shipped()
_SHIPPED = frozenset(_KNOWN)
EDITIONS: Mapping[str, Edition] = MappingProxyType(_KNOWN)
FRENCH = EDITIONS["fr"]
ENGLISH = EDITIONS["en"]


def register_edition(edition: Edition) -> None:
    """Make an edition given as data known by its code beside the shipped ones (``EDITIONS``, ``edition_by_code``).

    A shipped edition is never replaced (ValueError).
    """
    if edition.code in _SHIPPED:
        raise ValueError(f"edition {edition.code!r} ships with Arbitre")
    _KNOWN[edition.code] = edition


def unregister_edition(code: str) -> None:
    """Forget an edition ``register_edition`` made known (a shipped one stays)."""
    if code not in _SHIPPED:
        _KNOWN.pop(code, None)


def edition_by_code(code: str) -> Edition:
    """The shipped edition named ``code`` (``fr``, ``en``; any case)."""
    try:
        return EDITIONS[code.strip().lower()]
    except KeyError:
        raise KeyError(f"unknown edition {code!r}; known: {', '.join(EDITIONS)}") from None
