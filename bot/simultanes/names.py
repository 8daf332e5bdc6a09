"""A simultané room's centre name: what its admin may call it (``/simultane join CODE NAME...``,
``/simultane name CODE NAME...``), and the label every ranking, page, file and status shows for a room:
its name, else "Room N" by joining order, never its channel's key."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..messages import say
from ..storage import SimultaneRoom

NAME_MAX = 32  # characters: a projector's column and a federation's ranking line
NAME_TEXT = re.compile(r"^[^\W_](?:[^\W_]|[ '’.,&()/-])*$")  # letters and digits first, then a few marks


def centre_name(words: Iterable[str]) -> str | None:
    """The name the words give, spaces made single (None: too long, or a character a name does not take)."""
    name = " ".join(" ".join(words).split())
    if not name or len(name) > NAME_MAX or NAME_TEXT.match(name) is None:
        return None
    return name


def room_labels(lang: str, rooms: Iterable[SimultaneRoom]) -> dict[str, str]:
    """Each room's label by channel, ``rooms`` in joining order: its name, else "Room N" (N from 1)."""
    return {
        room.channel: room.name or say(lang, "simultane_room_default", n=index)
        for index, room in enumerate(rooms, start=1)
    }


# the counts a simultané's messages say in words
COUNTED = ("rooms", "players", "rounds", "draws", "playing", "waiting")


def say_counted(lang: str, key: str, /, **values: object) -> str:
    """The message ``key`` with each count of ``COUNTED`` among ``values`` also given said in words, with
    its plural (``rooms=3`` gives ``rooms_text`` "3 salons"; 0 and 1 as the language says them)."""
    for count in COUNTED:
        if count in values:
            values[f"{count}_text"] = say(lang, f"count_{count}", **{count: values[count]})
    return say(lang, key, **values)
