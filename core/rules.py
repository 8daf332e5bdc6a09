"""Rule sets for classic play, as data (docs/rules.md, "Turn types and rule sets").

Where sources disagree the value is a field of the rule set, not a constant in the
engine: a club can build its own ``RuleSet`` with ``dataclasses.replace``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING

from .rule_codes import RULE_SET_CODES

if TYPE_CHECKING:
    from .edition import Edition


class ClockMode(Enum):
    """How a classic game's time is kept (docs/rules.md, "Game clocks")."""

    NONE = "none"  # no clock
    CHESS = "chess"  # a chess clock: each player's time for the whole game
    STOPWATCH = "stopwatch"  # a stopwatch: a time per move, after which the turn is passed


class OutOfTime(Enum):
    """What happens to a player whose chess clock runs out."""

    PLAYS_ON_ALONE = "plays-on-alone"  # FISF: no more moves, the opponent plays on alone without exchanges
    OVERTIME = "overtime"  # NASPA, WESPA: points off per started minute over, the game ended at a limit


class GoingOut(Enum):
    """What happens to the racks when a player goes out."""

    ADD_AND_SUBTRACT = "add-and-subtract"  # out player adds the others' racks, each other subtracts own
    ADD_TWICE = "add-twice"  # out player adds twice the others' racks, others unchanged (NASPA)


@dataclass(frozen=True)
class RuleSet:
    """Everything the classic game engine needs to know about a rule set."""

    code: str
    name: str
    min_players: int
    max_players: int
    exchange_min_bag: int  # tiles that must be in the bag for an exchange
    challenge_lost_turn: bool  # a valid word challenged: the challenger loses the next turn
    challenge_penalty_per_word: int  # ... or loses this many points per word wrongly challenged
    challenge_bonus_per_word: int  # ... or the player who made the move gains this many per word
    scoreless_limit_per_player: int  # consecutive scoreless turns (per player) that block the game
    scoreless_counts_only_passes: bool  # box rules count passes only
    going_out: GoingOut
    overtime_per_minute: int  # points off per started minute over time
    fallback: str | None = None  # rule set used when there are more players than max_players
    challenge_void: bool = False  # a challenge costs nothing: a phony is simply taken off, a valid word stands
    scoreless_ends: bool = False  # the scoreless limit ends the game (the racks are then entered with /end)
    clock: ClockMode = ClockMode.NONE  # the game's clock (chosen for the game; none by default)
    clock_minutes: int = 30  # a chess clock's time per player for the whole game
    stopwatch_seconds: int = 120  # a stopwatch's time per move
    out_of_time: OutOfTime = OutOfTime.OVERTIME
    overtime_limit_minutes: int = 10  # overtime past which the game is ended (0: no limit)

    def __str__(self) -> str:
        return self.code

    def scoreless_limit(self, players: int) -> int:
        """Number of consecutive scoreless turns that blocks the game."""
        return self.scoreless_limit_per_player * players


