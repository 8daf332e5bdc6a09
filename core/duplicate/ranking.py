"""Duplicate standings: who gets a round's solo, totals with solo bonuses, gap to the sum of the tops,
percentage of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..ranking import shared_places
from .rounds import Round
from .sanctions import warning_deduction
from .settings import DuplicateSettings, SoloRule


@dataclass(frozen=True)
class DuplicateStanding:
    """A player's place: total (solo bonuses included), gap to the sum of tops, percentage of it."""

    place: int
    player: str
    total: int
    gap: int
    percent: float
    solos: int = 0
    warnings: int = 0  # warnings counted against the player (5.9)
    deduction: int = 0  # points those warnings took off the total, already deducted (5.9)
    seconds: float | None = None  # topping (3.8.4): the time to find the tops, penalties in; ranks the players

    def __str__(self) -> str:
        gap = f"{self.gap:+d}" if self.gap else "0"
        timed = f", {self.seconds:.1f} s" if self.seconds is not None else ""
        return f"{self.place}. {self.player} {self.total} ({gap}, {self.percent:.1f} %{timed})"


def percent_of(total: int, top: int) -> float:
    """``total`` as a percentage of ``top`` to one decimal, halves rounded up (0 when top is 0)."""
    if top <= 0:
        return 0.0
    tenths = (2000 * total + top) // (2 * top)
    return tenths / 10


def rank_players(
    tops: Sequence[int],
    scores: Mapping[str, Sequence[int]],
    bonuses: Mapping[str, int] | None = None,
    solos: Mapping[str, int] | None = None,
    warnings: Mapping[str, tuple[int, int]] | None = None,
) -> list[DuplicateStanding]:
    """Standings best first from each round's top and each player's round scores; ties share a place.
    ``warnings``: each player's count of warnings and the points they take off."""
    top_total = sum(tops)
    bonuses, solos, warnings = bonuses or {}, solos or {}, warnings or {}
    totals = [(p, sum(s) + bonuses.get(p, 0) - warnings.get(p, (0, 0))[1]) for p, s in scores.items()]
    return [
        DuplicateStanding(
            place,
            player,
            total,
            total - top_total,
            percent_of(total, top_total),
            solos.get(player, 0),
            *warnings.get(player, (0, 0)),
        )
        for player, total, place in shared_places(totals)
    ]


def solo_of(round_: Round, players: Sequence[str], settings: DuplicateSettings) -> str | None:
    """The player who gets the solo bonus on a closed round, if any (3.5): the only one with the best score
    of the round, even below the top (with ``SoloRule.TOP``, only the top); scores compared before a
    5-point penalty."""
    if not round_.closed or round_.top is None or len(players) < settings.solo_min_players:
        return None
    scores = {p: round_.score_before_penalty(p) for p in players}
    best = round_.top_points if settings.solo is SoloRule.TOP else max(scores.values(), default=0)
    holders = [p for p, s in scores.items() if s == best and s > 0]
    return holders[0] if len(holders) == 1 else None


def standings_of(
    closed: Sequence[Round], players: Sequence[str], settings: DuplicateSettings
) -> list[DuplicateStanding]:
    """Places best first after the closed rounds: totals with solo bonuses, gap to the sum of tops; in
    topping (3.8.4), by the time taken to find the tops, least first."""
    if settings.format.timed:
        return timed_standings(closed, players)
    solos: Counter[str] = Counter()
    for round_ in closed:
        player = solo_of(round_, players, settings)
        if player is not None:
            solos[player] += 1
    return rank_players(
        [r.top_points for r in closed],
        {p: [r.score_of(p) for r in closed] for p in players},
        {p: n * settings.solo_bonus for p, n in solos.items()},
        dict(solos),
        warnings_of(closed, players, settings),
    )


def warnings_of(
    closed: Sequence[Round], players: Sequence[str], settings: DuplicateSettings
) -> dict[str, tuple[int, int]]:
    """Each warned player's count of warnings and the points they take off at the end (5.9)."""
    counts = {p: sum(1 for r in closed if r.warned(p)) for p in players}
    threshold = settings.warning_threshold
    return {p: (n, warning_deduction(n, threshold)) for p, n in counts.items() if n}


def timed_standings(closed: Sequence[Round], players: Sequence[str]) -> list[DuplicateStanding]:
    """Topping standings (3.8.4): least total time first (a top given costs the time allowed plus 20 s),
    equal times sharing a place; the total and the gap are the points, as in duplicate."""
    top_total = sum(r.top_points for r in closed)
    seconds = {p: round(sum(r.times.get(p, 0.0) for r in closed), 1) for p in players}
    ordered = sorted(players, key=lambda p: seconds[p])
    standings: list[DuplicateStanding] = []
    for index, player in enumerate(ordered):
        shared = standings and standings[-1].seconds == seconds[player]
        place = standings[-1].place if shared else index + 1
        total = sum(r.score_of(player) for r in closed)
        standings.append(
            DuplicateStanding(
                place, player, total, total - top_total, percent_of(total, top_total), seconds=seconds[player]
            )
        )
    return standings
