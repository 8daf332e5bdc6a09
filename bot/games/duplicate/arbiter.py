"""The duplicate arbiter's corrections: /reopen /pause /resume /extend /correct /top.

As in club software, the arbiter can take back the last close while nobody has
played the next draw (reopen it, or place another of the tied tops), stop and
restart the clock, give more time, and correct a player's answer after the
close with the reason kept in the record.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.duplicate import DuplicateEvent, DuplicateGame
from core.errors import ArbitreError
from core.game import find_player

from ...chat import Reply
from ...commands.context import Context, UserError
from ...commands.options import MOST_MOVES, MOST_POINTS, MOST_SECONDS, Form, Option, Sub, Suggest, integer, member, text
from ...commands.registry import Access, Section, command
from ...messages import keyword_form, keywords, number
from ...numbers import looks_like_number, read_int
from ...play import seats
from ...render import round_result_png
from ...render.record import standings_text
from ...storage import GameKind, GameRecord, GameStatus
from ...words.game_lists import game_list
from ..simultane import pacing as simultane_pacing
from .games import active_duplicate, game_of, save, start_top
from .rounds import open_next_round
from .texts import draw_reply, reason_text, result_view, round_text

REOPEN_SECONDS = 60.0


def _open_round_with_clock(ctx: Context) -> tuple[GameRecord, DuplicateGame]:
    record, game = active_duplicate(ctx)
    round_ = game.current
    if round_ is None or round_.draw is None:
        raise UserError("dup_no_round")
    return record, game


def _draw_shown(ctx: Context, record: GameRecord, game: DuplicateGame) -> Reply:
    """The open round's draw with the time left now."""
    return draw_reply(ctx.lang, ctx.settings.zone, record, game, ctx.message.channel, ctx.services.now())


def _redraw(ctx: Context, record: GameRecord, game: DuplicateGame, again: Sequence[DuplicateEvent] = ()) -> None:
    """After a close was taken back: the round goes on, or (another top) the next draw is made again.

    ``again``: the draws the take-back sent back to the bag; when the same letters were left on the
    rack (tied tops made of the same tiles), they are made again, so players keep the draw they saw.
    """
    if game.finished:
        return
    round_ = game.current
    if round_ is None and again:
        try:
            save(ctx.services, record, game, game.draw_again(again), ctx.message.user)
            round_ = game.current
        except ArbitreError:
            pass  # the bag changed: a new draw below
    if round_ is not None and round_.draw is not None:
        start_top(ctx.services, record, game)
        ctx.replies.append(_draw_shown(ctx, record, game))
        return
    ctx.replies += open_next_round(ctx.services, ctx.storage, record, game, ctx.lang, ctx.services.now())


@command(
    "reopen",
    section=Section.DUPLICATE,
    rank=50,
    access=Access.REFEREE,
    slow=True,
    needs_top=True,
    form=Form((integer("seconds", 1, MOST_SECONDS),)),
)
def cmd_reopen(ctx: Context) -> None:
    record, game = _game_for_correction(ctx)
    seconds = REOPEN_SECONDS
    if ctx.tokens:
        seconds = ctx.number(ctx.tokens[0])
    simultane_pacing.check_reopen(ctx.storage, record)
    last = game.last_closed
    if game.finished:
        ctx.storage.set_game_status(record.id, GameStatus.ACTIVE)
    event = game.reopen(ctx.services.now(), seconds)
    if last is not None:
        ctx.storage.mark_reopened(record.id, last.number)
    save(ctx.services, record, game, [event], ctx.message.user)
    ctx.reply(ctx.say("dup_reopened", n=last.number if last else 0, seconds=number(ctx.lang, seconds)))
    _redraw(ctx, record, game)


@command("pause", section=Section.DUPLICATE, rank=60, access=Access.REFEREE)
def cmd_pause(ctx: Context) -> None:
    record, game = _open_round_with_clock(ctx)
    simultane_pacing.check_clock_change(ctx.storage, record, game, ctx.lang, ctx.settings.zone, ctx.services.now())
    event = game.pause(ctx.services.now())
    save(ctx.services, record, game, [event], ctx.message.user)
    round_ = game.current
    assert round_ is not None
    ctx.reply(ctx.say("dup_paused", n=round_.number, seconds=round(round_.paused_left or 0)))


