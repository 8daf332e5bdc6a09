"""The classic game as a kind (``bot.games.kinds``): its games rebuilt from their log, and its views."""

from __future__ import annotations

from typing import Any

from core.game import ClassicGame
from core.gcg import write_gcg

from ...chat import Reply
from ...commands.context import Context
from ...commands.services import Services
from ...storage import Deadline, GameKind, GameRecord
from ...words.game_lists import list_name, lists_used
from ..common.formatting import tiles_text
from ..kinds import Kind, register
from . import commands as classic
from . import settings as classic_settings
from .moves import moves_text

HOUSE_PRAGMA = "#arbitre-house-words"


def export(ctx: Context, game: ClassicGame, record: GameRecord) -> tuple[str, bytes, str]:
    """The GCG record: ``#lexicon`` names the game's list, and ``#arbitre-house-words`` the house words its
    challenges were judged with (one line per set, in the order they were used)."""
    gcg = write_gcg(game, lexicon=list_name(record.setup.lexicon))
    house = [used.house for used, _ in lists_used(ctx.storage.events(record.id)) if used.house]
    if house:
        lines = gcg.split("\n")
        at = next((i + 1 for i, line in enumerate(lines) if line.startswith("#lexicon ")), 1)
        lines[at:at] = [f"{HOUSE_PRAGMA} {' '.join(h.tokens())}" for h in house]
        gcg = "\n".join(lines)
    return "```\n" + gcg + "```", gcg.encode("utf-8"), "game.gcg"


class ClassicKind(Kind[ClassicGame]):
    """Classic games: players in turn, one score sheet."""

    kind = GameKind.CLASSIC

    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> ClassicGame:
        return classic.build_from_data(record, events)

    def apply_stored(self, game: ClassicGame, data: dict[str, Any]) -> None:
        classic.apply_data(game, data)

    def clock(self, services: Services, record: GameRecord, deadline: Deadline, now: float) -> list[Reply]:
        return classic_settings.clock_decision(services, record, deadline, now)

    def sheet(self, ctx: Context, game: ClassicGame) -> str:
        return classic.sheet_text(ctx, game)

    def board(self, ctx: Context, game: ClassicGame, ended: bool) -> tuple[str, bytes | None]:
        return classic.board(ctx, game)

    def unseen(self, ctx: Context, game: ClassicGame) -> str:
        unseen = game.unseen()
        return ctx.say(
            "unseen",
            count=sum(unseen.values()),
            letters=tiles_text(unseen, game.edition.alphabet),
            bag=game.bag_count(),
        )

    def export(self, ctx: Context, record: GameRecord, game: ClassicGame) -> tuple[str, bytes, str]:
        return export(ctx, game, record)

    def standings(self, ctx: Context, game: ClassicGame) -> tuple[str, bytes | None]:
        return (classic.standings_text(ctx, game) if game.players else ctx.say("sheet_empty")), None

    def moves(self, ctx: Context, record: GameRecord, game: ClassicGame, name: str) -> str:
        return moves_text(ctx, record, game, name)

    def status(self, ctx: Context, record: GameRecord, game: ClassicGame) -> None:
        classic.reply_status(ctx, game, [])

    def summary(self, ctx: Context, game: ClassicGame) -> tuple[str, str]:
        standings = game.standings()
        players = ", ".join(game.players) or "-"
        result = " · ".join(f"{s.player} {s.final}" for s in standings) if game.lines else "-"
        return players, result


CLASSIC = register(ClassicKind())
