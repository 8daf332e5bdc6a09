"""WCAG contrast: the formula, then every label of every image against the pixels painted around it."""

from __future__ import annotations

from collections import Counter

import pytest
from PIL import Image

from bot.render.canvas import Label, label_box, paint
from bot.render.palette import AA_CONTRAST, contrast_ratio, relative_luminance
from tests.render_views import scenes_in_both_languages


@pytest.mark.parametrize(
    ("first", "second", "ratio"),
    [
        ((0, 0, 0), (255, 255, 255), 21.0),
        ((255, 255, 255), (0, 0, 0), 21.0),
        ((120, 120, 120), (120, 120, 120), 1.0),
        ((119, 119, 119), (255, 255, 255), 4.48),  # #777 on white, the classic near miss of AA
        ((0, 0, 255), (255, 255, 255), 8.59),
    ],
)
def test_contrast_ratio_follows_wcag(first: tuple[int, int, int], second: tuple[int, int, int], ratio: float) -> None:
    assert contrast_ratio(first, second) == pytest.approx(ratio, abs=0.01)


def test_relative_luminance_bounds() -> None:
    assert relative_luminance((0, 0, 0)) == 0
    assert relative_luminance((255, 255, 255)) == pytest.approx(1)


def ground(image: Image.Image, label: Label) -> tuple[int, int, int]:
    """The most common colour on a ring two pixels outside the label's ink box: what the text sits on."""
    left, top, right, bottom = label_box(label)
    left, top, right, bottom = left - 2, top - 2, right + 1, bottom + 1
    ring = [(x, y) for x in range(left, right + 1) for y in (top, bottom)]
    ring += [(x, y) for y in range(top, bottom + 1) for x in (left, right)]
    width, height = image.size
    colours = Counter(image.getpixel(xy) for xy in ring if 0 <= xy[0] < width and 0 <= xy[1] < height)
    colour = colours.most_common(1)[0][0]
    assert isinstance(colour, tuple)
    return (colour[0], colour[1], colour[2])


def test_ground_is_read_from_the_pixels() -> None:
    from bot.render.canvas import Scene

    scene = Scene(100, 60, (255, 255, 255))
    scene.box((0, 0, 99, 59), (0, 0, 128))
    scene.text("Ab", 50, 30, 20, (255, 255, 0))
    assert ground(paint(scene), scene.labels[0]) == (0, 0, 128)


def test_every_label_passes_wcag_aa() -> None:
    failures = []
    count = 0
    for name, scene in scenes_in_both_languages().items():
        image = paint(scene)
        for label in scene.labels:
            count += 1
            behind = ground(image, label)
            ratio = contrast_ratio(label.ink, behind)
            if ratio < AA_CONTRAST:
                failures.append((name, label.role, label.text, label.ink, behind, round(ratio, 2)))
    assert count > 1000
    assert failures == []
