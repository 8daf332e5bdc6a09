"""Board images: the grid in the channel's notation, with a classic or a duplicate header.

``classic_board_png(ClassicBoardView)`` and ``duplicate_board_png(DuplicateBoardView)`` return PNG bytes;
the ``*_scene`` functions return the same picture as a ``Scene`` for tests. ``board_png`` (the grid with
no header) keeps the old signature.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from core.board import CENTRE, SIZE, Board, Premium, premium_at
from core.edition import JOKER, Edition
from core.notation import Notation

from ..timefmt import zone
from . import palette as p
from .canvas import Scene, fit, png, text_width
from .fonts import drawable
from .labels import CENTRE_STAR, premium_label, word
from .text import col_label, row_label

Square = tuple[int, int]

CELL = 44  # one square, in pixels
PAD = 10  # outer padding
COORD = 26  # the band of coordinates above and left of the grid
WIDTH = PAD + COORD + CELL * SIZE + PAD

LETTER_SIZE = 30  # on a CELL-sized tile; tiles of other sizes scale
VALUE_SIZE = 12
PREMIUM_SIZE = 15
STAR_SIZE = 28
COORD_SIZE = 18


class NaiveDeadlineError(ValueError):
    """A deadline given without a time zone (it could not be shown in the channel's)."""

    def __init__(self, deadline: datetime) -> None:
        super().__init__(f"deadline {deadline.isoformat()} has no time zone")
        self.deadline = deadline


@dataclass(frozen=True)
class PlayerScore:
    """A player's name and score as shown in a header."""

    name: str
    score: int


@dataclass(frozen=True)
class ClassicBoardView:
    """What the classic board image shows.

    ``move_number`` is the number of the move to be played next (1 on an empty board); ``to_move`` is
    the name of the player to move, None once the game is over. ``last_squares`` are the squares of the
    last move's new tiles (highlighted); ``last_move`` an optional line such as ``Ana : H8 VAGUE, 26``.
    """

    board: Board
    edition: Edition
    notation: Notation
    language: str
    players: tuple[PlayerScore, ...]
    to_move: str | None
    move_number: int
    bag_count: int
    last_squares: tuple[Square, ...] = ()
    last_move: str = ""
    clock: tuple[str, ...] = ()  # the game clock's lines (catalog text), none without a clock

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "last_squares", tuple(self.last_squares))


@dataclass(frozen=True)
class DuplicateBoardView:
    """What the duplicate board image shows.

    ``kept`` and ``new`` are the letters of the round's draw (``?`` a joker), both empty before the
    draw. ``deadline`` is an aware datetime, shown in ``time_zone`` (a zoneinfo name), None without a
    clock. ``last_squares`` are highlighted: once ``closed``, the new tiles of the top just placed on
    ``board``; while a round is open, those of the previous round's top (or none). Once ``closed``,
    ``top_move`` (reference and word in the channel's notation, empty when there was no top) and
    ``top_points`` are shown under the draw. ``finished`` says the game is over (shown instead of the closed
    state).
    """

    board: Board
    edition: Edition
    notation: Notation
    language: str
    round_number: int
    kept: str = ""
    new: str = ""
    deadline: datetime | None = None
    time_zone: str = "UTC"
    closed: bool = False
    last_squares: tuple[Square, ...] = ()
    top_move: str = ""
    top_points: int | None = None
    finished: bool = False
    zone: ZoneInfo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "last_squares", tuple(self.last_squares))
        object.__setattr__(self, "zone", zone(self.time_zone))  # UnknownTimeZoneError if unknown
        if self.deadline is not None and self.deadline.utcoffset() is None:
            raise NaiveDeadlineError(self.deadline)

    def local_deadline(self) -> datetime | None:
        """The deadline in the channel's time zone."""
        return None if self.deadline is None else self.deadline.astimezone(self.zone)


# --- the grid ------------------------------------------------------------------------------


def grid_origin(top: int) -> tuple[int, int]:
    """Pixel position of square (0, 0)'s top-left corner when the grid's coordinates start at ``top``."""
    return PAD + COORD, top + COORD


def grid_height() -> int:
    """Height of the grid with its coordinates band."""
    return COORD + CELL * SIZE + PAD


MULTI_WIDTH = 0.68  # the width a label of several letters (CH, QU, L·L) may take on its tile
MULTI_SIZE = 0.62  # and the most it is of a single letter's size


def label_size(letter: str, size: int) -> int:
    """The font size of a tile label on a ``size`` tile: a single letter's, or, for several letters, the size
    that makes them as wide as ``MULTI_WIDTH`` of the tile (``L·L`` is narrower than ``QU``: drawn larger)."""
    full = size * LETTER_SIZE / CELL
    if len(letter) < 2:
        return round(full)
    fitted = int(full * size * MULTI_WIDTH / max(1, text_width(letter, round(full))))
    return max(1, min(round(full * MULTI_SIZE), fitted))


