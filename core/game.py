"""The classic game: events in, board and score sheet out.

``ClassicGame`` keeps its list of events; its state (board, sheet, whose turn,
unseen tiles, scoreless streak, result) is what replaying them gives. Like
python-chess, moves are parsed and checked (``evaluate``) before being applied (``apply``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .board import Board
from .classic_clock import ClockReading, Mark, read_clock
from .draw import unseen_tiles
from .edition import JOKER, Edition
from .errors import ArbitreError, DuplicatePlayerError, GameOverError, UnknownPlayerError
from .errors_classic import (
    AloneNoExchangeError,
    AlreadyChallengedError,
    ExchangeNotAllowedError,
    ExchangeSizeError,
    GameStartedError,
    NoClockError,
    NothingToChallengeError,
    NothingToUndoError,
    OutOfTimeError,
    PenaltyValueError,
    PlayerCountError,
    RackSpecError,
    ScorelessEndError,
    SelfChallengeError,
    SettingAfterStartError,
    TooManyPlayersError,
    WordNotInMoveError,
)
from .errors_duplicate import ClockAction, ClockStateError
from .events import (
    NO_LINE_KINDS,
    Challenge,
    ChallengeBonus,
    ClockPause,
    ClockResume,
    End,
    Event,
    Exchange,
    Flagged,
    Join,
    Pass,
    Penalty,
    Play,
    Setting,
    TimePenalty,
    Undo,
    Withdrawn,
)
from .game_options import with_setting, with_settings
from .game_values import Standing as Standing  # re-exported (where results are read), with the rest
from .game_values import TileCountAlert as TileCountAlert
from .game_values import check_end_racks
from .game_values import is_points as is_points
from .game_values import most_rack_value as most_rack_value
from .game_values import rack_value as rack_value
from .names import player_key as player_key  # re-exported: where players are matched
from .notation import Notation, format_move, parse_move
from .placement import Placement, apply_placement, validate_move
from .ranking import shared_places
from .rules import ClockMode, GoingOut, RuleSet, most_players, rule_set_for_players
from .scoring import MoveScore, score_placement

MAX_PENALTY = 500  # points: a larger penalty is a typing error


class LineKind(StrEnum):
    """What a line of the score sheet records."""

    PLAY = "play"
    PASS = "pass"
    EXCHANGE = "exchange"
    LOST_TURN = "lost_turn"  # a turn lost to a challenge
    CHALLENGE_PENALTY = "challenge_penalty"  # points lost to a challenge
    CHALLENGE_BONUS = "challenge_bonus"  # points a challenged move's player gains
    PENALTY = "penalty"
    TIME_PENALTY = "time_penalty"
    END = "end"  # the end-of-game adjustment (``SheetLine.went_out`` for the player who went out)


class Removal(StrEnum):
    """Why a play was taken off the board."""

    CHALLENGE = "challenge"  # a challenge found words invalid
    WITHDRAWN = "withdrawn"  # its player withdrew it


TURN_KINDS = frozenset({LineKind.PLAY, LineKind.PASS, LineKind.EXCHANGE, LineKind.LOST_TURN})
# Lines a challenge or the referee adds after a play, which leave it the last play on the sheet.
_AFTER_A_PLAY = frozenset({LineKind.CHALLENGE_PENALTY, LineKind.CHALLENGE_BONUS, LineKind.LOST_TURN, LineKind.PENALTY})


def find_player(players: Iterable[str], name: str) -> str | None:
    """The player whose name is ``name`` without regard to case, accents or a leading ``@``."""
    wanted = player_key(name.lstrip("@"))
    return next((p for p in players if player_key(p) == wanted), None)


@dataclass
class SheetLine:
    """One line of the score sheet: what it records (``kind``) and its typed details."""

    number: int
    player: str
    kind: LineKind
    points: int
    total: int = 0
    move: str = ""  # a play: the move in the game's notation
    tiles: str = ""  # an exchange: the tiles as given (letters, a count, or "" when unknown)
    went_out: bool = False  # an end line: the player who went out
    placement: Placement | None = None
    score: MoveScore | None = None
    removal: Removal | None = None  # a play taken off the board, and why
    removed_points: int = 0  # what a play taken off the board scored before
    invalid: tuple[str, ...] = ()  # the words a successful challenge found invalid
    claimed: int | None = None  # the score the player announced, when it differs
    challenged_by: str | None = None  # a play that was challenged (and stood): who challenged it

    @property
    def removed(self) -> bool:
        """Whether the play was taken off the board (challenged off or withdrawn)."""
        return self.removal is not None

    def __str__(self) -> str:
        sign = f"{self.points:+d}" if self.kind is not LineKind.PLAY else str(self.points)
        what = self.move or f"{self.kind} {self.tiles}".rstrip()
        return f"{self.number}. {self.player}: {what} {sign} = {self.total}"


class ClassicGame:
    """A classic game between named players under a rule set; state rebuilt from events."""

    def __init__(
        self,
        edition: Edition,
        rules: RuleSet,
        players: Iterable[str] = (),
        notation: Notation = Notation.FISF,
        events: Iterable[Event] = (),
        stamps: Iterable[float | None] = (),
    ) -> None:
        """``stamps``: the time each event was recorded (None where unknown), which the clock reads."""
        self.edition = edition
        self.base_rules = rules
        self.notation = notation
        self.initial_players = tuple(players)
        keys = Counter(player_key(p) for p in self.initial_players)
        duplicates = [p for p in self.initial_players if keys[player_key(p)] > 1]
        if duplicates:
            raise DuplicatePlayerError(duplicates[0])
        if len(self.initial_players) > most_players(rules):
            raise TooManyPlayersError(len(self.initial_players), rules.min_players, most_players(rules))
        self.events: list[Event] = list(events)
        self.stamps: list[float | None] = list(stamps)[: len(self.events)]
        self.stamps += [None] * (len(self.events) - len(self.stamps))
        self._replay()  # once: linear in the events, however many undos they hold

    # --- derived state -------------------------------------------------------

    def _reset(self) -> None:
        self.players: list[str] = list(self.initial_players)
        self.board = Board()
        self.lines: list[SheetLine] = []
        self.turn = 0
        self.ended = False
        self._totals: dict[str, int] = {p: 0 for p in self.players}
        self._skips: Counter[str] = Counter()
        self._effective: list[Event] = []
        self.marks: list[Mark] = []  # the clock's state at each stamped event that stands
        self._settings: dict[str, str] = {}
        self.paused = False
        self.flagged: set[str] = set()  # players whose chess clock ran out (FISF): they play no more

    @property
    def rules(self) -> RuleSet:
        """The rule set in force for this number of players, with the game's settings."""
        rules = rule_set_for_players(self.base_rules, max(len(self.players), 2))
        return with_settings(rules, self._settings) if self._settings else rules

    @property
    def settings(self) -> dict[str, str]:
        """The game's settings (``core.game_options``), in the order chosen."""
        return dict(self._settings)

    def clock(self, now: float) -> ClockReading:
        """The clocks at ``now`` (``core.classic_clock``)."""
        return read_clock(self.rules, self.players, self.marks, now, self.flagged)

    @property
    def to_move(self) -> str | None:
        """Whose turn it is (None before any player joined or after the end)."""
        if not self.players or self.ended:
            return None
        return self.players[self.turn % len(self.players)]

    @property
    def alerts(self) -> list[TileCountAlert]:
        """Letters on the board more often than the edition has them (withdrawn plays no longer count)."""
        on_board: Counter[str] = Counter(JOKER if tile.joker else tile.letter for _, _, tile in self.board.tiles())
        alerts = []
        for letter, count in sorted(on_board.items()):
            limit = self.edition.jokers if letter == JOKER else self.edition.counts.get(letter, 0)
            if count > limit:
                alerts.append(TileCountAlert(letter, count, limit))
        return alerts

    @property
    def started(self) -> bool:
        return any(line.kind in TURN_KINDS for line in self.lines)

    def totals(self) -> dict[str, int]:
        """Each player's current total."""
        return {p: self._totals.get(p, 0) for p in self.players}

    def unseen(self) -> Counter[str]:
        """Tiles not on the board (``?`` for jokers): the bag plus every rack."""
        return Counter(unseen_tiles(self.edition, self.board))

    def bag_count(self) -> int:
        """Tiles left in the bag when every rack is full."""
        unseen = sum(self.unseen().values())
        return max(0, unseen - self.edition.rack_size * len(self.players))

    def scoreless_streak(self) -> int:
        """Consecutive scoreless turns at the end of the sheet."""
        streak = 0
        only_passes = self.rules.scoreless_counts_only_passes
        for line in reversed(self.lines):
            if line.kind not in TURN_KINDS:
                continue
            if only_passes and line.kind is not LineKind.PASS:
                break
            if line.points != 0:
                break
            streak += 1
        return streak

    @property
    def scoreless_limit_reached(self) -> bool:
        """Whether the sheet reached the rule set's limit of scoreless turns (never ends the game)."""
        return bool(self.players) and self.scoreless_streak() >= self.rules.scoreless_limit(len(self.players))

    def find_player(self, name: str) -> str | None:
        """The player whose name is ``name`` without regard to case, accents or a leading ``@``."""
        return find_player(self.players, name)

    def last_undoable(self) -> Event | None:
        """The event an Undo would take back (None on an empty sheet)."""
        return next((e for e in reversed(self._effective) if e.kind not in NO_LINE_KINDS), None)

    def last_play_line(self) -> SheetLine | None:
        """The last sheet line if it is a standing play (what a challenge would target)."""
        for line in reversed(self.lines):
            if line.kind in _AFTER_A_PLAY:
                continue
            return line if line.kind is LineKind.PLAY and not line.removed else None
        return None

    def standings(self) -> list[Standing]:
        """Results with places; before the end the adjustment is 0."""
        totals = self.totals()
        adjustments = {p: 0 for p in self.players}
        for line in self.lines:
            if line.kind is LineKind.END:
                adjustments[line.player] += line.points
        places = shared_places([(p, totals[p]) for p in self.players])
        return [
            Standing(name, score - adjustments[name], adjustments[name], score, place) for name, score, place in places
        ]

    # --- checking without changing ------------------------------------------

    def evaluate(self, move_text: str) -> tuple[Placement, MoveScore]:
        """Parse, place and score a move on the current board without recording it."""
        move = parse_move(move_text, self.notation, alphabet=self.edition.alphabet)
        placement = validate_move(self.board, move, self.notation, rack_size=self.edition.rack_size)
        return placement, score_placement(placement, self.edition)

    def canonical_move(self, move_text: str) -> str:
        """The move in canonical form in the game's notation (what a Play event stores)."""
        return format_move(parse_move(move_text, self.notation, alphabet=self.edition.alphabet), self.notation)

    # --- events -----------------------------------------------------------------

    def apply(self, event: Event, at: float | None = None) -> Event:
        """Apply a new event recorded at ``at`` and return it, or raise a GameError/PlacementError and leave
        the game unchanged.

        New events are held to rules that stored ones predating them may break (a self-challenge,
        a penalty of 0, end racks not among the unseen tiles, a turn out of time): replaying a log never
        checks those.
        """
        self.check(event, at)
        self.apply_stored(event, at)
        return event

    def apply_stored(self, event: Event, at: float | None = None) -> None:
        """Apply an event of the game's log (checked when it was new), or raise and leave the game unchanged."""
        if isinstance(event, Undo):
            if self.last_undoable() is None:
                raise NothingToUndoError()
            self.events.append(event)
            self.stamps.append(at)
            self._replay()
            return
        try:
            self._apply(event)
        except ArbitreError:
            raise  # refused before anything changed: every check comes before the first change
        except Exception:
            self._replay()  # back to the state of the recorded events
            raise
        self.events.append(event)
        self.stamps.append(at)
        self._effective.append(event)
        self._mark(at)

    def _mark(self, at: float | None) -> None:
        if at is not None:
            to_move = self.to_move if len(self.players) >= 2 else None
            self.marks.append(Mark(at, to_move, self.paused, self.turn))

    def check(self, event: Event, at: float | None = None) -> None:
        """Raise if a new event breaks a rule that is only checked for new events (see ``apply``)."""
        if isinstance(event, (Play, Pass, Exchange)) and not self.ended:
            self._check_turn(event, at)
        if isinstance(event, (Penalty, TimePenalty)) and not 1 <= event.points <= MAX_PENALTY:
            raise PenaltyValueError(event.points, MAX_PENALTY)
        if isinstance(event, Challenge) and not self.ended:
            line = self.last_play_line()
            if line is not None:
                if player_key(event.challenger) == player_key(line.player):
                    raise SelfChallengeError(event.challenger, line.move)
                if line.challenged_by is not None:
                    raise AlreadyChallengedError(line.move, line.challenged_by)
        if isinstance(event, End) and not self.ended:
            for player, _ in event.racks:
                self._player(player)
            check_end_racks(self.edition, self.unseen(), event.racks)

    def _check_turn(self, event: Play | Pass | Exchange, at: float | None) -> None:
        """A turn after the scoreless end, out of time, or an exchange by a player playing on alone."""
        rules = self.rules
        if rules.scoreless_ends and self.scoreless_limit_reached:
            raise ScorelessEndError(self.scoreless_streak())
        if isinstance(event, Exchange) and self.flagged - {event.player}:
            raise AloneNoExchangeError(event.player)
        if at is not None and rules.clock is not ClockMode.NONE and event.player in self.players:
            reading = self.clock(at)
            if reading.deadline is not None and at >= reading.deadline:  # the clock acts before any move
                raise OutOfTimeError(event.player)

    def _replay(self) -> None:
        """Rebuild the state from the events, dropping what each Undo removed."""
        kinds = [event.kind for event in self.events]
        self._reset()
        for index in standing_events(kinds):
            event = self.events[index]
            self._apply(event)
            self._effective.append(event)
            self._mark(self.stamps[index])

    def _player(self, name: str) -> str:
        if name not in self.players:
            raise UnknownPlayerError(name, tuple(self.players))
        return name

    def _add_line(self, player: str, kind: LineKind, points: int, **extra: object) -> SheetLine:
        total = self._totals.get(player, 0) + points
        self._totals[player] = total
        line = SheetLine(len(self.lines) + 1, player, kind, points, total, **extra)  # type: ignore[arg-type]
        self.lines.append(line)
        return line

    def _recount_totals(self) -> None:
        running = {p: 0 for p in self.players}
        for line in self.lines:
            running[line.player] += line.points
            line.total = running[line.player]
        self._totals = running

    def _check_open(self, event: Event) -> None:
        if self.ended:
            raise GameOverError(str(event))

    def _advance(self) -> None:
        """Next player's turn; players who lost their turn get a line and are skipped."""
        self.turn += 1
        self._skip_flagged()
        while self.players and self._skips[self.to_move or ""] > 0:
            player = self.to_move or ""
            self._skips[player] -= 1
            self._add_line(player, LineKind.LOST_TURN, 0)
            self.turn += 1
            self._skip_flagged()

    def _skip_flagged(self) -> None:
        """Past the players out of time, while someone still has time (FISF 6: the other plays on alone)."""
        while self.flagged and self.to_move in self.flagged and len(self.flagged) < len(self.players):
            self.turn += 1

    def _apply(self, event: Event) -> None:
        if isinstance(event, Join):
            self._join(event)
            return
        self._check_open(event)
        if isinstance(event, (Setting, ClockPause, ClockResume)):
            self._clock_or_setting(event)
            return
        if len(self.players) < 2 and not isinstance(event, End):
            rules = self.rules
            raise PlayerCountError(len(self.players), rules.min_players, rules.max_players)
        if isinstance(event, Play):
            self._play(event)
        elif isinstance(event, Pass):
            self._player(event.player)
            self._add_line(event.player, LineKind.PASS, 0)
            self._advance()
        elif isinstance(event, Exchange):
            self._exchange(event)
        elif isinstance(event, Challenge):
            self._challenge(event)
        elif isinstance(event, Withdrawn):
            line = self._last_play_or_raise()
            self._remove_play(line, Removal.WITHDRAWN)
        elif isinstance(event, ChallengeBonus):
            self._add_line(self._player(event.player), LineKind.CHALLENGE_BONUS, event.points)
        elif isinstance(event, Penalty):
            self._add_line(self._player(event.player), LineKind.PENALTY, -abs(event.points))
        elif isinstance(event, TimePenalty):
            self._add_line(self._player(event.player), LineKind.TIME_PENALTY, -abs(event.points))
        elif isinstance(event, Flagged):
            self.flagged.add(self._player(event.player))
            self._skip_flagged()
        elif isinstance(event, End):
            self._end(event)

    def _clock_or_setting(self, event: Setting | ClockPause | ClockResume) -> None:
        if isinstance(event, Setting):
            if self.started:
                raise SettingAfterStartError(event.name)
            with_setting(self.rules, event.name, event.value)  # raises for a name or value it cannot take
            self._settings.pop(event.name, None)
            self._settings[event.name] = event.value
            return
        if self.rules.clock is ClockMode.NONE:
            raise NoClockError()
        pausing = isinstance(event, ClockPause)
        if self.paused == pausing:
            raise ClockStateError(ClockAction.PAUSE if pausing else ClockAction.RESUME, self.paused)
        self.paused = pausing

    def _join(self, event: Join) -> None:
        if self.find_player(event.player) is not None:
            raise DuplicatePlayerError(event.player)
        if self.started:
            raise GameStartedError(event.player)
        most = most_players(self.base_rules)
        if len(self.players) >= most:
            raise TooManyPlayersError(len(self.players) + 1, self.base_rules.min_players, most)
        self.players.append(event.player)
        self._totals.setdefault(event.player, 0)

    def _play(self, event: Play) -> None:
        player = self._player(event.player)
        placement, score = self.evaluate(event.move)
        differs = event.claimed is not None and event.claimed != score.total
        apply_placement(self.board, placement)
        self._add_line(
            player,
            LineKind.PLAY,
            score.total,
            move=placement.notation(self.notation),
            placement=placement,
            score=score,
            claimed=event.claimed if differs else None,
        )
        self._advance()

    def _exchange(self, event: Exchange) -> None:
        player = self._player(event.player)
        tiles = event.tiles.strip()
        letters = self.edition.tiles(tiles.replace(" ", ""))
        if tiles.isascii() and tiles.isdigit() and len(tiles) <= 2:
            count = int(tiles)
        elif letters and all(c == JOKER or c in self.edition.values for c in letters):
            count = len(letters)
        elif not tiles:
            count = 1  # unknown tiles: at least one
        else:
            raise ExchangeSizeError(event.tiles)
        if not 1 <= count <= self.edition.rack_size:
            raise ExchangeSizeError(event.tiles)
        needed = max(self.rules.exchange_min_bag, count)
        in_bag = self.bag_count()
        if in_bag < needed:
            raise ExchangeNotAllowedError(in_bag, needed)
        self._add_line(player, LineKind.EXCHANGE, 0, tiles=tiles)
        self._advance()

    def _last_play_or_raise(self) -> SheetLine:
        line = self.last_play_line()
        if line is None:
            raise NothingToChallengeError(self.lines[-1].kind if self.lines else "")
        return line

    def _remove_play(self, line: SheetLine, why: Removal, invalid: tuple[str, ...] = ()) -> None:
        assert line.placement is not None
        for cell in line.placement.new_tiles:
            self.board.remove(cell.row, cell.col)
        line.removal = why
        line.invalid = invalid
        line.removed_points = line.points
        line.points = 0
        self._recount_totals()

    def _challenge(self, event: Challenge) -> None:
        challenger = self._player(event.challenger)
        line = self._last_play_or_raise()
        assert line.placement is not None
        formed = tuple(w.text for w in line.placement.words)
        for word in event.words:
            if word not in formed:
                raise WordNotInMoveError(word, formed)
        if event.invalid:
            self._remove_play(line, Removal.CHALLENGE, event.invalid)
            return
        line.challenged_by = challenger
        rules = self.rules
        if rules.challenge_void:  # the word stands, and the challenge costs nothing
            return
        challenged = len(event.words) or len(formed)
        if rules.challenge_penalty_per_word:
            points = rules.challenge_penalty_per_word * challenged
            self._add_line(challenger, LineKind.CHALLENGE_PENALTY, -points)
        if rules.challenge_bonus_per_word:
            points = rules.challenge_bonus_per_word * challenged
            self._add_line(line.player, LineKind.CHALLENGE_BONUS, points)
        if rules.challenge_lost_turn:
            if self.to_move == challenger:
                self._add_line(challenger, LineKind.LOST_TURN, 0)
                self.turn += 1
            else:
                self._skips[challenger] += 1

    def _end(self, event: End) -> None:
        racks: dict[str, int] = {}
        for player, rack in event.racks:
            self._player(player)
            try:
                racks[player] = rack_value(rack, self.edition)
            except ValueError:
                raise RackSpecError(player, rack, most_rack_value(self.edition)) from None
        for player in self.players:
            racks.setdefault(player, 0)
        given = dict(event.racks)
        emptied = [p for p in self.players if not given.get(p, "").strip() or given[p].strip() == "0"]
        out = [] if event.stopped else emptied
        others_total = sum(v for p, v in racks.items() if p not in out)
        for player in self.players:
            if out and player in out:
                if player == out[0]:
                    bonus = others_total * (2 if self.rules.going_out is GoingOut.ADD_TWICE else 1)
                    self._add_line(player, LineKind.END, bonus, went_out=True)
                continue
            if out and self.rules.going_out is GoingOut.ADD_TWICE:
                self._add_line(player, LineKind.END, 0)
                continue
            self._add_line(player, LineKind.END, -racks[player])
        self.ended = True


def standing_events(kinds: Sequence[str]) -> list[int]:
    """The positions of a classic game's events (given by their ``kind``) that stand: each undo
    takes back the last standing event that made a sheet line (joins, settings, the clock's pauses and
    resumes and a player's time running out make none), and itself."""
    standing: list[int] = []
    for index, kind in enumerate(kinds):
        if kind != Undo.kind:
            standing.append(index)
            continue
        for position in range(len(standing) - 1, -1, -1):
            if kinds[standing[position]] not in NO_LINE_KINDS:
                del standing[position]
                break
    return standing
