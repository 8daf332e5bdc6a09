"""Plays of the move generator (``core.movegen``): a found play as the search keeps it, the
legal play rebuilt from it, and the order of the top.

A found play (``Found``) is a bare tuple; ``build_play`` rebuilds it through
``core.placement.validate_tiles`` and scores it with ``core.scoring.score_placement``, so a
generated play and the same play typed by a player validate and score identically.
``play_order`` and ``found_key`` sort by the top order of ``core.movegen``'s docstring.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, Tile
from .edition import Edition
from .movegen_board import Line
from .placement import Placement, validate_tiles
from .scoring import MoveScore, score_placement


@dataclass(frozen=True)
class Play:
    """A legal play: its placement, its score, and how many jokers it places. ``str()`` is FISF."""

    placement: Placement
    score: MoveScore
    jokers: int

    def __str__(self) -> str:
        return self.placement.notation()

    @property
    def total(self) -> int:
        """The play's score, bonus included."""
        return self.score.total


# A found play: score, jokers, start key, line, start, end (exclusive), squares, letters, joker flags.
Found = tuple[
    int,
    int,
    tuple[int, int, int],
    Line,
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[bool, ...],
]


@dataclass(frozen=True)
class Kept:
    """What a finished search kept for the top (``core.movegen``). With ``count`` 1 (``tie_mode``): the best
    play, and whether another play scores as much with as many jokers (``tie_same``) or with more
    (``tie_more``, also when the best was found after a play with more); else every play scoring at least
    ``threshold`` (``found``). ``seen``: how many plays the search met."""

    tie_mode: bool
    seen: int
    best: Found | None
    tie_same: bool
    tie_more: bool
    found: list[Found]
    threshold: int


def kept_ties(plays: list[Found], seen: int) -> Kept:
    """What a search in tie mode keeps when it is offered ``plays``, each scoring the best score: the play of
    fewest jokers first in the fixed order, and the tie facts, whatever the order the plays came in."""
    if not plays:
        return Kept(True, seen, None, False, False, [], -1)
    jokers = min(found[1] for found in plays)
    fewest = [found for found in plays if found[1] == jokers]
    first_key = min(found[2] for found in fewest)
    firsts = [found for found in fewest if found[2] == first_key]
    best = firsts[0] if len(firsts) == 1 else min(firsts, key=found_key)
    return Kept(True, seen, best, len(fewest) > 1, len(fewest) < len(plays), [], best[0])


def found_key(found: Found) -> tuple[object, ...]:
    """The order key of a found play (the top order of ``core.movegen``), without building it."""
    score, jokers, key, line, start, end, squares, letters, flags = found
    placed = {pos: (code, joker) for pos, code, joker in zip(squares, letters, flags)}
    word: list[int] = []
    typed: list[int] = []
    for pos in range(start, end):
        if pos in placed:
            code, joker = placed[pos]
            word.append(code)
            typed.append(code + 97 if joker else code + 65)
        else:
            word.append(line.fixed[pos])
            typed.append(line.fixed[pos] + 65)
    return (-score, jokers, key, tuple(word), tuple(typed))


def build_play(board: Board, found: Found, edition: Edition) -> Play:
    """Rebuild a found play through validate_tiles and score_placement (the one truth)."""
    line, squares, letters, flags = found[3], found[6], found[7], found[8]
    symbols = edition.alphabet.symbols
    tiles = []
    for pos, code, joker in zip(squares, letters, flags):
        row, col = line.square(pos)
        tiles.append((row, col, Tile(symbols[code], joker)))
    placement = validate_tiles(board, tiles, rack_size=edition.rack_size, alphabet=edition.alphabet)
    return Play(placement, score_placement(placement, edition), placement.jokers)


def play_order(play: Play) -> tuple[int, int, int, int, int, str, str]:
    """Sort key of the top order: score, fewest jokers, then the fixed order (see ``core.movegen``)."""
    placement = play.placement
    ref = placement.ref
    alphabet = placement.alphabet
    if alphabet.plain:
        word, typed = placement.main_word.text, placement.notation()
    else:  # the same order on codes: alphabet order, then jokers after plain tiles
        cells = placement.main_word.cells
        word = "".join(chr(65 + alphabet.code(c.letter)) for c in cells)
        typed = "".join(chr((97 if c.joker else 65) + alphabet.code(c.letter)) for c in cells)
    return (-play.score.total, play.jokers, 0 if ref.horizontal else 1, ref.row, ref.col, word, typed)
