"""The computer's seat in a dealt game (``core.online``): its move, from its own rack and the game's list only.

A level is a score percentile among the plays the move generator finds for the rack: the top plays the
best of them (``find_top``), the others the play at their percentile of the plays sorted by score (ties
broken by the generator's fixed order). With no play it exchanges its whole rack while the bag allows,
else it passes; after an opponent went out it accepts (passes).
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


class Level(Enum):
    """How well the computer plays: the score percentile of its play among those it finds."""

    TOP = 100
    STRONG = 80
    MEDIUM = 55
    WEAK = 25

    def __str__(self) -> str:
        return self.name.lower()


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
        plays = sorted(generate_plays(game.board, rack, lexicon, edition), key=lambda p: (p.total, play_order(p)))
        chosen = plays[round((len(plays) - 1) * level.value / 100)] if plays else None
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
