"""The settings a message is answered under: its room's, a new room's from what its people speak, a private
chat's from its player."""

from __future__ import annotations

import dataclasses

from .chat import Incoming
from .messages import language_of_locale
from .storage import ChannelSettings, Storage


def settings_of(storage: Storage, message: Incoming, rooms_stored: set[str]) -> ChannelSettings:
    """Its channel's settings; a private chat with none of its own speaks the language of the game its
    sender plays, else the one the platform says they use (an English group's player is answered in English
    in their private chat). ``rooms_stored``: the rooms known to have settings stored (kept by the caller)."""
    settings = storage.channel(message.channel)
    if not message.private or message.room_locale is not None:  # a room's (a slash command's there too)
        return new_room(storage, message, settings, rooms_stored)
    if storage.has_channel(message.channel):
        return settings
    games = storage.active_games_of(message.user)
    if games:
        return dataclasses.replace(settings, language=storage.channel(games[0].channel).language)
    spoken = language_of_locale(message.locale) if message.locale else None
    return dataclasses.replace(settings, language=spoken) if spoken else settings


def new_room(storage: Storage, message: Incoming, settings: ChannelSettings, rooms_stored: set[str]) -> ChannelSettings:
    """A room's settings; a new one (none stored) whose platform says what its people speak starts, and
    stays, in that language, with its edition, notation, rules and time zone."""
    spoken = language_of_locale(message.room_locale) if message.room_locale else None
    if spoken is None:
        return settings
    if message.channel in rooms_stored or storage.has_channel(message.channel):
        rooms_stored.add(message.channel)  # asked once: a room's settings are never deleted
        return settings
    settings = settings.in_language(spoken)
    storage.save_channel(settings)  # its people's language from now on, whoever speaks next
    return settings