@command("resume", section=Section.DUPLICATE, rank=70, access=Access.REFEREE)
def cmd_resume(ctx: Context) -> None:
    record, game = _open_round_with_clock(ctx)
    event = game.resume(ctx.services.now())
    save(ctx.services, record, game, [event], ctx.message.user)
    ctx.replies.append(_draw_shown(ctx, record, game))
    ctx.services.clock.warned.discard((record.id, game.move_number))


@command(
    "extend",
    section=Section.DUPLICATE,
    rank=80,
    access=Access.REFEREE,
    form=Form((integer("seconds", 1, MOST_SECONDS, required=True),)),
)
def cmd_extend(ctx: Context) -> None:
    record, game = _open_round_with_clock(ctx)
    simultane_pacing.check_clock_change(ctx.storage, record, game, ctx.lang, ctx.settings.zone, ctx.services.now())
    if not ctx.tokens:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    value = ctx.number(ctx.tokens[0])
    event = game.extend(value)
    save(ctx.services, record, game, [event], ctx.message.user)
    ctx.services.clock.warned.discard((record.id, game.move_number))
    ctx.reply(ctx.say("dup_extended", seconds=number(ctx.lang, value)))
    ctx.replies.append(_draw_shown(ctx, record, game))


def _find_player(game: DuplicateGame, name: str) -> str:
    found = find_player(game.players, name)
    if found is None:
        raise UserError("err_unknown_player", player=name.lstrip("@")[:32], players=", ".join(game.players))
    return found


def _correction(*options: Option) -> tuple[Option, ...]:
    """Whose answer (a member, or a seat without an account by its name) and which move, then ``options``."""
    seat = text("seat", suggest=Suggest.PLAYERS)
    return (member("player"), seat, integer("move", 1, MOST_MOVES, required=True), *options)


CORRECT_FORM = Form(  # each writes ``PLAYER N ...``, the line the command reads
    subs=(
        Sub("word", _correction(text("position", required=True), text("word", required=True), text("reason")), ""),
        Sub("score", _correction(integer("score", 0, MOST_POINTS, required=True), text("reason")), ""),
        Sub("lift", _correction(text("reason", required=True, shape="lift {}")), ""),
    )
)


@command(
    "correct",
    section=Section.DUPLICATE,
    rank=90,
    access=Access.REFEREE,
    slow=True,
    form=CORRECT_FORM,
)
def cmd_correct(ctx: Context) -> None:
    """``PLAYER N REF WORD [reason]``, ``PLAYER N POINTS [reason]`` or ``PLAYER N lift REASON`` (the name
    ends at the move number)."""
    record, game = _game_for_correction(ctx)
    words = ctx.args.split()
    number_at = next((i for i, w in enumerate(words) if i > 0 and read_int(w) is not None), None)
    if number_at is None or len(words) < number_at + 2:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    player = _find_player(game, " ".join(words[:number_at]))
    round_number = read_int(words[number_at]) or 0
    rest = words[number_at + 1 :]
    if keyword_form(rest[0]) in keywords("keywords_lift"):  # a warning or penalty lifted, with the reason
        reason = " ".join(rest[1:])[:200]
        if not reason:
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        lifted = game.lift(player, round_number, reason)
        save(ctx.services, record, game, [lifted], ctx.message.user)
        text = ctx.say("dup_lifted", player=player, n=round_number, reason=reason)
        ctx.reply(text + "\n\n" + standings_text(ctx.lang, game))
        return
    points = ctx.whole_number(rest[0]) if looks_like_number(rest[0]) else None
    if points is not None:
        reason = " ".join(rest[1:])[:200]
        event: DuplicateEvent = game.record_score(player, round_number, points, reason)
    else:
        if len(rest) < 2:
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        move = " ".join(rest[:2])
        reason = " ".join(rest[2:])[:200]
        event = game.correct(player, round_number, move, ctx.word_list(game_list(record.setup)), reason)
    save(ctx.services, record, game, [event], ctx.message.user)
    ctx.reply(_correction_text(ctx, game, player, round_number) + "\n\n" + standings_text(ctx.lang, game))


