"""The duplicate game as a kind (``bot.games.kinds``): its games rebuilt from their log, the top a close
needs found before the transaction, and its views."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.duplicate import DuplicateGame

from ...commands.context import Context
from ...commands.registry import CommandSpec
from ...render.record import standings_text
from ...storage import Deadline, GameKind, GameRecord, GameStatus
from ..common.paging import page_window, without_pages
from ..kinds import Kind, register
from ..simultane import export as simultane_export
from . import commands as duplicate
from . import games as duplicate_games
from . import rounds as duplicate_rounds
from . import texts as duplicate_texts
from . import views as duplicate_views

if TYPE_CHECKING:
    from ...chat import Reply
    from ...commands.services import Services


STANDINGS_PAGE = 25  # places of a duplicate's standings shown at once (the image shows them all)


class DuplicateKind(Kind[DuplicateGame]):
    """Duplicate games: every player on the same draw, round after round."""

    kind = GameKind.DUPLICATE
    verdicts_key = "verdicts_rounds"

    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> DuplicateGame:
        return duplicate_games.build_from_data(record, events)

    def apply_stored(self, game: DuplicateGame, data: dict[str, Any]) -> None:
        duplicate_games.apply_data(game, data)

    def prepare(self, services: Services, record: GameRecord, game: DuplicateGame, spec: CommandSpec) -> None:
        if spec.needs_top:
            duplicate_games.ensure_top(services, record, game)

    def before_clock(self, services: Services, record: GameRecord) -> None:
        if record.status is GameStatus.ACTIVE:  # the round will close: its top is found first
            duplicate_games.ensure_top(services, record, duplicate_games.game_of(services, record))

    def clock(self, services: Services, record: GameRecord, deadline: Deadline, now: float) -> list[Reply]:
        return duplicate_rounds.clock_decision(services, record, deadline, now)

    def sheet(self, ctx: Context, game: DuplicateGame) -> str:
        return duplicate_views.sheet(ctx, game)

    def board(self, ctx: Context, game: DuplicateGame, ended: bool) -> tuple[str, bytes | None]:
        return duplicate_views.board(ctx, game, ended=ended)

    def unseen(self, ctx: Context, game: DuplicateGame) -> str:
        return duplicate_views.unseen(ctx, game)

    def export(self, ctx: Context, record: GameRecord, game: DuplicateGame) -> tuple[str, bytes, str]:
        return duplicate_views.export(ctx, game)

    def results_file(self, ctx: Context, record: GameRecord, game: DuplicateGame) -> tuple[str, bytes, str]:
        over = game.finished or record.status is GameStatus.ENDED
        text, data, name = duplicate_views.federation_export(ctx, game, over)
        note = simultane_export.room_note(ctx, record, game)
        return (text + "\n" + note if note else text), data, name

    def standings(self, ctx: Context, game: DuplicateGame) -> tuple[str, bytes | None]:
        image = duplicate_texts.standings_image(ctx.lang, game) if ctx.services.images else None
        words = without_pages(ctx.tokens)
        window, paged = page_window(ctx, "standings", len(game.standings()), STANDINGS_PAGE, words=words)
        return "\n".join(filter(None, (standings_text(ctx.lang, game, window), paged))), image

    def moves(self, ctx: Context, record: GameRecord, game: DuplicateGame, name: str) -> str:
        return duplicate_views.moves_text(ctx, record, game, name)

    def status(self, ctx: Context, record: GameRecord, game: DuplicateGame) -> None:
        duplicate.status(ctx, record, game)

    def summary(self, ctx: Context, game: DuplicateGame) -> tuple[str, str]:
        players = ", ".join(game.players) or "-"
        top = game.standings()[:3]
        moves = ctx.say("moves_count", n=len(game.closed_rounds))
        best = " · ".join(f"{s.player} {s.total}" for s in top)
        return players, ctx.say("games_dup_result", moves=moves, players=best) if top else moves


DUPLICATE = register(DuplicateKind())
