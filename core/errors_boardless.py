"""Exceptions of the sheet without a board (``core.boardless``): what it refuses, with typed fields; the
bot explains each in the players' language (``bot.messages``)."""

from __future__ import annotations

from .errors import ArbitreError

MOST_POINTS = 2000  # what one turn may score on the sheet (the seed scorekeeper's limit)


class SheetError(ArbitreError):
    """A turn or an end the sheet refuses; the game is unchanged."""


class SheetPointsError(SheetError, ValueError):
    """Points outside 0 to ``most``, or points given for a turn that scores nothing."""

    def __init__(self, points: int, most: int = MOST_POINTS) -> None:
        super().__init__(f"{points} points: a turn scores 0 to {most}")
        self.points = points
        self.most = most


class SheetWordError(SheetError, ValueError):
    """A word that is not letters of the edition, or longer than the board."""

    def __init__(self, word: str) -> None:
        super().__init__(f"not a word of this edition: {word!r}")
        self.word = word


class SheetTurnError(SheetError):
    """A turn for a player who is not to move."""

    def __init__(self, player: str, to_move: str) -> None:
        super().__init__(f"{to_move} is to move, not {player}")
        self.player = player
        self.to_move = to_move


class SheetOverError(SheetError):
    """A turn, an end or an undo after the game ended."""

    def __init__(self) -> None:
        super().__init__("the game is over")


class SheetNothingToUndoError(SheetError):
    """An undo with no turn on the sheet."""

    def __init__(self) -> None:
        super().__init__("nothing to undo")


class SheetRackError(SheetError, ValueError):
    """A rack left at the end that is neither letters of the edition nor a value, or a second empty one."""

    def __init__(self, player: str, rack: str) -> None:
        super().__init__(f"{player}: rack {rack!r} cannot be valued")
        self.player = player
        self.rack = rack


class SheetTwoWentOutError(SheetError):
    """Two players whose racks are empty at the end: only one can have gone out."""

    def __init__(self, players: tuple[str, ...]) -> None:
        super().__init__(f"only one player goes out: {', '.join(players)}")
        self.players = players


class SheetPlayerError(SheetError):
    """Racks at the end that are not one per player of the sheet: ``player`` is the one without (or not of
    the sheet)."""

    def __init__(self, player: str) -> None:
        super().__init__(f"racks at the end: {player!r}")
        self.player = player