def draw_tile(scene: Scene, x0: int, y0: int, size: int, letter: str, value: int | None, style: str) -> None:
    """A tile in a ``size`` box: ``style`` is plain, recent, joker, recent-joker or kept; no value for jokers.

    ``letter`` is the tile's label (``A``, ``Ñ``, ``CH``: sized by ``label_size``). The letter
    sits above the value's baseline so that wide letters and two-digit values never touch.
    """
    fills = {
        "plain": (p.TILE, p.TILE_EDGE, 1, p.INK),
        "recent": (p.TILE_RECENT, p.RECENT_EDGE, 3, p.INK),
        "joker": (p.JOKER_TILE, p.JOKER_EDGE, 2, p.JOKER_INK),
        "recent-joker": (p.TILE_RECENT, p.RECENT_EDGE, 3, p.JOKER_INK),
        "kept": (p.KEPT_TILE, p.TILE_EDGE, 1, p.INK),
    }
    fill, edge, width, ink = fills[style]
    scene.box((x0 + 2, y0 + 2, x0 + size - 3, y0 + size - 3), fill, edge, width, radius=max(3, size // 9))
    letter_size = label_size(letter, size)
    if value is None:
        scene.text(letter, x0 + size // 2, y0 + size // 2 + 1, letter_size, ink, role="tile")
        return
    baseline = y0 + round(size * (0.66 if len(letter) < 2 else 0.6))  # a smaller label rises clear of the value
    shift = round(size * (0.05 if value < 10 else 0.1))  # room for the value, more for two digits
    scene.text(letter, x0 + size // 2 - shift, baseline, letter_size, ink, anchor="ms", role="tile")
    value_size = max(10, round(size * VALUE_SIZE / CELL) - (1 if value >= 10 else 0))
    right, bottom = x0 + size - round(size * 0.16), y0 + size - round(size * 0.14)  # clear of a 3 px edge
    scene.text(str(value), right, bottom, value_size, ink, anchor="rs", role="value")


def draw_grid(
    scene: Scene,
    top: int,
    board: Board,
    edition: Edition,
    notation: Notation,
    language: str,
    highlight: Iterable[Square] = (),
) -> None:
    """The 15x15 grid with its coordinates, its top edge at ``top``."""
    recent = set(highlight)
    gx, gy = grid_origin(top)
    for i in range(SIZE):
        centre = CELL * i + CELL // 2
        scene.text(col_label(i, notation), gx + centre, gy - COORD // 2, COORD_SIZE, p.INK, role="coordinate")
        scene.text(row_label(i, notation), gx - 6, gy + centre, COORD_SIZE, p.INK, anchor="rm", role="coordinate")
    scene.box((gx - 2, gy - 2, gx + CELL * SIZE + 1, gy + CELL * SIZE + 1), p.BOARD_FRAME)
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = gx + c * CELL, gy + r * CELL
            tile = board.get(r, c)
            premium = premium_at(r, c)
            if tile is None:
                scene.box((x0 + 1, y0 + 1, x0 + CELL - 2, y0 + CELL - 2), p.SQUARE[premium])
                if (r, c) == CENTRE:
                    ink = p.SQUARE_INK[premium]
                    scene.text(CENTRE_STAR, x0 + CELL // 2, y0 + CELL // 2, STAR_SIZE, ink, role="premium")
                elif premium is not Premium.NONE:
                    label = premium_label(language, premium)
                    ink = p.SQUARE_INK[premium]
                    scene.text(label, x0 + CELL // 2, y0 + CELL // 2, PREMIUM_SIZE, ink, role="premium")
                continue
            style = ("recent-" if (r, c) in recent else "") + ("joker" if tile.joker else "")
            style = {"": "plain", "recent-": "recent"}.get(style, style)
            value = None if tile.joker else edition.values[tile.letter]
            draw_tile(scene, x0, y0, CELL, edition.label(tile.letter), value, style)


# --- headers -------------------------------------------------------------------------------

NAME_SIZE = 22
SCORE_SIZE = 26
STATUS_SIZE = 20
NOTE_SIZE = 18
CHIP_HEIGHT = 50  # name and score side by side (one or two players a line)
TALL_CHIP_HEIGHT = 70  # name over score (three or four a line)
CHIPS_PER_LINE = 4
GAP = 8


def _player_chip(scene: Scene, x0: int, y: int, width: int, player: PlayerScore, turn: bool, tall: bool) -> None:
    fill, ink = (p.CHIP_TURN, p.CHIP_TURN_INK) if turn else (p.CHIP, p.INK)
    height = TALL_CHIP_HEIGHT if tall else CHIP_HEIGHT
    scene.box((x0, y, x0 + width - 1, y + height - 1), fill, radius=8)
    score = str(player.score).replace("-", "−")  # a true minus sign
    if tall:
        name = fit(drawable(player.name), NAME_SIZE, width - 20)
        scene.text(name, x0 + 10, y + 20, NAME_SIZE, ink, anchor="lm", role="header")
        scene.text(score, x0 + 10, y + 50, SCORE_SIZE, ink, anchor="lm", role="header")
        return
    middle = y + height // 2
    scene.text(score, x0 + width - 12, middle, SCORE_SIZE, ink, anchor="rm", role="header")
    name = fit(drawable(player.name), NAME_SIZE, width - text_width(score, SCORE_SIZE) - 34)
    scene.text(name, x0 + 12, middle, NAME_SIZE, ink, anchor="lm", role="header")


def _player_chips(scene: Scene, top: int, players: tuple[PlayerScore, ...], to_move: str | None) -> int:
    """Players' boxes, up to four a line, the player to move in dark; returns the y below them."""
    if not players:
        return top
    per_line = min(len(players), CHIPS_PER_LINE)
    tall = per_line > 2
    height = TALL_CHIP_HEIGHT if tall else CHIP_HEIGHT
    chip_width = (WIDTH - 2 * PAD - GAP * (per_line - 1)) // per_line
    y = top
    for index, player in enumerate(players):
        column = index % per_line
        if index and column == 0:
            y += height + GAP
        x0 = PAD + column * (chip_width + GAP)
        _player_chip(scene, x0, y, chip_width, player, player.name == to_move, tall)
    return y + height


def classic_header(scene: Scene, view: ClassicBoardView) -> int:
    """Players and scores, move number, whose turn, tiles in the bag; returns the header's height."""
    y = _player_chips(scene, PAD, view.players, view.to_move) + GAP + 4
    status = word(view.language, "move", n=view.move_number) + "  ·  "
    if view.to_move is None:
        status += word(view.language, "game_over")
    else:
        status += word(view.language, "to_play", player=drawable(view.to_move))
    bag = word(view.language, "bag", n=view.bag_count)
    middle = y + STATUS_SIZE // 2 + 2
    scene.text(bag, WIDTH - PAD, middle, STATUS_SIZE, p.INK, anchor="rm", role="header")
    room = WIDTH - 2 * PAD - text_width(bag, STATUS_SIZE) - 16
    scene.text(fit(status, STATUS_SIZE, room), PAD, middle, STATUS_SIZE, p.INK, anchor="lm", role="header")
    y += STATUS_SIZE + 12
    if view.last_move:
        last = fit(word(view.language, "last", move=drawable(view.last_move)), NOTE_SIZE, WIDTH - 2 * PAD)
        scene.text(last, PAD, y + NOTE_SIZE // 2, NOTE_SIZE, p.MUTED, anchor="lm", role="header")
        y += NOTE_SIZE + 10
    for line in view.clock:
        shown = fit(drawable(line), NOTE_SIZE, WIDTH - 2 * PAD)
        scene.text(shown, PAD, y + NOTE_SIZE // 2, NOTE_SIZE, p.INK, anchor="lm", role="header")
        y += NOTE_SIZE + 10
    return y


RACK_TILE = 56
PLUS_WIDTH = 36
CAPTION_SIZE = 16
TITLE_SIZE = 26


def _rack(scene: Scene, x: int, y: int, size: int, letters: str, edition: Edition, style: str) -> int:
    """Letters of a draw as a row of tiles from (x, y); returns the x after them."""
    for letter in letters:
        value = None if letter == JOKER else edition.values.get(letter)
        draw_tile(scene, x, y, size, edition.label(letter), value, "joker" if letter == JOKER else style)
        x += size
    return x


def draw_rack(scene: Scene, y: int, view: DuplicateBoardView) -> int:
    """The draw centred at ``y``: the kept letters (grey tiles) + the new ones, each group captioned;
    returns the y below it."""
    lang = view.language
    plus = PLUS_WIDTH if view.kept else 0
    size = min(RACK_TILE, (WIDTH - 2 * PAD - plus) // max(1, len(view.kept) + len(view.new)))
    x = (WIDTH - size * (len(view.kept) + len(view.new)) - plus) // 2
    caption_y, tiles_y = y + CAPTION_SIZE // 2, y + CAPTION_SIZE + 6
    if view.kept:
        centre = x + size * len(view.kept) // 2
        scene.text(word(lang, "kept"), centre, caption_y, CAPTION_SIZE, p.MUTED, role="caption")
        x = _rack(scene, x, tiles_y, size, view.kept, view.edition, "kept")
        scene.text("+", x + PLUS_WIDTH // 2, tiles_y + size // 2, TITLE_SIZE, p.INK, role="header")
        x += PLUS_WIDTH
    centre = x + size * len(view.new) // 2
    caption = word(lang, "new" if view.kept else "whole_draw")
    scene.text(caption, centre, caption_y, CAPTION_SIZE, p.MUTED, role="caption")
    _rack(scene, x, tiles_y, size, view.new, view.edition, "plain")
    return tiles_y + size + 8


def deadline_text(lang: str, deadline: datetime, zone_name: str, room: int) -> str:
    """``Fin à 21:03:30 (Europe/Paris)``; the zone shortened to its city, then left out, if space is short."""
    text = word(lang, "deadline", time=f"{deadline:%H:%M:%S}")
    city = zone_name.rsplit("/", 1)[-1].replace("_", " ")
    for candidate in (f"{text} ({zone_name})", f"{text} ({city})", text):
        if text_width(candidate, STATUS_SIZE) <= room:
            return candidate
    return text


def duplicate_header(scene: Scene, view: DuplicateBoardView) -> int:
    """Round number, clock or closed state, the draw (kept + new), the top once closed; returns the height."""
    lang = view.language
    title = word(lang, "round", n=view.round_number)
    middle = PAD + TITLE_SIZE // 2 + 2
    scene.text(title, PAD, middle, TITLE_SIZE, p.INK, anchor="lm", role="header")
    deadline = view.local_deadline()
    status = ""
    if view.closed:
        status = word(lang, "game_over" if view.finished else "closed")
    room = WIDTH - 2 * PAD - text_width(title, TITLE_SIZE) - 20
    if not view.closed and deadline is not None:
        status = deadline_text(lang, deadline, view.time_zone, room)
    scene.text(fit(status, STATUS_SIZE, room), WIDTH - PAD, middle, STATUS_SIZE, p.INK, anchor="rm", role="header")
    y = PAD + TITLE_SIZE + 14
    if view.kept or view.new:
        y = draw_rack(scene, y, view)
    else:
        scene.text(word(lang, "no_draw"), PAD, y + STATUS_SIZE // 2, STATUS_SIZE, p.MUTED, anchor="lm", role="header")
        y += STATUS_SIZE + 10
    if view.closed:
        line = word(lang, "no_top")
        if view.top_move:
            points = "" if view.top_points is None else ", " + word(lang, "points", n=view.top_points)
            line = word(lang, "top", move=drawable(view.top_move) + points)
        line = fit(line, STATUS_SIZE, WIDTH - 2 * PAD)
        scene.text(line, WIDTH // 2, y + STATUS_SIZE // 2, STATUS_SIZE, p.INK, role="header")
        y += STATUS_SIZE + 12
    return y


# --- whole images ----------------------------------------------------------------------------


def classic_board_scene(view: ClassicBoardView) -> Scene:
    """The classic board image as a scene."""
    header = Scene(WIDTH, 0, p.PAGE)
    height = classic_header(header, view)
    scene = Scene(WIDTH, height + grid_height(), p.PAGE, header.items)
    draw_grid(scene, height, view.board, view.edition, view.notation, view.language, view.last_squares)
    return scene


def classic_board_png(view: ClassicBoardView) -> bytes:
    """The classic board image: header (players, scores, turn, move, bag) over the grid, last move lit."""
    return png(classic_board_scene(view))


def duplicate_board_scene(view: DuplicateBoardView) -> Scene:
    """The duplicate board image as a scene."""
    header = Scene(WIDTH, 0, p.PAGE)
    height = duplicate_header(header, view)
    scene = Scene(WIDTH, height + grid_height(), p.PAGE, header.items)
    draw_grid(scene, height, view.board, view.edition, view.notation, view.language, view.last_squares)
    return scene


def duplicate_board_png(view: DuplicateBoardView) -> bytes:
    """The duplicate board image: round, clock in the channel's zone, draw (kept + new), top once closed."""
    return png(duplicate_board_scene(view))


def grid_scene(
    board: Board, edition: Edition, notation: Notation, last: Iterable[Square] = (), lang: str = "fr"
) -> Scene:
    """The grid alone (no header) as a scene."""
    scene = Scene(WIDTH, PAD + grid_height(), p.PAGE)
    draw_grid(scene, PAD, board, edition, notation, lang, last)
    return scene


def board_png(
    board: Board,
    edition: Edition,
    notation: Notation = Notation.FISF,
    last: Iterable[Square] = (),
    lang: str = "fr",
) -> bytes:
    """The grid alone as a PNG: premium colours and labels, tiles with values, jokers marked, last move lit."""
    return png(grid_scene(board, edition, notation, last, lang))
