"""The words drawn on the images, from the message catalogs (``image_*`` and ``premium_*`` messages)."""

from __future__ import annotations

from core.board import Premium

from ..catalogs import CATALOGS
from ..messages import languages, say

CENTRE_STAR = "★"


def word(lang: str, key: str, **values: object) -> str:
    """The image label ``key`` (message ``image_<key>``) in ``lang``, filled with ``values``."""
    return say(lang, f"image_{key}", **values)


def premium_label(lang: str, premium: Premium) -> str:
    """The two-letter name of a premium square (``MT``/``TW``...), empty for a plain square."""
    if premium is Premium.NONE:
        return ""
    return say(lang, f"premium_{premium.name.lower()}")


def vocabulary() -> list[str]:
    """Every fixed text the images may draw, in every language (placeholders left in)."""
    texts = [CENTRE_STAR]
    for lang in languages():
        catalog = CATALOGS.catalog(lang)
        for key, forms in catalog.texts.items():
            if key.startswith(("image_", "premium_")):
                texts.extend(forms)
    return texts
