"""The sheet without a board as a kind (``bot.games.kinds``), and what is said of a sheet: a table plays on
its own board and types each turn's points (``core.boardless``); its commands are ``commands``.

Started by /new with the word ``no-board`` (``/nouvelle Ana Ben Cy sans-grille``); then /score takes
points (``/coup 26``, ``/coup Ben 26``), a word and its points (``/coup VAGUE 26``, ``/coup H4 VAGUE
26``) or a word taken back (``/coup repris``), /pass and /exchange a turn worth nothing, /undo the last
line, /end the racks left by value or by letters (``/fin Ana=7 Ben=0``, ``/fin Ana=QZ``). /board and
/unseen say why they cannot answer; /export gives the sheet as CSV, and as GCG once every word is known.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

from core.boardless import (
    BoardlessGame,
    SheetRow,
    Turn,
    TurnKind,
    all_words_known,
    sheet_event_from_dict,
    write_sheet_gcg,
)
from core.cells import inert
from core.edition import edition_by_code
from core.notation import notation_by_name
from core.rules import rule_set_by_code

from ...commands.context import Context
from ...messages import keyword_form, keywords
from ...render import table
from ...storage import GameKind, GameRecord
from ..classic import commands as classic
from ..classic.moves import moves_player
from ..common.paging import MOVES_PAGE, page_window, without_pages
from ..kinds import Kind, register

LEAST_PLAYERS, MOST_PLAYERS = 2, 4  # the seed scorekeeper's classic sheet: two to four players


def asked(tokens: Sequence[str]) -> bool:
    """Whether /new's words ask for a sheet without a board (``sans-grille``, ``no-board``)."""
    return any(keyword_form(token) in keywords("keywords_no_board") for token in tokens)


# --- its games in memory ----------------------------------------------------------------------


