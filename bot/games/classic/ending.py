"""The end of a classic game: /end with the racks left, and /undo right after it, which takes the end
back (a wrong rack typed) and lets the game go on."""

from __future__ import annotations

from core.events import End, Undo
from core.game import ClassicGame, LineKind

from ...commands.context import Context, UserError
from ...commands.registry import handles
from ...play import seats
from ...storage import GameKind, GameRecord, GameStatus
from .clock import overtime_lines, overtime_penalties
from .commands import record_event, standings_text, status_lines


@handles("undo", None)
def reopen_ended(ctx: Context) -> None:
    """/undo when no game runs, right after a classic /end (a wrong rack typed): the end is taken back,
    by the game's referee or an admin, and the game goes on; the undo event records who did it."""
    games = ctx.storage.games(ctx.message.channel)
    record = games[-1] if games else None
    if record is None or record.kind is not GameKind.CLASSIC or record.status is not GameStatus.ENDED:
        raise UserError("no_classic_game")
    ctx.require_control(record)
    game = ctx.services.classic_games.load(ctx.storage, record)
    if not isinstance(game.last_undoable(), End):
        raise UserError("no_classic_game")
    record_event(ctx, record, game, Undo())
    ctx.storage.set_game_status(record.id, GameStatus.ACTIVE)
    said = ctx.say("undone_end", by=seats.display_name(ctx.message))
    ctx.reply("\n".join([said] + status_lines(ctx, game)))


def parse_racks(ctx: Context, game: ClassicGame) -> tuple[tuple[str, str], ...]:
    """``Ben=EAU Ana=`` or, in a two-player game, just the letters of the one who did not go out."""
    racks: dict[str, str] = {}
    loose: list[str] = []
    for token in ctx.tokens:
        if "=" in token or ":" in token:
            name, _, rack = token.replace(":", "=").partition("=")
            player = game.find_player(name)
            if player is None:
                raise UserError("err_unknown_player", player=seats.clean_name(name), players=", ".join(game.players))
            racks[player] = rack.upper()
        else:
            loose.append(token.upper())
    if loose:
        last_player = next(
            (sheet_line.player for sheet_line in reversed(game.lines) if sheet_line.kind is LineKind.PLAY), None
        )
        others = [p for p in game.players if p != last_player and p not in racks]
        if len(others) != 1 or len(loose) != 1:
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        racks[others[0]] = loose[0]
    return tuple(racks.items())


def end(ctx: Context, record: GameRecord) -> None:
    """/end for a classic game."""
    game = ctx.services.classic_games.load(ctx.storage, record)
    in_bag = game.bag_count()
    event = End(parse_racks(ctx, game), stopped=in_bag > 0)
    game.check(event)
    if in_bag > 0 and not ctx.confirmed and not game.scoreless_limit_reached:
        raise UserError("end_bag_not_empty", count=in_bag)
    now = ctx.services.now()
    reading = game.clock(now)
    penalties = overtime_penalties(game, now)  # NASPA, WESPA: the overtime's points, before the racks
    for penalty in penalties:
        record_event(ctx, record, game, penalty)
    record_event(ctx, record, game, event)
    ctx.storage.set_game_status(record.id, GameStatus.ENDED)
    ctx.services.classic_games.forget(record.id)  # rebuilt from its log if anyone looks at it again
    lines = overtime_lines(ctx.lang, game, penalties, reading)
    ctx.reply("\n".join([*lines, ctx.say("ended", standings=standings_text(ctx, game))]))
