"""Duplicate commands over chat: /duplicate /draw /play /close /standings, the clock, and the
duplicate side of /join /end /sheet /board /unseen /export.

Submissions are private: a /play sent in the open is refused unrecorded, and
nothing a player submitted appears in the channel before the round closes.
Deadlines are absolute times in storage; the clock (``clock_tick``) warns 30 s
before, closes rounds when time is up (also after a restart) and draws the next.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from concurrent.futures import Future
from typing import Any

from core.board import Board
from core.draw import unseen_tiles
from core.duplicate import (
    DuplicateEvent,
    DuplicateGame,
    DuplicateSettings,
    Round,
    SubmissionResult,
    event_from_dict,
    event_to_dict,
    movegen_top_finder,
)
from core.edition import edition_by_code
from core.errors import (
    JokerNotMarkedError,
    LateSubmissionError,
    LettersNotInDrawError,
    NoDrawPossibleError,
    NoJokerLeftError,
    NotationError,
    WordNotInLexiconError,
)
from core.lexicon import Lexicon
from core.movegen import TopResult
from core.notation import Notation, notation_by_name

from .chat import Reply
from .messages import explain, say
from .referee import Context, Referee, UserError
from .render import table
from .storage import GameRecord, Storage

WARNING_SECONDS = 30


# --- loading and saving ------------------------------------------------------------------


def load_game(storage: Storage, record: GameRecord) -> DuplicateGame:
    """The game rebuilt from all its stored events."""
    return build_from_data(record, [e.data for e in storage.events(record.id)])


def build_from_data(record: GameRecord, events: list[dict[str, Any]]) -> DuplicateGame:
    return DuplicateGame.from_events(event_from_dict(data) for data in events)


def apply_data(game: DuplicateGame, data: dict[str, Any]) -> None:
    game.apply(event_from_dict(data))


def game_of(referee: Referee, record: GameRecord) -> DuplicateGame:
    """The game, from the referee's cache brought up to date."""
    return referee.duplicate_games.load(referee.storage, record)


def save(referee: Referee, record: GameRecord, game: DuplicateGame, events: list[DuplicateEvent], author: str) -> None:
    """Store events the game has already applied."""
    for event in events:
        referee.duplicate_games.append(referee.storage, record, game, event_to_dict(event), author)


def active_duplicate(ctx: Context) -> tuple[GameRecord, DuplicateGame]:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind != "duplicate":
        raise UserError("dup_none")
    return record, game_of(ctx.referee, record)


# --- the top, computed while players think -----------------------------------------------


def _top_key(record: GameRecord, game: DuplicateGame) -> tuple[int, int, str]:
    round_ = game.current
    draw = str(round_.draw) if round_ is not None and round_.draw is not None else ""
    return (record.id, game.move_number, draw)


def _finder(referee: Referee, record: GameRecord, game: DuplicateGame) -> Any:
    lexicon = referee.word_list(record.setup["lexicon"])
    assert isinstance(lexicon, Lexicon)
    return movegen_top_finder(lexicon, game.edition, game.settings, count=1)  # the fast path: best play only


def start_top(referee: Referee, record: GameRecord, game: DuplicateGame) -> None:
    """Begin searching the top of the open round in the background."""
    round_ = game.current
    if round_ is None or round_.draw is None:
        return
    key = _top_key(record, game)
    if key in referee.tops:
        return
    finder = _finder(referee, record, game)
    board, letters = game.board.copy(), round_.draw.letters
    referee.tops[key] = referee.background.submit(finder, board, letters)


def top_finder(referee: Referee, record: GameRecord, game: DuplicateGame) -> Any:
    """The precomputed top when there is one (waiting for it if needed), else a search now."""
    future: Future[TopResult] | None = referee.tops.pop(_top_key(record, game), None)
    finder = _finder(referee, record, game)

    def find(board: Board, letters: str) -> TopResult:
        if future is not None:
            return future.result()
        result: TopResult = finder(board, letters)
        return result

    return find


