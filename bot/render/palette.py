"""Colours of the images and the WCAG contrast ratio every label is held to."""

from __future__ import annotations

from core.board import Premium

RGB = tuple[int, int, int]

# WCAG 2.x level AA for normal text.
AA_CONTRAST = 4.5

PAGE = (248, 246, 240)
INK = (28, 28, 28)
MUTED = (82, 82, 82)  # secondary text on PAGE
WHITE = (255, 255, 255)
RULE = (210, 204, 190)  # separators

BOARD_FRAME = (24, 74, 52)
SQUARE_LINE = (236, 233, 222)
SQUARE = {
    Premium.TRIPLE_WORD: (186, 32, 40),  # white label
    Premium.DOUBLE_WORD: (246, 182, 192),  # ink label
    Premium.TRIPLE_LETTER: (28, 88, 168),  # white label
    Premium.DOUBLE_LETTER: (170, 214, 240),  # ink label
    Premium.NONE: (30, 112, 76),
}
SQUARE_INK = {
    Premium.TRIPLE_WORD: WHITE,
    Premium.DOUBLE_WORD: INK,
    Premium.TRIPLE_LETTER: WHITE,
    Premium.DOUBLE_LETTER: INK,
    Premium.NONE: WHITE,
}

TILE = (247, 224, 172)
TILE_EDGE = (160, 124, 64)
TILE_RECENT = (255, 212, 64)
RECENT_EDGE = (200, 60, 20)
JOKER_TILE = (250, 250, 250)
JOKER_EDGE = (60, 80, 190)
JOKER_INK = (32, 64, 190)
KEPT_TILE = (214, 210, 200)  # letters kept from the previous draw (reliquat)

CHIP = (232, 228, 216)  # a player's box in the header
CHIP_TURN = (24, 74, 52)  # the player to move
CHIP_TURN_INK = WHITE
ROW_STRIPE = (238, 235, 226)
ROW_TOP = (206, 236, 212)  # a row that found the top / the leader
ZERO_INK = (150, 20, 20)  # a zero's reason


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: RGB) -> float:
    """WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    r, g, b = (_channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG contrast ratio of two colours, 1 to 21, in either order."""
    a, b = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)
