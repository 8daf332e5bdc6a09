"""The duplicate game record as text in a language: one line per move, the standings, why it ended.

The record is ``DuplicateGame.record()`` (core's one model of it); the chat's /sheet and /export and
the offline ``arbitre duplicate`` both show it through these functions.
"""

from __future__ import annotations

from core.duplicate import DuplicateGame

from ..messages import decimal, say
from .text import table


def record_table(lang: str, game: DuplicateGame) -> str:
    """One line per move (rejected draws on their own), every player's score (``*`` for a solo, ``c`` for
    a referee's correction), then the corrections with their reasons."""
    header = [
        say(lang, "col_number"),
        say(lang, "col_draw"),
        say(lang, "col_ref"),
        say(lang, "col_top"),
        say(lang, "col_points"),
        say(lang, "col_cumulative"),
        *game.players,
    ]
    rows: list[list[object]] = []
    notes: list[str] = []
    for line in game.record():
        rows += [["", rejected, "", "", "", "", *[""] * len(game.players)] for rejected in line.rejected]
        corrected = dict(line.corrections)
        marks = [
            f"{score}{'*' if line.solo == player else ''}{'c' if player in corrected else ''}"
            for player, score in line.scores
        ]
        rows.append([line.number, line.draw, line.ref or "-", line.word or "-", line.score, line.cumulative, *marks])
        notes += [
            say(lang, "dup_correction_note", n=line.number, player=p, reason=r or "-") for p, r in line.corrections
        ]
    return "\n".join([table(rows, header), *notes])


def standings_text(lang: str, game: DuplicateGame) -> str:
    """The standings after the moves closed so far: place, total, gap to the sum of the tops, percentage
    (that nobody has played yet, with no player)."""
    if not game.players:
        return say(lang, "dup_ranking_nobody", n=len(game.closed_rounds), tops=game.tops_total)
    header = ["#", say(lang, "col_player"), say(lang, "col_total"), say(lang, "col_gap"), "%"]
    rows = [[s.place, s.player, s.total, s.gap, decimal(lang, s.percent)] for s in game.standings()]
    return say(
        lang,
        "dup_ranking",
        n=len(game.closed_rounds),
        tops=game.tops_total,
        table="```\n" + table(rows, header) + "\n```",
    )


def end_reason_text(lang: str, game: DuplicateGame) -> str:
    """Why the game ended by itself ("" while it runs or when it was stopped)."""
    if game.end_reason is None:
        return ""
    return say(lang, f"dup_end_{game.end_reason}", letters=game.end_letters)