# --- formatting ----------------------------------------------------------------------------


def _clock_text(deadline: float) -> str:
    return time.strftime("%H:%M:%S UTC", time.gmtime(deadline))


def _minutes_text(minutes: float) -> str:
    return f"{minutes:g}"


def draw_reply(lang: str, record: GameRecord, game: DuplicateGame, channel: str) -> Reply:
    round_ = game.current
    assert round_ is not None and round_.draw is not None
    deadline = game.deadline(round_) or 0.0
    text = say(
        lang,
        "dup_draw",
        n=round_.number,
        draw=str(round_.draw),
        minutes=_minutes_text(game.settings.minutes),
        clock=_clock_text(deadline),
    )
    if round_.rejected:
        text = say(lang, "dup_rejected_draws", draws=" ".join(str(d) for d in round_.rejected)) + "\n" + text
    if round_.shortfall:
        text += "\n" + say(lang, "dup_shortfall", shortfall=round_.shortfall)
    return Reply(text, channel=channel, deadline=deadline, edit_key=f"dup-{record.id}-{round_.number}")


def reason_text(lang: str, result: SubmissionResult, notation: Notation) -> str:
    error = result.error
    if isinstance(error, WordNotInLexiconError):
        return say(lang, "dup_reason_not_a_word", words=", ".join(error.words))
    if isinstance(error, JokerNotMarkedError):
        return say(lang, "dup_reason_joker", letters=", ".join(error.letters))
    if isinstance(error, NoJokerLeftError):
        return say(lang, "dup_reason_no_joker", letters=", ".join(error.letters))
    if isinstance(error, LettersNotInDrawError):
        return say(lang, "dup_reason_not_in_draw", letters=", ".join(error.letters))
    if isinstance(error, LateSubmissionError):
        return say(lang, "dup_reason_late")
    if isinstance(error, NotationError):
        return say(lang, "dup_reason_unreadable")
    if error is not None:
        return explain(error, lang, notation.value)
    return ""


def round_text(lang: str, game: DuplicateGame, round_: Round) -> str:
    from .commands_classic import breakdown

    draw = str(round_.draw) if round_.draw else ""
    if round_.top is None or round_.top_score is None:
        lines = [say(lang, "dup_no_top", n=round_.number, draw=draw)]
    else:
        lines = [
            say(
                lang,
                "dup_result",
                n=round_.number,
                draw=draw,
                top=round_.top.notation(game.notation),
                points=round_.top_points,
                breakdown=breakdown(round_.top_score, lang),
            )
        ]
        if round_.tied:
            shown = ", ".join(round_.tied[:3]) + (f" (+{len(round_.tied) - 3})" if len(round_.tied) > 3 else "")
            lines.append(say(lang, "dup_tie", tied=shown, rule=round_.tie_rule))
    solo = game.solo(round_)
    for player in game.players:
        result = round_.results.get(player)
        if result is None and player not in round_.recorded:
            lines.append(say(lang, "dup_no_answer", player=player))
            continue
        score = round_.score_of(player)
        extra = ""
        if round_.top is not None and score == round_.top_points and score > 0:
            extra += say(lang, "dup_top_found")
        if solo == player:
            extra += say(lang, "dup_solo", bonus=game.settings.solo_bonus)
        if result is not None and not result.valid:
            extra += " — " + reason_text(lang, result, game.notation)
        if result is not None and result.claimed_differs:
            extra += say(lang, "dup_claim", claimed=result.claimed)
        move = result.move if result is not None else "-"
        lines.append(say(lang, "dup_player_line", player=player, move=move, score=score, extra=extra))
    return "\n".join(lines)


