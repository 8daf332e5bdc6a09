"""/simultane: one duplicate game played in many rooms, each under its own arbiter and clock, with one
ranking across every room.

``/simultane create [MINUTES] [TIME [END]] [seed WORD] [draws D1 D2 ...]`` (a channel admin) defines one
with this channel's edition, list, notation and rules and gives its code: no time, together from now; one
time (``HH:MM`` today or ``YYYY-MM-DDTHH:MM``, in the channel's zone), together from then; two, a window
in which each room plays at its own time. ``/simultane join CODE`` (a channel admin of another room, or of
this one) puts the room in it and starts its game at once when the time allows, else ``/simultane start``
does once it does. ``/simultane ranking [CODE]`` shows the overall ranking as far as the visibility rule
allows (``core.simultane.visible_rounds``), ``/simultane export [CODE]`` the same as CSV with each player's
room, ``/simultane status [CODE]`` (or no word) where it stands.
Each room's own ranking is /standings, as for any game.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import secrets

from core.duplicate import DuplicateGame, DuplicateSettings, Sanctions
from core.edition import edition_by_code
from core.notation import notation_by_name
from core.simultane import (
    OverallStanding,
    RoomPlayer,
    RoomProgress,
    RoomResult,
    SimultaneDefinition,
    SimultaneMode,
    StartBlock,
    overall_standings,
    visible_rounds,
)

from ..messages import decimal, keyword_form, keywords, number
from ..numbers import looks_like_number
from ..render.text import table
from ..storage import GameKind, GameSetup, GameStatus, SimultaneRecord
from ..timefmt import date_time, zone
from ..word_lists import game_list
from . import seats
from .context import Context, UserError
from .duplicate_games import game_of, save
from .duplicate_rounds import open_next_round
from .registry import Access, Section, command

ACTIONS = ("create", "join", "start", "ranking", "export", "status")
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed again in another room
CODE_LENGTH = 6
MIN_MINUTES, MAX_MINUTES = 0.05, 10.0  # as /duplicate
FISF_RULES = "fisf"  # as /duplicate: the channel's rule set under which the game takes the FISF sanctions
DRAW_TEXT = re.compile(r"^(?:[^\W\d_]|\?){0,8}(?:\+(?:[^\W\d_]|\?){1,8})?$")  # ABC?, EEU+ESI?: letters, jokers
TIME_TEXT = re.compile(r"^(?:(\d{4}-\d{2}-\d{2})t)?(\d{1,2}):(\d{2})$")


def action_of(word: str) -> str | None:
    """The sub-command a word names, in any catalog's words."""
    typed = keyword_form(word)
    return next((action for action in ACTIONS if typed in keywords(f"keywords_simultane_{action}")), None)


def time_of(ctx: Context, word: str) -> float | None:
    """The time ``HH:MM`` (today) or ``YYYY-MM-DDTHH:MM`` names in the channel's zone (None: not a time)."""
    found = TIME_TEXT.match(keyword_form(word))
    if found is None:
        return None
    place = zone(ctx.settings.zone)
    try:
        day = (
            dt.date.fromisoformat(found.group(1))
            if found.group(1)
            else dt.datetime.fromtimestamp(ctx.services.now(), place).date()
        )
        moment = dt.time(int(found.group(2)), int(found.group(3)))
    except ValueError:
        raise UserError("simultane_bad_time", text=word[:20]) from None
    return dt.datetime.combine(day, moment, place).timestamp()


def new_code(ctx: Context) -> str:
    """A code no simultané has yet."""
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if ctx.storage.simultane(code) is None:
            return code


def definition_of(record: SimultaneRecord) -> SimultaneDefinition:
    return SimultaneDefinition.from_json(record.definition)


def when(ctx: Context, timestamp: float) -> str:
    return f"{date_time(timestamp, ctx.settings.zone)} ({ctx.settings.zone})"


# --- create ------------------------------------------------------------------------------------


