"""/series: a tournament of the channel's duplicate games with one cumulative ranking; /season
(/saison): the ranking of the channel's finished duplicate games, optionally since a date.

``/series new NAME`` opens a series (a channel admin; one open at a time), ``/series add [N]`` puts the
running game, else the last one, or game N of /games in it (that game's referee or a channel admin),
``/series remove N`` takes game N out, ``/series end`` closes it (a channel admin); ``/series`` shows the
ranking of the open series, else of the last one, ``/series NAME`` another one's, ``/series export`` its
ranking as CSV. Players are the same person across games by their platform account (the seat their
account holds), else by their seat name.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Sequence

from core.cells import inert
from core.series import (
    ClassicStanding,
    GameResult,
    PlayerResult,
    SeriesStanding,
    classic_standings,
    cumulative_standings,
)

from ..messages import decimal, keyword_form, keywords
from ..render.text import table
from ..storage import GameKind, GameRecord, GameStatus, SeriesRecord, SeriesStatus
from ..timefmt import zone
from .context import Context, UserError
from .duplicate_games import game_of
from .history import TargetGame, target_game
from .registry import Access, Section, command

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
    players = tuple(
        PlayerResult(account_key(accounts.get(name) or known.get(name, ""), name), name, total)
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


def ranking_table(ctx: Context, standings: Sequence[SeriesStanding], numbers: dict[int, int]) -> str:
    """The cumulative ranking as a monospace table: place, player, total, tops, gap, %, games, best game."""
    header = [
        "#",
        ctx.say("col_player"),
        ctx.say("col_total"),
        ctx.say("col_tops"),
        ctx.say("col_gap"),
        "%",
        ctx.say("col_games_played"),
        ctx.say("col_best"),
    ]
    rows = [
        [
            s.place,
            s.name,
            s.total,
            s.tops,
            f"{s.gap:+d}" if s.gap else "0",
            decimal(ctx.lang, s.percent),
            s.games,
            ctx.say("series_best_game", percent=decimal(ctx.lang, s.best), number=numbers.get(s.best_game, "?")),
        ]
        for s in standings
    ]
    return "```\n" + table(rows, header) + "\n```"


def classic_table(ctx: Context, standings: Sequence[ClassicStanding]) -> str:
    """The classic ranking as a monospace table: place, player, wins, total, spread, games."""
    header = ["#", ctx.say("col_player"), ctx.say("col_wins"), ctx.say("col_total"), ctx.say("col_spread")]
    header.append(ctx.say("col_games_played"))
    rows = [
        [s.place, s.name, wins_text(ctx, s.wins), s.total, f"{s.spread:+d}" if s.spread else "0", s.games]
        for s in standings
    ]
    return "```\n" + table(rows, header) + "\n```"


def wins_text(ctx: Context, wins: float) -> str:
    return str(int(wins)) if wins == int(wins) else decimal(ctx.lang, wins)


def classic_csv(ctx: Context, standings: Sequence[ClassicStanding]) -> bytes:
    """The classic ranking as UTF-8 CSV, headers in the channel's language, names inert (``core.cells``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([ctx.say(f"col_{key}") for key in ("place", "player", "wins", "total", "spread", "games_played")])
    for s in standings:
        writer.writerow([s.place, inert(s.name), f"{s.wins:g}", s.total, s.spread, s.games])
    return out.getvalue().encode("utf-8")


def ranking_csv(ctx: Context, standings: Sequence[SeriesStanding], numbers: dict[int, int]) -> bytes:
    """The cumulative ranking as UTF-8 CSV, headers in the channel's language, names inert (``core.cells``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = ("place", "player", "total", "tops", "gap", "percent", "games_played", "best", "best_number")
    writer.writerow([ctx.say(f"col_{key}") for key in keys])
    for s in standings:
        best, number = f"{s.best:.1f}", numbers.get(s.best_game, "")
        writer.writerow([s.place, inert(s.name), s.total, s.tops, s.gap, f"{s.percent:.1f}", s.games, best, number])
    return out.getvalue().encode("utf-8")


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


def series_kind(ctx: Context, ids: list[int]) -> GameKind | None:
    """The kind of a series' games (that of its first one; None: no game yet)."""
    return ctx.storage.game(ids[0]).kind if ids else None


def series_ranking(ctx: Context, ids: list[int], numbers: dict[int, int]) -> tuple[str, bytes]:
    """The ranking of a series' games as a text table and as CSV: duplicate, by total over every game added;
    classic, by wins then spread over the finished games."""
    records = [ctx.storage.game(game_id) for game_id in ids]
    if series_kind(ctx, ids) is GameKind.CLASSIC:
        ended = [r for r in records if r.status is GameStatus.ENDED]
        played = classic_standings(game_results(ctx, ended))
        return classic_table(ctx, played), classic_csv(ctx, played)
    standings = cumulative_standings(game_results(ctx, records))
    return ranking_table(ctx, standings, numbers), ranking_csv(ctx, standings, numbers)


def show_series(ctx: Context, series: SeriesRecord, *, export: bool = False) -> None:
    ids = ctx.storage.series_games(series.id)
    numbers = game_numbers(ctx)
    listed = ", ".join(str(numbers.get(game_id, "?")) for game_id in ids)
    status = ctx.say(f"series_status_{series.status}")
    if not ids:
        ctx.reply(ctx.say("series_empty", name=series.name, status=status))
        return
    table_text, data = series_ranking(ctx, ids, numbers)
    text = ctx.say("series_ranking", name=series.name, status=status, count=len(ids), games=listed, table=table_text)
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
    series = current_series(ctx, open_only=True)
    target = target_game(ctx, words)
    ctx.require_control(target.record)
    check_kind(ctx, target, series_kind(ctx, ctx.storage.series_games(series.id)))
    if not ctx.storage.add_series_game(series.id, target.record.id):
        raise UserError("series_has_game", number=target.number, name=series.name)
    count = len(ctx.storage.series_games(series.id))
    ctx.reply(ctx.say("series_game_added", number=target.number, name=series.name, count=count))


def check_kind(ctx: Context, target: TargetGame, kind: GameKind | None) -> None:
    """A series holds duplicate games or classic games, of one kind (``kind``: its games', if any)."""
    if target.record.kind not in (GameKind.DUPLICATE, GameKind.CLASSIC):
        raise UserError("series_kind_refused", number=target.number)
    if kind is not None and target.record.kind is not kind:
        raise UserError("series_kind_mixed", number=target.number, kind=ctx.say(f"kind_{kind}"))
    if target.record.status is GameStatus.ABANDONED:
        raise UserError("series_abandoned_game", number=target.number)


def remove_game(ctx: Context, words: list[str]) -> None:
    series = current_series(ctx, open_only=True)
    if not words:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
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


@command("series", section=Section.VIEWS, access=Access.ADMIN, read_without_args=True, slow=True)
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


@command("season", section=Section.VIEWS, read_only=True, slow=True)
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
    table_text = ranking_table(ctx, standings, game_numbers(ctx))
    ctx.reply(ctx.say(key, count=len(games), date=words[0] if words else "", table=table_text))