def standings_text(lang: str, game: DuplicateGame) -> str:
    header = ["#", "joueur" if lang == "fr" else "player", "total", "écart" if lang == "fr" else "gap", "%"]
    rows = [[s.place, s.player, s.total, s.gap, f"{s.percent:.1f}"] for s in game.standings()]
    return say(
        lang,
        "dup_ranking",
        n=len(game.closed_rounds),
        tops=game.tops_total,
        table="```\n" + table(rows, header) + "\n```",
    )


# --- flow ------------------------------------------------------------------------------------


def open_next_round(
    referee: Referee, storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, now: float
) -> list[Reply]:
    """Draw the next move (automatic mode) and set its deadline; or end the game."""
    if record.setup.get("manual"):
        return [Reply(say(lang, "dup_wait_draw"), channel=record.channel)]
    try:
        events = game.draw(random.Random(), at=now)
    except NoDrawPossibleError as error:
        return finish(storage, record, game, lang, explain(error, lang))
    save(referee, record, game, events, "clock")
    round_ = game.current
    assert round_ is not None
    storage.set_deadline(record.id, round_.number, game.deadline(round_))
    start_top(referee, record, game)
    return [draw_reply(lang, record, game, record.channel)]


def finish(storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, reason: str) -> list[Reply]:
    storage.set_game_status(record.id, "ended")
    text = say(lang, "dup_over", reason=reason or game.end_reason) + "\n" + standings_text(lang, game)
    return [Reply(text, channel=record.channel)]


def close_round(
    referee: Referee, storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, now: float, author: str
) -> list[Reply]:
    """Close the open round: results, standings, then the next draw or the end."""
    round_ = game.current
    assert round_ is not None
    lexicon = referee.word_list(record.setup["lexicon"])
    event = game.close_round(top_finder(referee, record, game), lexicon)
    save(referee, record, game, [event], author)
    storage.set_deadline(record.id, round_.number, None)
    referee.warned.discard((record.id, round_.number))
    closed = game.closed_rounds[-1]
    replies = [
        Reply(  # the draw's message stops counting down
            say(lang, "dup_round_closed", n=closed.number, draw=str(closed.draw) if closed.draw else ""),
            channel=record.channel,
            edit_key=f"dup-{record.id}-{closed.number}",
        ),
        Reply(round_text(lang, game, closed) + "\n\n" + standings_text(lang, game), channel=record.channel),
    ]
    if game.finished:
        return replies + finish(storage, record, game, lang, game.end_reason)
    return replies + open_next_round(referee, storage, record, game, lang, now)


def _warning_lead(referee: Referee, game_id: int) -> float:
    """Seconds before the deadline to warn: 30, or half the time on clocks shorter than a minute."""
    game = game_of(referee, referee.storage.game(game_id))
    return min(WARNING_SECONDS, float(game.settings.minutes) * 30)


def clock_tick(referee: Referee, now: float) -> list[Reply]:
    """Warnings and closings due at ``now``, for every open round in storage."""
    replies: list[Reply] = []
    storage = referee.storage
    for deadline in storage.deadlines():
        if not deadline.channel.startswith(referee.clock_scope):
            continue
        lang = storage.channel(deadline.channel).language
        key = (deadline.game, deadline.round)
        if now >= deadline.at:
            with storage.transaction():
                record = storage.game(deadline.game)
                game = game_of(referee, record)
                current = game.current
                if record.status != "active" or current is None or current.number != deadline.round:
                    storage.set_deadline(deadline.game, deadline.round, None)
                    continue
                replies += close_round(referee, storage, record, game, lang, now, "clock")
        elif key not in referee.warned and deadline.at - now <= WARNING_SECONDS:
            with storage.transaction():  # reads the game like a command does, never half-way through one
                lead = _warning_lead(referee, deadline.game)
            if deadline.at - now > lead:
                continue
            referee.warned.add(key)
            seconds = max(1, round(deadline.at - now))
            replies.append(Reply(say(lang, "dup_warning", n=deadline.round, seconds=seconds), channel=deadline.channel))
    return replies


# --- commands ----------------------------------------------------------------------------


