"""Duplicate commands over chat: /duplicate /draw /play /close, and the duplicate side of /join and
/end and of the open round's status.

Submissions are private: a /play sent in the open is refused unrecorded, and
nothing a player submitted appears in the channel before the round closes.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from core.duplicate import (
    DrawMade,
    DuplicateGame,
    DuplicateSettings,
    DuplicateStarted,
    PlayerJoined,
    Sanctions,
    SoloRule,
    reads_on,
)
from core.duplicate.formats import SHORT_CALL_SECONDS, TOPPING_MINUTES, DuplicateFormat
from core.edition import edition_by_code
from core.game import find_player, player_key
from core.notation import notation_by_name

from ...commands.context import Context, UserError
from ...commands.options import MOST_POINTS, Form, choice, flag, integer, text
from ...commands.registry import Access, Section, command, command_named
from ...messages import decimal, keyword_form, keywords, number, say
from ...numbers import looks_like_number
from ...overload import Shed
from ...play import seats
from ...storage import GameKind, GameRecord, GameSetup, GameStatus
from ...words.game_lists import game_list
from ..common.formatting import split_claimed
from ..simultane import pacing as simultane_pacing
from ..simultane.accounts import check_one_room
from .games import active_duplicate, game_of, save, start_top
from .play_decision import decide_play, just_drawn
from .rounds import close_round, finish, open_next_round
from .sanctions import sanctioned
from .submissions_late import count_after_close, received_in_time
from .texts import count_reply, draw_reply, joins_reply, reason_text, standings_image

REJECT_MARK = "-"  # /draw - rejects the draw shown, as the words of the catalogs' keywords_reject do
FISF_RULES = "fisf"  # the channel's rule set under which a duplicate game takes the FISF sanctions
MIN_MINUTES, MAX_MINUTES = 0.05, 10.0  # time per move: 3 seconds (training, tests) to 10 minutes


def move_minutes(ctx: Context, word: str) -> float:
    """The minutes per move a command's word gives (a number within the bounds), else a polite refusal."""
    if not looks_like_number(word):
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    value = ctx.number(word)
    if not MIN_MINUTES <= value <= MAX_MINUTES:
        raise UserError("bad_minutes", value=word[:20])
    return value


SEMI_RAPID_MINUTES = 2  # section 1.3
MINUTES_SECONDS = re.compile(r"^(\d{1,2})(?::|min|mn|m)(\d{2})$")  # 2:30, 2min30
_FORMAT_WORDS = {fmt: f"keywords_format_{fmt}" for fmt in DuplicateFormat if fmt is not DuplicateFormat.CLASSIC}


def _clock_word(token: str) -> tuple[float, float] | None:
    """The minutes and call a clock word of section 1.3 names (``blitz``, ``semi-rapide``, ``2:30``), if any."""
    form = keyword_form(token)
    if form in keywords("keywords_blitz"):
        return 1.0, float(SHORT_CALL_SECONDS)  # 3.3: the shorter call on the blitz clock
    if form in keywords("keywords_semirapid"):
        return float(SEMI_RAPID_MINUTES), 0.0
    written = MINUTES_SECONDS.match(form)
    if written is not None and int(written.group(2)) < 60:
        return int(written.group(1)) + int(written.group(2)) / 60, 0.0
    return None


def _format_word(token: str) -> DuplicateFormat | None:
    """The format of section 3.8 a word names, if any."""
    form = keyword_form(token)
    return next((fmt for fmt, key in _FORMAT_WORDS.items() if form in keywords(key)), None)


