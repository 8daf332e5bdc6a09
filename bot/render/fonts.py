"""The one typeface of every image: DejaVu Sans Bold, shipped with the package (see fonts/PROVENANCE.md)."""

from __future__ import annotations

import io
import re
import unicodedata
from functools import lru_cache
from importlib.resources import files

from PIL import ImageFont

FONT_FILE = "DejaVuSans-Bold.ttf"
# A private-use code point no font of ours maps: it draws as the font's .notdef box.
_UNMAPPED = "\ue000"


@lru_cache(maxsize=1)
def font_data() -> bytes:
    """The bytes of the bundled TrueType file."""
    return files("bot.render").joinpath("fonts", FONT_FILE).read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled bold face at ``size`` pixels."""
    return ImageFont.truetype(io.BytesIO(font_data()), size)


def _mask_signature(char: str) -> tuple[tuple[int, int], bytes]:
    mask = font(24).getmask(char)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char`` with a glyph of its own (not the missing-glyph box)."""
    if char.isspace():
        return True
    return _mask_signature(char) != _mask_signature(_UNMAPPED)


def missing_glyphs(text: str) -> set[str]:
    """The characters of ``text`` the bundled font has no glyph for."""
    return {char for char in text if not has_glyph(char)}


def drawable(text: str) -> str:
    """``text`` with every character the font lacks replaced: ``?`` for a letter or digit, dropped otherwise
    (emoji, symbols, joiners), so a player's name never shows a missing-glyph box."""
    out: list[str] = []
    for char in text:
        if has_glyph(char):
            out.append(char)
        elif unicodedata.category(char)[0] in "LN":
            out.append("?")
    return re.sub(" {2,}", " ", "".join(out)).strip()
