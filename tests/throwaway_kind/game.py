"""A tally: each player adds up the points they score, in any order; no board, no bag."""

from __future__ import annotations

from dataclasses import dataclass

from core.board import Board
from core.edition import Edition, edition_by_code
from core.kinds import Game
from core.notation import Notation


@dataclass(frozen=True)
class Scored:
    """Points one player scored."""

    player: str
    points: int


class Tally:
    """Players' points, scored in any order; an empty board, never played on."""

    def __init__(self, players: list[str], events: list[Scored] | None = None) -> None:
        self.edition: Edition = edition_by_code("fr")
        self.board = Board()
        self.players = players
        self.events: list[Scored] = []
        for event in events or []:
            self.apply_stored(event)

    @property
    def notation(self) -> Notation:
        return Notation.FISF

    def total(self, player: str) -> int:
        return sum(e.points for e in self.events if e.player == player)

    def apply(self, event: Scored) -> Scored:
        self.apply_stored(event)
        return event

    def apply_stored(self, event: Scored) -> None:
        self.events.append(event)


def a_game(game: Game[Scored]) -> Game[Scored]:
    """The tally, as the protocol every kind of game answers (mypy checks that it does)."""
    return game


ANSWERS = a_game(Tally(["Ana"]))