@command(
    "duplicate",
    section=Section.DUPLICATE,
    rank=10,
    access=Access.START,
    slow=True,
    form=Form(
        (
            integer("minutes", 1, int(MAX_MINUTES)),
            choice("pace", "blitz", "semi-rapid"),
            choice("format", "joker", "7of8", "7and8", "topping"),
            choice("mode", "sanctions", "training"),
            flag("solo_top", "solo-top"),
            flag("manual", "manual"),
            flag("confirm", "!"),
            text("args"),
        )
    ),
)
def cmd_duplicate(ctx: Context) -> None:
    settings = ctx.settings
    minutes: float = settings.minutes
    manual = False
    sanctions = Sanctions.FISF if settings.rules == FISF_RULES else Sanctions.NONE  # training: box rules
    manual_words = keywords("keywords_manual")
    game_format, call, timed, solo = DuplicateFormat.CLASSIC, 0.0, False, SoloRule.BEST
    for token in ctx.tokens:
        if keyword_form(token) in manual_words:
            manual = True
            continue
        if keyword_form(token) in keywords("keywords_solo_top"):  # the club's rule, not the rule book's 3.5
            solo = SoloRule.TOP
            continue
        named = _format_word(token)
        if named is not None:
            game_format = named
            continue
        clock = _clock_word(token)
        if clock is not None:
            (minutes, call), timed = clock, True
            continue
        if keyword_form(token) in keywords("keywords_sanctions"):
            sanctions = Sanctions.FISF
            continue
        if keyword_form(token) in keywords("keywords_training"):
            sanctions = Sanctions.NONE
            continue
        minutes, call, timed = move_minutes(ctx, token), 0.0, True
    if game_format.timed and not timed:
        minutes = TOPPING_MINUTES  # 3.8.4: "généralement, une minute par coup"
    dup_settings = DuplicateSettings(
        minutes=minutes,
        notation=notation_by_name(settings.notation),
        sanctions=sanctions,
        format=game_format,
        call=call,
        solo=solo,
    )
    game = DuplicateGame(edition_by_code(settings.edition), (), dup_settings, settings.lexicon)
    setup = GameSetup(
        edition=settings.edition,
        lexicon=settings.lexicon,
        notation=settings.notation,
        manual=manual,
        referee_name=seats.display_name(ctx.message),
    )
    ctx.word_list(game_list(setup))  # fail now, not at the first closing, if the list is unusable or not ready
    ctx.services.lists.prepare_movegen(game_list(setup), ctx.message.channel)  # the tops' list, house words applied
    record = ctx.storage.create_game(
        ctx.message.channel, GameKind.DUPLICATE, ctx.message.user, setup, abandon_running=ctx.confirmed
    )
    save(ctx.services, record, game, list(game.events), ctx.message.user)
    mode = ctx.say("dup_mode_manual" if manual else "dup_mode_auto")
    started = ctx.say("dup_started", edition=settings.edition, minutes=number(ctx.lang, minutes), mode=mode)
    if game_format is not DuplicateFormat.CLASSIC:
        name, rule = ctx.say(f"format_{game_format}"), ctx.say(f"dup_format_rule_{game_format}")
        started += "\n" + ctx.say("dup_format_on", name=name, section=game_format.section, rule=rule)
    if call:
        started += "\n" + ctx.say("dup_call_on", seconds=round(dup_settings.call_seconds))
    if sanctions is Sanctions.FISF:
        started += "\n" + ctx.say("dup_sanctions_on", threshold=dup_settings.warning_threshold)
    if solo is SoloRule.TOP:
        started += "\n" + ctx.say(
            "dup_solo_top_on", bonus=dup_settings.solo_bonus, players=dup_settings.solo_min_players
        )
    ctx.reply(started)
    ctx.replies += open_next_round(ctx.services, ctx.storage, record, game, ctx.lang, ctx.services.now())


def status(ctx: Context, record: GameRecord, game: DuplicateGame) -> None:
    """The open round's draw, deadline and count of players who have played, as a message of its own."""
    round_ = game.current
    if game.finished or record.status is not GameStatus.ACTIVE:
        ctx.reply(ctx.say("dup_status_over", n=len(game.closed_rounds)))
        return
    if round_ is None or round_.draw is None:
        key = "dup_wait_draw" if record.setup.manual else "dup_status_between"
        ctx.reply(ctx.say(key, n=game.move_number))
        return
    waiting = simultane_pacing.held_text(ctx.storage, record, ctx.lang, ctx.settings.zone, ctx.services.now())
    if waiting is not None:  # a simultané's round whose time is up here, waiting for the other rooms
        ctx.reply(ctx.say("simultane_still_waiting", text=waiting))
        return
    shown = draw_reply(ctx.lang, ctx.settings.zone, record, game, ctx.message.channel, ctx.services.now())
    count = count_reply(ctx.lang, record, game)
    text = shown.text + ("\n" + count.text if count is not None else "")
    ctx.reply(text, deadline=shown.deadline)  # a new message (no edit key): the draw shown again


