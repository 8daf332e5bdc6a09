"""Places from scores, shared by equal scores (1, 1, 3): the classic game's results and duplicate standings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def shared_places(scores: Iterable[tuple[T, int]]) -> list[tuple[T, int, int]]:
    """(who, score, place) best first, in the given order among equal scores; equal scores share a place."""
    ordered = sorted(scores, key=lambda item: -item[1])
    places: list[tuple[T, int, int]] = []
    for index, (who, score) in enumerate(ordered):
        place = places[-1][2] if places and places[-1][1] == score else index + 1
        places.append((who, score, place))
    return places
