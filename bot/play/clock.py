"""The duplicate clock's own state: the tops searched ahead while players think, the warnings given,
and the rounds whose time ran out while their word list was still being prepared."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from core.simultane import RoomProgress

from .top_searches import Search, TopSearches

TopKey = tuple[int | str, int, str, str]  # (game, or a simultanés ``simultane:CODE``, move number, draw, list)


class DuplicateClock:
    """What the clock and the duplicate commands remember between ticks, in this process."""

    def __init__(self, now: Callable[[], float]) -> None:
        """``now``: the referee's clock."""
        self.searches = TopSearches(now)
        self.tops: dict[TopKey, Search] = {}
        self.warned: set[tuple[int, int]] = set()  # (game, round) warned of its last seconds
        self.waiting_for_list: set[tuple[int, int]] = set()  # rounds past their time whose list is not ready
        self.held: set[str] = set()  # channels whose clock lease this process holds (bot.play.clock_lease)
        # channels whose round this process opened, taking their clock, and when (time.monotonic()): a tick that
        # read the open rounds before that round was stored keeps the lease (``recent_claims``)
        self._claimed: dict[str, float] = {}
        self._claims = threading.Lock()
        self.renewed = float("-inf")  # time.monotonic() when those leases were last renewed
        # how many processes run this clock, and when they were counted (time.monotonic()); None: unknown
        self.owners: tuple[int | None, float] = (None, float("-inf"))
        # (game, round, stored deadline) -> the time before which the clock has nothing to do for it (its
        # warning comes later): no transaction for it at every tick until then
        self.quiet: dict[tuple[int, int, float], float] = {}
        # whether other live processes share the store (a close then waits for the answers they hold)
        self.others_alive = False
        # the open rounds' deadlines as the last tick read them, every channel's, of every clock scope (this
        # process says what it holds once each passes: the process closing that round need not wait longer)
        self.deadlines: list[float] = []
        # when the clock next has work, as the last tick saw its rounds (the service wakes then, if sooner
        # than its cadence): a warning, a deadline, the end of a close's wait for answers elsewhere
        self.next_due = float("inf")
        self.simultane_searches = 0  # simultanés' tops this process searched itself (bot.games.simultane.tops)
        # a paced simultané's rooms as read at one moment (simultané, now): every room's close of a tick decides
        # on one read (what a room has reached only grows: a read of earlier in the tick holds, never leaks)
        self.paced: dict[tuple[int, float], list[RoomProgress]] = {}

    def claimed(self, channel: str) -> None:
        """This process opened a round in ``channel`` and holds its clock."""
        with self._claims:
            self._claimed[channel] = time.monotonic()

    def recent_claims(self, seconds: float) -> set[str]:
        """The channels whose round this process opened, holding its clock, less than ``seconds`` ago."""
        limit = time.monotonic() - seconds
        with self._claims:
            self._claimed = {channel: at for channel, at in self._claimed.items() if at > limit}
            return set(self._claimed)

    def forget_claims(self) -> None:
        """The leases were given up: no round opened here is held any more."""
        with self._claims:
            self._claimed.clear()

    def forget_game(self, game_id: int) -> None:
        """Drop what is kept for a game that ended."""
        for key in [k for k in self.tops if k[0] == game_id]:
            self.tops.pop(key, None)
        self.warned = {w for w in self.warned if w[0] != game_id}
        self.waiting_for_list = {w for w in self.waiting_for_list if w[0] != game_id}
        self.quiet = {k: t for k, t in self.quiet.items() if k[0] != game_id}

    def deadline_passed(self, since: float, now: float) -> bool:
        """Whether one of ``deadlines`` came after ``since`` and by ``now``."""
        return any(since < at <= now for at in self.deadlines)

    def next_deadline(self, now: float) -> float:
        """The first of ``deadlines`` after ``now`` (inf: none known)."""
        return next((at for at in self.deadlines if at > now), float("inf"))

    def shutdown(self) -> None:
        self.searches.shutdown()
