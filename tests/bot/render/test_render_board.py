"""Board images: headers, coordinates, premiums, jokers, highlights, time zones, size and phone readability."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.render import (
    ClassicBoardView,
    DuplicateBoardView,
    NaiveDeadlineError,
    UnknownTimeZoneError,
    classic_board_png,
    duplicate_board_png,
)
from bot.render import palette as p
from bot.render.board import CELL, classic_board_scene, duplicate_board_scene, grid_height, grid_origin
from bot.render.canvas import Box, Scene, label_box, paint
from core.board import Board, premium_at
from core.edition import FRENCH
from core.notation import Notation
from tests.paths import TEST_DATA
from tests.render_views import (
    View,
    classic_empty_en,
    classic_fr,
    classic_full_en,
    duplicate_closed_en,
    duplicate_open_fr,
    full_board,
    png_of,
    scene_of,
)

RGB = tuple[int, int, int]


def texts(scene: Scene, role: str | None = None) -> list[str]:
    return [label.text for label in scene.labels if role is None or label.role == role]


def square_pixel(scene: Scene, image: Image.Image, row: int, col: int, dx: int = 6, dy: int = 6) -> RGB:
    """A pixel near the top-left corner of a square, inside any tile drawn on it."""
    x0, y0 = grid_origin(scene.height - grid_height())
    pixel = image.getpixel((x0 + col * CELL + dx, y0 + row * CELL + dy))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


@pytest.mark.parametrize(
    ("view", "expected"),
    [
        (classic_fr(), ["Ana", "96", "Benoît", "79", "Coup 5  ·  À Ana de jouer", "Sac : 73"]),
        (classic_empty_en(), ["Ana", "0", "Ben", "Move 1  ·  Ben to play", "Bag: 86"]),
        (classic_full_en(), ["Chloé", "301", "Dmitri Ka…", "295", "Move 41  ·  Game over", "Bag: 0"]),
    ],
)
def test_classic_header_shows_players_scores_turn_move_and_bag(view: ClassicBoardView, expected: list[str]) -> None:
    header = texts(classic_board_scene(view), "header")
    assert [text for text in expected if text not in header] == []


def test_classic_header_shows_the_last_move_and_marks_the_player_to_move() -> None:
    view = classic_fr()
    scene = classic_board_scene(view)
    assert "Dernier coup : Benoît F10 JOuET 59" in texts(scene)
    assert chip_fills(scene) == [p.CHIP_TURN, p.CHIP]  # Ana, to move, in dark
    assert chip_fills(classic_board_scene(replace(view, to_move="Benoît"))) == [p.CHIP, p.CHIP_TURN]
    assert chip_fills(classic_board_scene(replace(view, to_move=None))) == [p.CHIP, p.CHIP]


def chip_fills(scene: Scene) -> list[RGB | None]:
    """Fills of the boxes above the grid: the players' chips."""
    top = scene.height - grid_height()
    return [item.fill for item in scene.items if isinstance(item, Box) and item.box[3] < top]


@pytest.mark.parametrize(
    ("notation", "rows", "columns"),
    [
        (Notation.FISF, list("ABCDEFGHIJKLMNO"), [str(n) for n in range(1, 16)]),
        (Notation.GCG, [str(n) for n in range(1, 16)], list("ABCDEFGHIJKLMNO")),
    ],
)
def test_coordinates_follow_the_notation(notation: Notation, rows: list[str], columns: list[str]) -> None:
    scene = classic_board_scene(replace(classic_empty_en(), notation=notation))
    coordinates = [label for label in scene.labels if label.role == "coordinate"]
    assert [label.text for label in coordinates if label.anchor == "mm"] == columns  # across the top
    assert [label.text for label in coordinates if label.anchor == "rm"] == rows  # down the left side


@pytest.mark.parametrize(
    ("lang", "counts"),
    [("fr", {"MT": 8, "MD": 16, "LT": 12, "LD": 24, "★": 1}), ("en", {"TW": 8, "DW": 16, "TL": 12, "DL": 24, "★": 1})],
)
def test_premium_labels_per_language(lang: str, counts: dict[str, int]) -> None:
    premiums = texts(classic_board_scene(replace(classic_empty_en(), language=lang)), "premium")
    assert {text: premiums.count(text) for text in set(premiums)} == counts


