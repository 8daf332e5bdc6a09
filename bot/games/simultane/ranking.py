"""A simultané's overall ranking as the rooms see it: computed over every room as far as the visibility
rule allows (``core.simultane.visible_rounds``), as a table, a CSV file or a standings image; what
``/simultane classement|export|etat`` and a simultané room's ``/classement`` show.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from core.cells import inert
from core.duplicate import DuplicateSettings, Sanctions
from core.duplicate.ranking import DuplicateStanding
from core.simultane import (
    OverallStanding,
    RoomProgress,
    RoomResult,
    SimultaneDefinition,
    SimultaneMode,
    overall_standings,
    visible_rounds,
)

from ...chat import Reply
from ...commands.context import Context, UserError
from ...commands.services import Services
from ...messages import decimal, number, say
from ...render.results import StandingsView, standings_png
from ...render.text import table
from ...simultanes.names import room_labels, say_counted
from ...simultanes.rooms import rooms_played
from ...storage import Admission, GameStatus, SimultaneRecord, SimultaneRoom, Storage
from ...timefmt import date_time
from ..duplicate.games import game_of

SHOWN_PLACES = 30  # the overall ranking's rows a message shows (then the room's own); the CSV has them all


def definition_of(record: SimultaneRecord) -> SimultaneDefinition:
    return SimultaneDefinition.from_json(record.definition)


def when_text(zone_name: str, timestamp: float) -> str:
    """A moment as the rooms are told it: date, time and the room's zone."""
    return f"{date_time(timestamp, zone_name)} ({zone_name})"


def when(ctx: Context, timestamp: float) -> str:
    return when_text(ctx.settings.zone, timestamp)


def mode_said(lang: str, zone_name: str, definition: SimultaneDefinition) -> str:
    """The mode and its times, in the room's language and zone."""
    if definition.mode is SimultaneMode.WINDOW and definition.end is not None:
        start, end = when_text(zone_name, definition.start), when_text(zone_name, definition.end)
        return say(lang, "simultane_mode_window", start=start, end=end)
    if definition.clock_start:
        return say(lang, "simultane_mode_clock", start=when_text(zone_name, definition.start))
    return say(lang, "simultane_mode_together", start=when_text(zone_name, definition.start))


def known(ctx: Context, code: str) -> SimultaneRecord:
    found = ctx.storage.simultane(code.strip().upper())
    if found is None:
        raise UserError("simultane_unknown", code=code[:12])
    return found


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


# --- the rooms and the overall ranking ------------------------------------------------------------


def progress_of(storage: Storage, record: SimultaneRecord, now: float | None = None) -> list[RoomProgress]:
    """Every admitted room's progress from storage alone (one statement, no game loaded); with ``now``, a
    round whose deadline has passed counts as time up, held or not yet (its clock's tick holds or closes
    it; its answers after the deadline are late, its clock no longer changes)."""
    return [
        RoomProgress(
            p.channel,
            p.closed,
            started=p.game is not None,
            abandoned=p.status == GameStatus.ABANDONED.value,
            ended=p.status == GameStatus.ENDED.value,
            time_up=p.held or (p.closed + 1 if now is not None and p.deadline is not None and p.deadline <= now else 0),
        )
        for p in storage.simultane_progress(record.id)
        if p.admission is Admission.ADMITTED
    ]


def rooms_of(
    services: Services, record: SimultaneRecord, joined: tuple[SimultaneRoom, ...] | None = None
) -> tuple[list[RoomProgress], list[RoomResult]]:
    """Every room's progress, and the closed rounds and players of those whose game has started (players
    known by their platform account); ``joined``: the rooms already read."""
    storage = services.storage
    rooms = storage.simultane_rooms(record.id) if joined is None else joined
    played = rooms_played(storage, rooms, lambda game_record: game_of(services, game_record))
    return played.progress, played.results


@dataclass(frozen=True)
class Overall:
    """The overall ranking over ``rounds`` visible rounds of ``rooms`` rooms (none visible: ``rounds`` 0)."""

    rounds: int
    rooms: int
    standings: tuple[OverallStanding, ...]
    joined: tuple[SimultaneRoom, ...] = ()  # every room, in joining order: their labels

    def labels(self, lang: str) -> dict[str, str]:
        """Each room's label by channel: its centre's name, else "Room N" (``bot.simultanes.names``)."""
        return room_labels(lang, self.joined)


