"""Exceptions of duplicate games: draws, settings, rounds and their tops, the clock, submitted moves."""

from __future__ import annotations

from enum import StrEnum

from .errors import ArbitreError, GameError

# --- duplicate draws ----------------------------------------------------------


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

    def __init__(self, draw: str, kept: str | None, reliquat: str, suggested: str = "") -> None:
        if kept is None:
            message = f"{draw}: the draw must contain the letters kept from the previous move, {reliquat}"
        else:
            message = f"{draw}: the letters kept from the previous move are {reliquat or 'none'}, not {kept or 'none'}"
        super().__init__(message)
        self.draw = draw
        self.kept = kept
        self.reliquat = reliquat
        self.suggested = suggested  # the draw as it should read: the reliquat, "+", the new letters typed


class DrawSizeError(DrawError):
    """A draw with more or fewer letters than the reliquat completed from the bag gives."""

    def __init__(self, draw: str, count: int, expected: int) -> None:
        super().__init__(f"{draw}: {count} letters, the draw has {expected}")
        self.draw = draw
        self.count = count
        self.expected = expected


class DrawJokerError(DrawError):
    """A draw of the joker format (FISF 3.8.1) without its joker, or with two, while a joker is left."""

    def __init__(self, draw: str, jokers: int) -> None:
        super().__init__(f"{draw}: {jokers} jokers, a joker-format draw holds one")
        self.draw = draw
        self.jokers = jokers


class NoDrawPossibleError(DrawError):
    """The bag and the reliquat can no longer give a draw that meets the vowel/consonant rule."""

    def __init__(self, letters: str, move_number: int) -> None:
        super().__init__(f"move {move_number}: the letters left ({letters or 'none'}) cannot give a valid draw")
        self.letters = letters
        self.move_number = move_number


# --- duplicate game -----------------------------------------------------------


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


class TopClause(StrEnum):
    """The clause of FISF 3.4 that rules a tied play out as the top."""

    JOKER = "joker"  # another tied play places no joker
    ENDS_GAME = "ends_game"  # another tied play the joker clause allows ends the game


class TopClauseError(GameError):
    """A tied top the arbiter may not place (FISF 3.4): another tied play must be chosen."""

    def __init__(self, move: str, clause: TopClause, allowed: tuple[str, ...]) -> None:
        super().__init__(f"{move} may not be the top (3.4, {clause}); allowed: {', '.join(allowed)}")
        self.move = move
        self.clause = clause
        self.allowed = allowed


class TableNumberError(GameError):
    """A table number out of range (1 to ``MAX_TABLE``)."""

    def __init__(self, table: int, most: int) -> None:
        super().__init__(f"table {table}: tables are numbered 1 to {most}")
        self.table = table
        self.most = most


class TableTakenError(GameError):
    """A table number another player of the game already has."""

    def __init__(self, table: int, holder: str) -> None:
        super().__init__(f"table {table} is {holder}'s")
        self.table = table
        self.holder = holder


class ClockAction(StrEnum):
    """What was asked of a round's clock."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"
    CALL = "close"  # time called on a round (a simultané's room closing early): said as the /close command


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


class TooFewJokersError(LettersNotInDrawError):
    """Uppercase letters the draw lacks, more of them than its jokers could stand for (``H8 ZZ`` with one
    joker and no Z): letters not in the draw, not a joker to write in lowercase."""

    def __init__(self, move: str, letters: str, draw: str, jokers: int) -> None:
        SubmissionError.__init__(
            self, f"{move}: {', '.join(letters)} not in the draw {draw}, whose {jokers} joker(s) stand for fewer"
        )
        self.move = move
        self.letters = letters
        self.draw = draw
        self.jokers = jokers


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


class NoSanctionToLiftError(GameError):
    """A sanction lifted on an answer that has no warning or penalty to lift."""

    def __init__(self, player: str, round_number: int) -> None:
        super().__init__(f"{player}, move {round_number}: no warning or penalty to lift")
        self.player = player
        self.round_number = round_number
