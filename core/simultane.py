"""A simultané: one duplicate game played in many rooms, each under its own arbiter and clock, ranked
together across every room ("tous centres confondus") and room by room.

Its definition names the organiser, the rules every room plays by (edition, list, notation, minutes,
sanctions), where its draws come from (a seed, or a hall's draws typed in advance and then the seed) and
its mode: every room together from a set time (with ``clock_start``, every room's game started by the
clock at that time, all at once: a room joins before it, never after), or each at its own time within a
window. Its sequence of
draws is sealed: a draw exists only once a room's round opens (``next_draw``), and every room drawing on
the same board gets the same letters.

Played together, the rooms are paced (``close_wait``): a room whose time for a round is up closes it (its
top, its results, then the next draw) only once every other room still playing has reached the end of
that round too (and, together from now, once the entries are closed), so that no room sees a top or a
draw before the others have played the round.

The overall ranking counts a round once every room still playing has closed it (together), or every round
once the window has ended (``visible_rounds``); a room that ended early holds no one back, its players
ranked with the rounds it played (``OverallStanding.stopped``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .duplicate import DuplicateEvent, DuplicateGame
from .duplicate.ranking import rank_players
from .duplicate.rounds import Round
from .duplicate.sanctions import warning_deduction
from .duplicate.settings import DuplicateSettings, SoloRule
from .errors import ArbitreError


class SimultaneMode(StrEnum):
    """How the rooms play: all together from a set time, or each at its own time within a window."""

    TOGETHER = "together"
    WINDOW = "window"


class StartBlock(StrEnum):
    """Why a room cannot start its game now."""

    TOO_EARLY = "too_early"  # before the set time (together) or the window's start
    WINDOW_OVER = "window_over"  # the window has ended
    BY_CLOCK = "by_clock"  # together at a set time: the clock starts every room's game, no room starts it
    STARTED = "started"  # together at a set time: it has started, too late to join
    ENTRIES_CLOSED = "entries_closed"  # the organiser closed the entries (or together from now, its first close)


class WaitReason(StrEnum):
    """Why a room whose time for a round is up waits before closing it (its top, results, next draw)."""

    ENTRIES_OPEN = "entries_open"  # together from now: rooms may still join (and would play round 1 again)
    ROOMS_PLAYING = "rooms_playing"  # other rooms still play the round


@dataclass(frozen=True)
class CloseWait:
    """A room's wait before closing a round whose time is up: why, and the rooms still playing it."""

    reason: WaitReason
    rooms: tuple[str, ...] = ()


