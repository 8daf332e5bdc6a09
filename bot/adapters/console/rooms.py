"""Which console room a process is, and a room's settings at its first start."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from core.edition import EDITIONS

from ...messages import say
from ...storage import ChannelSettings, Storage

CHANNEL = "console"  # the default room's channel, and its clock's scope (it covers the console accounts too)
ACCOUNTS = "console:"  # every console room's speakers: ``console:NAME``, the same account in every room
ROOM_PREFIX, ROOM_END = "terminal:", "/"  # a named room's channel: ``terminal:NAME/``
ROOM_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")  # matched whole (fullmatch: no newline after it either)
DEFAULT_LANGUAGE = "fr"  # of a new room started without --lang


@dataclass(frozen=True)
class RoomKey:
    """Which console room a process is: the default one (``name`` empty, channel ``console``) or one named
    with ``--room`` (lower case: ``--room Vichy`` is ``vichy``).

    A clock scope is a prefix of the channels it looks after, so a named room's channel ends with a mark no
    name holds (``terminal:vichy/`` is no prefix of ``terminal:vichy2/``) and does not begin with
    ``console`` (the default room's scope); the ``_`` of a name is a ``.`` there (``_`` is a wildcard of the
    SQL ``LIKE`` through which the outbox reads its scopes)."""

    name: str = ""

    @property
    def channel(self) -> str:
        """The room's channel id in storage."""
        return f"{ROOM_PREFIX}{self.name.replace('_', '.')}{ROOM_END}" if self.name else CHANNEL

    @property
    def label(self) -> str:
        """The room as its output names it: ``[#console]``, ``[#vichy]``."""
        return self.name or CHANNEL

    @property
    def outbox_scopes(self) -> tuple[str, ...]:
        """What the room's process delivers when it waits: its channel's messages, and the private ones to
        console accounts (the default room's scope, ``console``, covers both)."""
        return (self.channel, ACCOUNTS) if self.name else (CHANNEL,)

    def image_dir(self, folder: Path) -> Path:
        """Where the room writes the images and files it is sent: ``images`` beside the database, a named
        room in its own sub-folder of it."""
        return folder / "images" / self.name if self.name else folder / "images"


def room_of(channel: str) -> RoomKey | None:
    """The console room whose channel ``channel`` is (None: another platform's channel)."""
    if channel == CHANNEL:
        return RoomKey()
    if channel.startswith(ROOM_PREFIX) and channel.endswith(ROOM_END):
        return RoomKey(channel.removeprefix(ROOM_PREFIX).removesuffix(ROOM_END).replace(".", "_"))
    return None


def room_key(name: str | None) -> RoomKey | None:
    """The room ``--room NAME`` names (no name, or ``console``: the default room); None for a name that
    is not 1 to 32 letters, digits, ``-`` or ``_``."""
    if name is None:
        return RoomKey()
    if not ROOM_NAME.fullmatch(name):
        return None
    lowered = name.lower()
    return RoomKey() if lowered == CHANNEL else RoomKey(lowered)


def new_room_settings(language: str, channel: str = CHANNEL) -> ChannelSettings:
    """A new room's settings in ``language``: that language's edition, with its notation, list, box rules
    and usual time zone."""
    settings = ChannelSettings(channel, language=language)
    return settings.with_edition(language) if language in EDITIONS else settings


def start_room(storage: Storage, language: str | None, err: TextIO, channel: str = CHANNEL) -> None:
    """Create the room of ``channel`` in ``language`` (French by default) the first time; a room already
    stored (its settings or a game) keeps its settings, and a ``language`` other than its own is answered
    with a note on ``err``."""
    if not storage.has_channel(channel) and not storage.games(channel):
        storage.save_channel(new_room_settings(language or DEFAULT_LANGUAGE, channel))
        return
    kept = storage.channel(channel).language
    if language and language != kept:
        err.write(say(kept, "console_lang_kept", lang=kept, wanted=language) + "\n")
