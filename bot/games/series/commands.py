"""/series (/serie): a tournament of the channel's duplicate games, and of simultanés it organised, with one
cumulative ranking; /season (/saison): the ranking of the channel's finished duplicate games, optionally
since a date.

``/series new NAME`` opens a series (a channel admin; one open at a time), ``/series add [N]`` puts the
running game, else the last one, or game N of /games in it (that game's referee or a channel admin),
``/series add CODE`` a simultané (in its organiser's room, by its organiser or an admin there:
``bot.games.series.simultanes``), ``/series remove N|CODE`` takes one out, ``/series end`` closes it (a
channel admin); ``/series`` shows the ranking of the open series, else of the last one, ``/series NAME``
another one's, ``/series export`` its ranking as CSV. Players are the same person across games by their
platform account (the seat their account holds), else by their seat name; a simultané counts by its
ranking across every room, as far as its visibility rule shows it, each player with their room.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from core.series import GameResult, PlayerResult, classic_standings, cumulative_standings

from ...commands.context import Context, UserError
from ...commands.options import Form, Sub, Suggest, Where, integer, text
from ...commands.registry import Access, Section, command
from ...messages import keyword_form, keywords, say_counts
from ...storage import GameKind, GameRecord, GameStatus, SeriesEntry, SeriesRecord, SeriesStatus
from ...timefmt import zone
from ..common.history import TargetGame, target_game
from ..duplicate.games import game_of
from .simultanes import (
    add_simultane,
    check_not_counted,
    remove_simultane,
    result_id,
    series_room_labels,
    simultane_count,
    simultane_named,
)
from .tables import Names, classic_csv, classic_table, ranking_csv, ranking_table

SERIES_NAME_LIMIT = 40
ACTIONS = ("new", "add", "remove", "end", "export")


def action_of(word: str) -> str | None:
    """The sub-command a word names (``nouvelle``, ``new``...: the words of every catalog), if any."""
    typed = keyword_form(word)
    return next((action for action in ACTIONS if typed in keywords(f"keywords_series_{action}")), None)


def account_key(user: str, name: str) -> str:
    """Who a seat is across games: its platform account, else its name."""
    return f"user:{user}" if user else f"name:{name}"


def game_result(ctx: Context, record: GameRecord, known: dict[str, str]) -> GameResult:
    """A game's totals, each player known by the account of their seat, else by the one account
    ``known`` binds to that name in the other games, else by the name: a duplicate game's after its closed
    rounds so far (with the sum of their tops), a classic game's final scores."""
    accounts = {name: user for user, name in ctx.storage.players(record.id)}
    if record.kind is GameKind.CLASSIC:
        classic = ctx.services.games.load(ctx.storage, record)
        finals = [(s.player, s.final) for s in classic.standings()]
        tops = 0
    else:
        game = game_of(ctx.services, record)
        finals = [(s.player, s.total) for s in game.standings()]
        tops = game.tops_total
    room = ctx.message.channel
    players = tuple(
        PlayerResult(account_key(accounts.get(name) or known.get(name, ""), name), name, total, room)
        for name, total in finals
    )
    return GameResult(record.id, tops, players)


def game_results(ctx: Context, records: Sequence[GameRecord]) -> list[GameResult]:
    """The games' results, a seat no account holds (a classic player the referee seated, who never typed)
    known by the account that holds a seat of that name in another of these games, if only one does."""
    bound: dict[str, set[str]] = {}
    for record in records:
        for user, name in ctx.storage.players(record.id):
            bound.setdefault(name, set()).add(user)
    known = {name: next(iter(users)) for name, users in bound.items() if len(users) == 1}
    return [game_result(ctx, record, known) for record in records]


def game_numbers(ctx: Context) -> dict[int, int]:
    """Each game's number in the channel (as /games numbers them), by id."""
    return {record.id: number for number, record in enumerate(ctx.storage.games(ctx.message.channel), 1)}


# --- /series ---------------------------------------------------------------------------------


def named_series(ctx: Context, name: str) -> SeriesRecord | None:
    """The channel's series called ``name`` (accents and case aside), if any."""
    wanted = keyword_form(name)
    return next((s for s in ctx.storage.channel_series(ctx.message.channel) if keyword_form(s.name) == wanted), None)


def current_series(ctx: Context, *, open_only: bool) -> SeriesRecord:
    """The channel's open series, else (``open_only`` false) its last one; UserError when there is none."""
    every = ctx.storage.channel_series(ctx.message.channel)
    opened = [s for s in every if s.status is SeriesStatus.OPEN]
    if opened:
        return opened[-1]
    if open_only or not every:
        raise UserError("series_none_open" if every else "series_none")
    return every[-1]


def series_kind(ctx: Context, entries: Sequence[SeriesEntry]) -> GameKind | None:
    """The kind of a series' games (that of its first one, a simultané's duplicate; None: none yet)."""
    if not entries:
        return None
    first = entries[0].game
    return GameKind.DUPLICATE if first is None else ctx.storage.game(first).kind


