"""Who takes part in a simultané, and when: a room joins (``/simultane join CODE [NAME...]``), in a window
only once the organiser has admitted it (``/simultane admit|refuse CODE N...`` in the organiser's room, N
the room's number as its request said it); the entries close at the start (together at a set time), at
the organiser's room's first close (together from now), at the window's end, or when the organiser says so
(``/simultane close [CODE]``), and a late room is refused with the reason. A room's game starts as it
joins together from now, by the clock together at a set time, and with ``/simultane start`` in a window
(never by joining). ``/simultane centre CODE CENTRE`` gives a room its federation centre code.
"""

from __future__ import annotations

import re

from core.simultane import SimultaneMode, StartBlock

from ...chat import Reply
from ...commands.context import Context, UserError
from ...messages import say
from ...numbers import read_int
from ...play import seats
from ...simultanes.names import NAME_MAX, centre_name, room_labels, say_counted
from ...storage import Admission, SimultaneRecord, SimultaneRoom
from .launch import launch
from .ranking import chosen, definition_of, known, mode_said, when

CENTRE_TEXT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,15}$")  # a federation's centre code: 1 to 16 of A-Z 0-9 -
PLATFORMS = {"discord": "Discord", "telegram": "Telegram", "console": "console", "terminal": "console"}


def platform_of(channel: str) -> str:
    """The platform a channel's key names (``discord:123`` -> Discord)."""
    return PLATFORMS.get(channel.split(":", 1)[0], channel.split(":", 1)[0])


def name_of(ctx: Context, words: list[str]) -> str:
    """The centre's name the words give; UserError, politely, for one too long or with other characters."""
    name = centre_name(words)
    if name is None:
        raise UserError("simultane_bad_name", most=NAME_MAX)
    return name


def join(ctx: Context, words: list[str]) -> None:
    """``/simultane join CODE [NAME...]``: this room in the simultané (refused once its entries are closed);
    in a window, a request the organiser's room is told of, this room starting nothing yet."""
    ctx.require_admin()
    if not words:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    record = known(ctx, words[0])
    name = name_of(ctx, words[1:]) if len(words) > 1 else ""
    definition = definition_of(record)
    now = ctx.services.now()
    blocked = definition.join_block(now, record.entries_closed is not None)
    if blocked is StartBlock.WINDOW_OVER:
        raise UserError("simultane_window_over", code=record.code, time=when(ctx, definition.end or 0.0))
    if blocked is StartBlock.STARTED:
        raise UserError("simultane_join_too_late", code=record.code, time=when(ctx, definition.start))
    if blocked is StartBlock.ENTRIES_CLOSED:
        raise UserError("simultane_entries_closed", code=record.code, time=when(ctx, record.entries_closed or now))
    channel = ctx.message.channel
    pending = definition.admission and channel != record.channel  # the organiser's own room needs no word
    due = definition.start if definition.clock_start else None
    referee = seats.display_name(ctx.message)
    admission = Admission.PENDING if pending else Admission.ADMITTED
    if not ctx.storage.join_simultane(record.id, channel, due, ctx.message.user, referee, name, admission):
        raise UserError("simultane_already_joined", code=record.code)
    mode = mode_said(ctx.lang, ctx.settings.zone, definition)
    if name:
        ctx.reply(ctx.say("simultane_joined_named", code=record.code, name=name, mode=mode))
    else:
        ctx.reply(ctx.say("simultane_joined", code=record.code, mode=mode))
    if pending:
        ctx.reply(ctx.say("simultane_join_pending", code=record.code))
        ctx.replies.append(_request_notice(ctx, record, channel, name, referee))
    elif definition.clock_start:
        ctx.reply(ctx.say("simultane_wait_clock", code=record.code, time=when(ctx, definition.start)))
    elif definition.mode is SimultaneMode.TOGETHER:  # together from now: the room's game starts as it joins
        ctx.replies += launch(ctx.services, record, definition, channel, ctx.message.user, referee, now)
    else:
        ctx.reply(_start_hint(ctx.lang, ctx.settings.zone, record))


def _start_hint(lang: str, zone: str, record: SimultaneRecord) -> str:
    """How an admitted room of a window starts its game: ``/simultane start`` between the window's times."""
    return say(lang, "simultane_start_hint", code=record.code, mode=mode_said(lang, zone, definition_of(record)))


def _room_number(rooms: list[SimultaneRoom], channel: str) -> int:
    """The room's number in joining order (the N of "Room N"), from 1."""
    return next(index for index, room in enumerate(rooms, start=1) if room.channel == channel)


def _request_notice(ctx: Context, record: SimultaneRecord, channel: str, name: str, referee: str) -> Reply:
    """The organiser's room told of a room asking to take part in its window: its number, platform, name."""
    rooms = ctx.storage.simultane_rooms(record.id)
    lang = ctx.storage.channel(record.channel).language
    number = _room_number(rooms, channel)
    text = say(
        lang,
        "simultane_request",
        code=record.code,
        n=number,
        platform=platform_of(channel),
        name=name or say(lang, "simultane_request_unnamed"),
        referee=referee[:40],
    )
    return Reply(text, channel=record.channel)