def create(ctx: Context, words: list[str]) -> None:
    ctx.require_admin()
    settings = ctx.settings
    minutes, times, seed, draws = settings.minutes, list[float](), "", list[str]()
    reading_draws = False
    index = 0
    while index < len(words):
        word = words[index]
        form = keyword_form(word)
        index += 1
        if form in keywords("keywords_simultane_seed"):
            if index >= len(words):
                raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
            seed, reading_draws = words[index][:64], False
            index += 1
            continue
        if form in keywords("keywords_simultane_draws"):
            reading_draws = True
            continue
        if reading_draws:
            if not DRAW_TEXT.match(word.upper()) or not word.strip("+"):
                raise UserError("simultane_bad_draw", text=word[:20])
            draws.append(word.upper())
            continue
        moment = time_of(ctx, word)
        if moment is not None:
            if len(times) == 2:
                raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
            times.append(moment)
            continue
        if not looks_like_number(word):
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        value = ctx.number(word)
        if not MIN_MINUTES <= value <= MAX_MINUTES:
            raise UserError("bad_minutes", value=word[:20])
        minutes = value
    if reading_draws and not draws:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if len(times) == 2 and times[1] <= times[0]:
        raise UserError("simultane_bad_window")
    ctx.word_list(game_list(settings))  # the list must be usable here before rooms are told the code
    code = new_code(ctx)
    definition = SimultaneDefinition(
        code=code,
        organiser=ctx.message.user,
        channel=ctx.message.channel,
        seed=seed or secrets.token_hex(12),
        edition=settings.edition,
        lexicon=settings.lexicon,
        notation=settings.notation,
        minutes=minutes,
        sanctions=(Sanctions.FISF if settings.rules == FISF_RULES else Sanctions.NONE).value,
        mode=SimultaneMode.WINDOW if len(times) == 2 else SimultaneMode.TOGETHER,
        start=times[0] if times else ctx.services.now(),
        end=times[1] if len(times) == 2 else None,
        draws=tuple(draws),
    )
    ctx.storage.create_simultane(code, ctx.message.channel, ctx.message.user, definition.to_json())
    ctx.services.lists.prepare_movegen(game_list(settings), "")  # the tops' list, no room's house words
    ctx.reply(
        ctx.say(
            "simultane_created",
            code=code,
            mode=mode_text(ctx, definition),
            minutes=number(ctx.lang, minutes),
            edition=definition.edition,
            lexicon=definition.lexicon,
            draws=len(draws),
        )
    )


def mode_text(ctx: Context, definition: SimultaneDefinition) -> str:
    if definition.mode is SimultaneMode.WINDOW and definition.end is not None:
        return ctx.say("simultane_mode_window", start=when(ctx, definition.start), end=when(ctx, definition.end))
    return ctx.say("simultane_mode_together", start=when(ctx, definition.start))


# --- join and start ----------------------------------------------------------------------------


def known(ctx: Context, code: str) -> SimultaneRecord:
    found = ctx.storage.simultane(code.strip().upper())
    if found is None:
        raise UserError("simultane_unknown", code=code[:12])
    return found


def join(ctx: Context, words: list[str]) -> None:
    ctx.require_admin()
    if len(words) != 1:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    record = known(ctx, words[0])
    definition = definition_of(record)
    block = definition.start_block(ctx.services.now())
    if block is StartBlock.WINDOW_OVER:
        raise UserError("simultane_window_over", code=record.code, time=when(ctx, definition.end or 0.0))
    if not ctx.storage.join_simultane(record.id, ctx.message.channel):
        raise UserError("simultane_already_joined", code=record.code)
    ctx.reply(ctx.say("simultane_joined", code=record.code, mode=mode_text(ctx, definition)))
    if block is None:
        start_game(ctx, record, definition)
    else:
        ctx.reply(ctx.say("simultane_wait", code=record.code, time=when(ctx, definition.start)))


def start(ctx: Context, words: list[str]) -> None:
    ctx.require_admin()
    record = chosen(ctx, words)
    definition = definition_of(record)
    room = next((r for r in ctx.storage.simultane_rooms(record.id) if r.channel == ctx.message.channel), None)
    if room is None:
        raise UserError("simultane_not_joined", code=record.code)
    if room.game is not None:
        raise UserError("simultane_already_started", code=record.code)
    block = definition.start_block(ctx.services.now())
    if block is StartBlock.TOO_EARLY:
        raise UserError("simultane_too_early", code=record.code, time=when(ctx, definition.start))
    if block is StartBlock.WINDOW_OVER:
        raise UserError("simultane_window_over", code=record.code, time=when(ctx, definition.end or 0.0))
    start_game(ctx, record, definition)


def start_game(ctx: Context, record: SimultaneRecord, definition: SimultaneDefinition) -> None:
    """The room's duplicate game of the simultané: its edition, list, notation, clock and sanctions, its
    draws (``core.simultane.next_draw``), no house words of the room; then its first draw."""
    running = ctx.storage.active_game(ctx.message.channel)
    if running is not None:
        raise UserError("simultane_game_running", kind=ctx.say(f"kind_{running.kind}"), code=record.code)
    dup_settings = DuplicateSettings(
        minutes=definition.minutes,
        notation=notation_by_name(definition.notation),
        sanctions=Sanctions(definition.sanctions),
    )
    game = DuplicateGame(edition_by_code(definition.edition), (), dup_settings, definition.lexicon)
    setup = GameSetup(
        edition=definition.edition,
        lexicon=definition.lexicon,
        notation=definition.notation,
        referee_name=seats.display_name(ctx.message),
        simultane=definition.code,
    )
    ctx.services.lists.verdicts(game_list(setup), "")  # the list must be ready: not at the first close
    game_record = ctx.storage.create_game(ctx.message.channel, GameKind.DUPLICATE, ctx.message.user, setup)
    ctx.storage.set_simultane_game(record.id, ctx.message.channel, game_record.id)
    save(ctx.services, game_record, game, list(game.events), ctx.message.user)
    ctx.reply(ctx.say("simultane_started", code=record.code, minutes=number(ctx.lang, definition.minutes)))
    ctx.replies += open_next_round(ctx.services, ctx.storage, game_record, game, ctx.lang, ctx.services.now())


