"""Overload: how a process knows it cannot keep up, and what it gives up first when it cannot.

**The signal: late answers.** An answer is late when the message it answers has waited more than
``late_seconds`` (3 s) in this process: from the moment the service received it until the platform took (or
refused) its replies, whether it waited behind its channel's earlier commands, to be recorded, or to be
handed over. That is what players feel when the bot falls behind, whatever holds it up (the processor, the
database, a platform slow to take what it is sent), and it costs nothing to measure (the service's own
bookkeeping, in memory). 3 s is Discord's window for a slash command's first answer: a player who waits
longer sees the bot as slow.

**Entered and left with hysteresis.** Overload starts when ``enter_late`` answers (10) or more are late at
once: one slow command (a long export) and the few queued behind it in its channel is not overload, hundreds
of answers queued are. It ends once no answer has been late for ``calm_seconds`` (10 s) on end: a backlog
that drains does not switch it off and on again. The log says once when it starts and once when it ends
(counts only: never a channel, a user or a text).

**Busy first, then overloaded.** The live lines give way as soon as a queue forms: the live counter's edits
("Coup N : X joueurs sur Y ont joué.") and the join notices (a player who joins with ``/rejoindre`` is
answered privately instead) are shed while the process is *busy*: ``enter_late`` answers have waited more
than ``busy_seconds`` (0.5 s); left the same way once none has for ``calm_seconds``. A busy close still
brings both lines up to date, once. Leaving them out takes a fifth off what an answer costs on its path (262
µs against 338, ``bench/bench_play_cpu.py --busy``), which keeps the queue short (300 rooms of 50 players
answering in the same 10 s). Once *overloaded*, the lines' update at the close gives way too (the exact count
heads the results), and so do the images of a round's result and of the standings (the results stand as
text). Never shed: draws, warnings, results, acknowledgements, verdicts, anything a command answers. Each
item shed is counted (``arbitre_shed_total{what}``), and the states are the gauges ``arbitre_busy`` and
``arbitre_overloaded`` (``bot.operations.metrics``).

``Overload`` is shared by the event loop (answers waiting, the clock's look at every tick) and the command
threads (``sheds``): its state is kept under a lock.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

log = logging.getLogger("arbitre")

LATE_SECONDS = 3.0  # an answer that waited longer than this in the process is late
BUSY_SECONDS = 0.5  # answers that waited longer than this by the dozen: a queue forms, the live lines give way
ENTER_LATE = 10  # this many late answers at once: overloaded
CALM_SECONDS = 10.0  # no late answer for this long: overloaded no more


class Shed(Enum):
    """What may be left out under overload (the label of ``arbitre_shed_total``)."""

    COUNTER = "counter"  # an edit of the live "N of M have played" line, or its update at the close
    JOINS = "joins"  # an edit of the live join notice, or its update at the close
    IMAGES = "images"  # a close's result or standings image, not drawn


@dataclass(frozen=True)
class OverloadPolicy:
    """When a process is overloaded: ``enter_late`` answers waiting more than ``late_seconds`` at once;
    and when no more: no answer waiting more than ``late_seconds`` for ``calm_seconds``. Busy likewise, with
    ``busy_seconds`` (at most ``late_seconds``: an overloaded process is busy too)."""

    late_seconds: float = LATE_SECONDS
    enter_late: int = ENTER_LATE
    calm_seconds: float = CALM_SECONDS
    busy_seconds: float = BUSY_SECONDS

    def __post_init__(self) -> None:
        if self.enter_late < 1 or self.late_seconds < 0 or self.calm_seconds < 0:
            raise ValueError("an overload policy needs one late answer at least, and no negative time")
        if not 0 <= self.busy_seconds <= self.late_seconds:
            raise ValueError("a process is busy before it is overloaded: busy_seconds within 0..late_seconds")


@dataclass(frozen=True)
class Load:
    """One look at the answers a process owes: how many wait, how many are late, the oldest's wait (seconds)."""

    waiting: int
    late: int
    oldest: float


class Shedder(Protocol):
    """Whether to leave out ``count`` items of ``what`` now (counted as shed when it says so); ``at_close``: a
    live line's update at a close."""

    def __call__(self, what: Shed, count: int = 1, *, at_close: bool = False) -> bool: ...


class ShedMetrics(Protocol):
    """Where an ``Overload`` counts what it sheds and shows its state (``bot.operations.metrics.Metrics``)."""

    def shed_items(self, what: Shed, count: int = 1) -> None: ...
    def watch_overload(self, overload: Overload) -> None: ...


def keeps_all(what: Shed, count: int = 1, *, at_close: bool = False) -> bool:
    """Never sheds (a referee without a service: tests, tools)."""
    return False


@dataclass
class _Tier:
    """One state with hysteresis (busy, or overloaded): entered when enough answers waited longer than its
    threshold, left once none has for the policy's calm time."""

    seconds: float  # the wait over which an answer counts against it
    on: bool = False
    since: float = 0.0  # when it was last entered
    calm_since: float | None = None  # since when no answer waited past ``seconds`` (while on)


LIVE_LINES = frozenset({Shed.COUNTER, Shed.JOINS})  # shed once busy; the rest once overloaded