def test_jokers_and_the_last_move_stand_out() -> None:
    view = classic_fr()  # F10 JOuET just played, u a joker on F12
    scene = classic_board_scene(view)
    image = paint(scene)
    assert square_pixel(scene, image, 5, 11) == p.TILE_RECENT  # the joker u, just played
    assert square_pixel(scene, image, 5, 9) == p.TILE_RECENT  # J
    assert square_pixel(scene, image, 7, 6) == p.TILE  # H of HANTEZ, older
    assert square_pixel(scene, image, 0, 0) == p.SQUARE[premium_at(0, 0)]
    old = classic_board_scene(replace(view, last_squares=()))
    assert square_pixel(old, paint(old), 5, 11) == p.JOKER_TILE
    inks = [label.ink for label in scene.labels if label.role == "tile" and label.text == "U"]
    assert sorted(inks) == sorted([p.INK, p.JOKER_INK])  # U of HUES plain, u of JOuET a joker
    assert "0" not in texts(scene, "value")  # a joker shows no value


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Europe/Paris", "Fin à 21:03:30 (Europe/Paris)"),
        ("America/Montreal", "Fin à 16:03:30 (America/Montreal)"),  # daylight saving time since 9 March
        ("UTC", "Fin à 20:03:30 (UTC)"),
    ],
)
def test_the_deadline_is_shown_in_the_channels_time_zone(zone: str, shown: str) -> None:
    assert shown in texts(duplicate_board_scene(replace(duplicate_open_fr(), time_zone=zone)))


def test_the_duplicate_header_shows_the_round_and_tells_kept_from_new() -> None:
    view = duplicate_open_fr()  # EIU+ERS?
    scene = duplicate_board_scene(view)
    header = texts(scene, "header")
    assert header[0] == "Coup 5"
    assert "+" in header
    assert texts(scene, "caption") == ["Reliquat", "Nouvelles lettres"]
    image = paint(scene)
    fills = [item.fill for item in scene.items if isinstance(item, Box) and item.radius and item.box[1] < 120]
    assert fills == [p.KEPT_TILE] * 3 + [p.TILE] * 3 + [p.JOKER_TILE]
    for box in (item for item in scene.items if isinstance(item, Box) and item.fill == p.KEPT_TILE):
        assert image.getpixel((box.box[0] + 6, box.box[1] + 6)) == p.KEPT_TILE
    rack = [label.text for label in scene.labels if label.role == "tile" and label.y < 120]
    assert rack == list("EIUERS?")


def test_a_draw_without_kept_letters_is_one_group() -> None:
    scene = duplicate_board_scene(replace(duplicate_open_fr(), kept="", new="AEIRST?"))
    assert texts(scene, "caption") == ["Tirage"]
    assert "+" not in texts(scene, "header")


def test_before_the_draw_the_header_says_so() -> None:
    scene = duplicate_board_scene(replace(duplicate_open_fr(), kept="", new="", deadline=None))
    assert "En attente du tirage" in texts(scene)
    assert not any(text.startswith("Fin à") for text in texts(scene))


def test_after_the_close_the_top_is_placed_and_highlighted() -> None:
    view = duplicate_closed_en()
    scene = duplicate_board_scene(view)
    image = paint(scene)
    assert "Top: 6J JOuET, 59 pts" in texts(scene)
    assert "Move closed" in texts(scene)
    for row, col in view.last_squares:
        assert square_pixel(scene, image, row, col) == p.TILE_RECENT
    still_open = duplicate_board_scene(replace(view, closed=False, last_squares=()))
    assert square_pixel(still_open, paint(still_open), 5, 9) == p.TILE
    assert not any(text.startswith("Top") for text in texts(still_open))
    previous_top = duplicate_board_scene(replace(view, closed=False))  # the last top, lit during the next round
    assert square_pixel(previous_top, paint(previous_top), 5, 9) == p.TILE_RECENT
    no_top = duplicate_board_scene(replace(view, top_move="", top_points=None, last_squares=()))
    assert "No top" in texts(no_top)
    over = duplicate_board_scene(replace(view, finished=True))  # the last move of a finished game
    assert "Game over" in texts(over)
    assert "Move closed" not in texts(over)
    assert "Top: 6J JOuET, 59 pts" in texts(over)


def test_a_bad_time_zone_or_a_naive_deadline_is_refused() -> None:
    with pytest.raises(UnknownTimeZoneError) as error:
        replace(duplicate_open_fr(), time_zone="Mars/Olympus_Mons")
    assert error.value.name == "Mars/Olympus_Mons"
    naive = datetime(2025, 3, 14, 20, 0)
    with pytest.raises(NaiveDeadlineError) as late:
        replace(duplicate_open_fr(), deadline=naive)
    assert late.value.deadline == naive


