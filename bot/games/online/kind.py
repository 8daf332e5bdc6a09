"""The classic game the referee deals, as a kind (``bot.games.kinds``): its games rebuilt from their log,
and its views, which show the board, the sheet and the scores and never a rack before the end."""

from __future__ import annotations

from typing import Any

from core.edition import edition_by_code
from core.notation import notation_by_name
from core.online import DealtGame, dealt_gcg
from core.online_events import event_from_dict
from core.rules import box_rules, rule_set_by_code

from ...chat import Reply
from ...commands.context import Context, UserError
from ...commands.services import Services
from ...storage import Deadline, GameKind, GameRecord
from ...words.game_lists import list_name
from ..classic import commands as classic
from ..classic.moves import moves_text
from ..common.formatting import tiles_text
from ..kinds import Kind, register
from .clock import clock_decision

STAMP_KEY = classic.STAMP_KEY


def _stamp(data: dict[str, Any]) -> float | None:
    at = data.get(STAMP_KEY)
    return float(at) if isinstance(at, (int, float)) else None


def build(record: GameRecord, events: list[dict[str, Any]]) -> DealtGame:
    """The dealt game a stored set-up and events describe."""
    setup = record.setup
    return DealtGame(
        edition_by_code(setup.edition),
        rule_set_by_code(setup.rules) if setup.rules is not None else box_rules(setup.edition),
        setup.players,
        notation_by_name(setup.notation),
        [event_from_dict(data) for data in events],
        [_stamp(data) for data in events],
    )


class OnlineKind(Kind[DealtGame]):
    """Classic games the referee deals: racks in private, the board in the channel."""

    kind = GameKind.ONLINE

    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> DealtGame:
        return build(record, events)

    def apply_stored(self, game: DealtGame, data: dict[str, Any]) -> None:
        game.apply_stored(event_from_dict(data), _stamp(data))

    def clock(self, services: Services, record: GameRecord, deadline: Deadline, now: float) -> list[Reply]:
        return clock_decision(services, record, deadline, now)

    def sheet(self, ctx: Context, game: DealtGame) -> str:
        return classic.sheet_text(ctx, game.classic)

    def board(self, ctx: Context, game: DealtGame, ended: bool) -> tuple[str, bytes | None]:
        return classic.board(ctx, game.classic)

    def unseen(self, ctx: Context, game: DealtGame) -> str:
        unseen = game.classic.unseen()  # the bag and every rack: no rack apart
        return ctx.say(
            "unseen", count=sum(unseen.values()), letters=tiles_text(unseen, game.edition.alphabet), bag=len(game.bag)
        )

    def export(self, ctx: Context, record: GameRecord, game: DealtGame) -> tuple[str, bytes, str]:
        if not game.ended:
            raise UserError("online_export_running")  # the racks are secret until the end
        gcg = dealt_gcg(game, lexicon=list_name(record.setup.lexicon))
        return "```\n" + gcg + "```", gcg.encode("utf-8"), "game.gcg"

    def standings(self, ctx: Context, game: DealtGame) -> tuple[str, bytes | None]:
        return classic.standings_text(ctx, game.classic), None

    def moves(self, ctx: Context, record: GameRecord, game: DealtGame, name: str) -> str:
        return moves_text(ctx, record, game.classic, name)

    def status(self, ctx: Context, record: GameRecord, game: DealtGame) -> None:
        classic.reply_status(ctx, game.classic, [])

    def summary(self, ctx: Context, game: DealtGame) -> tuple[str, str]:
        standings = game.standings()
        result = " · ".join(f"{s.player} {s.final}" for s in standings) if game.lines else "-"
        return ", ".join(game.players), result


ONLINE = register(OnlineKind())