class Overload:
    """One process's overload state, from the answers it owes (``waiting``/``answered``), looked at by
    ``sheds`` (a command about to produce what may be shed) and ``look`` (the clock, at every tick)."""

    def __init__(
        self,
        now: Callable[[], float],
        policy: OverloadPolicy | None = None,
        metrics: ShedMetrics | None = None,
    ) -> None:
        """``now``: the clock answers are timed by (the referee's); ``metrics``: where shed items are counted
        and the states are shown (None: nowhere, the totals stay in ``shed``)."""
        self.now = now
        self.policy = policy or OverloadPolicy()
        self.metrics = metrics
        self._lock = threading.Lock()
        # the answers owed, in the order they arrived: their arrival (by ``now``), oldest first
        self._waiting: dict[int, float] = {}
        self._busy = _Tier(self.policy.busy_seconds)
        self._overload = _Tier(self.policy.late_seconds)
        self.shed: Counter[Shed] = Counter()  # every item shed by this process
        self._episode: Counter[Shed] = Counter()  # those of the current overload
        self._busy_shed = 0  # the live lines shed while busy and not overloaded (said when it ends)
        if metrics is not None:
            metrics.watch_overload(self)

    @property
    def overloaded(self) -> bool:
        """Whether the process was overloaded at its last look."""
        return self._overload.on

    @property
    def busy(self) -> bool:
        """Whether the process was busy (or overloaded) at its last look: the live lines give way."""
        return self._busy.on or self._overload.on

    def waiting(self, key: int) -> None:
        """An answer is owed from now on (``key``: the message's identity while it waits)."""
        with self._lock:
            self._waiting[key] = self.now()

    def answered(self, key: int) -> None:
        """The answer ``key`` was handed over (or given up): no longer owed."""
        with self._lock:
            self._waiting.pop(key, None)

    def load(self) -> Load:
        """The answers owed now, how many are late and how long the oldest has waited."""
        now = self.now()
        with self._lock:
            waits = [now - since for since in self._waiting.values()]
        late = sum(1 for wait in waits if wait > self.policy.late_seconds)
        return Load(len(waits), late, max(waits, default=0.0))

    def look(self) -> bool:
        """Look at the answers owed and enter or leave busy and overload; whether overloaded."""
        with self._lock:
            now = self.now()
            self._look_busy(now)
            return self._look(now)

    def sheds(self, what: Shed, count: int = 1, *, at_close: bool = False) -> bool:
        """Whether to leave out ``count`` items of ``what`` now (the live lines: busy; the rest, and a live
        line's update at a close, ``at_close``: the one edit that brings it up to date, overloaded); they are
        counted as shed if so."""
        with self._lock:
            now = self.now()
            overloaded = self._look(now)
            early = what in LIVE_LINES and not at_close
            if not overloaded and not (early and self._look_busy(now)):
                return False
            self._count(what, count)
            if not overloaded:
                self._busy_shed += count
        if self.metrics is not None:
            self.metrics.shed_items(what, count)
        return True

    def dropped(self, what: Shed, count: int) -> None:
        """Count ``count`` items of ``what`` left out for another reason than overload (images that waited
        too long to be drawn)."""
        with self._lock:
            self._count(what, count)
        if self.metrics is not None:
            self.metrics.shed_items(what, count)

    def _count(self, what: Shed, count: int) -> None:
        self.shed[what] += count
        if self._overload.on:
            self._episode[what] += count

    def _late(self, now: float, seconds: float, enough: int) -> int:
        """How many answers waited more than ``seconds``, counted up to ``enough``: oldest first, until one
        that did not (the answers are kept in the order they arrived, so none after it did either)."""
        late = 0
        for since in self._waiting.values():
            if late >= enough or now - since <= seconds:
                break
            late += 1
        return late

    def _moved(self, tier: _Tier, now: float) -> bool | None:
        """Enter or leave ``tier`` as the answers owed say: True when entered now, False when left now,
        None when it stays as it was."""
        policy = self.policy
        if not tier.on:
            if self._late(now, tier.seconds, policy.enter_late) < policy.enter_late:
                return None
            tier.on, tier.since, tier.calm_since = True, now, None
            return True
        if self._late(now, tier.seconds, 1):
            tier.calm_since = None
        elif tier.calm_since is None:
            tier.calm_since = now
        elif now - tier.calm_since >= policy.calm_seconds:
            tier.on = False
            return False
        return None

    def _look_busy(self, now: float) -> bool:
        moved = self._moved(self._busy, now)
        if moved is True:
            log.info("busy: answers queue; live counters and join notices are shed until none waits for long")
        elif moved is False:
            log.info("busy over after %.0f s: %d live lines were shed", now - self._busy.since, self._busy_shed)
            self._busy_shed = 0
        return self._busy.on

    def _look(self, now: float) -> bool:
        policy, tier = self.policy, self._overload
        moved = self._moved(tier, now)
        if moved is True:
            self._episode.clear()
            late = self._late(now, tier.seconds, len(self._waiting))  # all of them, once
            oldest = now - next(iter(self._waiting.values()))
            log.warning(
                "overload: %d answers have waited more than %.0f s (the oldest %.1f s); live counters, join"
                " notices and images are shed until none has for %.0f s",
                late,
                policy.late_seconds,
                oldest,
                policy.calm_seconds,
            )
        elif moved is False:
            episode = self._episode
            log.warning(
                "overload over after %.0f s: %d counter edits, %d join notices and %d images were shed",
                now - tier.since,
                episode[Shed.COUNTER],
                episode[Shed.JOINS],
                episode[Shed.IMAGES],
            )
        return tier.on