def cmd_duplicate(ctx: Context) -> None:
    settings = ctx.settings
    minutes: float = settings.minutes
    manual = False
    for token in ctx.args.replace(",", ".").split():
        lowered = token.lower()
        if lowered in ("manual", "manuel", "manuelle"):
            manual = True
        else:
            try:
                minutes = float(lowered)
            except ValueError:
                raise UserError("usage", usage=ctx.spec.usage(ctx.lang)) from None
    dup_settings = DuplicateSettings(minutes=minutes, notation=notation_by_name(settings.notation))
    game = DuplicateGame(edition_by_code(settings.edition), (), dup_settings, settings.lexicon)
    setup = {
        "edition": settings.edition,
        "lexicon": settings.lexicon,
        "notation": settings.notation,
        "manual": manual,
        "referee_name": ctx.message.name,
    }
    ctx.word_list(settings.lexicon)  # fail now, not at the first closing, if the list is unusable
    record = ctx.storage.create_game(ctx.message.channel, "duplicate", ctx.message.user, setup)
    save(ctx.referee, record, game, list(game.events), ctx.message.user)
    mode = ctx.say("dup_mode_manual" if manual else "dup_mode_auto")
    ctx.reply(ctx.say("dup_started", edition=settings.edition, minutes=_minutes_text(minutes), mode=mode))
    ctx.replies += open_next_round(ctx.referee, ctx.storage, record, game, ctx.lang, ctx.referee.now())


def cmd_draw(ctx: Context) -> None:
    record, game = active_duplicate(ctx)
    ctx.require_control(record)
    text = ctx.args.strip()
    if not text:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if text in ("-", "rejet", "reject"):
        round_ = game.current
        rejected = str(round_.draw) if round_ is not None and round_.draw is not None else ""
        event = game.reject_draw()
        save(ctx.referee, record, game, [event], ctx.message.user)
        ctx.storage.set_deadline(record.id, game.move_number, None)
        ctx.reply(ctx.say("dup_draw_rejected", draw=rejected))
        return
    event = game.draw_manual(text.upper(), at=ctx.referee.now())
    save(ctx.referee, record, game, [event], ctx.message.user)
    round_ = game.current
    assert round_ is not None
    ctx.storage.set_deadline(record.id, round_.number, game.deadline(round_))
    start_top(ctx.referee, record, game)
    ctx.replies.append(draw_reply(ctx.lang, record, game, ctx.message.channel))


def _game_for_player(ctx: Context) -> GameRecord:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is not None and record.kind == "duplicate":
        return record
    mine = [g for g in ctx.storage.active_games_of(ctx.message.user) if g.kind == "duplicate"]
    if not mine:
        raise UserError("dup_which_game")
    return mine[0]


def _ensure_player(ctx: Context, record: GameRecord, game: DuplicateGame) -> str:
    name = ctx.message.name.strip()[:32] or ctx.message.user
    if name not in game.players:
        save(ctx.referee, record, game, [game.join(name)], ctx.message.user)
    ctx.storage.add_player(record.id, ctx.message.user, name)
    return name


def join(ctx: Context, record: GameRecord) -> None:
    game = game_of(ctx.referee, record)
    name = ctx.message.name.strip()[:32]
    if name in game.players:
        ctx.storage.add_player(record.id, ctx.message.user, name)
        ctx.reply(ctx.say("dup_joined", player=name))
        return
    _ensure_player(ctx, record, game)
    ctx.reply(ctx.say("dup_joined", player=name))