class BoardlessKind(Kind[BoardlessGame]):
    """Sheets without a board: players in turn, points typed."""

    kind = GameKind.BOARDLESS

    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> BoardlessGame:
        setup = record.setup
        return BoardlessGame(
            edition_by_code(setup.edition),
            list(setup.players),
            notation_by_name(setup.notation),
            [sheet_event_from_dict(data) for data in events],
            rule_set_by_code(setup.rules) if setup.rules is not None else None,
        )

    def apply_stored(self, game: BoardlessGame, data: dict[str, Any]) -> None:
        game.apply_stored(sheet_event_from_dict(data))

    def sheet(self, ctx: Context, game: BoardlessGame) -> str:
        rows = game.rows()
        if not rows:
            return "\n".join([ctx.say("sheet_empty"), *status_lines(ctx, game)])
        page = classic.sheet_page(ctx, len(rows))  # /sheet p2: a long sheet page by page, as a classic one
        size = classic.SHEET_PAGE
        shown = rows[(page - 1) * size : page * size]
        header = ["#", ctx.say("col_player"), ctx.say("col_move"), "pts", "total"]
        body = [[row.number, row.player, row_text(ctx, game, row), row.points, row.total] for row in shown]
        parts = [table(body, header)]
        if len(shown) < len(rows):
            pages = -(-len(rows) // size)
            values = {"first": shown[0].number, "last": shown[-1].number, "count": len(rows), "pages": pages}
            parts.append(ctx.say("sheet_paged", page=page, **values))
        return "\n".join([*parts, *status_lines(ctx, game)])

    def board(self, ctx: Context, game: BoardlessGame, ended: bool) -> tuple[str, bytes | None]:
        return ctx.say("sheet_no_board"), None

    def unseen(self, ctx: Context, game: BoardlessGame) -> str:
        return ctx.say("sheet_no_unseen")

    def export(self, ctx: Context, record: GameRecord, game: BoardlessGame) -> tuple[str, bytes, str]:
        if all_words_known(game) and game.turns:
            gcg = write_sheet_gcg(game, gcg_nicks(game.players))
            text = ctx.say("sheet_export_gcg", gcg="```\n" + gcg + "```")
        else:
            text = ctx.say("sheet_export_csv")
        return text, sheet_csv(ctx, game), "sheet.csv"

    def standings(self, ctx: Context, game: BoardlessGame) -> tuple[str, bytes | None]:
        return standings_text(ctx, game), None

    def moves(self, ctx: Context, record: GameRecord, game: BoardlessGame, name: str) -> str:
        player = moves_player(ctx, record, game.players, name, game.find_player)
        rows = [row for row in game.rows() if row.player == player]
        if not rows:
            return ctx.say("moves_none", player=player)
        body = [[row.number, row_text(ctx, game, row), row.points, row.total] for row in rows]
        window, paged = page_window(ctx, "moves", len(body), MOVES_PAGE, last=True, words=without_pages(ctx.tokens))
        table_text = table(body[window], ["#", ctx.say("col_move"), "pts", "total"])
        lines = [ctx.say("moves_title", player=player), "```\n" + table_text + "\n```"]
        return "\n".join([*lines, paged] if paged else lines)

    def status(self, ctx: Context, record: GameRecord, game: BoardlessGame) -> None:
        ctx.reply("\n".join([ctx.say("sheet_kind_status"), *status_lines(ctx, game)]))

    def summary(self, ctx: Context, game: BoardlessGame) -> tuple[str, str]:
        result = " · ".join(f"{s.player} {s.final}" for s in game.standings()) if game.turns else "-"
        return ", ".join(game.players), result


BOARDLESS = register(BoardlessKind())


# --- texts --------------------------------------------------------------------------------------


def status_lines(ctx: Context, game: BoardlessGame) -> list[str]:
    """The totals, then whose turn it is."""
    lines = [ctx.say("totals", totals=" · ".join(f"{p} {t}" for p, t in game.totals().items()))]
    if game.scoreless_limit_reached:
        lines.append(ctx.say("limit_reached", streak=game.scoreless_streak()))
    if game.to_move is not None:
        lines.append(ctx.say("to_move", player=game.to_move))
    return lines


def turn_text(ctx: Context, game: BoardlessGame, turn: Turn) -> str:
    """A turn in a few words: ``H4 VAGUE``, ``VAGUE``, ``points``, ``pass``..."""
    if turn.move is TurnKind.WORD:
        return f"{turn.square} {turn.word}" if turn.square else turn.word
    return ctx.say(f"sheet_move_{turn.move.value}")


def row_text(ctx: Context, game: BoardlessGame, row: SheetRow) -> str:
    """What a sheet line was: a turn, or a rack at the end."""
    if row.turn is not None:
        return turn_text(ctx, game, row.turn)
    assert row.rack is not None
    if row.went_out:
        return ctx.say("sheet_move_out")
    held = game.edition.spell(row.rack.letters) if row.rack.letters else str(row.rack.value)
    return ctx.say("sheet_move_rack", rack=held)


def standings_text(ctx: Context, game: BoardlessGame) -> str:
    """The ranking: place, player, final total (total before the end and what the racks changed)."""
    return "\n".join(
        ctx.say(
            "standing_line", place=s.place, player=s.player, final=s.final, before=s.before, adjustment=s.adjustment
        )
        for s in game.standings()
    )


def sheet_csv(ctx: Context, game: BoardlessGame) -> bytes:
    """The sheet as CSV (UTF-8, headers in the channel's language): one row per line, then each player's
    place and final total. Names, words and squares are inert (``core.cells``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([ctx.say(f"col_{key}") for key in ("number", "player", "move", "ref", "points", "total")])
    for row in game.rows():
        ref = row.turn.square if row.turn is not None else ""
        what = row.turn.word if row.turn is not None and row.turn.word else row_text(ctx, game, row)
        writer.writerow([row.number, inert(row.player), inert(what), inert(ref), row.points, row.total])
    writer.writerow([])
    writer.writerow([ctx.say(f"col_{key}") for key in ("place", "player", "total")])
    for standing in game.standings():
        writer.writerow([standing.place, inert(standing.player), standing.final])
    return out.getvalue().encode("utf-8")


def gcg_nicks(players: list[str]) -> list[str]:
    """One GCG nick per player: the name without spaces or colons, made unique."""
    nicks: list[str] = []
    for index, name in enumerate(players, 1):
        nick = re.sub(r"[\s:]+", "_", name.strip()) or f"player{index}"
        base, suffix = nick, 2
        while nick in nicks:
            nick, suffix = f"{base}_{suffix}", suffix + 1
        nicks.append(nick)
    return nicks