def overall_of(services: Services, record: SimultaneRecord, now: float, rounds: int | None = None) -> Overall:
    """The overall ranking as the visibility rule allows at ``now`` (or over ``rounds`` rounds)."""
    definition = definition_of(record)
    joined = tuple(services.storage.simultane_rooms(record.id))  # every room: their labels by joining order
    progress, results = rooms_of(services, record, joined)
    shown = visible_rounds(definition, progress, now) if rounds is None else rounds
    if shown == 0:
        return Overall(0, len(results), (), joined)
    settings = DuplicateSettings(sanctions=Sanctions(definition.sanctions))
    return Overall(shown, len(results), tuple(overall_standings(results, shown, settings)), joined)


def hidden_key(definition: SimultaneDefinition) -> str:
    """The message saying when the overall ranking will be visible."""
    if definition.mode is SimultaneMode.WINDOW and definition.end is not None:
        return "simultane_hidden_window"
    return "simultane_hidden_together"


def hidden_text(lang: str, zone_name: str, record: SimultaneRecord) -> str:
    definition = definition_of(record)
    return say(lang, hidden_key(definition), code=record.code, time=when_text(zone_name, definition.end or 0.0))


def ranking_table(lang: str, overall: Overall) -> str:
    """The overall ranking as a text table, each player's room by its label (and, when a room ended early,
    the rounds it played)."""
    labels = overall.labels(lang)
    stopped = any(s.stopped is not None for s in overall.standings)
    header = [
        "#",
        say(lang, "col_player"),
        say(lang, "col_room"),
        say(lang, "col_total"),
        say(lang, "col_gap"),
        "%",
        say(lang, "col_solos"),
        *([say(lang, "col_stopped")] if stopped else []),
    ]
    rows = [
        [
            s.place,
            s.name,
            labels.get(s.channel, ""),
            s.total,
            f"{s.gap:+d}" if s.gap else "0",
            decimal(lang, s.percent),
            s.solos,
            *(["" if s.stopped is None else s.stopped] if stopped else []),
        ]
        for s in overall.standings
    ]
    return "```\n" + table(rows, header) + "\n```"


def ranking_csv(lang: str, overall: Overall) -> bytes:
    """The overall ranking as UTF-8 CSV, headers in the channel's language, each player's room named, and
    the rounds their room played when it ended before the ranking's (empty otherwise); names inert
    (``core.cells``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = ("place", "player", "room", "total", "gap", "percent", "solos", "warnings", "stopped")
    writer.writerow([say(lang, f"col_{key}") for key in keys])
    labels = overall.labels(lang)
    for s in overall.standings:
        room = labels.get(s.channel, "")
        stopped = "" if s.stopped is None else s.stopped
        row = [s.place, inert(s.name), inert(room), s.total, s.gap, f"{s.percent:.1f}", s.solos, s.warnings, stopped]
        writer.writerow(row)
    return out.getvalue().encode("utf-8")


def overall_png(lang: str, record: SimultaneRecord, overall: Overall) -> bytes:
    """The overall ranking drawn as a room's standings are (``bot.render.results``)."""
    return standings_png(overall_view(lang, record, overall))


def overall_view(lang: str, record: SimultaneRecord, overall: Overall) -> StandingsView:
    """The overall ranking as the standings image draws it: its own title, each player's room."""
    first = overall.standings[0] if overall.standings else None
    tops = first.total - first.gap if first is not None else 0
    standings = tuple(
        DuplicateStanding(s.place, s.name, s.total, s.gap, s.percent, s.solos, s.warnings) for s in overall.standings
    )
    sanctioned = definition_of(record).sanctions != Sanctions.NONE.value
    labels = overall.labels(lang)
    marked = {s.channel: s.stopped for s in overall.standings if s.stopped is not None}  # rooms that stopped early
    rooms = tuple(labels.get(s.channel, "") + (" *" if s.channel in marked else "") for s in overall.standings)
    notes = tuple(
        "* " + say(lang, "simultane_stopped_room", room=labels.get(channel, ""), n=n) for channel, n in marked.items()
    )
    title = say(lang, "image_overall_title", code=record.code)
    return StandingsView(
        lang, overall.rounds, tops, standings, sanctioned=sanctioned, title=title, rooms=rooms, notes=notes
    )


def shown(overall: Overall, channel: str) -> Overall:
    """What a message shows of the overall ranking: its first ``SHOWN_PLACES`` rows, then those of the room
    asking past them (the whole ranking is the CSV export's)."""
    kept = tuple(s for i, s in enumerate(overall.standings) if i < SHOWN_PLACES or s.channel == channel)
    return Overall(overall.rounds, overall.rooms, kept, overall.joined)