_SETS = [
    RuleSet(
        code="box-fr",
        name="Règle de la boîte (notice française)",
        min_players=2,
        max_players=4,
        exchange_min_bag=0,  # the French notice sets no minimum
        challenge_lost_turn=True,
        challenge_penalty_per_word=0,
        challenge_bonus_per_word=0,
        scoreless_limit_per_player=2,
        scoreless_counts_only_passes=True,
        going_out=GoingOut.ADD_AND_SUBTRACT,
        overtime_per_minute=0,
        # scoreless_ends off: the sheet flags the limit (every player passed twice), /fin closes the game
        out_of_time=OutOfTime.PLAYS_ON_ALONE,
        overtime_limit_minutes=0,
    ),
    RuleSet(
        code="box-en",
        name="Box rules (English rule sheet)",
        min_players=2,
        max_players=4,
        exchange_min_bag=7,
        challenge_lost_turn=True,
        challenge_penalty_per_word=0,
        challenge_bonus_per_word=0,
        scoreless_limit_per_player=2,
        scoreless_counts_only_passes=True,
        going_out=GoingOut.ADD_AND_SUBTRACT,
        overtime_per_minute=0,
        # scoreless_ends off: the sheet flags the limit (every player passed twice), /fin closes the game
        out_of_time=OutOfTime.PLAYS_ON_ALONE,
        clock_minutes=25,
        overtime_limit_minutes=0,
    ),
    RuleSet(
        code="fisf",
        name="FISF, partie classique de tournoi",
        min_players=2,
        max_players=2,
        exchange_min_bag=7,
        challenge_lost_turn=False,
        challenge_penalty_per_word=5,  # exact value to confirm with the FISF rule book
        challenge_bonus_per_word=0,
        scoreless_limit_per_player=3,
        scoreless_counts_only_passes=False,
        going_out=GoingOut.ADD_AND_SUBTRACT,
        overtime_per_minute=0,
        # scoreless_ends off: FISF classic 7 makes the first of two players passing in a row play or
        # change; the game ends only when blocked (8), which the referee closes with /fin
        fallback="box-fr",
        out_of_time=OutOfTime.PLAYS_ON_ALONE,  # 6: "il n'a plus le droit de jouer"
        overtime_limit_minutes=0,
    ),
    RuleSet(
        code="naspa",
        name="NASPA (NWL)",
        min_players=2,
        max_players=2,
        exchange_min_bag=7,
        challenge_lost_turn=True,  # double challenge
        challenge_penalty_per_word=0,
        challenge_bonus_per_word=0,
        scoreless_limit_per_player=3,
        scoreless_counts_only_passes=False,
        going_out=GoingOut.ADD_TWICE,
        overtime_per_minute=10,
        fallback="box-en",
        scoreless_ends=True,  # NASPA: six consecutive scoreless turns end the game (tournament play)
        clock_minutes=25,
    ),
    RuleSet(
        code="wespa",
        name="WESPA (CSW)",
        min_players=2,
        max_players=2,
        exchange_min_bag=7,
        challenge_lost_turn=False,
        challenge_penalty_per_word=0,
        challenge_bonus_per_word=5,  # 10 in some events
        scoreless_limit_per_player=3,
        scoreless_counts_only_passes=False,
        going_out=GoingOut.ADD_AND_SUBTRACT,
        overtime_per_minute=10,
        fallback="box-en",
        scoreless_ends=True,  # WESPA: six consecutive scoreless turns end the game (tournament play)
        clock_minutes=25,
    ),
]

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType({r.code: r for r in _SETS})
if tuple(RULE_SETS) != RULE_SET_CODES:  # the names an edition file is checked against
    raise ImportError(f"core.rule_codes names {RULE_SET_CODES}, core.rules defines {tuple(RULE_SETS)}")


def rule_set_by_code(code: str) -> RuleSet:
    """The rule set named ``box-fr``, ``box-en``, ``fisf``, ``naspa`` or ``wespa`` (any case)."""
    try:
        return RULE_SETS[code.strip().lower()]
    except KeyError:
        raise KeyError(f"unknown rule set {code!r}; known: {', '.join(RULE_SETS)}") from None


UNKNOWN_EDITION_RULES = "box-en"  # the rule set of an edition code no shipped file has


def edition_rules(edition: Edition) -> RuleSet:
    """The default rule set of the edition's classic games: the one its file names (``rules``)."""
    return rule_set_by_code(edition.rules)


def box_rules(edition_code: str) -> RuleSet:
    """The default rule set of the shipped edition ``edition_code`` (its file's ``rules``: ``box-fr``
    for fr, ``box-en`` for en), box-en for a code no file has."""
    from .edition import EDITIONS  # here: naming the rule sets (the ``--rules`` choices) reads no edition file

    edition = EDITIONS.get(edition_code.strip().lower())
    return edition_rules(edition) if edition is not None else RULE_SETS[UNKNOWN_EDITION_RULES]


def rule_set_for_players(rules: RuleSet, players: int) -> RuleSet:
    """The rule set that applies with this many players (FISF classic is for two: more fall back)."""
    current = rules
    while players > current.max_players and current.fallback:
        current = RULE_SETS[current.fallback]
    return current


def most_players(rules: RuleSet) -> int:
    """The most players a game started under ``rules`` may have, its fallback rule sets included."""
    most = rules.max_players
    current = rules
    while current.fallback:
        current = RULE_SETS[current.fallback]
        most = max(most, current.max_players)
    return most
