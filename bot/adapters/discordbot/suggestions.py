"""What an option being typed is offered from the channel's stored state (Discord's autocomplete): the
running game's players, the channel's games by their /games number, the simultanés it takes part in, its
house words. Read only, in one short transaction; at most 25 answers (Discord's limit)."""

from __future__ import annotations

from ...commands.options import Suggest
from ...messages import say
from ...storage import Storage
from ...timefmt import date_time
from ...words.game_lists import game_list
from ...words.house import HouseWords
from ...words.loader import split_key
from .commands import fixed_suggestions, matching, players_matching

Found = list[tuple[str, str | int]]


def players_of(storage: Storage, channel: str) -> list[str]:
    """Player names of the channel's running game."""
    record = storage.active_game(channel)
    if record is None:
        return []
    return list(record.setup.players) or [name for _, name in storage.players(record.id)]


def games_of(storage: Storage, channel: str, current: str, lang: str) -> Found:
    """The channel's games, latest first: ``3 · Classic · 2026-12-04 20:15`` -> 3."""
    zone = storage.channel(channel).zone
    found: Found = []
    for number, record in reversed(list(enumerate(storage.games(channel), 1))):
        shown = f"{number} · {say(lang, f'kind_{record.kind}')} · {date_time(record.created, zone)}"
        if str(number).startswith(current.strip()):
            found.append((shown, number))
    return found[:25]


def house_words_of(storage: Storage, channel: str, current: str) -> Found:
    """The house words added to the list the channel plays with, as spelled in its edition."""
    spec = game_list(storage.channel(channel))
    house = HouseWords.replay(storage.house_word_changes(channel, spec))
    spell = split_key(spec)[1].spell
    return [(w, w) for w in matching(current, [spell(w) for w in sorted(house.added)])]


def stored_suggestions(
    storage: Storage, channel: str, suggest: Suggest, current: str, lang: str
) -> Found:
    """What to offer for ``suggest`` given what was typed (``current``)."""
    with storage.transaction():
        if suggest is Suggest.PLAYERS:
            return players_matching(current, players_of(storage, channel))
        if suggest is Suggest.GAMES:
            return games_of(storage, channel, current, lang)
        if suggest is Suggest.CODES:
            codes = [record.code for record in storage.channel_simultanes(channel)]
            return [(c, c) for c in matching(current, codes)]
        if suggest is Suggest.HOUSE_WORDS:
            return house_words_of(storage, channel, current)
    return fixed_suggestions(suggest, current, lang)
