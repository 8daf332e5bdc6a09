"""The duplicate game (FISF): every player gets the same draw, the top goes on the board.

A ``DuplicateGame`` is its list of events; its state (board, bag, rounds, results, standings) is what
applying them in order gives, so a game is rebuilt with ``DuplicateGame.from_events``. Events that need
outside help are built by helper methods and stored with that help's answer, so replaying never needs a
random generator, a word list or a move generator:

- ``draw(rng)`` stores the letters drawn (and any automatic rejection),
- ``close_round(top_finder, lexicon)`` stores the top and the words of the
  submitted moves that the word list rejected.

Decisions on points the rules leave open:

- A rejected draw is recorded ``-KEPT+NEW`` before the draw that replaces it; a manual draw that breaks
  the vowel/consonant rule is only reported (``Round.shortfall``): rejecting it is the referee's call.
- When the top finder finds no play for a draw, the round is closed without a top; its letters go back
  to the bag for a different draw (FISF 3.6), unless no more letters are left than a draw holds, or it
  is the third such draw in a row: then the game ends (3.7, reason recorded in ``end_reason``).
- Among tops tied in score, the close places one without the joker when there
  is one, then one that ends the game when there is one (3.4, ``top_choice``).
- A player's later submission replaces an earlier one, except that a late submission never replaces one
  made in time. Submissions without a time, or in a round whose draw has no time, are never late.
- A vertical first move submitted by a player is scored as written (it scores what its horizontal mirror
  scores); the setting ``first_move_horizontal`` only governs the top.
- Solo (FISF 3.5): the only player with the round's best player score, even below the top, when the game
  has at least ``solo_min_players`` players; with the setting ``solo`` at ``top``, only a player alone
  with the top. The bonus counts in the player's total, so with solos the gap to the top can be positive.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Any, TypeVar

from ..adjudication import WordList
from ..board import Board
from ..draw import Bag, Draw, can_draw, check_draw, draw_tiles, remove_tiles
from ..edition import FRENCH, Edition, edition_by_code
from ..errors import ArbitreError, DuplicatePlayerError, GameOverError, UnknownPlayerError
from ..errors_duplicate import (
    DrawPendingError,
    NoRoundOpenError,
    RoundNotClosedError,
    SubmissionsMadeError,
    TakeBackBlock,
    WordNotInLexiconError,
)
from ..game import player_key
from ..notation import Notation, parse_move
from ..placement import validate_move
from ..scoring import score_placement
from .clock import run_clock
from .closing import DIFFERENT_DRAW_TRIES, cancelled_letters, judge_round, place_top, plays_exhausted
from .corrections import correct_answer, record_score
from .events import (
    ClockExtended,
    ClockPaused,
    ClockResumed,
    DrawMade,
    DrawRejected,
    DuplicateEvent,
    DuplicateStarted,
    MoveSubmitted,
    PlayerJoined,
    RoundClosed,
    RoundReopened,
    SanctionLifted,
    ScoreRecorded,
    SubmissionCorrected,
    TableAssigned,
    TimeCalled,
    TopChosen,
)
from .grading import grade_submission
from .joins import JoinsThisMove
from .judging import (
    check_draw_letters,
    effective_submissions,
    evaluate_submission,
    place_submission,
    tiles_played,
)
from .ranking import DuplicateStanding, solo_of, standings_of
from .record import RecordLine, record_data, record_lines
from .replay import check_take_back, draws_before_reopening, draws_since_close, effective_events, take_back_block
from .results_file import assign_table, seat_name, table_numbers
from .rounds import Round, SubmissionResult, lift_sanction
from .settings import DEFAULT_SETTINGS, DuplicateSettings
from .top_choice import check_choice, ends_game
from .tops import TopFinder, close_of

_E = TypeVar("_E", bound="DuplicateEvent")


class EndReason(StrEnum):
    """Why a duplicate game ended by itself (``DuplicateGame.end_letters`` says with which letters)."""

    NO_PLAY = "no_play"  # no play for the last draw, and no different draw (3.6) or three in a row (3.7)
    NO_VALID_DRAW = "no_valid_draw"  # the letters left cannot give a draw that meets the rule
    NO_TILE_LEFT = "no_tile_left"  # every tile has been played


RUNNERS_UP = 5  # best plays under the top kept with each close


# --- the game -----------------------------------------------------------------------


class DuplicateGame:
    """A duplicate game rebuilt from its events; helper methods build, apply and return events."""

    def __init__(
        self,
        edition: Edition = FRENCH,
        players: Iterable[str] = (),
        settings: DuplicateSettings = DEFAULT_SETTINGS,
        lexicon_name: str = "",
    ) -> None:
        self.edition = edition
        self.base_edition = edition  # the edition as the box has it; ``edition`` as the format plays it
        self.events: list[DuplicateEvent] = []
        self._joins = JoinsThisMove()
        self._reset()
        self.apply_stored(DuplicateStarted(edition.code, tuple(players), settings, lexicon_name))

    @classmethod
    def from_events(cls, events: Iterable[DuplicateEvent], edition: Edition | None = None) -> DuplicateGame:
        """The game a list of events describes (the first is ``DuplicateStarted``)."""
        items = list(events)
        if not items or not isinstance(items[0], DuplicateStarted):
            raise ValueError("a duplicate game's events start with DuplicateStarted")
        start = items[0]
        game = cls(edition or edition_by_code(start.edition), start.players, start.settings, start.lexicon)
        for event in items[1:]:
            game.apply_stored(event)
        return game

    # --- derived state ---------------------------------------------------------------

    def _reset(self) -> None:
        self._effective: list[DuplicateEvent] = []
        self.settings = DuplicateSettings()
        self.lexicon_name = ""
        self.players: list[str] = []
        self._player_keys: set[str] = set()  # each player's ``player_key``: a join is checked without a scan
        self.board = Board()
        self.bag = Bag.full(self.edition)
        self.reliquat = ""
        self.rounds: list[Round] = []
        self.finished = False
        self.end_reason: EndReason | None = None
        self.end_letters = ""  # the letters left at the end (the last draw when no play was possible)
        self.tables: dict[str, int] = {}  # table numbers the arbiter gave (table_numbers() for every player)
        # the close close_round is about to apply, with the answers it judged (applying it reuses them)
        self._judged_at_close: tuple[RoundClosed | None, dict[str, SubmissionResult]] = (None, {})
        # moves previewed on the open round's board, by (draw, move, notation): placed, scored, words unchecked
        self._placed: dict[tuple[str, str, str | None], SubmissionResult] = {}

    @property
    def notation(self) -> Notation:
        """The notation the game's moves are written in by default."""
        return self.settings.notation

    @property
    def current(self) -> Round | None:
        """The round being played (with or without its draw yet), None between rounds."""
        if self.rounds and not self.rounds[-1].closed:
            return self.rounds[-1]
        return None

    @property
    def closed_rounds(self) -> list[Round]:
        """The rounds already closed."""
        return [r for r in self.rounds if r.closed]

    @property
    def move_number(self) -> int:
        """The number of the move being played or about to be drawn."""
        return len(self.closed_rounds) + 1

    def deadline(self, round_: Round | None = None) -> float | None:
        """When the round's time runs out (None when its draw has no time or its clock is paused)."""
        target = round_ if round_ is not None else self.current
        return None if target is None else target.deadline

    @property
    def last_closed(self) -> Round | None:
        """The round closed last, if any."""
        closed = self.closed_rounds
        return closed[-1] if closed else None

    def can_take_back_close(self) -> TakeBackBlock | None:
        """Why the last close cannot be taken back (None when it can): a reopen or another top."""
        return take_back_block(self._effective)

    def draws_since_close(self) -> list[DuplicateEvent]:
        """The draws (rejected ones too) made since the last close, in order: what taking it back returns."""
        return draws_since_close(self._effective)

    def draws_before_reopening(self) -> list[DuplicateEvent]:
        """The draws (and rejected draws) shown before the last reopening that it sent back to the bag, once the
        reopened round has closed again and no draw was made since: made again (``draw_again``) as players saw."""
        return draws_before_reopening(self.events, self._effective)

    @property
    def tops_total(self) -> int:
        """The sum of the tops so far."""
        return sum(r.top_points for r in self.closed_rounds)

    def solo(self, round_: Round) -> str | None:
        """The player who gets the solo bonus on a closed round, if any."""
        return solo_of(round_, self.players, self.settings)

    def standings(self) -> list[DuplicateStanding]:
        """Places best first: totals with solo bonuses, gap to the sum of tops, percentage of it."""
        return standings_of(self.closed_rounds, self.players, self.settings)

    def record(self) -> list[RecordLine]:
        """One line per closed move: draw, top, score, cumulative, every player's score."""
        return record_lines(self)

    def record_data(self) -> dict[str, Any]:
        """The record and standings as plain data, ready for JSON."""
        return record_data(self)

    # --- commands (build an event, apply it, return it) -------------------------------

    def join(self, player: str) -> PlayerJoined:
        """Add a player."""
        return self.apply(PlayerJoined(player))

    def has_player_like(self, name: str) -> bool:
        """Whether a player's name is ``name`` as ``player_key`` folds names (a join under it is refused)."""
        return player_key(name) in self._player_keys

    def joined_this_move(self) -> list[str]:
        """The players who joined since the last move closed (or was reopened), in order."""
        return self._joins.of(self.events)

    def draw(self, rng: random.Random, at: float | None = None) -> list[DuplicateEvent]:
        """Draw the next move's letters at random, rejecting draws that break the rule."""
        self._check_not_finished("draw")
        settings, events = self.settings, list[DuplicateEvent]()
        bag, kept, cancelled = self.bag, self.reliquat, cancelled_letters(self.closed_rounds)
        for attempt in range(DIFFERENT_DRAW_TRIES):  # after a cancelled move, a different draw (3.6)
            outcome = draw_tiles(
                bag, kept, self.move_number, rng, settings.draw_rule, self.edition, settings.format.joker_each_draw
            )
            for rejected in outcome.rejected:
                events.append(DrawMade(Draw(rejected.kept, rejected.new).spelled(self.edition), at))
                events.append(DrawRejected())
            events.append(DrawMade(outcome.draw.spelled(self.edition), at))
            if outcome.draw.letters != cancelled or attempt == DIFFERENT_DRAW_TRIES - 1:
                break
            events.append(DrawRejected())
            bag, kept = outcome.bag.plus(outcome.draw.letters), ""
        for event in events:
            self.apply_stored(event)
        return events

    def draw_manual(self, text: str, at: float | None = None) -> DrawMade:
        """Record the draw the referee typed (``EEU+ESI?`` or the seven letters); check ``current.shortfall``."""
        return self.apply(DrawMade(text.strip(), at))

    def draw_again(self, draws: Sequence[DuplicateEvent], at: float | None = None) -> list[DuplicateEvent]:
        """Make the given draws again, all or none (``draws_since_close`` of before another top was
        placed with the same tiles, ``draws_before_reopening``); raises the first draw's error when the
        bag no longer allows them. ``at``: when their clock starts again (by default, as first made)."""
        again = [dataclasses.replace(e, at=at) if at is not None and isinstance(e, DrawMade) else e for e in draws]
        applied = 0
        try:
            for event in again:
                if not isinstance(event, (DrawMade, DrawRejected)):
                    raise TypeError(f"not a draw: {event!r}")
                self.apply_stored(event)
                applied += 1
        except ArbitreError:
            del self.events[len(self.events) - applied :]
            self._rebuild()
            raise
        return again

    def reject_draw(self) -> DrawRejected:
        """Send the current draw back to the bag (kept letters too)."""
        return self.apply(DrawRejected())

    def submit(
        self,
        player: str,
        move: str,
        claimed: int | None = None,
        at: float | None = None,
        notation: Notation | None = None,
    ) -> MoveSubmitted:
        """Record a player's move for the current round (checked when the round closes)."""
        return self.apply(MoveSubmitted(player, move.strip(), claimed, at, str(notation) if notation else None))

    def preview(
        self, player: str, move: str, lexicon: WordList | None = None, notation: Notation | None = None
    ) -> SubmissionResult:
        """How a move would be judged now on the current draw, without recording it."""
        round_ = self._open_round("preview")
        assert round_.draw is not None
        submission = MoveSubmitted(player, move.strip(), None, None, str(notation) if notation else None)
        is_word: Callable[[str], bool] = (lambda w: w in lexicon) if lexicon is not None else (lambda w: True)
        key = (round_.draw.letters, submission.move, submission.notation)
        placed = self._placed.get(key)
        if placed is None:  # kept until the board changes: the close judges the same move without placing it again
            placed = place_submission(self.board, round_.draw.letters, submission, self.edition, self.notation)
            self._placed[key] = placed
        return evaluate_submission(
            self.board, round_.draw.letters, submission, is_word, self.edition, self.notation, placed=placed
        )

    def close_round(self, top_finder: TopFinder, lexicon: WordList) -> RoundClosed:
        """Find the top, check the submitted words, place the top and end the round."""
        round_ = self._open_round("close")
        assert round_.draw is not None
        result = top_finder(self.board.copy(), round_.draw.letters)
        invalid: set[str] = set()
        judged, same = dict[str, SubmissionResult](), dict[tuple[str, int | None, str | None], SubmissionResult]()

        def is_word(word: str) -> bool:  # every word grading looked up and rejected is kept for replaying
            if word in lexicon:
                return True
            invalid.add(word)
            return False

        for player, submission in effective_submissions(round_).items():
            placed = self._placed.get((round_.draw.letters, submission.move, submission.notation))
            checked = grade_submission(
                self.board,
                round_.draw.letters,
                submission,
                is_word,
                self.edition,
                self.notation,
                self.settings.sanctions,
                placed=placed,
                same=same,
            )
            judged[player] = checked
            if isinstance(checked.error, WordNotInLexiconError):
                invalid.update(checked.error.words)
        letters, bag, next_move = round_.draw.letters, self.bag, self.move_number + 1
        closed = close_of(
            result,
            invalid,
            RUNNERS_UP,
            lambda top: ends_game(self.board, bag, letters, top, self.settings, self.edition, next_move),
        )
        # applying the close judges each answer again against ``invalid``: the same verdicts as these
        self._judged_at_close = (closed, judged)
        return self.apply(closed)

    def record_score(self, player: str, round_number: int, score: int, reason: str = "") -> ScoreRecorded:
        """Enter a player's score for a closed round; a score above the top raises (a typing error)."""
        return self.apply(ScoreRecorded(player, round_number, score, reason))

    def correct(
        self, player: str, round_number: int, move: str, lexicon: WordList, reason: str = "", claimed: int | None = None
    ) -> SubmissionCorrected:
        """Replace a player's answer for a closed round (``claimed``: the score its player claimed); it is
        judged on that round's board and draw."""
        round_ = self._closed_round(round_number)
        assert round_.draw is not None
        assert round_.board_before is not None
        submission = MoveSubmitted(player, move.strip())
        checked = evaluate_submission(
            round_.board_before, round_.draw.letters, submission, lambda w: w in lexicon, self.edition, self.notation
        )
        invalid = checked.error.words if isinstance(checked.error, WordNotInLexiconError) else ()
        return self.apply(SubmissionCorrected(player, round_number, move.strip(), reason, tuple(invalid), claimed))

    def lift(self, player: str, round_number: int, reason: str) -> SanctionLifted:
        """Lift the warning or penalty of a player's answer on a closed round, with the reason."""
        return self.apply(SanctionLifted(player, round_number, reason))

    def assign_table(self, player: str, table: int) -> TableAssigned:
        """Give a player a table number (the federation's results file lists players by table); a name
        not playing yet keeps it for whoever joins under it (tables are given before the first draw)."""
        return self.apply(TableAssigned(seat_name(self.players, player), table))

    def table_numbers(self) -> dict[str, int]:
        """Every player's table: the arbiter's number, else the lowest free one in joining order."""
        return table_numbers(self.players, self.tables)

    def pause(self, at: float) -> ClockPaused:
        """Stop the open round's clock."""
        return self.apply(ClockPaused(at))

    def resume(self, at: float) -> ClockResumed:
        """Start the paused clock again with the time that was left."""
        return self.apply(ClockResumed(at))

    def extend(self, seconds: float) -> ClockExtended:
        """Give the open round more time."""
        return self.apply(ClockExtended(seconds))

    def call_time(self, at: float) -> TimeCalled:
        """End the open round's time at ``at`` (answers after it are late); it is closed later."""
        return self.apply(TimeCalled(at))

    def reopen(self, at: float, seconds: float) -> RoundReopened:
        """Open the last closed round again (its next draw, unplayed, goes back to the bag)."""
        return self.apply(RoundReopened(at, seconds))

    def choose_top(self, move: str) -> TopChosen:
        """Place another of the last closed round's tied tops (its next draw, unplayed, goes back)."""
        last = self.last_closed
        if last is not None and self.can_take_back_close() is None:
            check_choice(last, move.strip(), self.settings, self.edition)
        return self.apply(TopChosen(last.number if last is not None else 0, move))

    # --- applying events -------------------------------------------------------------

    def apply(self, event: _E) -> _E:
        """Apply a new event and return it, or raise an ArbitreError and leave the game unchanged (a new
        event is held to the rules a stored one is)."""
        self.apply_stored(event)
        return event

    def apply_stored(self, event: DuplicateEvent) -> None:
        """Apply an event of the game's log, or raise an ArbitreError and leave the game unchanged."""
        if isinstance(event, (RoundReopened, TopChosen)):
            check_take_back(event, self._effective, self.last_closed)
            self.events.append(event)
            try:
                self._rebuild()
            except Exception:
                self.events.pop()
                self._rebuild()
                raise
            return
        try:
            self._apply(event)
        except Exception:
            self._rebuild()
            raise
        self.events.append(event)
        self._effective.append(event)

    def _rebuild(self) -> None:
        """The state from the stored events, closes taken back by reopenings and chosen tops applied."""
        effective = effective_events(self.events)
        self._reset()
        for event in effective:
            self._apply(event)
            self._effective.append(event)

    def _check_not_finished(self, what: str) -> None:
        if self.finished:
            raise GameOverError(what)

    def _player(self, name: str) -> str:
        if name not in self.players:
            raise UnknownPlayerError(name, tuple(self.players))
        return name

    def _open_round(self, what: str) -> Round:
        round_ = self.current
        if round_ is None or round_.draw is None:
            raise NoRoundOpenError(what)
        return round_

    def _apply(self, event: DuplicateEvent) -> None:
        if isinstance(event, DuplicateStarted):
            if self._effective:
                raise ValueError("a duplicate game starts once")
            self.settings = event.settings
            self.edition = event.settings.format.edition(self.base_edition)  # the draw size and bonuses it plays
            self.lexicon_name = event.lexicon
            for player in event.players:
                self._join(player)
        elif isinstance(event, PlayerJoined):
            self._join(event.player)
        elif isinstance(event, DrawMade):
            self._draw(event)
        elif isinstance(event, DrawRejected):
            self._reject()
        elif isinstance(event, MoveSubmitted):
            self._player(event.player)
            self._check_not_finished(str(event))
            self._open_round(str(event)).submissions.append(event)
        elif isinstance(event, RoundClosed):
            self._close(event)
        elif isinstance(event, ScoreRecorded):
            player = self._player(event.player)
            record_score(self._closed_round(event.round), player, event)
        elif isinstance(event, SubmissionCorrected):
            player = self._player(event.player)
            correct_answer(self._closed_round(event.round), player, event, self.edition, self.notation)
        elif isinstance(event, SanctionLifted):
            lift_sanction(self._closed_round(event.round), self._player(event.player), event.reason)
        elif isinstance(event, TableAssigned):
            assign_table(self.tables, seat_name(self.players, event.player), event.table)
        elif isinstance(event, (ClockPaused, ClockResumed, ClockExtended, TimeCalled, RoundReopened)):
            run_clock(self._open_round(str(event)), event)

    def _join(self, player: str) -> None:
        key = player_key(player)
        if key in self._player_keys:
            raise DuplicatePlayerError(player)
        self.players.append(player)
        self._player_keys.add(key)

    def _closed_round(self, number: int) -> Round:
        closed = self.closed_rounds
        if not 1 <= number <= len(closed):
            raise RoundNotClosedError(number, len(closed))
        return closed[number - 1]

    def _draw(self, event: DrawMade) -> None:
        self._check_not_finished(str(event))
        round_ = self.current
        if round_ is not None and round_.draw is not None:
            raise DrawPendingError(event.draw, str(round_.draw))
        settings = self.settings
        outcome = check_draw(
            event.draw,
            self.bag,
            self.reliquat,
            self.move_number,
            settings.draw_rule,
            self.edition,
            settings.format.joker_each_draw,
        )
        if round_ is None:
            round_ = Round(self.move_number)
            self.rounds.append(round_)
        round_.draw = outcome.draw
        round_.shortfall = outcome.shortfall
        round_.opened_at = event.at
        round_.deadline = event.at + self.settings.seconds if event.at is not None else None
        round_.paused_left = None
        self.bag = outcome.bag

    def _reject(self) -> None:
        round_ = self._open_round("reject")
        assert round_.draw is not None
        if round_.submissions:
            raise SubmissionsMadeError(str(round_.draw), len(round_.submissions))
        round_.rejected.append(round_.draw.as_rejected())
        self.bag = self.bag.plus(round_.draw.letters)
        self.reliquat = ""
        round_.draw = None
        round_.shortfall = None
        round_.opened_at = None
        round_.deadline = None
        round_.paused_left = None

    def _close(self, event: RoundClosed) -> None:
        round_ = self._open_round(str(event))
        assert round_.draw is not None
        letters = round_.draw.letters
        if event.top is not None:
            move = parse_move(event.top, Notation.FISF, alphabet=self.edition.alphabet)
            top = validate_move(self.board, move, Notation.FISF, rack_size=self.edition.rack_size)
            check_draw_letters(top, letters, event.top)
            round_.top = top
            round_.top_score = score_placement(top, self.edition)
            round_.top_text = top.notation(self.notation)
        round_.tie_rule = event.tie_rule
        round_.tied = event.tied
        round_.runners_up = event.runners_up
        round_.top_count = event.top_count
        round_.board_before = self.board.copy()
        round_.bag_before = self.bag
        invalid = set(event.invalid_words)
        memo_event, memo = self._judged_at_close
        self._judged_at_close = (None, {})
        self._placed.clear()  # the board is about to change
        judged = memo if memo_event is event else {}
        is_word = lambda w: w not in invalid  # noqa: E731
        judge_round(round_, self.players, self.board, self.edition, self.notation, self.settings, is_word, judged)
        round_.closed = True
        if round_.top is None and len(self.bag) + len(letters) > self.edition.draw_size and not plays_exhausted(
            self.closed_rounds
        ):
            # 3.6: no play for the draw; its letters go back to the bag for a different draw
            self.bag, self.reliquat = self.bag.plus(letters), ""
        elif round_.top is None:  # 3.7: no different draw can be made, or nothing can be placed
            round_.reliquat = letters
            self.reliquat = letters
            self.finished = True
            self.end_reason = EndReason.NO_PLAY
            self.end_letters = self.edition.spell_tiles(letters)
            return
        else:
            self.bag = place_top(self.board, self.bag, round_.top, self.settings.format.replaces_joker)
            round_.reliquat = remove_tiles(letters, tiles_played(round_.top))
            self.reliquat = round_.reliquat
        if not can_draw(self.bag, self.reliquat, self.move_number, self.settings.draw_rule, self.edition):
            self.finished = True
            self.end_letters = self.edition.spell_tiles(self.bag.unseen(self.reliquat))
            self.end_reason = EndReason.NO_VALID_DRAW if self.end_letters else EndReason.NO_TILE_LEFT
