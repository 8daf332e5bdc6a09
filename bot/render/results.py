"""Result images: one duplicate round's result and the standings, in the channel's language.

``round_result_png(RoundResultView)`` and ``standings_png(StandingsView)`` return PNG bytes; the
``*_scene`` functions return the same picture as a ``Scene`` for tests. The text versions stay in the
command layer (console, accessibility).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from core.duplicate import DuplicateStanding

from ..messages import decimal
from . import palette as p
from .canvas import Scene, fit, png, text_width, wrap
from .fonts import drawable
from .labels import word

IMAGES_KEPT = 64  # result and standings images kept, each kind, for a view asked again unchanged
WIDTH = 704
PAD = 10
TITLE_SIZE = 26
LINE_SIZE = 20
HEAD_SIZE = 16
CELL_SIZE = 20
NOTE_SIZE = 16
BADGE_SIZE = 16
ROW = 42
NOTE_ROW = 64  # a row with one line of note under it; each further line adds NOTE_LINE
NOTE_LINE = 20
NOTE_LINES = 3  # a longer note (a sanction's reason and its rule) ends with an ellipsis on the third line
BADGE_TOP = p.CHIP_TURN
BADGE_SOLO = (104, 52, 150)


@dataclass(frozen=True)
class RoundResultRow:
    """One player's line in a round's result.

    ``move`` is what the player played in the channel's notation (empty with no answer); ``note`` says
    why the score is zero or reduced, already in the channel's language (from the caller's messages);
    ``solo_bonus`` is the bonus when this player made the solo, else 0.
    """

    player: str
    score: int
    move: str = ""
    note: str = ""
    found_top: bool = False
    solo_bonus: int = 0
    answered: bool = True


@dataclass(frozen=True)
class RoundResultView:
    """A closed duplicate round: its draw as recorded (``EIU+ERS?``), its top and every player's line.

    ``top_move`` is the top's reference and word in the channel's notation (empty when there was no
    top), ``top_note`` an optional line under it (tied tops, in the channel's language). Rows are shown
    best score first (ties keep the given order).
    """

    language: str
    round_number: int
    draw: str
    top_move: str
    top_points: int
    rows: tuple[RoundResultRow, ...]
    top_note: str = ""
    format_name: str = ""  # the format of section 3.8 when not the classic one

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(self.rows))


@dataclass(frozen=True)
class StandingsView:
    """The standings after ``rounds`` closed rounds whose tops add up to ``tops_total``.

    ``sanctioned``: the game grades answers on a sanction scale (section 5); the warnings column is then
    drawn as soon as a player has a warning, with the points they took off (5.9)."""

    language: str
    rounds: int
    tops_total: int
    standings: tuple[DuplicateStanding, ...]
    format_name: str = ""  # the format of section 3.8 when not the classic one
    sanctioned: bool = False
    title: str = ""  # another title than the room's ("": "Standings after N moves")
    rooms: tuple[str, ...] = ()  # a simultané's overall ranking: each row's room, drawn after the player
    notes: tuple[str, ...] = ()  # lines under the table (a simultané's rooms that stopped early)

    def __post_init__(self) -> None:
        object.__setattr__(self, "standings", tuple(self.standings))
        object.__setattr__(self, "rooms", tuple(self.rooms))
        object.__setattr__(self, "notes", tuple(self.notes))


def signed(number: int) -> str:
    """A gap as shown: ``0``, ``+5``, ``−12`` (a true minus sign)."""
    return "0" if number == 0 else (f"+{number}" if number > 0 else f"−{-number}")


def percent(value: float, lang: str) -> str:
    """A percentage to one decimal with the language's decimal mark: ``97,3`` / ``97.3``."""
    return decimal(lang, value)


def _badge(scene: Scene, right: int, middle: int, text: str, fill: p.RGB) -> int:
    """A white-on-colour pill ending at ``right``; returns its left edge."""
    width = text_width(text, BADGE_SIZE) + 16
    scene.box((right - width, middle - 13, right, middle + 13), fill, radius=13)
    scene.text(text, right - width // 2, middle, BADGE_SIZE, p.WHITE, role="badge")
    return right - width


def _format_mark(lang: str, name: str) -> str:
    """`` · Formule joker`` after a subtitle, for a format of section 3.8 ("" for the classic one)."""
    return " · " + word(lang, "format", name=name) if name else ""


def _title(scene: Scene, y: int, title: str, subtitle: str) -> int:
    scene.text(title, PAD, y + TITLE_SIZE // 2 + 2, TITLE_SIZE, p.INK, anchor="lm", role="title")
    y += TITLE_SIZE + 12
    if subtitle:
        scene.text(fit(subtitle, LINE_SIZE, WIDTH - 2 * PAD), PAD, y + LINE_SIZE // 2, LINE_SIZE, p.INK, anchor="lm")
        y += LINE_SIZE + 10
    return y


# --- a round's result --------------------------------------------------------------------------

NAME_X, MOVE_X, SCORE_RIGHT, BADGES_RIGHT = PAD + 10, 230, 520, WIDTH - PAD - 8


def _result_rows(view: RoundResultView) -> list[RoundResultRow]:
    return sorted(view.rows, key=lambda row: -row.score)


def _note_lines(lang: str, row: RoundResultRow) -> list[str]:
    """The lines of the note under a player's row (why the score is zero or reduced, or that there was no
    answer), broken to the row's width."""
    note = row.note or ("" if row.answered else word(lang, "no_answer"))
    return wrap(drawable(note), NOTE_SIZE, WIDTH - PAD - 12 - MOVE_X, NOTE_LINES) if note else []


def round_result_scene(view: RoundResultView) -> Scene:
    """A round's result as a scene."""
    lang = view.language
    rows = _result_rows(view)
    notes = [_note_lines(lang, row) for row in rows]
    heights = [NOTE_ROW + (len(lines) - 1) * NOTE_LINE if lines else ROW for lines in notes]
    scene = Scene(WIDTH, 0, p.PAGE)
    subtitle = word(lang, "draw", draw=view.draw) + _format_mark(lang, view.format_name)
    y = _title(scene, PAD, word(lang, "result_title", n=view.round_number), subtitle)
    if view.top_move:
        top = word(lang, "top", move=drawable(view.top_move) + ", " + word(lang, "points", n=view.top_points))
    else:
        top = word(lang, "no_top")
    scene.text(fit(top, 22, WIDTH - 2 * PAD), PAD, y + 11, 22, p.INK, anchor="lm", role="title")
    y += 22 + 8
    for line in wrap(drawable(view.top_note), NOTE_SIZE, WIDTH - 2 * PAD, NOTE_LINES):
        scene.text(line, PAD, y + NOTE_SIZE // 2, NOTE_SIZE, p.MUTED, anchor="lm")
        y += NOTE_SIZE + 8
    y += 6
    if not rows:  # nobody plays yet: said, not an empty table
        scene.text(word(lang, "nobody_played"), PAD, y + LINE_SIZE // 2, LINE_SIZE, p.MUTED, anchor="lm", role="note")
        scene.height = y + LINE_SIZE + 2 * PAD
        return scene
    head_middle = y + HEAD_SIZE // 2
    scene.text(word(lang, "col_player"), NAME_X, head_middle, HEAD_SIZE, p.MUTED, anchor="lm", role="head")
    scene.text(word(lang, "col_move"), MOVE_X, head_middle, HEAD_SIZE, p.MUTED, anchor="lm", role="head")
    scene.text(word(lang, "col_score"), SCORE_RIGHT, head_middle, HEAD_SIZE, p.MUTED, anchor="rm", role="head")
    y += HEAD_SIZE + 8
    scene.box((PAD, y, WIDTH - PAD - 1, y + 1), p.RULE)
    y += 4
    for index, (row, height, lines) in enumerate(zip(rows, heights, notes)):
        fill = p.ROW_TOP if row.found_top else (p.ROW_STRIPE if index % 2 else p.PAGE)
        scene.box((PAD, y, WIDTH - PAD - 1, y + height - 1), fill, radius=6)
        middle = y + ROW // 2
        score = str(row.score)
        badges_left = BADGES_RIGHT
        if row.solo_bonus:
            badges_left = _badge(scene, badges_left, middle, word(lang, "solo", bonus=row.solo_bonus), BADGE_SOLO) - 6
        if row.found_top:
            badges_left = _badge(scene, badges_left, middle, word(lang, "found_top"), BADGE_TOP) - 6
        name = fit(drawable(row.player), CELL_SIZE, MOVE_X - NAME_X - 12)
        scene.text(name, NAME_X, middle, CELL_SIZE, p.INK, anchor="lm", role="cell")
        move = fit(drawable(row.move) or "—", CELL_SIZE, SCORE_RIGHT - MOVE_X - 60)
        scene.text(move, MOVE_X, middle, CELL_SIZE, p.INK, anchor="lm", role="cell")
        scene.text(score, SCORE_RIGHT, middle, 22, p.INK, anchor="rm", role="cell")
        for number, line in enumerate(lines):
            scene.text(line, MOVE_X, y + ROW + 6 + number * NOTE_LINE, NOTE_SIZE, p.ZERO_INK, anchor="lm", role="note")
        y += height + 2
    scene.height = y + PAD
    return scene


@functools.lru_cache(maxsize=IMAGES_KEPT)
def round_result_png(view: RoundResultView) -> bytes:
    """A round's result as a PNG: draw, top, every player's move and score (zeros with their reason),
    top finders and the solo marked. The same view is drawn once (the latest ``IMAGES_KEPT`` are kept)."""
    return png(round_result_scene(view))


# --- standings ---------------------------------------------------------------------------------

RANK_RIGHT, PLAYER_X, TOTAL_RIGHT, GAP_RIGHT, PERCENT_RIGHT, SOLOS_RIGHT = 54, 70, 440, 535, 625, WIDTH - PAD - 10
TIME_ROOM = 60  # topping (3.8.4): how far the points' columns move left for the time column
WARNINGS_ROOM = 100  # how far the other columns move left for the warnings column (section 5)
COLUMN_GAP = 16  # the least room between two columns' texts


def warnings_cell(standing: DuplicateStanding) -> str:
    """A player's warnings as the standings show them: ``5 (−10)`` with the points taken off (5.9), ``1``
    without, empty with none."""
    if not standing.warnings:
        return ""
    return f"{standing.warnings} ({signed(-standing.deduction)})" if standing.deduction else str(standing.warnings)


def standings_scene(view: StandingsView) -> Scene:
    """The standings as a scene."""
    lang = view.language
    scene = Scene(WIDTH, 0, p.PAGE)
    title = view.title or word(lang, "standings_title", n=view.rounds)
    subtitle = word(lang, "tops_total", n=view.tops_total) + _format_mark(lang, view.format_name)
    if view.title:  # the rounds the room's title gives
        subtitle = word(lang, "overall_rounds", n=view.rounds) + " · " + subtitle
    y = _title(scene, PAD, fit(title, TITLE_SIZE, WIDTH - 2 * PAD), subtitle)
    solos = any(s.solos for s in view.standings)
    timed = any(s.seconds is not None for s in view.standings)  # topping: the time column takes the solos' place
    warned = view.sanctioned and any(s.warnings for s in view.standings)
    head_middle = y + HEAD_SIZE // 2
    shift = TIME_ROOM if timed else 0  # the points' columns make room for the time
    extra_right = SOLOS_RIGHT  # the solos' (or time's) column, left of the warnings when they are shown
    if warned:  # the warnings' column, as wide as its widest text, never over the column left of it
        widest = max(
            [text_width(word(lang, "col_warnings"), HEAD_SIZE)]
            + [text_width(warnings_cell(s), CELL_SIZE) for s in view.standings]
        )
        if timed or solos:
            needed = max(WARNINGS_ROOM, widest + COLUMN_GAP)
            shift += needed
            extra_right -= needed
        else:  # next to the percentage (issue 37: "5 (−10)" was drawn over "95,0")
            shift += max(0, widest + COLUMN_GAP - (SOLOS_RIGHT - PERCENT_RIGHT))
    heads = [
        (word(lang, "col_rank"), RANK_RIGHT, "rm"),
        (word(lang, "col_player"), PLAYER_X, "lm"),
        (word(lang, "col_total"), TOTAL_RIGHT - shift, "rm"),
        (word(lang, "col_gap"), GAP_RIGHT - shift, "rm"),
        (word(lang, "col_percent"), PERCENT_RIGHT - shift, "rm"),
    ]
    if timed:
        heads.append((word(lang, "col_time"), extra_right, "rm"))
    elif solos:
        heads.append((word(lang, "col_solos"), extra_right, "rm"))
    if warned:
        heads.append((word(lang, "col_warnings"), SOLOS_RIGHT, "rm"))
    player_room = TOTAL_RIGHT - shift - 80 - PLAYER_X
    name_room = player_room * 11 // 20 if view.rooms else player_room  # a simultané's rooms in the rest, muted
    if view.rooms:
        heads.append((word(lang, "col_room"), PLAYER_X + name_room + 8, "lm"))
    for text, x, anchor in heads:
        scene.text(text, x, head_middle, HEAD_SIZE, p.MUTED, anchor=anchor, role="head")
    y += HEAD_SIZE + 8
    scene.box((PAD, y, WIDTH - PAD - 1, y + 1), p.RULE)
    y += 4
    for index, standing in enumerate(view.standings):
        fill = p.ROW_TOP if standing.place == 1 else (p.ROW_STRIPE if index % 2 else p.PAGE)
        scene.box((PAD, y, WIDTH - PAD - 1, y + ROW - 1), fill, radius=6)
        middle = y + ROW // 2
        room = view.rooms[index] if index < len(view.rooms) else ""
        if room:
            label = fit(drawable(room), NOTE_SIZE, player_room - name_room - 8)
            scene.text(label, PLAYER_X + name_room + 8, middle, NOTE_SIZE, p.MUTED, anchor="lm", role="note")
        cells = [
            (str(standing.place), RANK_RIGHT, "rm"),
            (fit(drawable(standing.player), CELL_SIZE, name_room), PLAYER_X, "lm"),
            (str(standing.total), TOTAL_RIGHT - shift, "rm"),
            (signed(standing.gap), GAP_RIGHT - shift, "rm"),
            (percent(standing.percent, lang), PERCENT_RIGHT - shift, "rm"),
        ]
        if timed:
            cells.append((decimal(lang, standing.seconds or 0.0), extra_right, "rm"))
        elif solos:
            cells.append((str(standing.solos) if standing.solos else "", extra_right, "rm"))
        if warned:
            cells.append((warnings_cell(standing), SOLOS_RIGHT, "rm"))
        for text, x, anchor in cells:
            scene.text(text, x, middle, CELL_SIZE, p.INK, anchor=anchor, role="cell")
        y += ROW + 2
    for note in view.notes:
        y += 4
        scene.text(fit(drawable(note), NOTE_SIZE, WIDTH - 2 * PAD), PAD, y + NOTE_SIZE // 2, NOTE_SIZE, p.MUTED,
                   anchor="lm", role="note")
        y += NOTE_SIZE + 2
    scene.height = y + PAD
    return scene


@functools.lru_cache(maxsize=IMAGES_KEPT)
def standings_png(view: StandingsView) -> bytes:
    """The standings as a PNG: rank, player, total, gap to the sum of tops, percentage of it (and solos,
    the time in topping, the warnings in a game with sanctions). The same view is drawn once (twenty
    /standings in a room between two closes: one drawing; the latest ``IMAGES_KEPT`` are kept)."""
    return png(standings_scene(view))
