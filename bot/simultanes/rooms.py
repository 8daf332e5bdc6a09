"""What a simultané's rooms have played: each room's progress and, for a started game, its closed rounds and
players (known by their platform account), as the overall ranking and its visibility rule take them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.duplicate import DuplicateGame
from core.simultane import RoomPlayer, RoomProgress, RoomResult

from ..storage import GameLog, GameRecord, GameStatus, SimultaneRoom


@dataclass(frozen=True)
class RoomsPlayed:
    """Every room's progress, the results of the started ones, and the events their games hold."""

    progress: list[RoomProgress]
    results: list[RoomResult]
    events: int


def rooms_played(
    storage: GameLog, rooms: Iterable[SimultaneRoom], load: Callable[[GameRecord], DuplicateGame]
) -> RoomsPlayed:
    """The rooms' progress and results (the rooms the organiser admitted only); ``load`` gives a room's game
    from its record (the referee's cache)."""
    progress: list[RoomProgress] = []
    results: list[RoomResult] = []
    events = 0
    for room in rooms:
        if not room.admitted:
            continue
        if room.game is None:
            progress.append(RoomProgress(room.channel, 0, started=False))
            continue
        game_record = storage.game(room.game)
        game = load(game_record)
        events += len(game.events)
        closed = tuple(game.closed_rounds)
        abandoned = game_record.status is GameStatus.ABANDONED
        ended = game_record.status is GameStatus.ENDED
        progress.append(RoomProgress(room.channel, len(closed), abandoned=abandoned, ended=ended))
        if abandoned:
            continue
        accounts = {name: user for user, name in storage.players(room.game)}
        players = tuple(
            RoomPlayer(f"user:{accounts[p]}" if p in accounts else f"name:{room.channel}:{p}", p) for p in game.players
        )
        results.append(RoomResult(room.channel, players, closed, ended))
    return RoomsPlayed(progress, results, events)
