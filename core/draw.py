"""The bag and the duplicate draws (tirages) under the FISF vowel/consonant rule.

A duplicate draw keeps the letters left from the previous move (the reliquat)
and completes them to seven from the bag. Until move 15 a draw must hold at
least two vowels and two consonants, from move 16 at least one of each;
otherwise the whole draw, kept letters included, goes back to the bag and seven
letters are drawn afresh. Two and two are asked only while the letters left
(bag and reliquat) can give them, one and one after (3.2: "ou plus tôt du fait
du reliquat"); once the letters left, jokers and Y aside, are all vowels or all
consonants, a joker or a Y counts as whichever is needed whatever the setting
says (3.2, last paragraph). The game is over when the letters left can no longer
meet the rule (3.7): none left, a single one, or only vowels or only consonants
with no joker nor Y among two or more.

Record forms: ``EEU+ESI?`` (kept + new), ``ABDEIRS`` when nothing is kept,
and a leading ``-`` on a draw that was rejected: a move whose first draw was
rejected is recorded ``-EEU+ESIA`` then ``ABDEIRS`` (the fresh draw keeps
nothing). Letters are written in alphabetical order with ``?`` (joker) last.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .board import Board
from .edition import FRENCH, JOKER, Edition
from .errors import RackSyntaxError, SyntaxProblem
from .errors_duplicate import (
    DrawJokerError,
    DrawSizeError,
    KeptLettersError,
    LetterNotInBagError,
    NoDrawPossibleError,
)


def sort_tiles(tiles: Iterable[str]) -> str:
    """Tiles (symbols) in a fixed order: by character, jokers (``?``) last; for A-Z, record order.

    ``Edition.spell_tiles`` writes tiles in any edition's record order (its alphabet's).
    """
    return "".join(sorted(tiles, key=lambda t: (t == JOKER, t)))


def remove_tiles(letters: str, taken: str) -> str:
    """``letters`` without ``taken`` (which must be part of it), in record order."""
    remaining = Counter(letters)
    remaining.subtract(taken)
    return sort_tiles(remaining.elements())


class Counts(Enum):
    """How a letter (Y, or any tile of kind "either" in the edition's data) or the joker counts for the rule."""

    VOWEL = "vowel"
    CONSONANT = "consonant"
    EITHER = "either"  # counts as whichever the draw needs

    def __str__(self) -> str:
        return self.value


def counts_by_name(name: str) -> Counts:
    """``vowel``, ``consonant`` or ``either``, any case."""
    try:
        return Counts(name.strip().lower())
    except ValueError:
        raise ValueError(f"unknown count rule {name!r}; known: vowel, consonant, either") from None


@dataclass(frozen=True)
class Shortfall:
    """Letters that do not meet the vowel/consonant rule: how many of each they hold (``either``: tiles
    that count as whichever is needed) and how many of each the move needs."""

    letters: str  # as the edition spells them, in record order
    vowels: int
    consonants: int
    either: int
    needed: int
    move_number: int

    def __str__(self) -> str:
        either = f", {self.either} either" if self.either else ""
        return (
            f"{self.letters or '-'}: {self.vowels} vowels, {self.consonants} consonants{either};"
            f" move {self.move_number} needs {self.needed} of each"
        )


@dataclass(frozen=True)
class DrawRule:
    """The vowel/consonant minimum of a draw by move number, and how Y and the joker count.

    ``y`` applies to the edition's flexible tiles (kind "either" in its data: Y in French and English).
    """

    y: Counts = Counts.EITHER
    joker: Counts = Counts.EITHER
    early_moves: int = 15
    early_minimum: int = 2
    late_minimum: int = 1

    def __str__(self) -> str:
        return (
            f"{self.early_minimum} vowels and {self.early_minimum} consonants up to move"
            f" {self.early_moves}, then {self.late_minimum} of each; Y {self.y}, joker {self.joker}"
        )

    def minimum(self, move_number: int) -> int:
        """How many vowels, and as many consonants, a draw for this move needs at least."""
        return self.early_minimum if move_number <= self.early_moves else self.late_minimum

    def classify(self, letters: str, edition: Edition) -> tuple[int, int, int]:
        """(vowels, consonants, tiles that can count as either) among the letters."""
        vowels = consonants = either = 0
        for tile, count in Counter(letters).items():
            if tile == JOKER:
                kind = self.joker
            elif tile in edition.flexible:
                kind = self.y
            else:
                kind = Counts.VOWEL if edition.is_vowel(tile) else Counts.CONSONANT
            if kind is Counts.VOWEL:
                vowels += count
            elif kind is Counts.CONSONANT:
                consonants += count
            else:
                either += count
        return vowels, consonants, either

    def shortfall(self, letters: str, move_number: int, edition: Edition) -> Shortfall | None:
        """How the letters fall short of the rule for this move (None when they meet it)."""
        vowels, consonants, either = self.classify(letters, edition)
        need = self.minimum(move_number)
        missing = max(0, need - vowels) + max(0, need - consonants)
        if missing <= either:
            return None
        return Shortfall(edition.spell_tiles(letters), vowels, consonants, either, need, move_number)

    def is_met(self, letters: str, move_number: int, edition: Edition) -> bool:
        """Whether the letters hold enough vowels and consonants for this move."""
        return self.shortfall(letters, move_number, edition) is None

    def for_pool(self, pool: str, move_number: int, edition: Edition) -> DrawRule:
        """The rule a draw of this move is held to when ``pool`` (bag and reliquat) is what is left: one
        vowel and one consonant once the pool cannot give two of each (3.2, "si le reliquat le permet");
        jokers and Y as either once the pool's other letters are all vowels or all consonants (3.2, 3.7)."""
        rule = self
        distinct = set(pool)
        plain = [t for t in distinct if t != JOKER and t not in edition.flexible]
        if len(plain) < len(distinct) and len({edition.is_vowel(t) for t in plain}) <= 1:
            rule = DrawRule(Counts.EITHER, Counts.EITHER, self.early_moves, self.early_minimum, self.late_minimum)
        if move_number <= self.early_moves and not rule.is_met(pool, move_number, edition):
            rule = DrawRule(rule.y, rule.joker, 0, self.late_minimum, self.late_minimum)
        return rule


@dataclass(frozen=True)
class Bag:
    """The tiles in the bag, in record order (``?`` for jokers). ``str()`` lists them."""

    tiles: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", sort_tiles(self.tiles))

    @classmethod
    def full(cls, edition: Edition) -> Bag:
        """The whole tile set of an edition."""
        return cls("".join(edition.bag()))

    def __str__(self) -> str:
        return self.tiles

    def __len__(self) -> int:
        return len(self.tiles)

    def count(self, tile: str) -> int:
        """How many of one tile the bag holds."""
        return self.tiles.count(tile)

    def counts(self) -> dict[str, int]:
        """Each tile in the bag with its count."""
        return dict(Counter(self.tiles))

    def unseen(self, rack: str = "") -> str:
        """The tiles not on the board: the bag plus the letters on the rack (the draw)."""
        return sort_tiles(self.tiles + rack)

    def plus(self, tiles: str) -> Bag:
        """The bag with tiles put back."""
        return Bag(self.tiles + tiles)

    def minus(self, tiles: str, draw: str | None = None) -> Bag:
        """The bag without tiles taken out; a LetterNotInBagError names a tile it lacks."""
        wanted = Counter(tiles)
        have = Counter(self.tiles)
        for tile in sort_tiles(wanted):
            if wanted[tile] > have[tile]:
                raise LetterNotInBagError(draw if draw is not None else tiles, tile, wanted[tile], have[tile])
        return Bag(remove_tiles(self.tiles, tiles))

    def draw(self, count: int, rng: random.Random) -> tuple[str, Bag]:
        """``count`` tiles at random (all of them if fewer are left) and the bag after."""
        count = min(count, len(self.tiles))
        taken = sort_tiles(rng.sample(self.tiles, count))
        return taken, Bag(remove_tiles(self.tiles, taken))


def unseen_tiles(edition: Edition, board: Board) -> str:
    """The edition's tiles not on the board (bag plus racks), jokers as ``?``."""
    return remove_tiles("".join(edition.bag()), "".join(JOKER if t.joker else t.letter for _, _, t in board.tiles()))


@dataclass(frozen=True)
class Draw:
    """One draw: the letters kept from the previous move, the new letters, and whether it was rejected."""

    kept: str
    new: str
    rejected: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kept", sort_tiles(self.kept))
        object.__setattr__(self, "new", sort_tiles(self.new))

    def __str__(self) -> str:
        text = f"{self.kept}+{self.new}" if self.kept else self.new
        return f"-{text}" if self.rejected else text

    @property
    def letters(self) -> str:
        """All the letters of the draw, in record order."""
        return sort_tiles(self.kept + self.new)

    def as_rejected(self) -> Draw:
        """The same draw marked rejected."""
        return Draw(self.kept, self.new, rejected=True)

    def spelled(self, edition: Edition) -> str:
        """The record form (``-KEPT+NEW``) with the tiles written as the edition's labels, in its order."""
        new = edition.spell_tiles(self.new)
        text = f"{edition.spell_tiles(self.kept)}+{new}" if self.kept else new
        return f"-{text}" if self.rejected else text


@dataclass(frozen=True)
class DrawOutcome:
    """The draws made for one move (rejected ones first, the accepted one last) and the bag after."""

    draws: tuple[Draw, ...]
    bag: Bag
    shortfall: Shortfall | None = None  # a manual draw that breaks the rule: the referee may reject it

    def __str__(self) -> str:
        return " ".join(str(d) for d in self.draws)

    @property
    def draw(self) -> Draw:
        """The draw the move is played with."""
        return self.draws[-1]

    @property
    def rejected(self) -> tuple[Draw, ...]:
        """The draws that were rejected before it."""
        return self.draws[:-1]

    @property
    def meets_rule(self) -> bool:
        """Whether the draw meets the vowel/consonant rule."""
        return self.shortfall is None


def can_draw(bag: Bag, kept: str, move_number: int, rule: DrawRule, edition: Edition) -> bool:
    """Whether the bag and the kept letters can still give a draw that meets the rule (3.7)."""
    letters = bag.tiles + kept
    return bool(letters) and rule.for_pool(letters, move_number, edition).is_met(letters, move_number, edition)


def _new_tiles(bag: Bag, kept: str, rng: random.Random, edition: Edition, joker_each: bool) -> tuple[str, Bag]:
    """The tiles that complete the kept ones to a full draw, and the bag after. ``joker_each`` (the joker
    format, FISF 3.8.1): a joker joins every draw that lacks one while the bag holds one, the other tiles
    drawn from the letters only."""
    wanted = edition.draw_size - len(kept)
    if not joker_each:
        return bag.draw(wanted, rng)
    given = ""
    if JOKER not in kept and bag.count(JOKER):
        given, bag, wanted = JOKER, bag.minus(JOKER), wanted - 1
    held = JOKER * bag.count(JOKER)
    taken, rest = Bag(bag.tiles.replace(JOKER, "")).draw(wanted, rng)
    return sort_tiles(given + taken), rest.plus(held)


def joker_expected(bag: Bag, kept: str, joker_each: bool) -> bool:
    """Whether a draw must hold exactly one joker: the joker format while the bag or the kept tiles hold one."""
    return joker_each and (JOKER in kept or bag.count(JOKER) > 0)


def draw_tiles(
    bag: Bag,
    kept: str,
    move_number: int,
    rng: random.Random,
    rule: DrawRule = DrawRule(),
    edition: Edition = FRENCH,
    joker_each: bool = False,
) -> DrawOutcome:
    """Complete the kept letters from the bag to ``edition.draw_size``, rejecting and redrawing until the
    rule is met (``joker_each``: a joker in every draw, FISF 3.8.1).

    Raises NoDrawPossibleError when the bag and the kept letters cannot meet the rule
    (the end of the game).
    """
    kept = sort_tiles(kept)
    if not can_draw(bag, kept, move_number, rule, edition):
        raise NoDrawPossibleError(sort_tiles(bag.tiles + kept), move_number)
    rule = rule.for_pool(bag.tiles + kept, move_number, edition)
    draws: list[Draw] = []
    while True:
        new, bag = _new_tiles(bag, kept, rng, edition, joker_each)
        draw = Draw(kept, new)
        if rule.is_met(draw.letters, move_number, edition):
            return DrawOutcome(tuple(draws) + (draw,), bag)
        draws.append(draw.as_rejected())
        bag = bag.plus(draw.letters)
        kept = ""


def parse_draw(text: str, edition: Edition = FRENCH) -> tuple[str | None, str]:
    """Read a typed draw: ``EEU+ESI?`` gives (kept, new); ``EEUESI?`` gives (None, all letters).

    Tiles are read by the edition (accents folded, multi-letter tiles), case and spaces ignored; ``?`` is a joker.
    """
    folded = edition.tiles(text).replace(" ", "")
    if not folded:
        raise RackSyntaxError(text, SyntaxProblem.EMPTY)
    if folded.count("+") > 1:
        raise RackSyntaxError(text, SyntaxProblem.DRAW_PLUS)
    for char in folded:
        if char != "+" and char != JOKER and char not in edition.alphabet:
            raise RackSyntaxError(text, SyntaxProblem.NOT_A_TILE, char)
    if "+" in folded:
        kept, new = folded.split("+")
        return sort_tiles(kept), sort_tiles(new)
    return None, sort_tiles(folded)


def _with_kept(kept: str, new: str, edition: Edition) -> str:
    """A draw written for people: the reliquat, ``+``, the new letters (``I+AELNRT``)."""
    return f"{edition.spell_tiles(kept)}+{edition.spell_tiles(new)}"


def check_draw(
    text: str,
    bag: Bag,
    kept: str,
    move_number: int,
    rule: DrawRule = DrawRule(),
    edition: Edition = FRENCH,
    joker_each: bool = False,
) -> DrawOutcome:
    """Check a draw typed by the referee against the reliquat and the bag (``joker_each``: the joker
    format's draw holds one joker while one is left, FISF 3.8.1).

    Letters the bag lacks, kept letters that differ from the reliquat and a wrong
    number of letters raise; breaking the vowel/consonant rule is only reported
    (``shortfall``): rejecting the draw is the referee's call.
    """
    kept = sort_tiles(kept)
    typed_kept, letters = parse_draw(text, edition)
    shown = text.strip()
    for tile in letters + (typed_kept or ""):
        if tile != JOKER and tile not in edition.values:
            raise RackSyntaxError(text, SyntaxProblem.NOT_A_TILE, edition.label(tile))
    if typed_kept is not None:
        if typed_kept != kept:
            raise KeptLettersError(shown, typed_kept, kept, _with_kept(kept, letters, edition))
        new = letters
    else:
        missing = Counter(kept) - Counter(letters)
        if missing:
            typed_new = remove_tiles(letters, "".join((Counter(kept) & Counter(letters)).elements()))
            raise KeptLettersError(shown, None, kept, _with_kept(kept, typed_new, edition))
        new = remove_tiles(letters, kept)
    bag_after = bag.minus(new, shown)
    expected = min(edition.draw_size, len(kept) + len(bag))
    if joker_each:  # the other jokers stay in the bag while letters are drawn (a short draw at the end)
        given = int(JOKER not in kept and JOKER in bag.tiles)
        expected = min(expected, len(kept) + len(bag) - bag.count(JOKER) + given)
    if len(kept) + len(new) != expected:
        if edition.alphabet.multiletter:  # how the letters were read: NYQUAIEU is six tiles (NY QU A I E U)
            read = sorted(kept + new, key=edition.alphabet.sort_key)
            shown = f"{shown} ({' '.join(edition.alphabet.spell(tile) for tile in read)})"
        raise DrawSizeError(shown, len(kept) + len(new), expected)
    draw = Draw(kept, new)
    if joker_expected(bag, kept, joker_each) and draw.letters.count(JOKER) != 1:
        raise DrawJokerError(shown, draw.letters.count(JOKER))
    rule = rule.for_pool(bag.tiles + kept, move_number, edition)
    return DrawOutcome((draw,), bag_after, rule.shortfall(draw.letters, move_number, edition))