@command(
    "draw",
    section=Section.DUPLICATE,
    rank=20,
    access=Access.REFEREE,
    read_without_args=True,
    slow=True,
    form=Form((text("letters"),)),
)
def cmd_draw(ctx: Context) -> None:
    record, game = active_duplicate(ctx)
    text = ctx.args.strip()
    if not text:
        status(ctx, record, game)
        return
    if text == REJECT_MARK or text in keywords("keywords_reject", as_written=True):  # REJET: letters drawn
        round_ = game.current
        rejected = round_.draw.spelled(game.edition) if round_ is not None and round_.draw is not None else ""
        rejection = game.reject_draw()
        save(ctx.services, record, game, [rejection], ctx.message.user)
        ctx.reply(ctx.say("dup_draw_rejected", draw=rejected))
        if not record.setup.manual:
            ctx.replies += open_next_round(ctx.services, ctx.storage, record, game, ctx.lang, ctx.services.now())
        return
    event = game.draw_manual(text.upper(), at=ctx.services.now())
    save(ctx.services, record, game, [event], ctx.message.user)
    start_top(ctx.services, record, game)
    ctx.replies.append(draw_reply(ctx.lang, ctx.settings.zone, record, game, ctx.message.channel, ctx.services.now()))


def _refuse_in_public(ctx: Context) -> None:
    """A /play typed in a channel: told to send it privately, or, where the channel plays a game whose moves
    are recorded in the open (classic, online, a score sheet), which command records them there."""
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind is GameKind.DUPLICATE:
        raise UserError("dup_not_private")
    score = "/" + command_named("score").spec.name_in(ctx.lang)
    raise UserError("play_not_duplicate", score=score, example=f"{score} {ctx.args.strip()}".strip())


def _game_for_player(ctx: Context) -> GameRecord:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is not None and record.kind is GameKind.DUPLICATE:
        return record
    mine = [g for g in ctx.storage.active_games_of(ctx.message.user) if g.kind is GameKind.DUPLICATE]
    if not mine:
        raise UserError("dup_which_game")
    ctx.storage.lock_channel(mine[0].channel)  # a private move: its game's channel, in any process
    record = ctx.storage.game(mine[0].id)  # as it stands now that no other command of its channel runs
    if record.status is not GameStatus.ACTIVE:
        raise UserError("dup_which_game")
    return record


def _player_of(ctx: Context, record: GameRecord, game: DuplicateGame) -> str | None:
    """The player this account plays as, if it joined."""
    return seats.seat_of(ctx.storage, record, ctx.message.user, game.players)


def _playing_as(ctx: Context, record: GameRecord, game: DuplicateGame) -> str | None:
    """The player this account plays as: its own, or a free seat the referee added under its name (claimed
    now, and said in the channel)."""
    seat, claimed = seats.acting_seat(ctx.storage, record, ctx.message, game.players)
    if claimed:
        ctx.reply(
            say(ctx.storage.channel(record.channel).language, "seat_claimed", player=seat), channel=record.channel
        )
    return seat


def _add_player(ctx: Context, record: GameRecord, game: DuplicateGame, wanted: str, bind: bool) -> str:
    """A new player (a free variant of ``wanted`` if another account has that name, or if it mixes Latin and
    Cyrillic or Greek letters: ``Аna (2)`` never passes for Ana), bound to the sender."""
    name = seats.newcomer_name(wanted, game.has_player_like)
    save(ctx.services, record, game, [game.join(name)], ctx.message.user)
    if bind:
        seats.bind(ctx.storage, record, ctx.message.user, name)
    return name


def join(ctx: Context, record: GameRecord) -> None:
    """/join for a duplicate game: the sender plays (under NAME if given, or takes the free seat NAME);
    the referee's ``/join NAME`` adds a seat for a player with no account here, whose scores the
    referee enters."""
    game = game_of(ctx.services, record)
    mine = _player_of(ctx, record, game)
    wanted = seats.clean_name(" ".join(ctx.tokens))
    own_name = seats.display_name(ctx.message)
    if wanted and ctx.controls(record) and player_key(wanted) != player_key(own_name):
        if find_player(game.players, wanted) is not None:
            raise UserError("err_duplicate_player", player=wanted)
        name = _add_player(ctx, record, game, wanted, bind=False)
        ctx.reply(ctx.say("dup_seat_added", player=name))
        return
    if mine is not None:
        raise UserError("already_seated", player=mine)
    check_one_room(ctx.storage, record, ctx.message)
    target = wanted or own_name
    typed = " ".join(ctx.tokens)
    existing = seats.claimable(game.players, typed) if wanted else seats.named_like(ctx.message, game.players)
    if existing is not None and seats.owner_of(ctx.storage, record, existing) is None:
        seats.bind(ctx.storage, record, ctx.message.user, existing)
        ctx.reply(ctx.say("seat_claimed", player=existing))
        return
    alike = find_player(game.players, target)
    if wanted and alike is not None and seats.owner_of(ctx.storage, record, alike) is None:
        raise UserError("seat_exact_name", player=alike)  # a free seat is taken by its exact name only
    name = _add_player(ctx, record, game, target, bind=True)
    if ctx.services.sheds(Shed.JOINS):  # overloaded: the joiner alone is answered, the channel's line can wait
        welcome = "dup_late_arrival" if game.closed_rounds else "dup_first_play_joins"
        ctx.private(ctx.say(welcome, player=name, n=game.move_number))
        return
    joined = joins_reply(ctx.lang, record, game)
    assert joined is not None  # the player just added
    ctx.replies.append(joined)