def duplicate_ranking(
    ctx: Context, entries: Sequence[SeriesEntry], numbers: dict[int, int]
) -> tuple[list[GameResult], Names, list[str]]:
    """A duplicate series' results in the order its entries were added (a simultané's over every room, as
    far as visible: none yet, left out), how the ranking names games and rooms, and the heading's lines on
    the simultanés not yet wholly counted."""
    records = [ctx.storage.game(e.game) for e in entries if e.game is not None]
    by_game = {result.game: result for result in game_results(ctx, records)}
    counts = {
        e.simultane: simultane_count(ctx, ctx.storage.simultane_by_id(e.simultane))
        for e in entries
        if e.simultane is not None
    }
    results: list[GameResult] = []
    for entry in entries:
        counted = counts[entry.simultane].result if entry.simultane is not None else by_game.get(entry.game or 0)
        if counted is not None:
            results.append(counted)
    notes = [count.note for count in counts.values() if count.note]
    codes = {result_id(count.record): count.record.code for count in counts.values()}
    rooms = series_room_labels(ctx.lang, ctx.message.channel, counts.values()) if counts else {}
    return results, Names(numbers, codes, rooms), notes


def series_ranking(
    ctx: Context, entries: Sequence[SeriesEntry], numbers: dict[int, int]
) -> tuple[str, bytes, list[str]]:
    """The ranking of a series as a text table and as CSV, and the heading's lines on its simultanés:
    duplicate, by total over every game added; classic, by wins then spread over the finished games."""
    if series_kind(ctx, entries) is GameKind.CLASSIC:
        records = [ctx.storage.game(e.game) for e in entries if e.game is not None]
        ended = [r for r in records if r.status is GameStatus.ENDED]
        played = classic_standings(game_results(ctx, ended))
        return classic_table(ctx, played), classic_csv(ctx, played), []
    results, names, notes = duplicate_ranking(ctx, entries, numbers)
    standings = cumulative_standings(results)
    return ranking_table(ctx, standings, names), ranking_csv(ctx, standings, names), notes


def listed(ctx: Context, entries: Sequence[SeriesEntry], numbers: dict[int, int]) -> str:
    """What a series holds, as its heading lists it: the numbers of its games in /games, the codes of its
    simultanés."""
    games = [str(numbers.get(e.game, "?")) for e in entries if e.game is not None]
    codes = [ctx.storage.simultane_by_id(e.simultane).code for e in entries if e.simultane is not None]
    parts = [ctx.say("series_listed_games", numbers=", ".join(games))] if games else []
    if codes:
        parts.append(ctx.say("series_listed_simultanes", codes=", ".join(codes), n=len(codes)))
    return ", ".join(parts)


def show_series(ctx: Context, series: SeriesRecord, *, export: bool = False) -> None:
    """A series' ranking (``export``: with it as a CSV file), its heading saying what it holds."""
    entries = ctx.storage.series_entries(series.id)
    status = ctx.say(f"series_status_{series.status}")
    if not entries:
        ctx.reply(ctx.say("series_empty", name=series.name, status=status))
        return
    numbers = game_numbers(ctx)
    table_text, data, notes = series_ranking(ctx, entries, numbers)
    text = say_counts(
        ctx.lang,
        "series_ranking",
        ("games",),
        name=series.name,
        status=status,
        games=len(entries),
        listed=listed(ctx, entries, numbers),
        notes="".join("\n" + note for note in notes),
        table=table_text,
    )
    if export:
        ctx.reply(text, document=data, document_name=f"series-{series.id}.csv")
    else:
        ctx.reply(text)


def new_series(ctx: Context, words: list[str]) -> None:
    ctx.require_admin()
    name = " ".join(words).strip()
    if not name:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if len(name) > SERIES_NAME_LIMIT:
        raise UserError("series_name_too_long", limit=SERIES_NAME_LIMIT)
    if action_of(words[0]) is not None:
        raise UserError("series_name_is_a_word", name=name)
    every = ctx.storage.channel_series(ctx.message.channel)
    opened = [s for s in every if s.status is SeriesStatus.OPEN]
    if opened:
        raise UserError("series_still_open", name=opened[-1].name)
    if named_series(ctx, name) is not None:
        raise UserError("series_name_taken", name=name)
    ctx.storage.create_series(ctx.message.channel, name)
    ctx.reply(ctx.say("series_created", name=name))


def add_game(ctx: Context, words: list[str]) -> None:
    """/series add [N | CODE]: a game of the channel, or a simultané by its code."""
    series = current_series(ctx, open_only=True)
    entries = ctx.storage.series_entries(series.id)
    simultane = simultane_named(ctx, words)
    if simultane is not None:
        add_simultane(ctx, series, simultane, classic=series_kind(ctx, entries) is GameKind.CLASSIC)
        return
    target = target_game(ctx, words)
    ctx.require_control(target.record)
    check_kind(ctx, target, series_kind(ctx, entries))
    check_not_counted(ctx, series, target)
    if not ctx.storage.add_series_game(series.id, target.record.id):
        raise UserError("series_has_game", number=target.number, name=series.name)
    games = len(entries) + 1
    text = say_counts(ctx.lang, "series_game_added", ("games",), number=target.number, name=series.name, games=games)
    ctx.reply(text)


