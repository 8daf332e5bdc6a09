"""What a room's live page shows, as plain data ready for JSON: built from what the room's messages have
made public, never from a submission before its round is closed.

``duplicate_state`` and ``classic_state`` are pure: a game in, a dict out (the same game gives the same
dict). The open round gives its draw (kept letters and new ones apart), its deadline and how many players
have answered; its answers only exist in the state once the round is closed, in its results. A game is
over when it ended by itself or when its record says so (``ended``: ``/end`` stops a game between rounds,
its open round never played): then no round, no draw, no clock, only the board and the final standings.
"""

from __future__ import annotations

from typing import Any

from core.board import SIZE, Board, premium_at
from core.classic_clock import overtime_points
from core.draw import Draw
from core.duplicate import DuplicateGame
from core.duplicate.rounds import Round
from core.edition import Edition
from core.game import ClassicGame
from core.notation import Notation
from core.rules import ClockMode, OutOfTime

from ..render.text import col_label, row_label

State = dict[str, Any]

PREMIUM_CODES = {"TRIPLE_WORD": "tw", "DOUBLE_WORD": "dw", "TRIPLE_LETTER": "tl", "DOUBLE_LETTER": "dl", "NONE": ""}


def premium_grid() -> list[str]:
    """The 15 rows of the board's premiums, one code per square (``tw dw tl dl`` or empty)."""
    return [" ".join(PREMIUM_CODES[premium_at(r, c).name] or "." for c in range(SIZE)) for r in range(SIZE)]


def coordinates(notation: Notation) -> State:
    """The names of the board's rows and columns in the game's notation (the images' coordinates)."""
    rows = [row_label(i, notation) for i in range(SIZE)]
    return {"rows": rows, "cols": [col_label(i, notation) for i in range(SIZE)]}


def tile_state(symbol: str, edition: Edition, joker: bool = False) -> list[Any]:
    """A tile as ``[label, value]`` (a joker's value is 0; an unplaced joker's label is ``?``)."""
    return [edition.spell_tiles([symbol]), 0 if joker else edition.values.get(symbol, 0)]


def board_cells(board: Board, edition: Edition) -> list[list[Any]]:
    """The tiles on the board: ``[row, col, label, value, joker]`` each."""
    return [
        [row, col, *tile_state(tile.letter, edition, tile.joker), tile.joker]
        for row, col, tile in sorted(board.tiles(), key=lambda t: (t[0], t[1]))
    ]


def draw_state(draw: Draw | None, edition: Edition) -> State | None:
    """A draw's letters as labels, kept ones and new ones apart."""
    if draw is None:
        return None
    return {
        "kept": [tile_state(t, edition) for t in draw.kept],
        "new": [tile_state(t, edition) for t in draw.new],
    }


def closed_round_state(round_: Round, edition: Edition) -> State:
    """A closed round: its draw, its top (its squares to light), every player's answer and score."""
    top_cells = [] if round_.top is None else [[c.row, c.col] for c in round_.top.new_tiles]
    answers = sorted(round_.results.items(), key=lambda item: (-round_.score_of(item[0]), item[0]))
    results = [
        {"player": player, "move": result.move, "score": round_.score_of(player), "valid": result.valid}
        for player, result in answers
    ]
    return {
        "number": round_.number,
        "draw": draw_state(round_.draw, edition),
        "top": round_.top_text,
        "top_points": round_.top_points,
        "top_cells": top_cells,
        "results": results,
    }


def duplicate_state(
    game: DuplicateGame, *, game_id: int, language: str, now: float, ended: bool = False, held: int = 0
) -> State:
    """The live page's state of a duplicate game at ``now`` (the server's clock, for the countdown).
    ``ended``: the game's record says it is over; ``held``: the round of a simultané whose time is up in this
    room and whose close waits for the other rooms (0: none)."""
    edition = game.edition
    finished = game.finished or ended
    current = None if finished else game.current
    open_round: State | None = None
    if current is not None:
        open_round = {
            "number": current.number,
            "draw": draw_state(current.draw, edition),
            "deadline": current.deadline,
            "paused_left": current.paused_left,
            "call": game.settings.call_seconds,  # 3.3: the call, so many seconds before the end
            "played": len({s.player for s in current.submissions}) if current.draw is not None else 0,
            "players": len(game.players),
            "held": current.number == held,  # time is up here: the page says it waits for the other rooms
        }
    last = game.last_closed
    return {
        "kind": "duplicate",
        "game": game_id,
        "language": language,
        "now": now,
        "board": board_cells(game.board, edition),
        "coords": coordinates(game.notation),
        "round": open_round,
        "last": None if last is None else closed_round_state(last, edition),
        "tops_total": game.tops_total,
        "standings": [{"place": s.place, "player": s.player, "total": s.total, "gap": s.gap} for s in game.standings()],
        "finished": finished,
    }


def classic_state(game: ClassicGame, *, game_id: int, language: str, now: float, ended: bool = False) -> State:
    """The live page's state of a classic game: board, scores, whose turn, the last move's squares
    (``ended``: the game's record says it is over, whatever the game's own flag)."""
    finished = game.ended or ended
    last = game.last_play_line()
    lit = [] if last is None or last.placement is None else [[c.row, c.col] for c in last.placement.new_tiles]
    totals = game.totals()
    return {
        "kind": "classic",
        "game": game_id,
        "language": language,
        "now": now,
        "board": board_cells(game.board, game.edition),
        "coords": coordinates(game.notation),
        "scores": [{"player": p, "total": totals.get(p, 0)} for p in game.players],
        "to_move": None if finished else game.to_move,
        "last_move": None if last is None else {"player": last.player, "move": last.move, "points": last.points},
        "top_cells": lit,
        "bag": game.bag_count(),
        "clocks": clocks_state(game, now, finished),
        "finished": finished,
    }


def clocks_state(game: ClassicGame, now: float, finished: bool = False) -> State | None:
    """A classic game's clocks at ``now`` (None without one): each player's seconds left (negative: overtime)
    and the points it costs so far, whose clock runs; the page ticks the running one from ``now``. The
    overtime rule travels with them (points per started minute, the limit) so that the page counts on."""
    rules = game.rules
    if rules.clock is ClockMode.NONE:
        return None
    reading = game.clock(now)
    running = None if game.ended or finished else reading.running_for
    overtime = rules.out_of_time is OutOfTime.OVERTIME and rules.clock is ClockMode.CHESS
    return {
        "mode": rules.clock.value,
        "running": running,
        "paused": reading.paused,
        "players": [
            {"player": t.player, "left": t.left, "flagged": t.flagged, "points": overtime_points(rules, t)}
            for t in reading.times
        ],
        "move_left": reading.move_allowed - reading.move_used,
        "overtime_per_minute": rules.overtime_per_minute if overtime else 0,
        "overtime_limit": rules.overtime_limit_minutes if overtime else 0,
    }


def gone_state(game_id: int, language: str, now: float) -> State:
    """The state of a link whose game can no longer be shown."""
    return {"kind": "none", "game": game_id, "language": language, "now": now}