@command(
    "play",
    section=Section.DUPLICATE,
    rank=30,
    access=Access.PLAYER,
    slow=True,
    private=True,
    form=Form((text("position", required=True), text("word", required=True), integer("claimed", 0, MOST_POINTS))),
)
def cmd_play(ctx: Context) -> None:
    if not ctx.message.private:
        _refuse_in_public(ctx)
    record = _game_for_player(ctx)
    lang = ctx.storage.channel(record.channel).language
    game = game_of(ctx.services, record)
    if not ctx.args.strip():
        raise UserError("usage", usage=ctx.spec.usage(lang))
    round_ = game.current
    move, claimed = split_claimed(ctx.args.strip())
    now = ctx.message.arrived(ctx.services.now())  # a move that waited behind others is timed by its arrival
    received_for = received_in_time(game, now)
    if received_for is not None:  # received before the last round's end, stored after its close: it counts
        if _player_of(ctx, record, game) is None:  # a newcomer: one room per simultané
            check_one_room(ctx.storage, record, ctx.message)
        seat = _playing_as(ctx, record, game)
        seat = seat or _add_player(ctx, record, game, seats.display_name(ctx.message), bind=True)
        count_after_close(ctx, record, game, received_for, seat, move, claimed, now)
        return
    if round_ is None or round_.draw is None:
        if game.closed_rounds:  # the last round closed before this move arrived
            raise UserError("dup_late", n=len(game.closed_rounds))
        raise UserError("dup_no_round")
    after_close = _just_after_close(ctx, record, game, move, claimed, now)
    if _player_of(ctx, record, game) is None:  # a newcomer: one room per simultané
        check_one_room(ctx.storage, record, ctx.message)
    player = _playing_as(ctx, record, game)
    timed = game.settings.format.timed

    def topping(seat: str) -> str | None:
        return _topping(ctx, record, game, seat, move, now)

    decided = decide_play(
        lang, record, game, ctx.message, ctx.args, now, player, ctx.services.sheds, topping if timed else None
    )
    if decided.seat is not None:
        seats.bind(ctx.storage, record, ctx.message.user, decided.seat)
    save(ctx.services, record, game, decided.events, ctx.message.user)
    if after_close:
        ctx.private(after_close)
    ctx.replies += decided.replies
    if timed and game.current is round_ and _all_topped(ctx, record, game):
        # 3.8.4: "sans temps mort", the next draw as soon as every player has found the top
        ctx.replies += close_round(ctx.services, ctx.storage, record, game, lang, now, ctx.message.user)


def _top_points(ctx: Context, record: GameRecord, game: DuplicateGame) -> int | None:
    """The open round's top score (its search awaited), None while the list is being prepared."""
    future = start_top(ctx.services, record, game)
    if future is None:
        return None
    plays = future.result().plays
    return plays[0].score.total if plays else 0


def _is_top(ctx: Context, record: GameRecord, game: DuplicateGame, player: str, move: str, top: int) -> bool:
    """Whether the move, its words checked, scores the open round's top."""
    checked = game.preview(player, move, ctx.word_list(game_list(record.setup), record.channel))
    return checked.valid and checked.score == top


def _topping(ctx: Context, record: GameRecord, game: DuplicateGame, player: str, move: str, now: float) -> str | None:
    """The private answer to a topping try (3.8.4): the top found and its time, or not the top yet; None
    when the top is not known yet (the usual acknowledgement then)."""
    round_ = game.current
    top = _top_points(ctx, record, game)
    if top is None or round_ is None:
        return None
    lang = ctx.storage.channel(record.channel).language
    if _is_top(ctx, record, game, player, move, top):
        taken = max(0.0, now - (round_.opened_at if round_.opened_at is not None else now))
        return say(lang, "dup_topping_found", n=round_.number, move=move, score=top, seconds=decimal(lang, taken))
    score = game.preview(player, move, ctx.word_list(game_list(record.setup), record.channel)).score
    return say(lang, "dup_topping_not_top", n=round_.number, move=move, score=score)


