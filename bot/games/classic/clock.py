"""A classic game's clock: its lines shown with the game, storage's copy of its next deadline, and the
overtime penalties at the end. The referee's /pause and /resume, the game's settings and what the clock
tick does are ``settings``.

The clock is read from the times of the game's events (``core.classic_clock``); storage keeps the next
moment the clock must act as the game's deadline (round 0), which the duplicate clock's tick reads too,
so a restart finds it again.
"""

from __future__ import annotations

from core.classic_clock import ClockReading, overtime_points
from core.events import Event, Setting, TimePenalty
from core.game import MAX_PENALTY, ClassicGame, LineKind
from core.rules import ClockMode

from ...messages import say
from ...storage import GameRecord, Storage

CLOCK_ROUND = 0  # the round number a classic game's deadline is stored under


# --- shown with the game ---------------------------------------------------------------------


def minutes_seconds(seconds: float) -> str:
    """``28:05`` (a time left rounded up to the second, so 0:00 is shown only once it is over)."""
    whole = max(0, -int(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}"


def clock_lines(lang: str, game: ClassicGame, now: float) -> list[str]:
    """The clock's line for /status, the sheet and the board (none for a game without a clock)."""
    rules = game.rules
    if rules.clock is ClockMode.NONE:
        return []
    reading = game.clock(now)
    paused = say(lang, "clock_paused_note") if reading.paused else ""
    if rules.clock is ClockMode.STOPWATCH:
        player = reading.running_for or game.to_move or "-"
        left = minutes_seconds(reading.move_allowed - reading.move_used)
        return [say(lang, "clock_stopwatch_line", player=player, time=left, paused=paused)]
    parts = []
    for time in reading.times:
        if time.flagged:
            parts.append(say(lang, "clock_flagged_part", player=time.player))
        elif time.left < 0:
            points = overtime_points(rules, time)
            over = minutes_seconds(-time.left)
            parts.append(say(lang, "clock_overtime_part", player=time.player, time=over, points=points))
        else:
            parts.append(f"{time.player} {minutes_seconds(time.left)}")
    running = say(lang, "clock_running_for", player=reading.running_for) if reading.running_for else ""
    return [say(lang, "clock_chess_line", clocks=" · ".join(parts), running=running, paused=paused)]


def countdown(game: ClassicGame, now: float) -> float | None:
    """When the running clock shows 0:00 (the player's time, or the move's on a stopwatch), for the
    platforms' live countdowns; None without a running clock or once the time is over."""
    if game.ended or game.rules.clock is ClockMode.NONE:
        return None
    reading = game.clock(now)
    if reading.running_for is None:
        return None
    if reading.mode is ClockMode.STOPWATCH:
        left = reading.move_allowed - reading.move_used
    else:
        left = reading.of(reading.running_for).left
    return now + left if left > 0 else None


def sync_clock(storage: Storage, record: GameRecord, game: ClassicGame, now: float) -> None:
    """Storage's copy of the next moment the clock acts (none: no clock, paused, or the game over)."""
    reading = game.clock(now)
    at = reading.deadline if not game.ended and reading.deadline is not None else None
    storage.open_round(record.id, CLOCK_ROUND, at)


def after_event(storage: Storage, record: GameRecord, game: ClassicGame, event: Event, now: float) -> None:
    """Keep storage's deadline in line after an event of a game with a clock (or one turning it off)."""
    if game.rules.clock is not ClockMode.NONE or (isinstance(event, Setting) and event.name == "clock"):
        sync_clock(storage, record, game, now)


# --- overtime at the end ---------------------------------------------------------------------


def overtime_penalties(game: ClassicGame, now: float) -> list[TimePenalty]:
    """The time penalties still due by the players over their time when the game ends (NASPA, WESPA):
    those already on the sheet (an end taken back with /undo) are not given twice."""
    if game.rules.clock is not ClockMode.CHESS:
        return []
    reading = game.clock(now)
    found = []
    for time in reading.times:
        given = -sum(
            line.points for line in game.lines if line.kind is LineKind.TIME_PENALTY and line.player == time.player
        )
        points = min(MAX_PENALTY, overtime_points(game.rules, time) - given)
        if points > 0:
            found.append(TimePenalty(time.player, points))
    return found


def overtime_lines(lang: str, game: ClassicGame, penalties: list[TimePenalty], reading: ClockReading) -> list[str]:
    """One line per time penalty given at the end."""
    return [
        say(
            lang,
            "clock_overtime_penalty",
            player=p.player,
            points=p.points,
            minutes=reading.of(p.player).overtime_minutes,
        )
        for p in penalties
    ]
