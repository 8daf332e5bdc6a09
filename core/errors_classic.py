"""Exceptions of classic games: players joining, challenges, exchanges, penalties, the racks left at the end."""

from __future__ import annotations

from .errors import GameError

# --- classic game -------------------------------------------------------------


class PlayerCountError(GameError):
    """Too few or too many players for the rule set."""

    def __init__(self, count: int, low: int, high: int) -> None:
        super().__init__(f"{count} players: this game is for {low} to {high}")
        self.count = count
        self.low = low
        self.high = high


class TooManyPlayersError(PlayerCountError):
    """More players than the rule set (and its fallbacks) allows: a fifth name, a fifth join."""


class GameStartedError(GameError):
    """Joining a game after its first move."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player!r} cannot join: the game has started")
        self.player = player


class NothingToChallengeError(GameError):
    """A challenge when the last sheet line is not a standing play; ``last`` is that line's kind
    (a ``core.game.LineKind`` code, "" on an empty sheet)."""

    def __init__(self, last: str) -> None:
        super().__init__(f"nothing to challenge: the last line is {last or 'none'}")
        self.last = last


class WordNotInMoveError(GameError):
    """A challenged word that the last move did not form."""

    def __init__(self, word: str, formed: tuple[str, ...]) -> None:
        super().__init__(f"{word} was not formed by the last move ({', '.join(formed)})")
        self.word = word
        self.formed = formed


class NothingToUndoError(GameError):
    """An undo on an empty sheet."""

    def __init__(self) -> None:
        super().__init__("nothing to undo: the sheet is empty")


class ExchangeNotAllowedError(GameError):
    """An exchange with too few tiles left in the bag."""

    def __init__(self, in_bag: int, needed: int) -> None:
        super().__init__(f"exchange refused: {in_bag} tiles in the bag, {needed} needed")
        self.in_bag = in_bag
        self.needed = needed


class ExchangeSizeError(GameError):
    """An exchange of no tile or of more tiles than a rack holds."""

    def __init__(self, tiles: str) -> None:
        super().__init__(f"{tiles!r}: an exchange is 1 to 7 tiles (letters or a number)")
        self.tiles = tiles


class RackSpecError(GameError):
    """Remaining letters at the end of the game that cannot be read, or more points than a rack holds."""

    def __init__(self, player: str, rack: str, most: int) -> None:
        super().__init__(f"{player}: {rack!r} is neither letters (? for a joker) nor a number from 0 to {most}")
        self.player = player
        self.rack = rack
        self.most = most


class SelfChallengeError(GameError):
    """A player challenging their own move."""

    def __init__(self, player: str, move: str) -> None:
        super().__init__(f"{player} cannot challenge their own move {move}")
        self.player = player
        self.move = move


class AlreadyChallengedError(GameError):
    """A second challenge of a move that was already challenged."""

    def __init__(self, move: str, challenger: str) -> None:
        super().__init__(f"{move} was already challenged by {challenger}")
        self.move = move
        self.challenger = challenger


class PenaltyValueError(GameError):
    """A penalty that is not a whole number of points between 1 and the limit."""

    def __init__(self, points: int, limit: int) -> None:
        super().__init__(f"a penalty is 1 to {limit} points, not {points}")
        self.points = points
        self.limit = limit


class RackNotUnseenError(GameError):
    """Remaining letters given at the end that are not among the tiles still unseen."""

    def __init__(self, player: str, letters: str, unseen: str, left: str = "", asked: str = "") -> None:
        super().__init__(f"{player}: {letters} not among the unseen tiles ({unseen})")
        self.player = player
        self.letters = letters
        self.unseen = unseen
        self.left = left  # the unseen tiles of those letters only ("" when none is left)
        self.asked = asked or letters  # the rack's tiles of those letters (WW where one W is left)


class RackTooLargeError(GameError):
    """Remaining letters given at the end that would not fit on a rack."""

    def __init__(self, player: str, rack: str, size: int) -> None:
        super().__init__(f"{player}: {rack!r} is more than the {size} tiles of a rack")
        self.player = player
        self.rack = rack
        self.size = size


# --- the game's settings and clock ---------------------------------------------


class SettingNameError(GameError):
    """A game setting that does not exist."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no game setting {name!r}")
        self.name = name


class SettingValueError(GameError):
    """A value a game setting cannot take; ``choices`` says which it can."""

    def __init__(self, name: str, value: str, choices: str) -> None:
        super().__init__(f"setting {name}: {value!r} is not one of {choices}")
        self.name = name
        self.value = value
        self.choices = choices


class SettingAfterStartError(GameError):
    """A game setting changed after the first turn."""

    def __init__(self, name: str) -> None:
        super().__init__(f"setting {name}: the game has started")
        self.name = name


class NoClockError(GameError):
    """Pausing or resuming the clock of a game that has none."""

    def __init__(self) -> None:
        super().__init__("this game has no clock")


class OutOfTimeError(GameError):
    """A turn by a player whose time is over (chess clock run out, or the move's stopwatch)."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player} is out of time")
        self.player = player


class AloneNoExchangeError(GameError):
    """An exchange by a player playing on alone after the opponent ran out of time (FISF 6)."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player} plays on alone: no exchange")
        self.player = player


class ScorelessEndError(GameError):
    """A turn after the scoreless turns that end the game under the rule set (the racks are then entered)."""

    def __init__(self, streak: int) -> None:
        super().__init__(f"{streak} scoreless turns: the game is over, enter the racks")
        self.streak = streak