def _organised(ctx: Context, words: list[str]) -> tuple[SimultaneRecord, list[str]]:
    """The simultané a command of the organiser's room names (its code first, else the room's last one),
    and the words after it; UserError outside the organiser's room."""
    code = words[0] if words and read_int(words[0]) is None else None
    record = chosen(ctx, [code] if code is not None else [])
    if ctx.message.channel != record.channel:
        raise UserError("simultane_organiser_only", code=record.code)
    return record, words[1:] if code is not None else words


def admit(ctx: Context, words: list[str], admission: Admission) -> None:
    """``/simultane admit|refuse [CODE] N...``: the organiser's word on rooms that asked to take part (by the
    numbers their requests gave); each room is told. Without a number: the requests waiting."""
    ctx.require_admin()
    record, rest = _organised(ctx, words)
    rooms = ctx.storage.simultane_rooms(record.id)
    pending = {n: room for n, room in enumerate(rooms, start=1) if room.admission is Admission.PENDING}
    if not rest:
        ctx.reply(pending_text(ctx.lang, record, rooms))
        return
    numbers = [read_int(word) for word in rest]
    chosen_rooms = [pending.get(n) for n in numbers if n is not None]
    if None in numbers or None in chosen_rooms or not chosen_rooms:
        raise UserError("simultane_no_request", code=record.code, listed=_numbers_text(ctx.lang, pending))
    key = "simultane_admitted" if admission is Admission.ADMITTED else "simultane_refused"
    labels = room_labels(ctx.lang, rooms)
    named = ", ".join(labels[room.channel] for room in chosen_rooms if room is not None)
    ctx.reply(say_counted(ctx.lang, key, code=record.code, rooms_named=named, rooms=len(chosen_rooms)))
    for room in chosen_rooms:
        assert room is not None
        ctx.storage.admit_simultane_room(record.id, room.channel, admission)
        settings = ctx.storage.channel(room.channel)
        told = say(settings.language, f"{key}_room", code=record.code)
        if admission is Admission.ADMITTED:
            told += "\n" + _start_hint(settings.language, settings.zone, record)
        ctx.replies.append(Reply(told, channel=room.channel))


def pending_text(lang: str, record: SimultaneRecord, rooms: list[SimultaneRoom]) -> str:
    """The requests waiting for the organiser's word, one line each (number, platform, name)."""
    pending = [(n, room) for n, room in enumerate(rooms, start=1) if room.admission is Admission.PENDING]
    if not pending:
        return say(lang, "simultane_no_requests", code=record.code)
    lines = [
        say(
            lang,
            "simultane_request_line",
            n=n,
            platform=platform_of(room.channel),
            name=room.name or say(lang, "simultane_request_unnamed"),
            referee=room.referee_name[:40],
        )
        for n, room in pending
    ]
    return say(lang, "simultane_requests", code=record.code) + "\n" + "\n".join(lines)


def _numbers_text(lang: str, pending: dict[int, SimultaneRoom]) -> str:
    return ", ".join(str(n) for n in pending) or say(lang, "simultane_none_waiting")


def close_entries(ctx: Context, words: list[str]) -> None:
    """``/simultane close [CODE]``: no room may join any more (the organiser's room); the rooms that waited
    for it show their results at the clock's next tick."""
    ctx.require_admin()
    record, rest = _organised(ctx, words)
    if rest:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    now = ctx.services.now()
    if not ctx.storage.close_simultane_entries(record.id, now):
        raise UserError("simultane_entries_closed", code=record.code, time=when(ctx, record.entries_closed or now))
    ctx.services.clock.next_due = min(ctx.services.clock.next_due, now)
    rooms = ctx.storage.simultane_rooms(record.id)
    admitted = sum(1 for room in rooms if room.admitted)
    waiting = sum(1 for room in rooms if room.admission is Admission.PENDING)
    ctx.reply(say_counted(ctx.lang, "simultane_entries_now_closed", code=record.code, rooms=admitted, waiting=waiting))


def set_centre(ctx: Context, words: list[str]) -> None:
    """``/simultane centre CODE CENTRE``: this room's federation centre code, in its results file's name and
    the archive's list of centres (``-`` takes it away)."""
    ctx.require_admin()
    if len(words) != 2:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    record = known(ctx, words[0])
    centre = "" if words[1] == "-" else words[1].upper()
    if centre and CENTRE_TEXT.match(centre) is None:
        raise UserError("simultane_bad_centre", text=words[1][:20])
    if not ctx.storage.set_simultane_centre(record.id, ctx.message.channel, centre):
        raise UserError("simultane_not_joined", code=record.code)
    key = "simultane_centre_set" if centre else "simultane_centre_removed"
    ctx.reply(ctx.say(key, code=record.code, centre=centre))
