"""Exceptions raised by the referee engine.

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


# --- notation ---------------------------------------------------------------


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


class TooManyPlayersError(PlayerCountError):
    """More players than the rule set (and its fallbacks) allows: a fifth name, a fifth join."""


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


# --- lexicon ------------------------------------------------------------------


class LexiconError(ArbitreError):
    """A word list or a compiled lexicon that cannot be used."""


class InvalidWordError(LexiconError, ValueError):
    """Text that is not a word of 2 to 15 tiles (letters A-Z for French and English) once accents are folded."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text!r}: a word is 2 to 15 letters A-Z")
        self.text = text


class AlphabetMismatchError(LexiconError, ValueError):
    """A lexicon used with an edition whose tiles are not the ones its words are spelt in."""

    def __init__(self, lexicon: str, lexicon_labels: tuple[str, ...], edition_labels: tuple[str, ...]) -> None:
        super().__init__(
            f"lexicon {lexicon!r} is spelt in {' '.join(lexicon_labels)}, the edition has {' '.join(edition_labels)}"
        )
        self.lexicon = lexicon
        self.lexicon_labels = lexicon_labels
        self.edition_labels = edition_labels


class CorruptLexiconError(LexiconError):
    """Compiled lexicon bytes that are truncated, damaged or of an unknown format."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"corrupt lexicon: {reason}")
        self.reason = reason


# --- duplicate draws ---------------------------------------------------------------


class DrawError(ArbitreError):
    """A draw that the bag or the letters kept from the previous move do not allow."""


class LetterNotInBagError(DrawError):
    """A drawn letter that the bag does not hold, or not that many times."""

    def __init__(self, draw: str, letter: str, wanted: int, in_bag: int) -> None:
        name = "the joker ?" if letter == "?" else letter
        if in_bag == 0:
            message = f"{draw}: {name} is not in the bag"
        else:
            message = f"{draw}: {name} drawn {wanted} times, the bag holds {in_bag}"
        super().__init__(message)
        self.draw = draw
        self.letter = letter
        self.wanted = wanted
        self.in_bag = in_bag


class KeptLettersError(DrawError):
    """Kept letters that differ from the letters left from the previous move (the reliquat)."""

    def __init__(self, draw: str, kept: str | None, reliquat: str) -> None:
        if kept is None:
            message = f"{draw}: the draw must contain the letters kept from the previous move, {reliquat}"
        else:
            message = f"{draw}: the letters kept from the previous move are {reliquat or 'none'}, not {kept or 'none'}"
        super().__init__(message)
        self.draw = draw
        self.kept = kept
        self.reliquat = reliquat


class DrawSizeError(DrawError):
    """A draw with more or fewer letters than the reliquat completed from the bag gives."""

    def __init__(self, draw: str, count: int, expected: int) -> None:
        super().__init__(f"{draw}: {count} letters, the draw has {expected}")
        self.draw = draw
        self.count = count
        self.expected = expected


class NoDrawPossibleError(DrawError):
    """The bag and the reliquat can no longer give a draw that meets the vowel/consonant rule."""

    def __init__(self, letters: str, move_number: int) -> None:
        super().__init__(f"move {move_number}: the letters left ({letters or 'none'}) cannot give a valid draw")
        self.letters = letters
        self.move_number = move_number


# --- duplicate game ------------------------------------------------------------------


class DuplicateSettingError(ArbitreError, ValueError):
    """A duplicate game setting outside its allowed range: more than ``low`` (or at least ``low`` when
    ``low_allowed``), and at most ``high`` when there is one."""

    def __init__(
        self, name: str, value: object, low: float, high: float | None = None, low_allowed: bool = True
    ) -> None:
        bound = f"{'at least' if low_allowed else 'more than'} {low:g}" + (f", at most {high:g}" if high else "")
        super().__init__(f"{name} = {value!r}: allowed {bound}")
        self.name = name
        self.value = value
        self.low = low
        self.high = high
        self.low_allowed = low_allowed


class NoRoundOpenError(GameError):
    """An event that needs a draw (a move, a rejection, closing) while no round has one."""

    def __init__(self, event: str) -> None:
        super().__init__(f"{event}: no draw is open, make the draw first")
        self.event = event


class DrawPendingError(GameError):
    """A new draw while the current round's draw stands (close the round or reject the draw)."""

    def __init__(self, draw: str, current: str) -> None:
        super().__init__(f"{draw}: the draw {current} is still open; close the round or reject it first")
        self.draw = draw
        self.current = current


class SubmissionsMadeError(GameError):
    """Rejecting a draw on which players have already submitted moves."""

    def __init__(self, draw: str, count: int) -> None:
        super().__init__(f"cannot reject {draw}: {count} moves already submitted on it")
        self.draw = draw
        self.count = count


class RoundNotClosedError(GameError):
    """A score entered for a round that does not exist or is not closed yet."""

    def __init__(self, round_number: int, closed: int) -> None:
        super().__init__(f"round {round_number} is not closed ({closed} rounds closed)")
        self.round_number = round_number
        self.closed = closed


