"""The computer's seat in a dealt game (``core.online``): its move, from its own rack and the game's list only.

A level chooses among the plays the move generator finds for the rack, by score and by vocabulary: the top
plays the best of them (``find_top``); the others keep the plays whose every word is within their vocabulary
(a longest word, for the novice: words of five letters at most, so never a bingo) and play the one at their
score percentile of those, sorted by score (ties broken by the generator's fixed order). With no play it
exchanges its whole rack while the bag allows, else it passes; after an opponent went out it accepts (passes).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from .edition import Edition
from .lexicon import Lexicon
from .movegen import find_top, generate_plays
from .movegen_plays import Play as FoundPlay
from .movegen_plays import play_order
from .online import DealtGame, Turn

NOVICE_LONGEST = 5  # the novice's vocabulary: words of five letters at most


class Level(Enum):
    """How well the computer plays: (the score percentile of its play among those it finds, the longest word
    it knows: 0 for any)."""

    TOP = (100, 0)
    STRONG = (80, 0)
    MEDIUM = (55, 0)
    WEAK = (25, 0)
    NOVICE = (50, NOVICE_LONGEST)  # a small vocabulary: the median play among those of short words only

    def __str__(self) -> str:
        return self.name.lower()

    @property
    def percentile(self) -> int:
        return self.value[0]

    @property
    def longest(self) -> int:
        """The longest word the level plays or forms (0: any)."""
        return self.value[1]


def in_vocabulary(play: FoundPlay, longest: int) -> bool:
    """Whether every word the play forms is within a vocabulary of words of ``longest`` letters at most."""
    return not longest or all(len(word.cells) <= longest for word in play.placement.words)


@dataclass(frozen=True)
class Choice:
    """The computer's decision: a move in the game's notation, an exchange of tiles, or a pass (both empty)."""

    move: str = ""
    exchange: str = ""


def choose(game: DealtGame, player: str, lexicon: Lexicon, level: Level) -> Choice:
    """What the seat ``player`` plays, seeing only its rack, the board and the bag's size."""
    if game.awaiting_end is not None:
        return Choice()
    rack = game.rack(player)
    edition: Edition = game.edition
    chosen: FoundPlay | None
    if level is Level.TOP:
        chosen = find_top(game.board, rack, lexicon, edition).best
    else:
        found = [p for p in generate_plays(game.board, rack, lexicon, edition) if in_vocabulary(p, level.longest)]
        plays = sorted(found, key=lambda p: (p.total, play_order(p)))
        chosen = plays[round((len(plays) - 1) * level.percentile / 100)] if plays else None
    if chosen is not None:
        return Choice(move=chosen.placement.notation(game.notation))
    if len(game.bag) >= max(game.rules.exchange_min_bag, len(rack)) and rack:
        return Choice(exchange=edition.spell_tiles(rack))
    return Choice()


def move(game: DealtGame, player: str, lexicon: Lexicon, level: Level, rng: random.Random, at: float | None) -> Turn:
    """Play the computer's choice in the game; its events."""
    choice = choose(game, player, lexicon, level)
    if choice.move:
        return game.play(player, choice.move, rng, at)
    if choice.exchange:
        return game.exchange(player, choice.exchange, rng, at)
    return game.pass_turn(player, at)


def level_named(name: str) -> Level:
    """The level stored for a computer's seat (``str(level)``)."""
    return Level[name.upper()]
