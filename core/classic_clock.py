"""A classic game's clock, read from the times of its events (docs/rules.md, "Game clocks").

The game keeps a ``Mark`` at each stamped event: who the clock runs for from then on, whether it is
paused, and the turn counter. The time between a mark and the next (or now) is the running player's;
nothing else is stored, so a game rebuilt from its log after a restart reads the same clocks.

- chess clock: each player has ``clock_minutes`` for the whole game. FISF (``PLAYS_ON_ALONE``): a
  player whose time is over may no longer play, the opponent plays on alone. NASPA and WESPA
  (``OVERTIME``): the player plays on, losing ``overtime_per_minute`` points per started minute over,
  and the game is ended when the overtime reaches ``overtime_limit_minutes``.
- stopwatch: ``stopwatch_seconds`` per move, after which the turn is passed (FISF 6).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .rules import ClockMode, OutOfTime, RuleSet

_EPSILON = 1e-6  # seconds: a stamp exactly on a minute's edge does not start the next minute


@dataclass(frozen=True)
class Mark:
    """The clock's state from a stamped event on."""

    at: float
    to_move: str | None  # who the clock runs for (None: nobody, before two players or after the end)
    paused: bool
    turn: int  # the game's turn counter: a new value starts a new move (the stopwatch restarts)


class ClockDue(StrEnum):
    """What the clock does at its deadline."""

    FLAG = "flag"  # the player to move ran out of time (FISF): recorded, the opponent plays on alone
    PASS = "pass"  # the move's stopwatch ran out: the turn is passed
    OVERTIME_LIMIT = "overtime_limit"  # the overtime limit is reached: the game is ended


@dataclass(frozen=True)
class PlayerTime:
    """One player's clock."""

    player: str
    used: float  # seconds the clock ran for them
    allowed: float  # their time for the game (chess clock)
    flagged: bool  # recorded out of time

    @property
    def left(self) -> float:
        """Seconds left (negative: overtime)."""
        return self.allowed - self.used

    @property
    def overtime_minutes(self) -> int:
        """Minutes over the time, a started minute counting in full (``ceil``)."""
        over = self.used - self.allowed
        return math.ceil(over / 60 - _EPSILON) if over > 0 else 0


@dataclass(frozen=True)
class ClockReading:
    """The clocks at one moment."""

    mode: ClockMode
    times: tuple[PlayerTime, ...]
    running_for: str | None  # the player whose clock runs (None when paused, not started or over)
    paused: bool
    move_used: float  # stopwatch: seconds of the current move
    move_allowed: float
    deadline: float | None  # when the clock acts next (None: nothing to do)
    due: ClockDue | None

    def of(self, player: str) -> PlayerTime:
        """The clock of one player."""
        return next(t for t in self.times if t.player == player)


def overtime_points(rules: RuleSet, time: PlayerTime) -> int:
    """The points a player's overtime costs (0 without overtime, or under a rule set without it)."""
    if rules.out_of_time is not OutOfTime.OVERTIME:
        return 0
    minutes = time.overtime_minutes
    if rules.overtime_limit_minutes:
        minutes = min(minutes, rules.overtime_limit_minutes)
    return minutes * rules.overtime_per_minute


def read_clock(
    rules: RuleSet, players: Sequence[str], marks: Iterable[Mark], now: float, flagged: Iterable[str] = ()
) -> ClockReading:
    """The clocks at ``now`` from the game's marks."""
    used = dict.fromkeys(players, 0.0)
    move_used = 0.0
    last: Mark | None = None
    for mark in [*marks, None]:
        end = now if mark is None else mark.at
        if last is not None and last.to_move in used and not last.paused:
            spent = max(0.0, end - last.at)
            used[last.to_move or ""] += spent
            move_used += spent
        if mark is None:
            break
        if last is not None and mark.turn != last.turn:
            move_used = 0.0
        last = mark
    out = set(flagged)
    allowed = rules.clock_minutes * 60.0
    times = tuple(PlayerTime(p, used[p], allowed, p in out) for p in players)
    running = last.to_move if last is not None and not last.paused and rules.clock is not ClockMode.NONE else None
    paused = last is not None and last.paused
    move_allowed = float(rules.stopwatch_seconds)
    deadline, due = _next(rules, times, running, now, move_used)
    return ClockReading(rules.clock, times, running, paused, move_used, move_allowed, deadline, due)


def _next(
    rules: RuleSet, times: tuple[PlayerTime, ...], running: str | None, now: float, move_used: float
) -> tuple[float | None, ClockDue | None]:
    if running is None:
        return None, None
    if rules.clock is ClockMode.STOPWATCH:
        return now + rules.stopwatch_seconds - move_used, ClockDue.PASS
    time = next(t for t in times if t.player == running)
    if rules.out_of_time is OutOfTime.PLAYS_ON_ALONE:
        return (None, None) if time.flagged else (now + time.left, ClockDue.FLAG)
    if rules.overtime_limit_minutes:
        return now + time.left + rules.overtime_limit_minutes * 60, ClockDue.OVERTIME_LIMIT
    return None, None
