"""Golden images: each sample image compared with the reviewed PNG under tests/data/golden/.

A pixel counts as different when a channel moves by more than PIXEL_TOLERANCE; at most MAX_DIFFERENT of
the pixels may differ (anti-aliasing may vary with the FreeType build). They catch changes of layout,
colour and typeface; the words drawn are checked exactly on the scenes (test_render_board, _results).
After a deliberate change, look at the new images, then regenerate with
``ARBITRE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/bot/render/test_render_golden.py`` and commit them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.paths import TEST_DATA
from tests.render_views import png_of, views

GOLDEN = TEST_DATA / "golden"
UPDATE = os.environ.get("ARBITRE_UPDATE_GOLDEN") == "1"
PIXEL_TOLERANCE = 16
MAX_DIFFERENT = 0.002


def different_ratio(first: Image.Image, second: Image.Image) -> float:
    """Share of pixels where some channel differs by more than PIXEL_TOLERANCE (1.0 if sizes differ)."""
    if first.size != second.size:
        return 1.0
    difference = ImageChops.difference(first.convert("RGB"), second.convert("RGB"))
    strongest = ImageChops.lighter(
        ImageChops.lighter(difference.getchannel(0), difference.getchannel(1)), difference.getchannel(2)
    )
    histogram = strongest.histogram()
    return sum(histogram[PIXEL_TOLERANCE + 1 :]) / (first.width * first.height)


def test_the_ratio_sees_a_change() -> None:
    base = Image.new("RGB", (100, 100), (255, 255, 255))
    changed = base.copy()
    changed.paste((0, 0, 0), (0, 0, 10, 10))
    assert different_ratio(base, base) == 0
    assert different_ratio(base, changed) == pytest.approx(0.01)
    faint = base.copy()
    faint.paste((245, 245, 245), (0, 0, 50, 50))
    assert different_ratio(base, faint) == 0  # within tolerance
    assert different_ratio(base, Image.new("RGB", (100, 99))) == 1.0


@pytest.mark.parametrize("name", sorted(views()))
def test_image_matches_its_golden(name: str, tmp_path: Path) -> None:
    data = png_of(views()[name])
    golden = GOLDEN / f"{name}.png"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(data)
    assert golden.exists(), f"no golden image {golden}; run with ARBITRE_UPDATE_GOLDEN=1 and look at it"
    actual = Image.open(io.BytesIO(data))
    ratio = different_ratio(Image.open(golden), actual)
    if ratio > MAX_DIFFERENT:
        (tmp_path / golden.name).write_bytes(data)
    assert ratio <= MAX_DIFFERENT, f"{name}: {ratio:.2%} of pixels differ; new image in {tmp_path / golden.name}"
