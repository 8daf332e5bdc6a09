"""The rankings of /series and /season as a monospace table and as CSV: duplicate (cumulative totals, each
player's best game, and their room when a series holds a simultané) and classic (wins, spread)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.cells import inert
from core.series import ClassicStanding, SeriesStanding

from ...commands.context import Context
from ...messages import decimal
from ...render.text import table


@dataclass(frozen=True)
class Names:
    """How a ranking names the games of its results (by ``GameResult.game``): a game of the channel by its
    number in /games (``numbers``), a simultané by its code (``codes``); and each player's room by channel
    (``rooms``: empty, no room column, as for a series of the channel's own games only)."""

    numbers: Mapping[int, int]
    codes: Mapping[int, str] = field(default_factory=dict)
    rooms: Mapping[str, str] = field(default_factory=dict)

    def best_text(self, ctx: Context, standing: SeriesStanding) -> str:
        """A player's best game: its percentage and which game (``85,0 % (n° 2)``, ``108,9 % (H2KYWC)``)."""
        percent = decimal(ctx.lang, standing.best)
        code = self.codes.get(standing.best_game)
        if code is not None:
            return ctx.say("series_best_simultane", percent=percent, code=code)
        return ctx.say("series_best_game", percent=percent, number=self.numbers.get(standing.best_game, "?"))

    def best_value(self, standing: SeriesStanding) -> str:
        """A player's best game as the CSV names it: its number in /games, or the simultané's code."""
        return self.codes.get(standing.best_game) or str(self.numbers.get(standing.best_game, ""))


def ranking_table(ctx: Context, standings: Sequence[SeriesStanding], names: Names) -> str:
    """The cumulative ranking as a monospace table: place, player, (room,) total, tops, gap, %, games, best
    game."""
    header = ["#", ctx.say("col_player"), ctx.say("col_total"), ctx.say("col_tops"), ctx.say("col_gap"), "%"]
    header += [ctx.say("col_games_played"), ctx.say("col_best")]
    if names.rooms:
        header.insert(2, ctx.say("col_room"))
    rows: list[list[object]] = []
    for s in standings:
        gap = f"{s.gap:+d}" if s.gap else "0"
        row: list[object] = [s.place, s.name, s.total, s.tops, gap, decimal(ctx.lang, s.percent), s.games]
        row.append(names.best_text(ctx, s))
        if names.rooms:
            row.insert(2, names.rooms.get(s.room, ""))
        rows.append(row)
    return "```\n" + table(rows, header) + "\n```"


def ranking_csv(ctx: Context, standings: Sequence[SeriesStanding], names: Names) -> bytes:
    """The cumulative ranking as UTF-8 CSV, headers in the channel's language (a room column when the series
    holds a simultané; the best game by its number in /games, or a simultané's code); names inert
    (``core.cells``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = ["place", "player", "total", "tops", "gap", "percent", "games_played", "best", "best_number"]
    if names.rooms:
        keys.insert(2, "room")
    writer.writerow([ctx.say(f"col_{key}") for key in keys])
    for s in standings:
        row: list[object] = [s.place, inert(s.name), s.total, s.tops, s.gap, f"{s.percent:.1f}", s.games]
        row += [f"{s.best:.1f}", inert(str(names.best_value(s)))]
        if names.rooms:
            row.insert(2, inert(names.rooms.get(s.room, "")))
        writer.writerow(row)
    return out.getvalue().encode("utf-8")


def classic_table(ctx: Context, standings: Sequence[ClassicStanding]) -> str:
    """The classic ranking as a monospace table: place, player, wins, total, spread, games."""
    header = ["#", ctx.say("col_player"), ctx.say("col_wins"), ctx.say("col_total"), ctx.say("col_spread")]
    header.append(ctx.say("col_games_played"))
    rows = [
        [s.place, s.name, wins_text(ctx, s.wins), s.total, f"{s.spread:+d}" if s.spread else "0", s.games]
        for s in standings
    ]
    return "```\n" + table(rows, header) + "\n```"


def wins_text(ctx: Context, wins: float) -> str:
    """Wins as said: a whole number, else one decimal (a first place shared counts half)."""
    return str(int(wins)) if wins == int(wins) else decimal(ctx.lang, wins)


def classic_csv(ctx: Context, standings: Sequence[ClassicStanding]) -> bytes:
    """The classic ranking as UTF-8 CSV, headers in the channel's language, names inert (``core.cells``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([ctx.say(f"col_{key}") for key in ("place", "player", "wins", "total", "spread", "games_played")])
    for s in standings:
        writer.writerow([s.place, inert(s.name), f"{s.wins:g}", s.total, s.spread, s.games])
    return out.getvalue().encode("utf-8")
