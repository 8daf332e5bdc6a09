"""Values of a classic game's results: letters over the edition's count, a player's standing, and the
value of the racks left at the end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .edition import JOKER, Edition
from .errors_classic import RackNotUnseenError, RackSpecError, RackTooLargeError


@dataclass(frozen=True)
class TileCountAlert:
    """More tiles of a letter on the board than the edition has (a typing error somewhere)."""

    letter: str
    count: int
    limit: int

    def __str__(self) -> str:
        return f"{self.letter} x{self.count} > {self.limit}"


@dataclass(frozen=True)
class Standing:
    """A player's result: score before the rack adjustment, the adjustment, final score, place."""

    player: str
    before: int
    adjustment: int
    final: int
    place: int

    def __str__(self) -> str:
        return f"{self.place}. {self.player} {self.final} ({self.before} {self.adjustment:+d})"


def most_rack_value(edition: Edition) -> int:
    """The most a full rack can be worth: the bound of remaining points given as a number."""
    return edition.rack_size * max(edition.values.values())


def is_points(text: str) -> bool:
    """Whether remaining letters were given as a number (ASCII digits, an optional minus)."""
    digits = text.strip().removeprefix("-")
    return digits.isascii() and digits.isdigit()


def rack_value(rack: str, edition: Edition) -> int:
    """The value of remaining letters (``?`` joker = 0) or a number given as text (at most
    :func:`most_rack_value`); ValueError for anything else."""
    text = rack.strip()
    if is_points(text):
        digits = text.removeprefix("-")
        if len(digits) > 3 or int(digits) > most_rack_value(edition):
            raise ValueError(rack)
        return int(digits)
    letters = edition.tiles(text).replace(" ", "")
    if any(c != JOKER and c not in edition.values for c in letters):
        raise ValueError(rack)
    return sum(edition.values.get(c, 0) for c in letters)


def check_end_racks(edition: Edition, unseen: Counter[str], racks: Iterable[tuple[str, str]]) -> None:
    """Each rack fits on a rack, and all of them together are among the unseen tiles."""
    unseen = Counter(unseen)
    for player, rack in racks:
        try:
            rack_value(rack, edition)
        except ValueError:
            raise RackSpecError(player, rack, most_rack_value(edition)) from None
        text = rack.strip()
        if not text or is_points(text):
            continue
        letters = edition.tiles(text).replace(" ", "")
        if len(letters) > edition.rack_size:
            raise RackTooLargeError(player, rack, edition.rack_size)
        wanted = Counter(letters)
        missing = wanted - unseen
        if missing:
            shown = edition.spell_tiles(unseen.elements())
            left = edition.spell_tiles(t for t in unseen.elements() if t in missing)
            asked = edition.spell_tiles(t for t in wanted.elements() if t in missing)
            raise RackNotUnseenError(player, edition.spell_tiles(missing.elements()), shown, left, asked)
        unseen -= wanted
