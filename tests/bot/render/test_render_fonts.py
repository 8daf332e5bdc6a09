"""The bundled font: installed with the package, a glyph for every character any image draws."""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import replace

import pytest

from bot.render import classic_board_png
from bot.render.board import classic_board_scene
from bot.render.fonts import FONT_FILE, drawable, font, font_data, has_glyph, missing_glyphs
from bot.render.labels import vocabulary
from tests.paths import REPO_ROOT
from tests.render_views import classic_fr, scenes_in_both_languages

ROOT = REPO_ROOT
FONTS = ROOT / "bot" / "render" / "fonts"


def test_the_font_is_the_committed_dejavu_sans_bold() -> None:
    data = font_data()
    assert data == (FONTS / FONT_FILE).read_bytes()
    provenance = (FONTS / "PROVENANCE.md").read_text(encoding="utf-8")
    assert hashlib.sha256(data).hexdigest() in provenance
    assert font(20).getname() == ("DejaVu Sans", "Bold")
    assert "Bitstream Vera" in (FONTS / "LICENSE").read_text(encoding="utf-8")


def test_the_font_and_its_licence_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot.render"]
    shipped = {path.name for pattern in patterns for path in (ROOT / "bot" / "render").glob(pattern)}
    assert {FONT_FILE, "LICENSE", "PROVENANCE.md"} <= shipped


@pytest.mark.parametrize("char", list("★ÀÂÆÇÈÉÊËÎÏÔŒÙÛÜŸàâæçèéêëîïôœùûüÿ0123456789+−—…·%?"))
def test_glyphs_the_images_need_exist(char: str) -> None:
    assert has_glyph(char)


@pytest.mark.parametrize("char", ["漢", "\U0001f3b2", "\ue000"])
def test_missing_glyphs_are_detected(char: str) -> None:
    assert not has_glyph(char)
    assert missing_glyphs(f"Ana{char}") == {char}


@pytest.mark.parametrize(
    ("name", "shown"),
    [("Ana", "Ana"), ("Ana 🎲", "Ana"), ("🎲 Ben 🎲 Lee", "Ben Lee"), ("王小明", "???"), ("Zoë", "Zoë")],
)
def test_names_are_made_drawable(name: str, shown: str) -> None:
    assert drawable(name) == shown
    assert not missing_glyphs(drawable(name))


def test_every_fixed_word_has_its_glyphs() -> None:
    assert {text: missing_glyphs(text) for text in vocabulary() if missing_glyphs(text)} == {}


def test_every_character_drawn_has_a_glyph() -> None:
    scenes = scenes_in_both_languages()
    drawn = {char for scene in scenes.values() for label in scene.labels for char in label.text}
    assert "★" in drawn
    assert "é" in drawn
    assert "−" in drawn
    assert missing_glyphs("".join(drawn)) == set()


def test_a_name_the_font_cannot_draw_is_shown_without_missing_glyph_boxes() -> None:
    view = classic_fr()
    players = (replace(view.players[0], name="Ana 🎲"), replace(view.players[1], name="李"))
    view = replace(view, players=players, to_move="李")
    texts = [label.text for label in classic_board_scene(view).labels]
    assert "Ana" in texts
    assert "?" in texts
    assert missing_glyphs("".join(texts)) == set()
    assert classic_board_png(view).startswith(b"\x89PNG")
