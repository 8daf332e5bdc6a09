"""A dealt game's turns in the chat: storing their events, what the channel is told (the move, the board,
the scores, never a rack), what each player is told in private (their rack, their turn), the computer's
moves, and the end with every rack shown."""

from __future__ import annotations

from typing import Any

from core import online_robot as robot
from core.events import End, Exchange, Pass, Play
from core.game import LineKind
from core.online import DealtGame, Turn
from core.online_events import DealtEvent, event_to_dict

from ...chat import Reply
from ...commands.context import Context, UserError
from ...play import seats
from ...storage import GameKind, GameRecord, GameStatus, Storage
from ...words.game_lists import game_list
from ..classic import commands as classic
from ..common.formatting import breakdown

STAMP_KEY = classic.STAMP_KEY
CLOCK_ROUND = 0  # the round number a dealt game's deadline is stored under
ROBOT_TURNS = 400  # a bound on the computer's moves in a row (every seat the computer's)


def sync_clock(storage: Storage, record: GameRecord, game: DealtGame) -> None:
    """Storage's copy of the next moment the clock acts (none: no pace, or the game over)."""
    due = game.deadline()
    storage.open_round(record.id, CLOCK_ROUND, due.at if due is not None else None)


def load(ctx: Context) -> tuple[GameRecord, DealtGame]:
    """The channel's running dealt game."""
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind is not GameKind.ONLINE:
        raise UserError("online_no_game")
    game: DealtGame = ctx.services.games.load(ctx.storage, record)
    return record, game


def store(ctx: Context, record: GameRecord, game: DealtGame, events: list[DealtEvent], **extra: Any) -> None:
    """Append events the game already applied to its log, in the command's transaction."""
    now = ctx.services.now()
    cache = ctx.services.games.cache(GameKind.ONLINE)
    for event in events:
        cache.append(ctx.storage, record, game, {**event_to_dict(event), STAMP_KEY: now, **extra}, ctx.message.user)


def game_number(storage: Storage, record: GameRecord) -> int:
    """The game's number in its channel (as /games counts them, from 1)."""
    return next(n for n, g in enumerate(storage.games(record.channel), 1) if g.id == record.id)


def game_prefix(ctx: Context, record: GameRecord) -> str:
    """``Partie 2 : ``, naming a game among the channel's (its number in /games)."""
    return ctx.say("online_game_prefix", number=game_number(ctx.storage, record))


def rack_text(ctx: Context, game: DealtGame, player: str) -> str:
    return game.edition.spell_tiles(game.rack(player)) or "-"


def tell(ctx: Context, record: GameRecord, player: str, text: str) -> None:
    """A private line to the account playing ``player`` (none for the computer or a seat nobody claimed)."""
    owner = seats.owner_of(ctx.storage, record, player)
    if owner is not None:
        ctx.replies.append(Reply(text, to_user=owner, channel=record.channel))


def own_seat(ctx: Context, record: GameRecord, game: DealtGame) -> str:
    """The sender's seat; a free seat named like the sender is taken on the way."""
    players = game.players
    mine = seats.seat_of(ctx.storage, record, ctx.message.user, players)
    if mine is not None:
        return mine
    free = [p for p in players if p not in game.robots and seats.owner_of(ctx.storage, record, p) is None]
    named = seats.named_like(ctx.message, free)
    if named is None:
        raise UserError("online_not_seated", players=", ".join(players))
    seats.bind(ctx.storage, record, ctx.message.user, named)
    return named


def turn_player(ctx: Context, record: GameRecord, game: DealtGame) -> str:
    """The sender's seat, whose turn it must be."""
    if game.ended:
        raise UserError("game_over_hint")
    player = own_seat(ctx, record, game)
    if player != game.to_move:
        raise UserError("online_not_your_turn", player=player, to_move=game.to_move or "-")
    return player


