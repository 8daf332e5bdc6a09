"""The duplicate side of the views: the record sheet, the board (text and image), a player's moves,
the unseen tiles and the export.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from core.draw import unseen_tiles
from core.duplicate import DuplicateGame, Round
from core.duplicate.results_file import sigles_file, without_table
from core.edition import Edition
from core.game import find_player

from ...commands.context import Context
from ...messages import decimal, join_notes, say
from ...render import DuplicateBoardView, board_text, duplicate_board_png, table
from ...render.record import record_table, standings_text
from ...storage import GameRecord, GameStatus
from ...timefmt import clock_time
from ..common.formatting import tiles_text
from ..common.paging import MOVES_PAGE, page_window, without_pages
from ..common.renamed import renamed_note
from .sanctions import sanctioned
from .texts import format_suffix, result_view, results_csv


def sheet(ctx: Context, game: DuplicateGame) -> str:
    return "```\n" + record_table(ctx.lang, game) + "\n```\n" + standings_text(ctx.lang, game)


def top_squares(round_: Round | None) -> tuple[tuple[int, int], ...]:
    """The squares of a round's top's new tiles (none without a top)."""
    if round_ is None or round_.top is None:
        return ()
    return tuple((c.row, c.col) for c in round_.top.new_tiles)


def board_view(lang: str, zone: str, game: DuplicateGame, *, ended: bool = False) -> DuplicateBoardView:
    """What the board image shows: the open round (its draw and deadline, the previous top lit), else the
    last closed round with its top placed and lit. Once the game is over (``ended``: stopped by /end),
    no open draw nor deadline: the last closed round, marked finished."""
    common: dict[str, Any] = {
        "board": game.board,
        "edition": game.edition,
        "notation": game.notation,
        "language": lang,
        "time_zone": zone,
    }
    last = game.last_closed
    over = ended or game.finished
    current = None if over else game.current
    if over and last is None:
        return DuplicateBoardView(**common, round_number=game.move_number, closed=True, finished=True)
    if current is not None or last is None:
        number = current.number if current is not None else game.move_number
        draw = current.draw if current is not None else None
        due = game.deadline(current) if current is not None and not game.finished else None
        return DuplicateBoardView(
            **common,
            round_number=number,
            kept=draw.kept if draw is not None else "",
            new=draw.new if draw is not None else "",
            deadline=datetime.fromtimestamp(due, UTC) if due is not None and draw is not None else None,
            last_squares=top_squares(last),
        )
    return DuplicateBoardView(
        **common,
        round_number=last.number,
        kept=last.draw.kept if last.draw is not None else "",
        new=last.draw.new if last.draw is not None else "",
        closed=True,
        finished=over,
        last_squares=top_squares(last),
        top_move=last.top.notation(game.notation) if last.top is not None else "",
        top_points=last.top_points if last.top is not None else None,
    )


def board_header(ctx: Context, view: DuplicateBoardView, edition: Edition) -> str:
    """The image's header as a line of text (console, screen readers), the draw in the edition's labels."""
    kept, new = edition.spell_tiles(view.kept), edition.spell_tiles(view.new)
    draw = f"{kept}+{new}" if kept else new
    n = view.round_number
    if view.finished and not draw:
        return ctx.say("dup_board_over_early")
    if view.closed:
        if not view.top_move:
            line = ctx.say("dup_board_closed_no_top", n=n, draw=draw)
        else:
            line = ctx.say("dup_board_closed", n=n, draw=draw, top=view.top_move, points=view.top_points)
        return line + (ctx.say("dup_board_over") if view.finished else "")
    if not draw:
        return ctx.say("dup_board_waiting", n=n)
    if view.deadline is None:
        return ctx.say("dup_board_paused", n=n, draw=draw)
    return ctx.say("dup_board_open", n=n, draw=draw, clock=clock_time(view.deadline.timestamp(), view.time_zone))


def board(ctx: Context, game: DuplicateGame, *, ended: bool = False) -> tuple[str, bytes | None]:
    """The board as text (header and monospace grid) and, when the referee draws images, as a PNG
    (``ended``: the game was stopped, its open round is not shown)."""
    view = board_view(ctx.lang, ctx.settings.zone, game, ended=ended)
    grid = "```\n" + board_text(game.board, game.notation, view.last_squares, ctx.lang, game.edition) + "\n```"
    text = board_header(ctx, view, game.edition) + format_suffix(ctx.lang, game) + "\n" + grid
    return text, duplicate_board_png(view) if ctx.services.images else None


def moves_text(ctx: Context, record: GameRecord, game: DuplicateGame, name: str) -> str:
    """/moves for a duplicate game: the player's answer on every closed round, its score, the top and the gap
    to it; then their total and place. The open round's answers stay secret."""
    from ..classic.moves import moves_player

    player = moves_player(ctx, record, game.players, name, lambda typed: find_player(game.players, typed))
    lang = ctx.lang
    header = [
        say(lang, "col_number"),
        say(lang, "col_draw"),
        say(lang, "col_move"),
        "pts",
        "top",
        say(lang, "col_top_points"),
        say(lang, "col_gap"),
        "",
    ]
    rows: list[list[object]] = []
    solo_bonus = game.settings.solo_bonus
    for round_ in game.closed_rounds:
        view = result_view(lang, game, round_)
        row = next(r for r in view.rows if r.player == player)
        notes = [row.note] if row.note else []
        if not row.answered:
            notes.append(say(lang, "moves_no_answer"))
        if row.solo_bonus:
            notes.append(say(lang, "moves_solo", bonus=solo_bonus))
        gap = row.score - round_.top_points
        rows.append(
            [
                round_.number,
                view.draw,
                row.move or "-",
                row.score,
                view.top_move or "-",
                round_.top_points,
                f"{gap:+d}" if gap else "0",
                join_notes(lang, notes),
            ]
        )
    lines = [say(lang, "moves_title", player=player)]
    window, paged = page_window(ctx, "moves", len(rows), MOVES_PAGE, words=without_pages(ctx.tokens))
    if rows:
        lines += ["```\n" + table(rows[window], header) + "\n```", *([paged] if paged else [])]
        standing = next(s for s in game.standings() if s.player == player)
        lines.append(
            say(
                lang,
                "moves_dup_summary",
                total=standing.total,
                tops=game.tops_total,
                gap=f"{standing.gap:+d}" if standing.gap else "0",
                percent=decimal(lang, standing.percent),
                place=standing.place,
                count=len(game.players),
            )
        )
    else:
        lines = [say(lang, "moves_none", player=player)]
    current = game.current
    if current is not None and current.draw is not None and record.status is GameStatus.ACTIVE:
        lines.append(say(lang, "moves_dup_open", n=current.number))
    return "\n".join(lines)