def _correction_text(ctx: Context, game: DuplicateGame, player: str, round_number: int) -> str:
    """The player's score for the move as corrected, with the reason when the answer counts 0."""
    closed = game.closed_rounds[round_number - 1]
    result = closed.results.get(player)
    if player not in closed.recorded and result is not None and not result.valid:
        reason = reason_text(ctx.lang, result, game.notation)
        return ctx.say("dup_correction_zero", player=player, n=round_number, reason=reason)
    return ctx.say("dup_correction", player=player, n=round_number, score=closed.score_of(player))


def _game_for_correction(ctx: Context) -> tuple[GameRecord, DuplicateGame]:
    """The running duplicate game, or the last one when it has just ended (corrections after the end)."""
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None:
        games = [g for g in ctx.storage.games(ctx.message.channel) if g.kind is GameKind.DUPLICATE]
        if games and games[-1].status is GameStatus.ENDED:
            record = games[-1]
    if record is None or record.kind is not GameKind.DUPLICATE:
        raise UserError("dup_none")
    ctx.require_control(record)
    return record, game_of(ctx.services, record)


@command(
    "top",
    section=Section.DUPLICATE,
    rank=100,
    access=Access.REFEREE,
    slow=True,
    needs_top=True,
    form=Form((integer("choice", 1, 25, required=True),)),
)
def cmd_top(ctx: Context) -> None:
    record, game = active_duplicate(ctx)
    if record.setup.simultane:  # every room of a simultané keeps the same board
        raise UserError("simultane_top_fixed", code=record.setup.simultane)
    last = game.last_closed
    if last is None or not last.tied:
        raise UserError("dup_no_tie")
    assert last.top is not None
    choices = [last.top.notation(), *last.tied]
    index = read_int(ctx.tokens[0]) if ctx.tokens else None
    if index is None or not 1 <= index <= len(choices):
        raise UserError("dup_top_choice", count=len(choices))
    if index == 1:
        raise UserError("dup_top_already", move=last.top.notation(game.notation))
    leftover, draws = _leftover(game), game.draws_since_close()
    event = game.choose_top(choices[index - 1])
    save(ctx.services, record, game, [event], ctx.message.user)
    closed = game.closed_rounds[-1]
    text = ctx.say("dup_top_chosen", n=closed.number) + "\n" + round_text(ctx.lang, game, closed)
    image = round_result_png(result_view(ctx.lang, game, closed)) if ctx.services.images else None
    ctx.reply(text, image=image, image_name="result.png")  # the round's result again, as at the close
    _redraw(ctx, record, game, draws if _leftover(game) == leftover else ())


def _leftover(game: DuplicateGame) -> list[str]:
    """The letters the last closed round left on the rack, in order."""
    last = game.last_closed
    return sorted(last.reliquat) if last is not None else []


@command(
    "table",
    section=Section.DUPLICATE,
    rank=110,
    access=Access.REFEREE,
    form=Form((text("player", suggest=Suggest.PLAYERS), integer("table", 1, 9999))),
)
def cmd_table(ctx: Context) -> None:
    """``/table PLAYER N`` gives a player a table number (the name ends at the number); ``/table`` lists
    every player's table, as the federation's results file (/export sigles) numbers them."""
    record, game = _game_for_correction(ctx)
    words = ctx.args.split()
    lines = []
    if words:
        table = read_int(words[-1])
        if table is None or len(words) < 2:
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        typed = " ".join(words[:-1])
        player = find_player(game.players, typed)
        if player is None:  # a hall's table registered before its player's first answer: kept for the name
            player = seats.clean_name(typed)
            if not player:
                raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        event = game.assign_table(player, table)
        save(ctx.services, record, game, [event], ctx.message.user)
        key = "dup_table_set" if player in game.players else "dup_table_reserved"
        lines.append(ctx.say(key, player=player, table=table))
    numbers = game.table_numbers()
    waiting = {name: t for name, t in game.tables.items() if name not in numbers}  # reserved, not playing yet
    ordered = sorted([*numbers.items(), *waiting.items()], key=lambda item: item[1])
    listed = ", ".join(ctx.say("dup_table_item", table=t, player=p) for p, t in ordered)
    ctx.reply("\n".join([*lines, ctx.say("dup_tables", tables=listed or "-")]))