@dataclass(frozen=True)
class SimultaneDefinition:
    """What every room of a simultané plays: the organiser (account and room), the rules, the source of
    the draws (``seed``, and ``draws`` typed in advance, used first, one per move), the mode and its
    times (``start``; ``end`` for a window). ``clock_start``: together at a set time, every room's game is
    started by the clock at ``start``, all at once (a room joins before, never after)."""

    code: str
    organiser: str
    channel: str
    seed: str
    edition: str
    lexicon: str
    notation: str
    minutes: float
    sanctions: str
    mode: SimultaneMode = SimultaneMode.TOGETHER
    start: float = 0.0
    end: float | None = None
    draws: tuple[str, ...] = ()
    clock_start: bool = False

    def start_block(self, now: float) -> StartBlock | None:
        """Why a room cannot start its game itself at ``now`` (None: it can)."""
        if self.clock_start:
            return StartBlock.BY_CLOCK
        if now < self.start:
            return StartBlock.TOO_EARLY
        if self.mode is SimultaneMode.WINDOW and self.end is not None and now >= self.end:
            return StartBlock.WINDOW_OVER
        return None

    def join_block(self, now: float, entries_closed: bool = False) -> StartBlock | None:
        """Why a room cannot join at ``now`` (None: it can): the entries close at the start (together at a
        set time), at the window's end, and when the organiser closes them (``entries_closed``; together
        from now, also the organiser's room's first close)."""
        if self.clock_start and now >= self.start:
            return StartBlock.STARTED
        if self.mode is SimultaneMode.WINDOW and self.end is not None and now >= self.end:
            return StartBlock.WINDOW_OVER
        if entries_closed:
            return StartBlock.ENTRIES_CLOSED
        return None

    @property
    def paced(self) -> bool:
        """Whether the rooms are paced together (every mode but the window)."""
        return self.mode is not SimultaneMode.WINDOW

    @property
    def admission(self) -> bool:
        """Whether a room takes part only once the organiser has admitted it (a window: each room plays at
        its own pace, so a room must not be a throwaway one that plays first and tells)."""
        return self.mode is SimultaneMode.WINDOW

    def to_json(self) -> dict[str, Any]:
        """The definition as a JSON object (what storage keeps)."""
        return {
            "code": self.code,
            "organiser": self.organiser,
            "channel": self.channel,
            "seed": self.seed,
            "edition": self.edition,
            "lexicon": self.lexicon,
            "notation": self.notation,
            "minutes": self.minutes,
            "sanctions": self.sanctions,
            "mode": self.mode.value,
            "start": self.start,
            "end": self.end,
            "draws": list(self.draws),
            "clock_start": self.clock_start,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SimultaneDefinition:
        """The definition a JSON object of ``to_json`` describes."""
        end = data.get("end")
        return cls(
            code=str(data["code"]),
            organiser=str(data["organiser"]),
            channel=str(data["channel"]),
            seed=str(data["seed"]),
            edition=str(data["edition"]),
            lexicon=str(data["lexicon"]),
            notation=str(data["notation"]),
            minutes=float(data["minutes"]),
            sanctions=str(data["sanctions"]),
            mode=SimultaneMode(data.get("mode", SimultaneMode.TOGETHER.value)),
            start=float(data.get("start", 0.0)),
            end=None if end is None else float(end),
            draws=tuple(str(d) for d in data.get("draws", [])),
            clock_start=bool(data.get("clock_start", False)),
        )


def next_draw(definition: SimultaneDefinition, game: DuplicateGame, at: float | None = None) -> list[DuplicateEvent]:
    """Make the next move's draw of the simultané in ``game`` (applied, and returned to be stored): the
    typed draw of that move if there is one, else a draw from the seed and the move's number, so that
    every room whose board and bag are the same draws the same letters (a typed draw the bag does not
    allow gives way to the seed's)."""
    index = game.move_number - 1
    if index < len(definition.draws):
        try:
            return [game.draw_manual(definition.draws[index], at=at)]
        except ArbitreError:
            pass  # a typed draw the bag no longer allows: the seed's, the same in every room
    return game.draw(random.Random(f"{definition.seed}:{game.move_number}"), at=at)


# --- what the rooms may see ---------------------------------------------------------------------


@dataclass(frozen=True)
class RoomProgress:
    """Where one room's game stands: rounds closed, whether it has started, whether it was abandoned,
    whether it has ended (its referee stopped it, or it played every round), and ``time_up``: the round
    whose time is up there and whose close waits (0: none)."""

    channel: str
    closed: int
    started: bool = True
    abandoned: bool = False
    ended: bool = False
    time_up: int = 0

    @property
    def reached(self) -> int:
        """The rounds the room has played to their end (closed, or its time up)."""
        return max(self.closed, self.time_up)

    @property
    def playing(self) -> bool:
        """Whether the room still plays (started, neither abandoned nor ended)."""
        return self.started and not self.abandoned and not self.ended


def visible_rounds(definition: SimultaneDefinition, rooms: Sequence[RoomProgress], now: float) -> int:
    """How many rounds the overall ranking counts at ``now``: together, those every room still playing
    has closed (none while a room has not started), or once every room has ended, every round a room
    closed; for a window, none before it ends, then every round a room closed. An abandoned room holds no
    one back, nor does a room that ended early (its players keep the rounds it played)."""
    counted = [r for r in rooms if not r.abandoned]
    if not counted:
        return 0
    if definition.mode is SimultaneMode.WINDOW:
        if definition.end is None or now < definition.end:
            return 0
        return max(r.closed for r in counted)
    if not all(r.started for r in counted):
        return 0
    playing = [r for r in counted if not r.ended]
    return min(r.closed for r in playing) if playing else max(r.closed for r in counted)


def close_wait(
    definition: SimultaneDefinition,
    rooms: Sequence[RoomProgress],
    channel: str,
    round_number: int,
    entries_closed: bool,
) -> CloseWait | None:
    """Why the room ``channel``, whose time for ``round_number`` is up, must wait before closing it (None:
    it need not). Played together, every other room still playing (or not started) must have reached the
    end of that round, and together from now the entries must be closed (a room that joins later plays
    round 1, whose top must not be out); a window paces no room."""
    if not definition.paced:
        return None
    if not definition.clock_start and not entries_closed:
        return CloseWait(WaitReason.ENTRIES_OPEN)
    behind = tuple(
        r.channel
        for r in rooms
        if r.channel != channel and not r.abandoned and not r.ended and (not r.started or r.reached < round_number)
    )
    return CloseWait(WaitReason.ROOMS_PLAYING, behind) if behind else None


# --- the overall ranking ------------------------------------------------------------------------


@dataclass(frozen=True)
class RoomPlayer:
    """A player of one room: who they are in every room (``key``: their platform account) and their
    seat's name in that room's game."""

    key: str
    name: str


@dataclass(frozen=True)
class RoomResult:
    """One room's closed rounds (in order) and its players."""

    channel: str
    players: tuple[RoomPlayer, ...]
    rounds: tuple[Round, ...]
    ended: bool = False  # the room's game is over (stopped by its referee, or every round played)


@dataclass(frozen=True)
class OverallStanding:
    """A player's place across every room: total (solo bonuses in, warnings' deductions out), gap to
    the sum of the tops, percentage of it, solos, warnings, the room they played in, and ``stopped``:
    the rounds their room played when it ended before the ranking's rounds (None: it played them all)."""

    place: int
    key: str
    name: str
    channel: str
    total: int
    gap: int
    percent: float
    solos: int
    warnings: int
    stopped: int | None = None


def _stopped(room: RoomResult, rounds: int) -> int | None:
    """The rounds ``room`` played when it ended short of ``rounds`` (None: it played them, or plays on)."""
    return len(room.rounds) if room.ended and len(room.rounds) < rounds else None


def _score(room: RoomResult, index: int, name: str, *, before_penalty: bool = False) -> int:
    if index >= len(room.rounds):
        return 0
    round_ = room.rounds[index]
    return round_.score_before_penalty(name) if before_penalty else round_.score_of(name)


def overall_standings(rooms: Sequence[RoomResult], rounds: int, settings: DuplicateSettings) -> list[OverallStanding]:
    """Places best first over the first ``rounds`` rounds of every room, as one room of all their
    players: a round's solo goes to the only player of all rooms with its best score, even below the top
    (3.5, with at least ``solo_min_players`` players in all; only the top with ``SoloRule.TOP``); a room
    short of a round (it ended early) scores 0 in it, its players marked with the rounds it played. A player
    found in two rooms (the bot refuses an account in a second room; an older game may hold one) counts in
    the first one only."""
    seats: dict[str, tuple[RoomResult, RoomPlayer]] = {}
    for room in rooms:
        for player in room.players:
            seats.setdefault(player.key, (room, player))
    tops: list[int] = []
    solos: dict[str, int] = {}
    for index in range(rounds):
        top = next((r.rounds[index].top_points for r in rooms if index < len(r.rounds)), 0)
        tops.append(top)
        best = (
            top
            if settings.solo is SoloRule.TOP
            else max((_score(room, index, p.name, before_penalty=True) for room, p in seats.values()), default=0)
        )
        holders = [
            key
            for key, (room, player) in seats.items()
            if best > 0 and _score(room, index, player.name, before_penalty=True) == best
        ]
        if len(holders) == 1 and len(seats) >= settings.solo_min_players:
            solos[holders[0]] = solos.get(holders[0], 0) + 1
    scores = {key: [_score(room, i, p.name) for i in range(rounds)] for key, (room, p) in seats.items()}
    warned = {key: sum(1 for r in room.rounds[:rounds] if r.warned(p.name)) for key, (room, p) in seats.items()}
    warnings = {key: (n, warning_deduction(n, settings.warning_threshold)) for key, n in warned.items() if n}
    bonuses = {key: n * settings.solo_bonus for key, n in solos.items()}
    return [
        OverallStanding(
            s.place,
            s.player,
            seats[s.player][1].name,
            seats[s.player][0].channel,
            s.total,
            s.gap,
            s.percent,
            s.solos,
            s.warnings,
            _stopped(seats[s.player][0], rounds),
        )
        for s in rank_players(tops, scores, bonuses, solos, warnings)
    ]
