"""A dealt game's turns in the chat: storing their events, what the channel is told (the move, the board,
the scores, never a rack), what each player is told in private (their rack, their turn), the computer's
moves, and the end with every rack shown."""

from __future__ import annotations

import dataclasses
from typing import Any

from core import online_robot as robot
from core.events import End, Exchange, Pass, Play
from core.game import LineKind
from core.online import DealtGame, Turn
from core.online_events import DealtEvent, event_to_dict
from core.rules import ClockMode

from ...chat import Reply
from ...commands.context import Context, UserError
from ...play import seats
from ...storage import GameKind, GameRecord, GameStatus, Storage
from ...words.game_lists import game_list
from ..classic import commands as classic
from ..common.formatting import breakdown

STAMP_KEY = classic.STAMP_KEY
CLOCK_ROUND = 0  # the round number a dealt game's deadline is stored under
TURN_COMMANDS = ("score", "pass", "exchange")  # the commands that are a player's turn
ROBOT_TURNS = 400  # a bound on the computer's moves in a row (every seat the computer's)


def next_deadline(game: DealtGame, now: float) -> float | None:
    """The next moment the clock acts: the correspondence's (a game with a pace), else the game clock's (a chess
    clock or a stopwatch set with /settings, as a classic game's); None for neither, or the game over."""
    due = game.deadline()
    if due is not None or game.pace is not None or game.ended or game.rules.clock is ClockMode.NONE:
        return due.at if due is not None else None
    return game.classic.clock(now).deadline


def sync_clock(storage: Storage, record: GameRecord, game: DealtGame, now: float) -> None:
    """Storage's copy of the next moment the clock acts (none: no clock, or the game over)."""
    storage.open_round(record.id, CLOCK_ROUND, next_deadline(game, now))


def load(ctx: Context) -> tuple[GameRecord, DealtGame]:
    """The running dealt game the command is about: the channel's only one, or game N when the arguments start
    with its number (``/rack 2``, ``/score 2 H8 WORD``: the number is taken off the arguments), or the one the
    sender plays (among several by correspondence: the one where it is their turn, for a move)."""
    games = ctx.storage.games(ctx.message.channel)
    running = [(n, g) for n, g in enumerate(games, 1) if g.status is GameStatus.ACTIVE and g.kind is GameKind.ONLINE]
    if not running:
        raise UserError("online_no_game")
    words = ctx.args.split(maxsplit=1)
    number = _game_number(ctx, words, running)
    if number is not None:
        found = [g for n, g in running if n == number]
        if not found:
            raise UserError("online_no_such_game", number=number, games=_listing(ctx, running))
        ctx.command = dataclasses.replace(ctx.command, args=words[1] if len(words) > 1 else "")
        record = found[0]
    else:
        record = running[0][1] if len(running) == 1 else _the_senders(ctx, running)
    game: DealtGame = ctx.services.games.load(ctx.storage, record)
    return record, game


def _game_number(ctx: Context, words: list[str], running: list[tuple[int, GameRecord]]) -> int | None:
    """The game's number the arguments start with, if they do: not a move's square typed with a space
    (``/coup 8 H MOT``), nor, with one game running, a number that is not its own (``/change 7``: refused as
    the exchange it is)."""
    if not words or not words[0].isdigit():
        return None
    after = words[1].split() if len(words) > 1 else []
    if ctx.spec.name == "score" and after and len(after[0]) == 1 and after[0].isalpha():
        return None
    number = int(words[0])
    return number if len(running) > 1 or any(n == number for n, _ in running) else None


def _the_senders(ctx: Context, running: list[tuple[int, GameRecord]]) -> GameRecord:
    """Among several running games, the one the sender plays (for a move: the one where it is their turn)."""
    mine: list[tuple[GameRecord, bool]] = []
    named_so: list[GameRecord] = []  # the games with a free seat named like the sender (``own_seat`` takes it)
    for _, record in running:
        game: DealtGame = ctx.services.games.load(ctx.storage, record)
        seat = seats.seat_of(ctx.storage, record, ctx.message.user, game.players)
        if seat is not None:
            mine.append((record, seat == game.to_move))
        elif seats.named_like(ctx.message, _free(ctx, record, game)) is not None:
            named_so.append(record)
    if not mine and len(named_so) == 1:
        return named_so[0]
    if len(mine) > 1 and ctx.spec.name in TURN_COMMANDS:
        mine = [m for m in mine if m[1]] or mine
    if len(mine) == 1:
        return mine[0][0]
    number = running[-1][0]
    rest = f" {ctx.args}" if ctx.args else ""
    example = f"/{ctx.spec.name_in(ctx.lang)} {number}{rest}"
    raise UserError("online_which_game", games=_listing(ctx, running), example=example)


def _listing(ctx: Context, running: list[tuple[int, GameRecord]]) -> str:
    """``1 (Ana, Ben), 2 (Ana, Cleo)``: the channel's running online games by number, with their players."""
    return ", ".join(f"{n} ({', '.join(g.setup.players)})" for n, g in running)


def named(ctx: Context, record: GameRecord, game: DealtGame, text: str) -> str:
    """A line of a game by correspondence, which may run beside others in its channel, with its number first."""
    return game_prefix(ctx, record) + text if game.pace is not None else text


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


def _free(ctx: Context, record: GameRecord, game: DealtGame) -> list[str]:
    """The game's seats nobody claimed (the computer's are never free)."""
    return [p for p in game.players if p not in game.robots and seats.owner_of(ctx.storage, record, p) is None]


def own_seat(ctx: Context, record: GameRecord, game: DealtGame) -> str:
    """The sender's seat; a free seat named like the sender is taken on the way."""
    players = game.players
    mine = seats.seat_of(ctx.storage, record, ctx.message.user, players)
    if mine is not None:
        return mine
    named = seats.named_like(ctx.message, _free(ctx, record, game))
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
    sync_clock(ctx.storage, record, game, ctx.services.now())
    if lines:
        lines[0] = named(ctx, record, game, lines[0])
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
    text = ctx.say("online_your_turn", player=player, rack=rack_text(ctx, game, player), channel=record.channel)
    return named(ctx, record, game, text)


def end_replies(ctx: Context, record: GameRecord, game: DealtGame, lines: list[str]) -> None:
    """The end: every rack shown, the adjustments, the standings; the game stored as ended."""
    ctx.storage.set_game_status(record.id, GameStatus.ENDED)
    end = next(e for e in reversed(game.events) if isinstance(e, End))
    racks = " · ".join(f"{player} {rack or '-'}" for player, rack in end.racks)
    lines.append(ctx.say("online_racks_at_end", racks=racks))
    reading = game.classic.clock(ctx.services.now())
    for line in game.lines:
        if line.kind is LineKind.TIME_PENALTY:
            minutes = reading.of(line.player).overtime_minutes
            lines.append(ctx.say("clock_overtime_penalty", player=line.player, points=-line.points, minutes=minutes))
    lines.append(ctx.say("ended", standings=classic.standings_text(ctx, game.classic)))
    text, image = classic.board(ctx, game.classic)
    ctx.reply("\n".join(lines))
    ctx.reply(text, image=image, image_name="board.png")
