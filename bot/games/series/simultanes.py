"""The simultanés of a series: ``/series add CODE`` and ``/series remove CODE`` in the simultané's organiser's
room (by its organiser or an admin there), and what a simultané brings to the series ranking.

A simultané counts by its ranking across every room (``simultane_ranking.overall_of``: solos counted over
all players of all rooms, as far as its visibility rule shows it), each player known by their platform
account as in the channel's own games, and shown with their room's label. Over a series' simultanés a
room's label is its centre's name (the latest given), else "Room N" by the order rooms first joined one of
them, so that one label is one room in the whole ranking (the series' own room, if it joined none, comes
last).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.series import GameResult, PlayerResult

from ...commands.context import Context, UserError
from ...messages import say_counts
from ...numbers import looks_like_number, read_int
from ...simultanes.names import room_labels
from ...storage import GameStatus, SeriesRecord, SimultaneRecord, SimultaneRoom, SimultaneRoomProgress
from ..common.history import TargetGame
from ..simultane.ranking import known, overall_of


def simultane_named(ctx: Context, words: list[str]) -> SimultaneRecord | None:
    """The simultané one word names by its code (None: the words name a game of the channel, by number or
    not at all); a code no simultané has is refused."""
    if len(words) != 1 or read_int(words[0]) is not None or looks_like_number(words[0]):
        return None
    return known(ctx, words[0])


def result_id(record: SimultaneRecord) -> int:
    """The id a simultané's results go by among a series' results (negative: never a game's id)."""
    return -record.id


# --- what a simultané brings to the ranking ---------------------------------------------------------------


@dataclass(frozen=True)
class SimultaneCount:
    """What a simultané brings to a series ranking now: its results over the rounds its visibility rule
    shows (None: none yet), a line for the ranking's heading when that is not its whole ("": it is), and
    its rooms in joining order."""

    record: SimultaneRecord
    result: GameResult | None
    note: str
    rooms: tuple[SimultaneRoom, ...]


def fully_counted(progress: Sequence[SimultaneRoomProgress], rounds: int) -> bool:
    """Whether ``rounds`` visible rounds are the simultané's whole: every started room's game is over (or
    abandoned) and none closed more rounds."""
    playing = [p for p in progress if p.game is not None and p.status != GameStatus.ABANDONED.value]
    over = all(p.status == GameStatus.ENDED.value for p in playing)
    return rounds > 0 and over and all(p.closed <= rounds for p in playing)


def player_key(ctx: Context, key: str, name: str) -> str:
    """A simultané player's key in the series: their account's, as in the channel's own games; a seat no
    account holds, in this room, by its name as the channel's games know it (another room's stays its own)."""
    own_room = f"name:{ctx.message.channel}:"
    return f"name:{name}" if key.startswith(own_room) else key


def simultane_count(ctx: Context, record: SimultaneRecord) -> SimultaneCount:
    """A simultané's overall ranking as visible now, as one game of the series: each player's total (solo
    bonuses over every room in), the sum of the visible tops, each player's room."""
    overall = overall_of(ctx.services, record, ctx.services.now())
    if overall.rounds == 0:
        return SimultaneCount(record, None, ctx.say("series_simultane_hidden", code=record.code), overall.joined)
    players = tuple(
        PlayerResult(player_key(ctx, s.key, s.name), s.name, s.total, s.channel) for s in overall.standings
    )
    first = overall.standings[0] if overall.standings else None
    tops = first.total - first.gap if first is not None else 0
    note = ""
    if not fully_counted(ctx.storage.simultane_progress(record.id), overall.rounds):
        note = say_counts(ctx.lang, "series_simultane_partial", ("rounds",), code=record.code, rounds=overall.rounds)
    return SimultaneCount(record, GameResult(result_id(record), tops, players), note, overall.joined)


def series_room_labels(lang: str, channel: str, counts: Iterable[SimultaneCount]) -> dict[str, str]:
    """Each room's label by channel over a series' simultanés (the series' ``channel`` among them): its
    centre's latest name, else "Room N" by the order rooms first joined one of them."""
    rooms: dict[str, SimultaneRoom] = {}
    for count in counts:
        for room in count.rooms:
            first = rooms.setdefault(room.channel, room)
            if room.name:
                rooms[room.channel] = dataclasses.replace(first, name=room.name)
    if channel not in rooms:
        rooms[channel] = SimultaneRoom(0, channel, None, 0.0)
    return room_labels(lang, rooms.values())


# --- adding and removing ----------------------------------------------------------------------------------


def require_organiser(ctx: Context, record: SimultaneRecord) -> None:
    """Only the simultané's organiser's room puts it in a series or takes it out, by its organiser or an
    admin there."""
    if record.channel != ctx.message.channel:
        raise UserError("series_simultane_elsewhere", code=record.code)
    if not ctx.message.admin and record.organiser != ctx.message.user:
        raise UserError("series_simultane_not_allowed", code=record.code)


def add_simultane(ctx: Context, series: SeriesRecord, record: SimultaneRecord, classic: bool) -> None:
    """Put a simultané in the open series (``classic``: the series holds classic games, refused)."""
    require_organiser(ctx, record)
    if classic:
        raise UserError("series_simultane_classic", code=record.code, name=series.name)
    entries = ctx.storage.series_entries(series.id)
    numbers = {r.id: n for n, r in enumerate(ctx.storage.games(ctx.message.channel), 1)}
    for entry in entries:
        if entry.game is not None and ctx.storage.game(entry.game).setup.simultane == record.code:
            raise UserError("series_simultane_has_game", code=record.code, number=numbers[entry.game], name=series.name)
    if not ctx.storage.add_series_simultane(series.id, record.id):
        raise UserError("series_has_simultane", code=record.code, name=series.name)
    games = len(entries) + 1
    text = say_counts(ctx.lang, "series_simultane_added", ("games",), code=record.code, name=series.name, games=games)
    ctx.reply(text)


def remove_simultane(ctx: Context, series: SeriesRecord, record: SimultaneRecord) -> None:
    """Take a simultané out of the open series."""
    require_organiser(ctx, record)
    if not ctx.storage.remove_series_simultane(series.id, record.id):
        raise UserError("series_lacks_simultane", code=record.code, name=series.name)
    ctx.reply(ctx.say("series_simultane_removed", code=record.code, name=series.name))


def check_not_counted(ctx: Context, series: SeriesRecord, target: TargetGame) -> None:
    """A game of the channel that plays a simultané of the series counts there already, over every room: it
    does not go in twice."""
    code = target.record.setup.simultane
    if not code:
        return
    ids = {entry.simultane for entry in ctx.storage.series_entries(series.id) if entry.simultane is not None}
    found = ctx.storage.simultane(code)
    if found is not None and found.id in ids:
        raise UserError("series_game_in_simultane", number=target.number, code=code, name=series.name)