def turn_lines(ctx: Context, game: DealtGame, player: str, turn: Turn, lines_before: int) -> list[str]:
    """What the channel reads of a turn: the move and its score, a count of tiles exchanged, a pass."""
    out: list[str] = []
    for event in turn.events:
        if isinstance(event, Play):
            line = game.lines[lines_before]
            assert line.score is not None
            out.append(ctx.say("scored", player=player, move=line.move, breakdown=breakdown(line.score, ctx.lang)))
        elif isinstance(event, Exchange):
            out.append(ctx.say("exchanged_count", player=player, count=len(game.edition.tiles(event.tiles))))
        elif isinstance(event, Pass):
            out.append(ctx.say("passed", player=player))
    for skipped in game.lines[lines_before + 1 :]:
        if skipped.kind is LineKind.LOST_TURN:
            out.append(ctx.say("turn_skipped", player=skipped.player))
    return out


def robots_play(ctx: Context, record: GameRecord, game: DealtGame, lines: list[str]) -> None:
    """The computer's seats play while it is their turn; what they did goes into ``lines``."""
    for _ in range(ROBOT_TURNS):
        player = game.to_move
        if game.ended or player is None or player not in game.robots:
            return
        lexicon = ctx.services.lexicons.ready(game_list(record.setup))  # the game's list, no house words
        level = robot.level_named(game.robots[player])
        before = len(game.lines)
        accepting = game.awaiting_end is not None
        turn = robot.move(game, player, lexicon, level, ctx.services.draws, ctx.services.now())
        store(ctx, record, game, turn.events)
        if not accepting:
            lines.extend(turn_lines(ctx, game, player, turn, before))


def after_turn(ctx: Context, record: GameRecord, game: DealtGame, player: str, turn: Turn, lines: list[str]) -> None:
    """Store a turn's events, let the computer answer, then tell the channel and each player their part."""
    store(ctx, record, game, turn.events)
    robots_play(ctx, record, game, lines)
    finish(ctx, record, game, lines, mover=player)


def finish(ctx: Context, record: GameRecord, game: DealtGame, lines: list[str], mover: str | None = None) -> None:
    """The channel's answer (the lines, the scores, the board), the end if it came, the private lines."""
    sync_clock(ctx.storage, record, game)
    if game.ended:
        end_replies(ctx, record, game, lines)
        return
    going_out = game.awaiting_end
    if going_out is not None:
        lines.append(ctx.say("online_went_out", player=going_out, next=game.to_move or "-"))
    classic.reply_status(ctx, game.classic, lines)
    text, image = classic.board(ctx, game.classic)
    ctx.reply(text, image=image, image_name="board.png")
    if mover is not None and mover not in game.robots:
        tell(ctx, record, mover, ctx.say("online_rack", player=mover, rack=rack_text(ctx, game, mover)))
    to_move = game.to_move
    if to_move is not None and to_move != mover and to_move not in game.robots:
        tell(ctx, record, to_move, your_turn(ctx, record, game, to_move))


def your_turn(ctx: Context, record: GameRecord, game: DealtGame, player: str) -> str:
    return ctx.say("online_your_turn", player=player, rack=rack_text(ctx, game, player), channel=record.channel)


def end_replies(ctx: Context, record: GameRecord, game: DealtGame, lines: list[str]) -> None:
    """The end: every rack shown, the adjustments, the standings; the game stored as ended."""
    ctx.storage.set_game_status(record.id, GameStatus.ENDED)
    end = next(e for e in reversed(game.events) if isinstance(e, End))
    racks = " · ".join(f"{player} {rack or '-'}" for player, rack in end.racks)
    lines.append(ctx.say("online_racks_at_end", racks=racks))
    lines.append(ctx.say("ended", standings=classic.standings_text(ctx, game.classic)))
    text, image = classic.board(ctx, game.classic)
    ctx.reply("\n".join(lines))
    ctx.reply(text, image=image, image_name="board.png")
