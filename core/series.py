"""Cumulative rankings over several games: a series (a tournament of chosen games) and a
channel's season (its finished games). Duplicate: each player's total, the cumulated tops of the games
they played, the gap to it and its percentage, the games played and the best game (by percentage).
Classic: wins, total and spread."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .duplicate.ranking import percent_of
from .ranking import shared_places


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in one game: who (``key``: the same in every game for the same person; ``name``:
    as shown) and the game's total, solo bonuses and deductions in; ``room``: where they played it (a
    simultané's rooms differ; "": not said)."""

    key: str
    name: str
    total: int
    room: str = ""


@dataclass(frozen=True)
class GameResult:
    """One duplicate game's results: the game (an id of the caller's), the sum of its tops, each player's."""

    game: int
    tops: int
    players: tuple[PlayerResult, ...]


@dataclass(frozen=True)
class SeriesStanding:
    """A player's place over several games: total, cumulated tops of the games played, gap to them,
    percentage of them, games played, best game (its percentage of the tops, and which game), and the room
    of their latest game."""

    place: int
    key: str
    name: str
    total: int
    tops: int
    games: int
    best: float
    best_game: int
    room: str = ""

    @property
    def gap(self) -> int:
        return self.total - self.tops

    @property
    def percent(self) -> float:
        return percent_of(self.total, self.tops)


def cumulative_standings(results: Sequence[GameResult]) -> list[SeriesStanding]:
    """Places best first by total over ``results`` (equal totals share a place, in the order players first
    appear); a player's name and room are those of their latest game; the best game is the first with their
    best percentage."""
    totals: dict[str, int] = {}
    tops: dict[str, int] = {}
    games: dict[str, int] = {}
    names: dict[str, str] = {}
    rooms: dict[str, str] = {}
    best: dict[str, tuple[float, int]] = {}
    for result in results:
        for player in result.players:
            key = player.key
            totals[key] = totals.get(key, 0) + player.total
            tops[key] = tops.get(key, 0) + result.tops
            games[key] = games.get(key, 0) + 1
            names[key] = player.name
            rooms[key] = player.room
            percent = percent_of(player.total, result.tops)
            if key not in best or percent > best[key][0]:
                best[key] = (percent, result.game)
    return [
        SeriesStanding(place, key, names[key], total, tops[key], games[key], *best[key], rooms[key])
        for key, total, place in shared_places(totals.items())
    ]


@dataclass(frozen=True)
class ClassicStanding:
    """A player's place over several classic games: wins (a first place shared counts half), total of the
    final scores, spread (each game's final score less the best other one, summed), games played."""

    place: int
    key: str
    name: str
    wins: float
    total: int
    spread: int
    games: int


def classic_standings(results: Sequence[GameResult]) -> list[ClassicStanding]:
    """Places best first by wins, then spread (equal on both: a shared place, in the order players first
    appear); games of fewer than two players count for nobody."""
    wins: dict[str, float] = {}
    totals: dict[str, int] = {}
    spreads: dict[str, int] = {}
    games: dict[str, int] = {}
    names: dict[str, str] = {}
    for result in results:
        if len(result.players) < 2:
            continue
        best = max(p.total for p in result.players)
        winners = sum(1 for p in result.players if p.total == best)
        for player in result.players:
            key = player.key
            others = max(p.total for p in result.players if p is not player)
            won = 0.0 if player.total < best else (1.0 if winners == 1 else 0.5)
            wins[key] = wins.get(key, 0.0) + won
            totals[key] = totals.get(key, 0) + player.total
            spreads[key] = spreads.get(key, 0) + player.total - others
            games[key] = games.get(key, 0) + 1
            names[key] = player.name
    ordered = sorted(wins, key=lambda k: (-wins[k], -spreads[k]))
    standings: list[ClassicStanding] = []
    for index, key in enumerate(ordered):
        previous = standings[-1] if standings else None
        shared = previous is not None and (previous.wins, previous.spread) == (wins[key], spreads[key])
        place = previous.place if shared and previous is not None else index + 1
        standings.append(ClassicStanding(place, key, names[key], wins[key], totals[key], spreads[key], games[key]))
    return standings