@pytest.mark.parametrize(
    "png",
    [
        lambda: classic_board_png(classic_full_en()),
        lambda: duplicate_board_png(
            DuplicateBoardView(
                full_board(),
                FRENCH,
                Notation.FISF,
                "fr",
                40,
                "ABC",
                "DEF?",
                datetime(2025, 1, 1, tzinfo=UTC),
                "Europe/Paris",
                closed=True,
                last_squares=tuple((14, c) for c in range(15)),
                top_move="O1 WXYZ",
                top_points=999,
            )
        ),
    ],
    ids=["classic", "duplicate"],
)
def test_a_full_board_stays_under_200_kb(png: object) -> None:
    assert callable(png)
    data = png()
    assert isinstance(data, bytes)
    assert len(data) < 200_000
    Image.open(io.BytesIO(data)).verify()


def ink_height(image: Image.Image, box: tuple[int, int, int, int], ink: RGB, ground: RGB) -> int:
    """Rows of ``box`` holding a pixel closer to ``ink`` than to ``ground``: the drawn text's height."""
    luminance = [0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] for c in (ink, ground)]
    threshold = sum(luminance) / 2
    crop = image.crop(box).convert("L")
    width, height = crop.size
    data = crop.tobytes()
    rows = [y for y in range(height) if min(data[y * width : (y + 1) * width]) < threshold]
    return rows[-1] - rows[0] + 1 if rows else 0


@pytest.mark.parametrize("view", [classic_full_en(), classic_fr(), duplicate_open_fr()], ids=["full", "fr", "dup"])
def test_letters_on_tiles_are_readable_on_a_360_px_wide_phone(view: View) -> None:
    scene = scene_of(view)
    full = Image.open(io.BytesIO(png_of(view))).convert("RGB")
    scale = 360 / full.width
    phone = full.resize((360, round(full.height * scale)), Image.Resampling.LANCZOS)
    heights = []
    for label in scene.labels:
        if label.role != "tile" or label.ink != p.INK:
            continue
        left, top, right, bottom = label_box(label)
        box = (int(left * scale) - 1, int(top * scale) - 1, int(right * scale) + 2, int(bottom * scale) + 2)
        heights.append(ink_height(phone, box, p.INK, p.TILE))
    assert len(heights) >= 7
    assert min(heights) >= 10, heights


def test_an_empty_board_has_its_star() -> None:
    scene = classic_board_scene(replace(classic_empty_en(), board=Board()))
    image = paint(scene)
    star = next(label for label in scene.labels if label.text == "★")
    dark = sum(1 for value in image.crop(label_box(star)).convert("L").tobytes() if value < 70)
    assert dark > 100  # a filled star, not an empty missing-glyph box


@pytest.mark.parametrize(
    ("round_number", "shown"),
    [
        (5, "Fin à 17:03:30 (America/Argentina/Buenos_Aires)"),
        (123456789, "Fin à 17:03:30 (Buenos Aires)"),  # a wider title leaves less room
    ],
)
def test_a_long_zone_name_is_shortened_not_cut(round_number: int, shown: str) -> None:
    view = replace(duplicate_open_fr(), time_zone="America/Argentina/Buenos_Aires", round_number=round_number)
    assert shown in texts(duplicate_board_scene(view), "header")


def test_a_negative_score_has_a_true_minus_sign() -> None:
    view = classic_fr()
    view = replace(view, players=(replace(view.players[0], score=-5), view.players[1]))
    assert "−5" in texts(classic_board_scene(view), "header")


def test_tiles_of_an_edition_with_two_letter_tiles_show_their_labels_inside_the_tile() -> None:

    from bot.render.board import grid_scene
    from core.edition import edition_from_json
    from core.notation import parse_move
    from core.placement import apply_placement, validate_move

    data = TEST_DATA / "editions" / "es-test.json"
    es = edition_from_json(data.read_text(encoding="utf-8"))
    board = Board()
    for move in ["H8 CHORRO", "8H CHICO", "11H OllA"]:
        apply_placement(board, validate_move(board, parse_move(move, alphabet=es.alphabet)))
    scene = grid_scene(board, es, Notation.FISF)
    tiles = [label for label in scene.labels if label.role == "tile"]
    assert sorted(label.text for label in tiles) == sorted(["CH", "O", "RR", "O", "I", "C", "O", "LL", "A"])
    values = texts(scene, "value")
    assert sorted(values) == sorted(["5", "1", "8", "1", "1", "3", "1", "1"])  # no value on the joker LL
    for label in tiles:
        left, _top, right, _bottom = label_box(label)
        assert right - left < CELL - 6, label.text  # two letters fit in their square
