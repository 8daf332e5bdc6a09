"""A simultané's overall ranking on the live pages: what ``/simultane ranking`` shows, under the same
visibility rule (``core.simultane.visible_rounds``), read from storage and the games' cache. Before the rule
allows a round, the state names no player of any room and no score: only the code and why it waits.

The organiser's page (``/view simultane``) shows it alone; the page of a room playing the simultané shows
it beside the room's own game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from core.duplicate import DuplicateGame, DuplicateSettings, Sanctions
from core.simultane import (
    SimultaneDefinition,
    SimultaneMode,
    overall_standings,
    visible_rounds,
)

from ..simultanes.names import room_labels
from ..simultanes.rooms import rooms_played
from ..storage import GameLog, GameRecord, SimultaneRecord, SimultaneRoom, SimultaneStore

State = dict[str, Any]
Load = Callable[[GameRecord], DuplicateGame]  # a duplicate game from its record (the referee's cache)


class SimultaneReads(SimultaneStore, GameLog, Protocol):
    """What a simultané's overall page reads: its rooms, and their games and players."""


def simultane_room_of_game(
    storage: SimultaneStore, channel: str, game_id: int
) -> tuple[SimultaneRecord, SimultaneRoom] | None:
    """The simultané whose game in ``channel`` is ``game_id``, and the room as it joined it (its ``held``
    round: time up there, its close waiting for the other rooms); None: a game of the room's own."""
    for record in storage.channel_simultanes(channel):
        for room in storage.simultane_rooms(record.id):
            if room.channel == channel and room.game == game_id:
                return record, room
    return None


def related_channels(storage: SimultaneStore, channel: str) -> set[str]:
    """The other rooms, and the organisers' rooms, of the simultanés ``channel`` plays or organises: whose
    pages a change of ``channel`` may change."""
    found: set[str] = set()
    for record in storage.channel_simultanes(channel):
        found.add(record.channel)
        found.update(r.channel for r in storage.simultane_rooms(record.id))
    found.discard(channel)
    return found


def overall_state(
    storage: SimultaneReads, load: Load, record: SimultaneRecord, now: float, lang: str
) -> tuple[int, State]:
    """A simultané's overall ranking as far as the rule allows at ``now``, and a version that grows with
    every room's game and with the rounds the rule shows (the sum of their event counts, and those rounds:
    a window's end shows rounds with no new event)."""
    definition = SimultaneDefinition.from_json(record.definition)
    joined = storage.simultane_rooms(record.id)
    labels = room_labels(lang, joined)  # names, else "Room N" in the page's language: never a channel's key
    played = rooms_played(storage, joined, load)
    progress, results, version = played.progress, played.results, played.events
    rounds = visible_rounds(definition, progress, now)
    version += rounds
    state: State = {
        "code": record.code,
        "window": definition.mode is SimultaneMode.WINDOW,
        "rounds": rounds,
        "rooms": len(results),
        "standings": [],
    }
    if rounds:
        settings = DuplicateSettings(sanctions=Sanctions(definition.sanctions))
        state["standings"] = [
            {
                "place": s.place,
                "player": s.name,
                "room": labels.get(s.channel, ""),
                "total": s.total,
                "gap": s.gap,
                "percent": round(s.percent, 1),
                "solos": s.solos,
                "stopped": s.stopped,
            }
            for s in overall_standings(results, rounds, settings)
        ]
    return version, state