# --- ranking and status ------------------------------------------------------------------------


def chosen(ctx: Context, words: list[str]) -> SimultaneRecord:
    """The simultané a code names, else the last one this room organised or joined."""
    if len(words) > 1:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if words:
        return known(ctx, words[0])
    mine = ctx.storage.channel_simultanes(ctx.message.channel)
    if not mine:
        raise UserError("simultane_none")
    return mine[-1]


def rooms_of(ctx: Context, record: SimultaneRecord) -> tuple[list[RoomProgress], list[RoomResult]]:
    """Every room's progress, and the closed rounds and players of those whose game has started (players
    known by their platform account)."""
    progress: list[RoomProgress] = []
    results: list[RoomResult] = []
    for room in ctx.storage.simultane_rooms(record.id):
        if room.game is None:
            progress.append(RoomProgress(room.channel, 0, started=False))
            continue
        game_record = ctx.storage.game(room.game)
        game = game_of(ctx.services, game_record)
        closed = tuple(game.closed_rounds)
        abandoned = game_record.status is GameStatus.ABANDONED
        progress.append(RoomProgress(room.channel, len(closed), abandoned=abandoned))
        if abandoned:
            continue
        accounts = {name: user for user, name in ctx.storage.players(room.game)}
        players = tuple(
            RoomPlayer(f"user:{accounts[p]}" if p in accounts else f"name:{room.channel}:{p}", p)
            for p in game.players
        )
        results.append(RoomResult(room.channel, players, closed))
    return progress, results


def ranking(ctx: Context, words: list[str], *, export: bool = False) -> None:
    """The overall ranking as far as the visibility rule allows: a table, or (``export``) a CSV file
    with each player's room."""
    record = chosen(ctx, words)
    definition = definition_of(record)
    progress, results = rooms_of(ctx, record)
    rounds = visible_rounds(definition, progress, ctx.services.now())
    if rounds == 0:
        if definition.mode is SimultaneMode.WINDOW and definition.end is not None:
            raise UserError("simultane_hidden_window", code=record.code, time=when(ctx, definition.end))
        raise UserError("simultane_hidden_together", code=record.code)
    settings = DuplicateSettings(sanctions=Sanctions(definition.sanctions))
    standings = overall_standings(results, rounds, settings)
    if export:
        data = ranking_csv(ctx, standings)
        count = len(standings)
        text = ctx.say("simultane_export", code=record.code, rounds=rounds, players=count)
        ctx.reply(text, document=data, document_name=f"simultane-{record.code}.csv")
        return
    text = ctx.say(
        "simultane_ranking",
        code=record.code,
        rounds=rounds,
        rooms=len(results),
        players=len(standings),
        table=ranking_table(ctx, standings),
    )
    ctx.reply(text)


def ranking_table(ctx: Context, standings: list[OverallStanding]) -> str:
    header = ["#", ctx.say("col_player"), ctx.say("col_total"), ctx.say("col_gap"), "%", ctx.say("col_solos")]
    rows = [
        [s.place, s.name, s.total, f"{s.gap:+d}" if s.gap else "0", decimal(ctx.lang, s.percent), s.solos]
        for s in standings
    ]
    return "```\n" + table(rows, header) + "\n```"


def ranking_csv(ctx: Context, standings: list[OverallStanding]) -> bytes:
    """The overall ranking as UTF-8 CSV, headers in the channel's language, each player's room named."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = ("place", "player", "room", "total", "gap", "percent", "solos", "warnings")
    writer.writerow([ctx.say(f"col_{key}") for key in keys])
    for s in standings:
        writer.writerow([s.place, s.name, s.channel, s.total, s.gap, f"{s.percent:.1f}", s.solos, s.warnings])
    return out.getvalue().encode("utf-8")


def status(ctx: Context, words: list[str]) -> None:
    record = chosen(ctx, words)
    definition = definition_of(record)
    progress, _ = rooms_of(ctx, record)
    rounds = visible_rounds(definition, progress, ctx.services.now())
    text = ctx.say(
        "simultane_status",
        code=record.code,
        mode=mode_text(ctx, definition),
        rooms=len(progress),
        playing=sum(1 for r in progress if r.started and not r.abandoned),
        waiting=sum(1 for r in progress if not r.started),
        rounds=rounds,
        minutes=number(ctx.lang, definition.minutes),
        edition=definition.edition,
        lexicon=definition.lexicon,
    )
    ctx.reply(text)


@command("simultane", section=Section.VIEWS, access=Access.ADMIN, read_without_args=True, slow=True)
def cmd_simultane(ctx: Context) -> None:
    words = ctx.tokens
    action = action_of(words[0]) if words else None
    rest = words[1:]
    if action == "create":
        create(ctx, rest)
    elif action == "join":
        join(ctx, rest)
    elif action == "start":
        start(ctx, rest)
    elif action == "ranking":
        ranking(ctx, rest)
    elif action == "export":
        ranking(ctx, rest, export=True)
    elif action == "status" or not words:
        status(ctx, rest)
    else:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
