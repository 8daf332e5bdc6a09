"""Exceptions raised by the referee engine: the base ``ArbitreError``, and the errors of editions,
notation, placement and those both kinds of game raise (with their base ``GameError``). The errors
of each other domain have a module of their own: ``core.errors_classic``, ``core.errors_duplicate``,
``core.errors_lexicon``, ``core.errors_records``.

Every kind of failure has its own class; each carries the offending input as typed
attributes (codes, numbers, the text typed) from which the chat layer explains it in
the channel's language. ``str()`` of an error is an English line for logs and the
offline tools, never shown to players.
"""

from __future__ import annotations

from enum import StrEnum


class ArbitreError(Exception):
    """Base class of every error the engine raises on bad input."""


# --- editions -----------------------------------------------------------------


class EditionDataError(ArbitreError, ValueError):
    """An edition's data that cannot be used: which edition, which field, what is wrong."""

    def __init__(self, code: str, key: str, problem: str) -> None:
        super().__init__(f"edition {code!r}, {key}: {problem}")
        self.code = code
        self.key = key
        self.problem = problem


# --- notation -----------------------------------------------------------------


class SyntaxProblem(StrEnum):
    """What is wrong with typed text; ``NotationError.detail`` holds the offending part, if any."""

    REF_FORM = "ref_form"  # a reference is a letter and a number
    ROW_LETTER = "row_letter"  # detail: a letter outside A-O
    COLUMN_NUMBER = "column_number"  # detail: a number outside 1-15
    MOVE_FORM = "move_form"  # a move is a reference then a word
    EMPTY = "empty"  # nothing typed
    JOKER_BRACKET = "joker_bracket"  # brackets that do not hold one tile: C(H)ACUNE
    TILE_BRACKET = "tile_bracket"  # detail: square brackets that do not hold one tile: C[H]
    NOT_A_LETTER = "not_a_letter"  # detail: a character that is no letter
    NOT_A_TILE = "not_a_tile"  # detail: a character that is no tile of the edition nor a joker ?
    DRAW_PLUS = "draw_plus"  # a draw is KEPT+NEW, with one +
    RACK_TOO_LONG = "rack_too_long"  # detail: how many tiles a rack holds
    TOO_MANY_JOKERS = "too_many_jokers"  # detail: how many jokers the edition has
    BOARD_LINES = "board_lines"  # detail: how many lines a board is (15)
    BOARD_SQUARES = "board_squares"  # detail: how many squares the line holds
    BOARD_SQUARE = "board_square"  # detail: a square that is neither . nor one tile


_SYNTAX_LOG = {
    SyntaxProblem.REF_FORM: "a reference is a letter A-O and a number 1-15",
    SyntaxProblem.ROW_LETTER: "{detail} is not a letter from A to O",
    SyntaxProblem.COLUMN_NUMBER: "{detail} is not a number from 1 to 15",
    SyntaxProblem.MOVE_FORM: "a move is a reference then a word",
    SyntaxProblem.EMPTY: "nothing typed",
    SyntaxProblem.JOKER_BRACKET: "a joker in brackets is one tile, like C(H)ACUNE",
    SyntaxProblem.TILE_BRACKET: "{detail!r}: a bracket holds one tile, like C[H]",
    SyntaxProblem.NOT_A_LETTER: "{detail!r} is not a letter",
    SyntaxProblem.NOT_A_TILE: "{detail!r} is not a tile of the edition or a joker ?",
    SyntaxProblem.DRAW_PLUS: "a draw is KEPT+NEW, with one '+'",
    SyntaxProblem.RACK_TOO_LONG: "a rack holds at most {detail} tiles",
    SyntaxProblem.TOO_MANY_JOKERS: "the edition has {detail} jokers",
    SyntaxProblem.BOARD_LINES: "a board is {detail} lines of 15 squares",
    SyntaxProblem.BOARD_SQUARES: "{detail} squares where a line has 15",
    SyntaxProblem.BOARD_SQUARE: "{detail!r} is neither . nor one tile of the edition",
}


class NotationError(ArbitreError, ValueError):
    """Text that cannot be read as a reference, a word, a move or a rack: what, and the part at fault."""

    def __init__(self, text: str, problem: SyntaxProblem, detail: str = "") -> None:
        super().__init__(f"{text!r}: {_SYNTAX_LOG[problem].format(detail=detail)}")
        self.text = text
        self.problem = problem
        self.detail = detail


class RefSyntaxError(NotationError):
    """A square reference such as ``H8`` or ``8H`` that cannot be read."""


class WordSyntaxError(NotationError):
    """A word that cannot be read (unknown character, bad joker brackets...)."""


class RackSyntaxError(NotationError):
    """A rack or draw that cannot be read."""


class BoardSyntaxError(NotationError):
    """A board written as text (``core.board_text``) that cannot be read: the line at fault, or the line count."""


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
        super().__init__(f"{word}: the word goes on through {square}; write the whole word {full_word}")
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


class DetachedWordError(NotConnectedError):
    """A move that touches no tile on the board and places more tiles than a rack holds: its word was meant
    through a letter of the board, the reference is wrong (``A1 ORIENTES``)."""

    def __init__(self, move: str, count: int, limit: int) -> None:
        PlacementError.__init__(
            self, f"{move}: touches no letter on the board and places {count} tiles there, a rack holds {limit}"
        )
        self.move = move
        self.count = count
        self.limit = limit


# --- games: the base and the errors both kinds of game raise ------------------


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


class DuplicatePlayerError(GameError):
    """A player who is already in the game."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player!r} is already in the game")
        self.player = player