class ScoreAboveTopError(GameError):
    """A player's score above the round's top: a typing error."""

    def __init__(self, player: str, round_number: int, score: int, top: int) -> None:
        super().__init__(f"{player}, move {round_number}: {score} is above the top {top}")
        self.player = player
        self.round_number = round_number
        self.score = score
        self.top = top


class NegativeScoreError(GameError):
    """A negative score entered for a player."""

    def __init__(self, player: str, round_number: int, score: int) -> None:
        super().__init__(f"{player}, move {round_number}: a score cannot be negative ({score})")
        self.player = player
        self.round_number = round_number
        self.score = score


class TakeBackBlock(StrEnum):
    """Why the last close of a duplicate game cannot be taken back (reopened, or another top placed)."""

    NO_ROUND_CLOSED = "no_round_closed"
    NEXT_DRAW_PLAYED = "next_draw_played"  # someone submitted a move on the next draw
    CORRECTED_SINCE = "corrected_since"  # the arbiter entered or corrected a score since


class NothingToReopenError(GameError):
    """Reopening or changing the top of a round when no closed round can be taken back."""

    def __init__(self, round_number: int, reason: TakeBackBlock) -> None:
        super().__init__(f"move {round_number}: cannot be taken back ({reason})")
        self.round_number = round_number
        self.reason = reason


class NotATiedTopError(GameError):
    """A top chosen by the arbiter that is not among the plays sharing the top score."""

    def __init__(self, move: str, tied: tuple[str, ...]) -> None:
        super().__init__(f"{move} is not one of the tied tops ({', '.join(tied)})")
        self.move = move
        self.tied = tied


class ClockAction(StrEnum):
    """What was asked of a round's clock."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"


class ClockStateError(GameError):
    """Pausing a paused clock, resuming a running one, or changing a round with no clock."""

    def __init__(self, action: ClockAction, paused: bool) -> None:
        super().__init__(f"{action}: the clock is {'paused' if paused else 'running'}")
        self.action = action
        self.paused = paused


class ExtensionError(GameError):
    """A clock extension outside 1 to the limit, in seconds."""

    def __init__(self, seconds: float, limit: int) -> None:
        super().__init__(f"an extension is 1 to {limit} seconds, not {seconds:g}")
        self.seconds = seconds
        self.limit = limit


class SubmissionError(ArbitreError):
    """A submitted duplicate move that scores zero for a reason other than notation or placement."""


class LettersNotInDrawError(SubmissionError):
    """New tiles that the draw does not hold."""

    def __init__(self, move: str, letters: str, draw: str) -> None:
        super().__init__(f"{move}: {', '.join(letters)} not in the draw {draw}")
        self.move = move
        self.letters = letters
        self.draw = draw


class JokerNotMarkedError(LettersNotInDrawError):
    """An uppercase letter that only a joker of the draw could give: the joker must be written."""

    def __init__(self, move: str, letters: str, draw: str) -> None:
        SubmissionError.__init__(
            self,
            f"{move}: {', '.join(letters)} not in the draw {draw}; a joker is written"
            f" in lowercase ({letters[0].lower()}) or in brackets (({letters[0]}))",
        )
        self.move = move
        self.letters = letters
        self.draw = draw


class NoJokerLeftError(LettersNotInDrawError):
    """Letters written as jokers when the draw has no joker (or fewer) for them."""

    def __init__(self, move: str, letters: str, draw: str) -> None:
        SubmissionError.__init__(
            self, f"{move}: jokers written for {', '.join(letters)} but the draw {draw} has no joker left"
        )
        self.move = move
        self.letters = letters
        self.draw = draw


class WordNotInLexiconError(SubmissionError):
    """Words formed by a move that the word list does not hold."""

    def __init__(self, move: str, words: tuple[str, ...]) -> None:
        super().__init__(f"{move}: {', '.join(words)} not in the word list")
        self.move = move
        self.words = words


class LateSubmissionError(SubmissionError):
    """A move submitted after the round's deadline."""

    def __init__(self, player: str, move: str, seconds_late: float) -> None:
        super().__init__(f"{player}: {move} submitted {seconds_late:.1f} s after the deadline")
        self.player = player
        self.move = move
        self.seconds_late = seconds_late


# --- GCG records ----------------------------------------------------------------


class GcgError(ArbitreError):
    """A GCG game record that cannot be read or replayed."""


class GcgSyntaxError(GcgError, ValueError):
    """A line of a GCG file that cannot be read (or bytes that cannot be decoded)."""

    def __init__(self, line: int, text: str, reason: str) -> None:
        super().__init__(f"line {line}: {reason}: {text!r}")
        self.line = line
        self.text = text
        self.reason = reason


class GcgEventError(GcgError):
    """A GCG event line that the engine rejects (an illegal placement, an event after the end...)."""

    def __init__(self, line: int, text: str, cause: Exception) -> None:
        super().__init__(f"line {line}: {cause}: {text!r}")
        self.line = line
        self.text = text
        self.cause = cause
