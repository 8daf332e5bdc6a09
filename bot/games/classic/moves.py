"""/moves of a classic game (and the player /moves is about, for every kind): the player's sheet lines, read
page by page when long (the latest page first, as /sheet), their total, words played and best move."""

from __future__ import annotations

from collections.abc import Callable

from core.game import ClassicGame, LineKind

from ...commands.context import Context, UserError
from ...play import seats
from ...render import table
from ...storage import GameRecord
from ..common.formatting import line_cells
from ..common.paging import MOVES_PAGE, page_window, without_pages


def moves_text(ctx: Context, record: GameRecord, game: ClassicGame, name: str) -> str:
    """/moves for a classic game: the player's sheet lines (a page of them when long), their total, words played
    and best move."""
    player = moves_player(ctx, record, game.players, name, game.find_player)
    lines = [line for line in game.lines if line.player == player]
    if not lines:
        return ctx.say("moves_none", player=player)
    header = ["#", ctx.say("col_move"), "pts", "total", ""]
    rows = [[line.number, *line_cells(line, ctx.lang, game.edition.alphabet)] for line in lines]
    window, paged = page_window(ctx, "moves", len(rows), MOVES_PAGE, last=True, words=without_pages(ctx.tokens))
    plays = [line for line in lines if line.kind is LineKind.PLAY and not line.removed]
    best = max(plays, key=lambda line: line.points, default=None)
    summary = ctx.say(
        "moves_summary",
        total=game.totals()[player],
        plays=len(plays),
        best=f"{best.move} {best.points}" if best is not None else "-",
    )
    shown = "```\n" + table(rows[window], header) + "\n```"
    return "\n".join([ctx.say("moves_title", player=player), shown, *([paged] if paged else []), summary])


def moves_player(
    ctx: Context, record: GameRecord, players: list[str], name: str, find: Callable[[str], str | None]
) -> str:
    """The player /moves is about: the one named, else the sender's own seat (bound, or free and named like
    the sender)."""
    if name:
        found = find(name) or seats.by_first_words(name, players)
        if found is None:
            raise UserError("err_unknown_player", player=seats.clean_name(name), players=", ".join(players) or "-")
        return found
    own = seats.seat_of(ctx.storage, record, ctx.message.user, players)
    if own is None:
        candidate = seats.named_like(ctx.message, players)
        if candidate is not None and seats.owner_of(ctx.storage, record, candidate) is None:
            own = candidate
    if own is None:
        raise UserError("moves_whose", usage=ctx.spec.usage(ctx.lang), players=", ".join(players) or "-")
    return own