def unseen(ctx: Context, game: DuplicateGame) -> str:
    tiles = Counter(unseen_tiles(game.edition, game.board))
    return ctx.say(
        "unseen", count=sum(tiles.values()), letters=tiles_text(tiles, game.edition.alphabet), bag=len(game.bag)
    )


def export(ctx: Context, game: DuplicateGame) -> tuple[str, bytes, str]:
    """The sheet and the CSV of the results; a game under the FISF's sanctions also says how to get the
    federation's results file."""
    text = sheet(ctx, game)
    if sanctioned(game):
        text += "\n" + ctx.say("export_sigles_hint")
    return text, results_csv(ctx.lang, game), "results.csv"


def federation_export(ctx: Context, game: DuplicateGame, over: bool) -> tuple[str, bytes, str]:
    """The federation's results file (SIGLES): each table's player and final total, in Latin-1; a game
    not ``over`` is said to be running; the names the file holds otherwise than the game are listed."""
    numbers = game.table_numbers()
    written = sigles_file(game.standings(), numbers)
    ordered = sorted(numbers.items(), key=lambda item: item[1])
    listed = ", ".join(ctx.say("dup_table_item", table=t, player=p) for p, t in ordered)
    text = ctx.say("export_sigles", tables=listed or "-")
    missing = without_table(game.players, game.tables)
    if missing:
        text += "\n" + ctx.say("export_sigles_no_table", players=", ".join(f"{p} ({numbers[p]})" for p in missing))
    if not over:
        text += "\n" + ctx.say("export_sigles_running", n=len(game.closed_rounds))
    return text + renamed_note(ctx.lang, written.renamed), written.data, "sigles.txt"