def _seated_at_draw(game: DuplicateGame) -> bool:
    """Whether any player was seated when the open round's draw was made (a referee's seat, a /join, an
    answer to an earlier round)."""
    seated = at_draw = False
    for event in game.events:
        if isinstance(event, DuplicateStarted):
            seated = bool(event.players)
        elif isinstance(event, PlayerJoined):
            seated = True
        elif isinstance(event, DrawMade):
            at_draw = seated
    return at_draw


def _all_topped(ctx: Context, record: GameRecord, game: DuplicateGame) -> bool:
    """Whether every seated player has sent the open round's top (topping, 3.8.4): those seated when its
    draw was made and those who joined since, whether they have tried or not. A round whose draw found
    nobody seated (the first one, players joining by their first answer) runs its time: who plays is not
    known, and one player's top must not close it on the others."""
    round_ = game.current
    top = _top_points(ctx, record, game)
    if round_ is None or top is None or not _seated_at_draw(game):
        return False
    return all(
        any(_is_top(ctx, record, game, s.player, s.move, top) for s in round_.submissions if s.player == player)
        for player in game.players
    )


def _just_after_close(
    ctx: Context, record: GameRecord, game: DuplicateGame, move: str, claimed: int | None, now: float
) -> str:
    """For a first answer sent while the next draw has only just been shown, that reads as an answer to the
    round just closed (its board and draw, a slip fault allowed: an unmarked joker, a reversed reference, a
    misplaced word; it was meant for it): refused, nothing stored, if it scores 0 on the new draw (graded,
    under sanctions), the player told that the round closed before it came; else the line saying which
    round it counts for. "" when there is nothing to say."""
    round_ = game.current
    assert round_ is not None
    assert round_.draw is not None
    if not game.closed_rounds or round_.opened_at is None:
        return ""
    if not just_drawn(game, now):
        return ""  # (sent before this draw was made: meant for the round before)
    seat = _player_of(ctx, record, game)
    if seat is not None and any(s.player == seat for s in round_.submissions):
        return ""  # already answered this round: it knows the draw
    closed = game.closed_rounds[-1]
    assert closed.board_before is not None
    assert closed.draw is not None
    if not reads_on(closed.board_before, closed.draw.letters, move, claimed, game.edition, game.notation).valid:
        return ""  # not an answer to the round just closed: judged as usual
    lang = ctx.storage.channel(record.channel).language
    values: dict[str, Any] = {"closed": closed.number, "n": round_.number, "draw": round_.draw.spelled(game.edition)}
    preview = game.preview(seat or "", move)
    paid = preview.valid or (
        sanctioned(game) and reads_on(game.board, round_.draw.letters, move, claimed, game.edition, game.notation).valid
    )
    if not paid:
        reason = reason_text(lang, preview, game.notation).rstrip(".") + "."
        raise UserError("dup_closed_before_answer", move=move, reason=reason, **values)
    return say(lang, "dup_counts_for_next", **values)


@command("close", section=Section.DUPLICATE, rank=40, access=Access.REFEREE, slow=True, needs_top=True)
def cmd_close(ctx: Context) -> None:
    record, game = active_duplicate(ctx)
    round_ = game.current
    if round_ is None or round_.draw is None:
        raise UserError("dup_no_round")
    now = ctx.services.now()
    simultane_pacing.check_close(ctx.storage, record, game, now, ctx.lang, ctx.settings.zone)
    ctx.replies += close_round(ctx.services, ctx.storage, record, game, ctx.lang, now, ctx.message.user)


def end(ctx: Context, record: GameRecord) -> None:
    """/end for a duplicate game: it stops now, with the rounds closed so far (in a room of a simultané whose
    round waits for the other rooms, once that round has closed with theirs)."""
    game = game_of(ctx.services, record)
    held = simultane_pacing.held_round(ctx.storage, record)
    if held is not None:  # its held round closes with the other rooms', then the game ends (by the clock)
        ctx.storage.set_game_status(record.id, GameStatus.ENDED)
        ctx.reply(ctx.say("simultane_end_held", n=held[1]))
        return
    replies = finish(ctx.services, record, game, ctx.lang, ctx.say("dup_end_by_referee"))
    image = standings_image(ctx.lang, game) if ctx.services.images and game.closed_rounds else None
    if image is not None:  # the final standings, as at each close
        replies = [dataclasses.replace(reply, image=image, image_name="standings.png") for reply in replies]
    ctx.replies += replies
