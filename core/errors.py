"""Exceptions raised by the referee engine.

Every kind of failure has its own class; each carries the offending input in its
message and as attributes so that the chat layer can explain it in any language.
"""

from __future__ import annotations


class ArbitreError(Exception):
    """Base class of every error the engine raises on bad input."""


# --- notation ---------------------------------------------------------------


class NotationError(ArbitreError, ValueError):
    """Text that cannot be read as a reference, a word, a move or a rack."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text!r}: {reason}")
        self.text = text
        self.reason = reason


class RefSyntaxError(NotationError):
    """A square reference such as ``H8`` or ``8H`` that cannot be read."""


class WordSyntaxError(NotationError):
    """A word that cannot be read (unknown character, bad joker brackets...)."""


class RackSyntaxError(NotationError):
    """A rack or draw that cannot be read."""


# --- placement ----------------------------------------------------------------


class PlacementError(ArbitreError):
    """A move that cannot be placed on the board."""


class OutOfBoardError(PlacementError):
    """The word runs past the edge of the board."""

    def __init__(self, move: str, last_square: str) -> None:
        super().__init__(f"{move}: runs off the board after {last_square}")
        self.move = move
        self.last_square = last_square


class LetterMismatchError(PlacementError):
    """A played-through letter typed in the word differs from the board."""

    def __init__(self, square: str, typed: str, on_board: str) -> None:
        super().__init__(f"square {square} holds {on_board}, not {typed}")
        self.square = square
        self.typed = typed
        self.on_board = on_board


class EmptyThroughSquareError(PlacementError):
    """A ``.`` (played-through letter) stands on an empty square."""

    def __init__(self, square: str) -> None:
        super().__init__(f"square {square} is empty: '.' can only stand for a letter on the board")
        self.square = square


class NoNewTileError(PlacementError):
    """The move places no tile: every square it names is already filled."""

    def __init__(self, move: str) -> None:
        super().__init__(f"{move}: places no new tile")
        self.move = move


class TooManyTilesError(PlacementError):
    """More new tiles than a rack holds."""

    def __init__(self, move: str, count: int, limit: int) -> None:
        super().__init__(f"{move}: places {count} tiles, a rack holds {limit}")
        self.move = move
        self.count = count
        self.limit = limit


class NotInLineError(PlacementError):
    """New tiles that are not all on one row or one column."""

    def __init__(self, squares: str) -> None:
        super().__init__(f"tiles {squares} are not on one row or one column")
        self.squares = squares


class GapError(PlacementError):
    """An empty square between the new tiles."""

    def __init__(self, square: str) -> None:
        super().__init__(f"square {square} is empty between the new tiles")
        self.square = square


class OccupiedSquareError(PlacementError):
    """A new tile on a square that already holds one."""

    def __init__(self, square: str) -> None:
        super().__init__(f"square {square} is already occupied")
        self.square = square


class IncompleteWordError(PlacementError):
    """The typed word stops where the board's word goes on."""

    def __init__(self, word: str, square: str, full_word: str) -> None:
        super().__init__(
            f"{word}: the word goes on through {square}; write the whole word {full_word}"
        )
        self.word = word
        self.square = square
        self.full_word = full_word


class WordTooShortError(PlacementError):
    """A main word of a single letter."""

    def __init__(self, word: str) -> None:
        super().__init__(f"{word}: a word has at least two letters")
        self.word = word


class FirstMoveError(PlacementError):
    """The first move of a game does not cover the centre square."""

    def __init__(self, move: str, centre: str) -> None:
        super().__init__(f"{move}: the first move must cover the centre square {centre}")
        self.move = move
        self.centre = centre


class NotConnectedError(PlacementError):
    """A move that touches no tile already on the board."""

    def __init__(self, move: str) -> None:
        super().__init__(f"{move}: touches no letter already on the board")
        self.move = move


# --- classic game --------------------------------------------------------------


class GameError(ArbitreError):
    """A game event that the state of the game does not allow."""


class GameOverError(GameError):
    """An event after the end of the game."""

    def __init__(self, event: str) -> None:
        super().__init__(f"{event}: the game is over")
        self.event = event


class UnknownPlayerError(GameError):
    """A player name that is not in the game."""

    def __init__(self, player: str, players: tuple[str, ...]) -> None:
        super().__init__(f"{player!r} is not a player of this game ({', '.join(players)})")
        self.player = player
        self.players = players


class PlayerCountError(GameError):
    """Too few or too many players for the rule set."""

    def __init__(self, count: int, low: int, high: int) -> None:
        super().__init__(f"{count} players: this game is for {low} to {high}")
        self.count = count
        self.low = low
        self.high = high


class DuplicatePlayerError(GameError):
    """A player who is already in the game."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player!r} is already in the game")
        self.player = player


class GameStartedError(GameError):
    """Joining a game after its first move."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player!r} cannot join: the game has started")
        self.player = player


class NothingToChallengeError(GameError):
    """A challenge when the last sheet line is not a standing play."""

    def __init__(self, last: str) -> None:
        super().__init__(f"nothing to challenge: the last line is {last}")
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
    """Remaining letters at the end of the game that cannot be read."""

    def __init__(self, player: str, rack: str) -> None:
        super().__init__(f"{player}: {rack!r} is neither letters (? for a joker) nor a number")
        self.player = player
        self.rack = rack