def cmd_play(ctx: Context) -> None:
    if not ctx.message.private:
        raise UserError("dup_not_private")
    record = _game_for_player(ctx)
    lang = ctx.storage.channel(record.channel).language
    game = game_of(ctx.referee, record)
    if not ctx.args.strip():
        raise UserError("usage", usage=ctx.spec.usage(lang))
    round_ = game.current
    if round_ is None or round_.draw is None:
        if game.closed_rounds:  # the last round closed before this move arrived
            raise UserError("dup_late", n=len(game.closed_rounds))
        raise UserError("dup_no_round")
    player = _ensure_player(ctx, record, game)
    from .commands_classic import split_claimed

    move, claimed = split_claimed(ctx.args.strip())
    previous = next((s.move for s in reversed(round_.submissions) if s.player == player), None)
    now = ctx.referee.now()
    event = game.submit(player, move, claimed, at=now)
    save(ctx.referee, record, game, [event], ctx.message.user)
    preview = game.preview(player, move)
    replaced = say(lang, "dup_ack_replaced", old=previous) if previous else ""
    if preview.valid:
        deadline = game.deadline(round_)
        if deadline is not None and now > deadline:
            ctx.private(say(lang, "dup_late", n=round_.number))
            return
        ctx.private(say(lang, "dup_ack", n=round_.number, move=move, score=preview.score, replaced=replaced))
    else:
        reason = reason_text(lang, preview, game.notation)
        ctx.private(say(lang, "dup_ack_problem", n=round_.number, move=move, reason=reason.rstrip(".") + "."))


def cmd_close(ctx: Context) -> None:
    record, game = active_duplicate(ctx)
    ctx.require_control(record)
    round_ = game.current
    if round_ is None or round_.draw is None:
        raise UserError("dup_no_round")
    ctx.replies += close_round(ctx.referee, ctx.storage, record, game, ctx.lang, ctx.referee.now(), ctx.message.user)


def cmd_standings(ctx: Context) -> None:
    _, game = active_duplicate(ctx)
    ctx.reply(standings_text(ctx.lang, game))


def end(ctx: Context, record: GameRecord) -> None:
    ctx.require_control(record)
    game = game_of(ctx.referee, record)
    ctx.replies += finish(ctx.storage, record, game, ctx.lang, "/end" if ctx.lang == "en" else "/fin")


def record_table(lang: str, game: DuplicateGame) -> str:
    """The game record in the channel's language: one line per move (rejected draws on their own),
    every player's score (``*`` for a solo)."""
    french = lang == "fr"
    header = [
        "N°" if french else "#",
        "tirage" if french else "draw",
        "réf" if french else "ref",
        "top",
        "pts",
        "cumul" if french else "total",
        *game.players,
    ]
    rows: list[list[object]] = []
    for line in game.record():
        rows += [["", rejected, "", "", "", "", *[""] * len(game.players)] for rejected in line.rejected]
        marks = [f"{score}*" if line.solo == player else score for player, score in line.scores]
        rows.append([line.number, line.draw, line.ref or "-", line.word or "-", line.score, line.cumulative, *marks])
    return table(rows, header)


def sheet(ctx: Context, record: GameRecord) -> None:
    game = game_of(ctx.referee, record)
    ctx.reply("```\n" + record_table(ctx.lang, game) + "\n```\n" + standings_text(ctx.lang, game))


def board(ctx: Context, record: GameRecord) -> None:
    from .commands_classic import send_board

    game = game_of(ctx.referee, record)
    last_round = game.closed_rounds[-1] if game.closed_rounds else None
    last = [(c.row, c.col) for c in last_round.top.new_tiles] if last_round and last_round.top else []
    send_board(ctx, game.board, game.edition.code, game.notation.value, last)


def unseen(ctx: Context, record: GameRecord) -> None:
    from .commands_classic import tiles_text

    game = game_of(ctx.referee, record)
    unseen = Counter(unseen_tiles(game.edition, game.board))
    ctx.reply(ctx.say("unseen", count=sum(unseen.values()), letters=tiles_text(unseen), bag=len(game.bag)))


def export(ctx: Context, record: GameRecord) -> None:
    sheet(ctx, record)


HANDLERS = {
    "duplicate": cmd_duplicate,
    "draw": cmd_draw,
    "play": cmd_play,
    "close": cmd_close,
    "standings": cmd_standings,
}
