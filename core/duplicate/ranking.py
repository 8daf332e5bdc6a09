"""Duplicate standings: totals with solo bonuses, gap to the sum of the tops, percentage of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..ranking import shared_places


@dataclass(frozen=True)
class DuplicateStanding:
    """A player's place: total (solo bonuses included), gap to the sum of tops, percentage of it."""

    place: int
    player: str
    total: int
    gap: int
    percent: float
    solos: int = 0

    def __str__(self) -> str:
        gap = f"{self.gap:+d}" if self.gap else "0"
        return f"{self.place}. {self.player} {self.total} ({gap}, {self.percent:.1f} %)"


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
) -> list[DuplicateStanding]:
    """Standings best first from each round's top and each player's round scores; ties share a place."""
    top_total = sum(tops)
    bonuses, solos = bonuses or {}, solos or {}
    totals = [(p, sum(s) + bonuses.get(p, 0)) for p, s in scores.items()]
    return [
        DuplicateStanding(place, player, total, total - top_total, percent_of(total, top_total), solos.get(player, 0))
        for player, total, place in shared_places(totals)
    ]
