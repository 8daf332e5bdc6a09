"""A picture as a list of boxes and labels, then painted with Pillow and saved as PNG.

Every image is first built as a ``Scene``: tests read its labels (glyph coverage, contrast against the
painted pixels, size) and ``png`` paints it. All text is drawn with the bundled font.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from .fonts import font
from .palette import RGB


@dataclass(frozen=True)
class Box:
    """A filled rectangle (rounded when ``radius``), optionally outlined."""

    box: tuple[int, int, int, int]
    fill: RGB | None
    outline: RGB | None = None
    width: int = 1
    radius: int = 0
    ellipse: bool = False


@dataclass(frozen=True)
class Label:
    """One line of text at (x, y) with a Pillow anchor (``mm`` centre, ``lm`` left-middle, ...)."""

    text: str
    x: int
    y: int
    size: int
    ink: RGB
    anchor: str = "mm"
    role: str = ""  # what it is, for tests: "tile", "value", "premium", "coordinate", "header", ...


@dataclass
class Scene:
    """A picture to paint: its size, its background and its items in painting order."""

    width: int
    height: int
    background: RGB
    items: list[Box | Label] = field(default_factory=list)

    def box(
        self,
        box: tuple[int, int, int, int],
        fill: RGB | None,
        outline: RGB | None = None,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        """Add a rectangle."""
        self.items.append(Box(box, fill, outline, width, radius))

    def text(self, text: str, x: int, y: int, size: int, ink: RGB, anchor: str = "mm", role: str = "") -> None:
        """Add a label (nothing for an empty text)."""
        if text:
            self.items.append(Label(text, x, y, size, ink, anchor, role))

    @property
    def labels(self) -> list[Label]:
        """Every label, in painting order."""
        return [item for item in self.items if isinstance(item, Label)]


def text_width(text: str, size: int) -> int:
    """Width in pixels of ``text`` drawn at ``size``."""
    return round(font(size).getlength(text))


def fit(text: str, size: int, width: int) -> str:
    """``text``, cut with an ellipsis if needed so that it is at most ``width`` pixels wide at ``size``."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


NO_BREAK = "\u00a0"


def wrap(text: str, size: int, width: int, lines: int) -> list[str]:
    """``text`` on at most ``lines`` lines of at most ``width`` pixels at ``size``, broken between words; what
    does not fit (more lines, or a word wider than a line) is cut, with an ellipsis ending the last line. A
    section sign stays with the number after it (``§ 5.4.1.c``)."""
    kept_together = " ".join(text.split()).replace("§ ", "§" + NO_BREAK)
    words = [word.replace(NO_BREAK, " ") for word in kept_together.split(" ") if word]
    out: list[str] = []
    while words and len(out) < lines:
        current = words.pop(0)
        while words and text_width(f"{current} {words[0]}", size) <= width:
            current = f"{current} {words.pop(0)}"
        out.append(current)
        if text_width(current, size) > width:  # one word wider than a line: the rest is not shown
            break
    if words or (out and text_width(out[-1], size) > width):
        out[-1] = fit(" ".join([out[-1], *words]), size, width)
    return out


def label_box(label: Label) -> tuple[int, int, int, int]:
    """The pixel box the label's ink covers."""
    left, top, right, bottom = font(label.size).getbbox(label.text, anchor=label.anchor)
    return (label.x + int(left), label.y + int(top), label.x + int(right), label.y + int(bottom))


def paint(scene: Scene) -> Image.Image:
    """The scene as an RGB image."""
    image = Image.new("RGB", (scene.width, scene.height), scene.background)
    draw = ImageDraw.Draw(image)
    for item in scene.items:
        if isinstance(item, Label):
            draw.text((item.x, item.y), item.text, fill=item.ink, font=font(item.size), anchor=item.anchor)
        elif item.ellipse:
            draw.ellipse(item.box, fill=item.fill, outline=item.outline, width=item.width)
        elif item.radius:
            draw.rounded_rectangle(item.box, item.radius, fill=item.fill, outline=item.outline, width=item.width)
        else:
            draw.rectangle(item.box, fill=item.fill, outline=item.outline, width=item.width)
    return image


def png(scene: Scene) -> bytes:
    """The scene painted and encoded as an 8-bit palette PNG.

    Flat colours and anti-aliased text fit in 256 colours without visible change (median cut keeps every
    flat colour exact), and the file is about three times smaller than in RGB. Compressed at zlib's usual
    level, without Pillow's ``optimize`` search: a 20-player round's result is drawn in 45 ms instead of 84
    (the search was half of it), for a file 8 % larger (45 kB instead of 41 kB).
    """
    image = paint(scene).quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    output = io.BytesIO()
    image.save(output, format="PNG")
    return output.getvalue()
