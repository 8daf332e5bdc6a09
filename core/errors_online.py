"""Exceptions of the classic game the referee deals (``core.online``): racks, turns, the deal."""

from __future__ import annotations

from .errors import GameError


class NotOnRackError(GameError):
    """A move or an exchange with tiles the player does not hold: ``missing`` tiles (``?`` a joker) and the
    player's ``rack``."""

    def __init__(self, player: str, missing: str, rack: str) -> None:
        super().__init__(f"{player} has no {missing} on the rack")
        self.player = player
        self.missing = missing
        self.rack = rack


class TurnError(GameError):
    """A move by a player whose turn it is not."""

    def __init__(self, player: str, to_move: str | None) -> None:
        super().__init__(f"{player} moved, it is {to_move}'s turn")
        self.player = player
        self.to_move = to_move


class NotDealtError(GameError):
    """A move before the order was drawn and the racks dealt."""

    def __init__(self) -> None:
        super().__init__("the racks are not dealt yet")


class DealError(GameError):
    """Tiles dealt that the bag does not hold, or more than a rack takes (a log that does not add up)."""

    def __init__(self, player: str, tiles: str, in_bag: str) -> None:
        super().__init__(f"{len(tiles)} tiles dealt to {player}: not in the bag or too many for a rack")
        self.player = player
        self.tiles = tiles
        self.in_bag = in_bag


class DealtUndoError(GameError):
    """An undo in a game the referee deals: every move is final once its tiles were drawn."""

    def __init__(self) -> None:
        super().__init__("moves of a dealt game are not undone")