def check_kind(ctx: Context, target: TargetGame, kind: GameKind | None) -> None:
    """A series holds duplicate games or classic games, of one kind (``kind``: its games', if any)."""
    if target.record.kind not in (GameKind.DUPLICATE, GameKind.CLASSIC):
        raise UserError("series_kind_refused", number=target.number)
    if kind is not None and target.record.kind is not kind:
        raise UserError("series_kind_mixed", number=target.number, kind=ctx.say(f"kind_{kind}"))
    if target.record.status is GameStatus.ABANDONED:
        raise UserError("series_abandoned_game", number=target.number)


def remove_game(ctx: Context, words: list[str]) -> None:
    """/series remove N | CODE: a game of the channel, or a simultané by its code."""
    series = current_series(ctx, open_only=True)
    if not words:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    simultane = simultane_named(ctx, words)
    if simultane is not None:
        remove_simultane(ctx, series, simultane)
        return
    target = target_game(ctx, words)
    ctx.require_control(target.record)
    if not ctx.storage.remove_series_game(series.id, target.record.id):
        raise UserError("series_lacks_game", number=target.number, name=series.name)
    ctx.reply(ctx.say("series_game_removed", number=target.number, name=series.name))


def end_series(ctx: Context) -> None:
    ctx.require_admin()
    series = current_series(ctx, open_only=True)
    ctx.storage.set_series_status(series.id, SeriesStatus.ENDED)
    ctx.reply(ctx.say("series_ended", name=series.name))
    show_series(ctx, SeriesRecord(series.id, series.channel, series.name, SeriesStatus.ENDED, series.created))


@command(
    "series",
    section=Section.VIEWS,
    rank=100,
    access=Access.ADMIN,
    read_without_args=True,
    slow=True,
    form=Form(
        subs=(
            Sub("show", (text("name"),), word=""),
            Sub("new", (text("name", required=True),)),
            Sub("add", (integer("game", 1, suggest=Suggest.GAMES), text("code", suggest=Suggest.CODES))),
            Sub("remove", (integer("game", 1, suggest=Suggest.GAMES), text("code", suggest=Suggest.CODES))),
            Sub("end"),
            Sub("export", (text("name"),)),
        ),
        where=Where.GROUP,
    ),
)
def cmd_series(ctx: Context) -> None:
    words = ctx.args.split()
    action = action_of(words[0]) if words else None
    rest = words[1:]
    if action == "new":
        new_series(ctx, rest)
    elif action == "add":
        add_game(ctx, rest)
    elif action == "remove":
        remove_game(ctx, rest)
    elif action == "end":
        if rest:
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        end_series(ctx)
    elif action == "export":
        chosen = named_series(ctx, " ".join(rest)) if rest else current_series(ctx, open_only=False)
        if chosen is None:
            raise UserError("series_unknown", name=" ".join(rest)[:SERIES_NAME_LIMIT])
        show_series(ctx, chosen, export=True)
    elif words:
        chosen = named_series(ctx, " ".join(words))
        if chosen is None:
            raise UserError("series_unknown", name=" ".join(words)[:SERIES_NAME_LIMIT])
        show_series(ctx, chosen)
    else:
        show_series(ctx, current_series(ctx, open_only=False))


# --- /season ---------------------------------------------------------------------------------


def since_of(ctx: Context, words: list[str]) -> float | None:
    """The start of the day a ``YYYY-MM-DD`` word names, in the channel's time zone (None: no word)."""
    if not words:
        return None
    if len(words) > 1:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    try:
        day = dt.date.fromisoformat(words[0])
    except ValueError:
        raise UserError("season_bad_date", text=words[0][:20]) from None
    return dt.datetime.combine(day, dt.time(), zone(ctx.settings.zone)).timestamp()


@command("season", section=Section.VIEWS, rank=110, read_only=True, slow=True, form=Form((text("since"),)))
def cmd_season(ctx: Context) -> None:
    words = ctx.args.split()
    since = since_of(ctx, words)
    games = [
        record
        for record in ctx.storage.games(ctx.message.channel)
        if record.kind is GameKind.DUPLICATE
        and record.status is GameStatus.ENDED
        and (since is None or record.created >= since)
    ]
    if not games:
        raise UserError("season_no_games_since", date=words[0]) if words else UserError("season_no_games")
    standings = cumulative_standings(game_results(ctx, games))
    key = "season_ranking_since" if words else "season_ranking"
    table_text = ranking_table(ctx, standings, Names(game_numbers(ctx)))
    date = words[0] if words else ""
    ctx.reply(say_counts(ctx.lang, key, ("finished",), finished=len(games), date=date, table=table_text))
