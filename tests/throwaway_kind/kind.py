"""The tally as a kind (``bot.games.kinds``): its games rebuilt from their log, and its views."""

from __future__ import annotations

import json
from typing import Any

from bot.commands.context import Context
from bot.games.kinds import Kind, register
from bot.storage import GameKind, GameRecord

from .game import Scored, Tally

NAME = "tally"  # what a real kind adds to GameKind: TALLY = "tally"


class TallyKind(Kind[Tally]):
    """Tallies: players adding up their points."""

    kind = GameKind(NAME)

    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> Tally:
        return Tally(list(record.setup.players), [Scored(e["player"], int(e["points"])) for e in events])

    def apply_stored(self, game: Tally, data: dict[str, Any]) -> None:
        game.apply_stored(Scored(data["player"], int(data["points"])))

    def sheet(self, ctx: Context, game: Tally) -> str:
        lines = [ctx.say("tally_line", player=e.player, points=e.points) for e in game.events]
        return "\n".join(lines) or ctx.say("sheet_empty")

    def board(self, ctx: Context, game: Tally, ended: bool) -> tuple[str, bytes | None]:
        return ctx.say("tally_no_board"), None

    def unseen(self, ctx: Context, game: Tally) -> str:
        return ctx.say("tally_no_board")

    def export(self, ctx: Context, record: GameRecord, game: Tally) -> tuple[str, bytes, str]:
        data = json.dumps([[e.player, e.points] for e in game.events]).encode()
        return self.standings(ctx, game)[0], data, "tally.json"

    def standings(self, ctx: Context, game: Tally) -> tuple[str, bytes | None]:
        totals = ", ".join(ctx.say("tally_total", player=p, total=game.total(p)) for p in game.players)
        return totals, None

    def moves(self, ctx: Context, record: GameRecord, game: Tally, name: str) -> str:
        return self.sheet(ctx, game)

    def status(self, ctx: Context, record: GameRecord, game: Tally) -> None:
        ctx.reply(self.standings(ctx, game)[0])

    def summary(self, ctx: Context, game: Tally) -> tuple[str, str]:
        return ", ".join(game.players), self.standings(ctx, game)[0]


KIND = register(TallyKind())
