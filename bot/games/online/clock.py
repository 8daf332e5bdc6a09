"""A dealt game's clock by correspondence: storage's copy of its next deadline, and what the clock tick does
then (a private reminder to the player to move, the turn passed when the move's time is over, the game
ended on its last day), told as a command's answer would be."""

from __future__ import annotations

from core.classic_clock import ClockDue
from core.errors import ArbitreError
from core.events import Flagged
from core.online import DealtGame, Due, Turn
from core.rules import ClockMode

from ...chat import CommandLine, Incoming, Reply
from ...commands.context import Context
from ...commands.registry import command_named
from ...commands.services import Services
from ...storage import Deadline, GameRecord, GameStatus
from ..classic.clock import minutes_seconds
from .turns import CLOCK_ROUND, finish, named, robots_play, store, sync_clock, tell, turn_lines

CLOCK_AUTHOR = "clock"
HOUR = 3600.0


def clock_context(services: Services, record: GameRecord) -> Context:
    """What the clock's own turn answers through: the channel's settings, the clock as its author."""
    settings = services.storage.channel(record.channel)
    message = Incoming(record.channel, CLOCK_AUTHOR, CLOCK_AUTHOR, "")
    command = command_named("pass")
    return Context(services, message, CommandLine(command.spec.name, ""), command.spec, settings)


def clock_decision(services: Services, record: GameRecord, deadline: Deadline, now: float) -> list[Reply]:
    """What the clock does about a dealt game's stored deadline."""
    storage = services.storage
    if record.status is not GameStatus.ACTIVE:
        storage.open_round(record.id, CLOCK_ROUND, None)
        return []
    game: DealtGame = services.games.load(storage, record)
    if game.pace is None and game.rules.clock is not ClockMode.NONE:
        return timed_decision(services, record, game, now)
    due = game.deadline()
    if due is None or now < due.at:
        sync_clock(storage, record, game, now)
        return []
    ctx = clock_context(services, record)
    player = game.to_move or ""
    before = len(game.lines)
    try:
        turn = game.time_out(now)
    except ArbitreError:  # the game refused (it changed since): storage follows the game
        sync_clock(storage, record, game, now)
        return []
    store(ctx, record, game, turn.events)
    if due.due is Due.REMIND:
        left = max(1, round((game.deadline() or due).at - now) // int(HOUR))
        text = ctx.say("online_reminder", player=player, hours=left, rack=_rack(game, player))
        tell(ctx, record, player, named(ctx, record, game, text))
        sync_clock(storage, record, game, now)
        return ctx.replies
    key = "online_time_game" if due.due is Due.GAME_TIME else "online_time_move"
    lines = [ctx.say(key, player=player)]
    if due.due is Due.MOVE_TIME and not turn.ended:
        lines += turn_lines(ctx, game, player, turn, before)[1:]
    robots_play(ctx, record, game, lines)
    finish(ctx, record, game, lines)
    return ctx.replies


def timed_decision(services: Services, record: GameRecord, game: DealtGame, now: float) -> list[Reply]:
    """What a game clock set with /settings does, as a classic game's: the stopwatch passes the turn, a chess
    clock out of time takes its player out (FISF: the others play on alone; nobody left, the game stops) or, at
    the overtime limit (NASPA, WESPA), stops the game; each stop with every rack known and the overtime owed."""
    storage = services.storage
    reading = game.classic.clock(now)
    player = reading.running_for
    if reading.deadline is None or reading.due is None or now < reading.deadline or player is None:
        sync_clock(storage, record, game, now)
        return []
    ctx = clock_context(services, record)
    before = len(game.lines)
    try:
        if reading.due is ClockDue.PASS:
            turn = game.pass_turn(player, now, clock=True)
            lines = [ctx.say("clock_time_pass", player=player, time=minutes_seconds(reading.move_allowed))]
            lines += turn_lines(ctx, game, player, turn, before)[1:]
        elif reading.due is ClockDue.FLAG:
            turn = Turn([game.apply(Flagged(player), now)])
            others = [p for p in game.players if p not in game.classic.flagged]
            lines = [ctx.say("clock_flag", player=player, others=", ".join(others))] if others else []
            if not others:
                turn.events += game.stop(now).events
                lines.append(ctx.say("online_all_flagged", player=player))
        else:
            turn = game.stop(now)
            lines = [ctx.say("clock_overtime_end", player=player, minutes=game.rules.overtime_limit_minutes)]
    except ArbitreError:  # the game refused (it changed since): storage follows the game
        sync_clock(storage, record, game, now)
        return []
    store(ctx, record, game, turn.events)
    robots_play(ctx, record, game, lines)
    finish(ctx, record, game, lines)
    return ctx.replies


def _rack(game: DealtGame, player: str) -> str:
    return game.edition.spell_tiles(game.rack(player)) or "-"