def overall_reply(
    services: Services, lang: str, record: SimultaneRecord, overall: Overall, channel: str, key: str
) -> Reply:
    """The overall ranking in one reply: its heading (``key``) and the table, or the heading and an image;
    past ``SHOWN_PLACES`` players, only the room's own after them, and a line saying so."""
    count = len(overall.standings)
    heading = say_counted(lang, key, code=record.code, rounds=overall.rounds, rooms=overall.rooms, players=count)
    part = shown(overall, channel)
    if len(part.standings) < count:
        heading += "\n" + say(lang, "simultane_ranking_part", shown=SHOWN_PLACES, players=count)
    if services.images and part.standings:
        return Reply(heading, channel=channel, image=overall_png(lang, record, part), image_name="overall.png")
    return Reply(heading + "\n" + ranking_table(lang, part), channel=channel)


# --- the commands --------------------------------------------------------------------------------


def ranking(ctx: Context, words: list[str], *, export: bool = False) -> None:
    """The overall ranking as far as the visibility rule allows: a table (or an image), or (``export``) a
    CSV file with each player's room."""
    record = chosen(ctx, words)
    overall = overall_of(ctx.services, record, ctx.services.now())
    if overall.rounds == 0:
        definition = definition_of(record)
        raise UserError(hidden_key(definition), code=record.code, time=when(ctx, definition.end or 0.0))
    if export:
        data = ranking_csv(ctx.lang, overall)
        count = len(overall.standings)
        text = say_counted(ctx.lang, "simultane_export", code=record.code, rounds=overall.rounds, players=count)
        ctx.reply(text, document=data, document_name=f"simultane-{record.code}.csv")
        return
    reply = overall_reply(ctx.services, ctx.lang, record, overall, ctx.message.channel, "simultane_ranking_heading")
    if reply.image is None and len(overall.standings) <= SHOWN_PLACES:  # the text as before: one message
        heading = say_counted(
            ctx.lang,
            "simultane_ranking",
            code=record.code,
            rounds=overall.rounds,
            rooms=overall.rooms,
            players=len(overall.standings),
            table=ranking_table(ctx.lang, shown(overall, ctx.message.channel)),
        )
        ctx.reply(heading)
        return
    ctx.replies.append(reply)


def standings_addition(ctx: Context, code: str) -> Reply:
    """What a simultané room's /classement adds under its own ranking: the overall ranking once visible,
    else when it will be."""
    record = known(ctx, code)
    overall = overall_of(ctx.services, record, ctx.services.now())
    if overall.rounds == 0:
        return Reply(hidden_text(ctx.lang, ctx.settings.zone, record), channel=ctx.message.channel)
    return overall_reply(ctx.services, ctx.lang, record, overall, ctx.message.channel, "simultane_ranking_heading")


def status(ctx: Context, words: list[str], mode: str) -> None:
    record = chosen(ctx, words)
    definition = definition_of(record)
    progress = progress_of(ctx.storage, record)
    rounds = visible_rounds(definition, progress, ctx.services.now())
    text = say_counted(
        ctx.lang,
        "simultane_status",
        code=record.code,
        mode=mode,
        rooms=len(progress),
        playing=sum(1 for r in progress if r.started and not r.abandoned),
        waiting=sum(1 for r in progress if not r.started),
        rounds=rounds,
        minutes=number(ctx.lang, definition.minutes),
        edition=definition.edition,
        lexicon=definition.lexicon,
    )
    rooms = ctx.storage.simultane_rooms(record.id)
    labels = room_labels(ctx.lang, rooms)
    admitted = [labels[room.channel] for room in rooms if room.admitted]
    if admitted:
        text += "\n" + ctx.say("simultane_status_rooms", rooms=", ".join(admitted))
    closed = definition.join_block(ctx.services.now(), record.entries_closed is not None)
    if closed is None:
        text += "\n" + ctx.say("simultane_status_entries_open")
    elif record.entries_closed is not None:
        text += "\n" + ctx.say("simultane_status_entries_closed", time=when(ctx, record.entries_closed))
    pending = sum(1 for room in rooms if room.admission is Admission.PENDING)
    if pending and ctx.message.channel == record.channel:
        text += "\n" + ctx.say("simultane_status_pending", n=pending, code=record.code)
    ctx.reply(text)
