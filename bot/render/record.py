"""The duplicate game record as text in a language: one line per move, the standings, why it ended.

The record is ``DuplicateGame.record()`` (core's one model of it); the chat's /sheet and /export and
the offline ``arbitre duplicate`` both show it through these functions.
"""

from __future__ import annotations

from core.duplicate import DuplicateGame, Sanctions
from core.duplicate.formats import DuplicateFormat

from ..messages import decimal, number, say
from .text import table

STANDARD_MINUTES = 3  # section 1.3: the clock of a standard game; shorter ones are named in the record
SEMI_RAPID_MINUTES = 2  # section 1.3


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
    return "\n".join([table(rows, header), *notes, *record_notes(lang, game)])


def standings_text(lang: str, game: DuplicateGame, shown: slice = slice(None)) -> str:
    """The standings after the moves closed so far: place, total, gap to the sum of the tops, percentage
    (that nobody has played yet, with no player); ``shown``: the places of one page."""
    if not game.players:
        return say(lang, "dup_ranking_nobody", n=len(game.closed_rounds), tops=game.tops_total)
    header = ["#", say(lang, "col_player"), say(lang, "col_total"), say(lang, "col_gap"), "%"]
    standings = game.standings()
    rows: list[list[object]] = [[s.place, s.player, s.total, s.gap, decimal(lang, s.percent)] for s in standings]
    if game.settings.sanctions is not Sanctions.NONE:  # the warnings column (5.9)
        header.append(say(lang, "col_warnings"))
        for row, standing in zip(rows, standings, strict=True):
            row.append(warnings_cell(standing.warnings, standing.deduction))
    if game.settings.format.timed:  # topping: the time that ranks the players (3.8.4)
        header.append(say(lang, "col_time"))
        for row, standing in zip(rows, standings, strict=True):
            row.append(decimal(lang, standing.seconds or 0.0))
    return say(
        lang,
        "dup_ranking",
        n=len(game.closed_rounds),
        tops=game.tops_total,
        table="```\n" + table(rows[shown], header) + "\n```",
    )


def end_reason_text(lang: str, game: DuplicateGame) -> str:
    """Why the game ended by itself ("" while it runs or when it was stopped)."""
    if game.end_reason is None:
        return ""
    return say(lang, f"dup_end_{game.end_reason}", letters=game.end_letters)


def record_notes(lang: str, game: DuplicateGame) -> list[str]:
    """The record's lines on the format (3.8), on a clock shorter than the standard one (1.3: blitz,
    semi-rapide) and on sanctions: each sanctioned answer with its clause, each lifted sanction."""
    notes = []
    played = game.settings.format
    if played is not DuplicateFormat.CLASSIC:
        notes.append(say(lang, "dup_format_record_note", name=say(lang, f"format_{played}"), section=played.section))
    notes += clock_notes(lang, game)
    for line in game.record():
        notes += [
            say(
                lang,
                "dup_sanction_record_note",
                n=line.number,
                player=player,
                grade=say(lang, f"grade_{fault.grade}"),
                section=fault.section,
                fault=say(lang, f"fault_{fault}"),
            )
            for player, fault in line.faults
        ]
        notes += [say(lang, "dup_lift_record_note", n=line.number, player=p, reason=r or "-") for p, r in line.lifted]
    return notes


def clock_notes(lang: str, game: DuplicateGame) -> list[str]:
    """The record's line on a clock shorter than the standard one (1.3), none for the standard clock or in
    topping (whose clock is its own, 3.8.4)."""
    settings = game.settings
    if settings.format.timed or settings.minutes >= STANDARD_MINUTES:
        return []
    if settings.blitz:
        key = "dup_blitz_record_note"
    elif settings.minutes == SEMI_RAPID_MINUTES:
        key = "dup_semirapid_record_note"
    else:
        key = "dup_clock_record_note"
    return [say(lang, key, minutes=number(lang, settings.minutes))]


def warnings_cell(warnings: int, deduction: int) -> str:
    """A standings cell: the warnings, with the points they took off (``5 (-10)``)."""
    return f"{warnings} (-{deduction})" if deduction else str(warnings)
