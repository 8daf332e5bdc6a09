"""/simultane: one duplicate game played in many rooms, each under its own arbiter and clock, with one
ranking across every room.

``/simultane create [MINUTES] [TIME [END]] [seed WORD] [draws D1 D2 ...]`` (a channel admin) defines one
with this channel's edition, list, notation and rules and gives its code: no time, together from now (a
room's game starts as it joins); one time to come (``HH:MM`` today or ``YYYY-MM-DDTHH:MM``, in the
channel's zone), together at that time: the clock starts every joined room's game then, all at once
(``bot.games.simultane.clock``), and a room joins before it, never after; two, a window in which each
room's admin starts its game with ``/simultane start`` once the organiser has admitted the room.
``/simultane join CODE [NAME...]``, ``admit``, ``refuse``, ``close`` and ``centre``: who takes part and
when the entries close (``bot.games.simultane.entries``); ``/simultane name CODE NAME...`` names (or
renames) the room later (``bot.simultanes.names``: a room with no name is shown "Room N" by joining order).
Played together, the rooms are paced (``bot.games.simultane.pacing``).
``/simultane ranking [CODE]`` shows the overall ranking as far as the visibility rule allows
(``bot.games.simultane.ranking``), ``/simultane export [CODE]`` the same as CSV with each player's
room, ``/simultane export [CODE] sigles`` the federation's files (``bot.games.simultane.export``),
``/simultane status [CODE]`` (or no word) where it stands. Each room's /standings shows its own ranking,
then the overall one.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets

from core.duplicate import Sanctions
from core.simultane import SimultaneDefinition, SimultaneMode, StartBlock

from ...commands.context import Context, UserError
from ...commands.options import Form, Sub, Suggest, Where, flag, integer, text
from ...commands.registry import Access, Section, command
from ...messages import keyword_form, keywords, number
from ...play import seats
from ...simultanes.names import say_counted
from ...storage import Admission
from ...timefmt import zone
from ...words.game_lists import game_list
from ..duplicate.commands import MAX_MINUTES, move_minutes
from .entries import admit, close_entries, join, name_of, set_centre
from .export import federation_files
from .launch import launch
from .ranking import chosen, definition_of, known, mode_said, ranking, status, when

ACTIONS = ("create", "join", "name", "start", "ranking", "export", "status", "close", "admit", "refuse", "centre")
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed again in another room
CODE_LENGTH = 6
CODE = text("code", suggest=Suggest.CODES)  # a simultané's code, the channel's own by default
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
        minutes = move_minutes(ctx, word)
    if reading_draws and not draws:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if len(times) == 2 and times[1] <= times[0]:
        raise UserError("simultane_bad_window")
    if len(times) == 1 and times[0] <= ctx.services.now():  # together at a set time: the time is to come
        raise UserError("simultane_time_past", time=when(ctx, times[0]))
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
        clock_start=len(times) == 1,
    )
    ctx.storage.create_simultane(code, ctx.message.channel, ctx.message.user, definition.to_json())
    ctx.services.lists.prepare_movegen(game_list(settings), "")  # the tops' list, no room's house words
    ctx.reply(
        say_counted(
            ctx.lang,
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
    return mode_said(ctx.lang, ctx.settings.zone, definition)


# --- join and start ----------------------------------------------------------------------------


def rename(ctx: Context, words: list[str]) -> None:
    """``/simultane name CODE NAME...``: this room's centre name in that simultané, as every ranking shows it."""
    ctx.require_admin()
    if len(words) < 2:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    record = known(ctx, words[0])
    name = name_of(ctx, words[1:])
    if not ctx.storage.name_simultane_room(record.id, ctx.message.channel, name):
        raise UserError("simultane_not_joined", code=record.code)
    ctx.reply(ctx.say("simultane_named", code=record.code, name=name))


def start(ctx: Context, words: list[str]) -> None:
    ctx.require_admin()
    record = chosen(ctx, words)
    definition = definition_of(record)
    room = next((r for r in ctx.storage.simultane_rooms(record.id) if r.channel == ctx.message.channel), None)
    if room is None:
        raise UserError("simultane_not_joined", code=record.code)
    if room.game is not None:
        raise UserError("simultane_already_started", code=record.code)
    if room.admission is Admission.PENDING:
        raise UserError("simultane_not_admitted", code=record.code)
    if room.admission is Admission.REFUSED:
        raise UserError("simultane_refused_room", code=record.code)
    now = ctx.services.now()
    block = definition.start_block(now)
    if block is StartBlock.BY_CLOCK:
        raise UserError("simultane_by_clock", code=record.code, time=when(ctx, definition.start))
    if block is StartBlock.TOO_EARLY:
        raise UserError("simultane_too_early", code=record.code, time=when(ctx, definition.start))
    if block is StartBlock.WINDOW_OVER:
        raise UserError("simultane_window_over", code=record.code, time=when(ctx, definition.end or 0.0))
    referee = seats.display_name(ctx.message)
    ctx.replies += launch(ctx.services, record, definition, ctx.message.channel, ctx.message.user, referee, now)


@command(
    "simultane",
    section=Section.VIEWS,
    rank=120,
    access=Access.ADMIN,
    read_without_args=True,
    slow=True,
    form=Form(
        subs=(
            Sub("show", word=""),
            Sub(
                "create",
                (
                    integer("minutes", 1, int(MAX_MINUTES)),
                    text("start"),
                    text("end"),
                    text("seed", shape="seed {}"),
                    text("draws", shape="draws {}"),
                ),
            ),
            Sub("join", (text("code", required=True, suggest=Suggest.CODES), text("name"))),
            Sub("admit", (CODE, text("numbers"))),
            Sub("refuse", (CODE, text("numbers"))),
            Sub("close", (CODE,)),
            Sub("name", (text("code", required=True, suggest=Suggest.CODES), text("name", required=True))),
            Sub("centre", (text("code", required=True, suggest=Suggest.CODES), text("centre", required=True))),
            Sub("start"),
            Sub("ranking", (CODE,)),
            Sub("export", (CODE, flag("sigles", "sigles"))),
            Sub("status", (CODE,)),
        ),
        where=Where.GROUP,
    ),
)
def cmd_simultane(ctx: Context) -> None:
    words = ctx.tokens
    action = action_of(words[0]) if words else None
    rest = words[1:]
    if action == "create":
        create(ctx, rest)
    elif action == "join":
        join(ctx, rest)
    elif action == "name":
        rename(ctx, rest)
    elif action == "start":
        start(ctx, rest)
    elif action == "ranking":
        ranking(ctx, rest)
    elif action == "export":
        federation = [w for w in rest if keyword_form(w) in keywords("keywords_sigles")]
        if federation:
            federation_files(ctx, chosen(ctx, [w for w in rest if w not in federation]))
        else:
            ranking(ctx, rest, export=True)
    elif action == "close":
        close_entries(ctx, rest)
    elif action in ("admit", "refuse"):
        admit(ctx, rest, Admission.ADMITTED if action == "admit" else Admission.REFUSED)
    elif action == "centre":
        set_centre(ctx, rest)
    elif action == "status" or not words:
        status(ctx, rest, mode_text(ctx, definition_of(chosen(ctx, rest))))
    else:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
