"""A classic game the referee deals: the bag, every player's rack, the order drawn, the end with the racks known.

``DealtGame`` keeps a ``ClassicGame`` for the board, the score sheet, the rule set, the challenges and the
clock, and adds what a game played in the chat needs: the bag and the private racks. Its log holds every
tile drawn (``core.online_events``), so replaying it never needs a random generator; the methods that
draw (``start``, ``play``, ``exchange``) take one and return the events they made.

Rules applied, beside those of ``ClassicGame``:

- The order: each player draws a tile, the one nearest the start of the alphabet plays first (a joker
  before an A); players tied draw again, among themselves; the tiles go back to the bag. Then each player
  is dealt a rack, in the order of play.
- A move or an exchange uses tiles of the player's rack (a joker is ``?``); a move is followed by the
  replacements drawn from the bag. An exchange needs at least the rule set's number of tiles in the bag,
  and as many as are exchanged; the new tiles are drawn before the old ones go back.
- A play taken off the board (a challenge found a word invalid, or its player withdrew it) puts its tiles
  back on the player's rack and the replacements drawn after it back into the bag.
- A player who empties the rack with the bag empty goes out: the game waits for the next player to
  challenge or accept (a pass then ends the game), and ends at once when a challenge leaves the play on
  the board. The end's racks are those the players hold: nobody types them.
- The rule set's scoreless limit ends the game (each player then loses the rack's value), whether or not
  the sheet of a game played at a table would close by itself.
- Moves are never undone (``DealtUndoError``).
- By correspondence (``Pace``): the player to move is reminded when a quarter of the move's time is left;
  a move's time over passes the turn (as a stopwatch does, so the scoreless limit may end the game); the
  game's time over ends it as stopped (each player loses the rack's value).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from .board import Board
from .classic_clock import overtime_points
from .draw import Bag, sort_tiles
from .edition import JOKER, Edition
from .errors import UnknownPlayerError
from .errors_classic import ExchangeNotAllowedError, ExchangeSizeError, PlayerCountError
from .errors_online import DealError, DealtUndoError, NotDealtError, NotOnRackError, TurnError
from .events import (
    Challenge,
    ClockPause,
    ClockResume,
    End,
    Exchange,
    Join,
    Pass,
    Play,
    Setting,
    TimePenalty,
    Undo,
    Withdrawn,
)
from .game import MAX_PENALTY, ClassicGame, LineKind, SheetLine, Standing
from .gcg_write import write_gcg
from .notation import Notation
from .online_events import Dealt, DealtEvent, OrderDrawn, Pace, Reminded, Robot
from .rules import ClockMode, RuleSet, most_players

TURNS = (Play, Pass, Exchange)
HOUR = 3600.0
DAY = 24 * HOUR
REMIND_AT = 0.75  # of a move's time: the reminder that it runs out


class Due(Enum):
    """What a correspondence game's clock does next."""

    REMIND = "remind"  # tell the player to move that the move's time runs out
    MOVE_TIME = "move_time"  # the move's time is over: the turn passes
    GAME_TIME = "game_time"  # the game's time is over: it ends, each player losing the rack's value


@dataclass(frozen=True)
class Deadline:
    """The next moment the clock acts, and what it does then."""

    at: float
    due: Due


@dataclass
class _Refill:
    """The last standing play: its player's rack before it, and the tiles drawn after it."""

    player: str
    line: int
    rack_before: str
    drawn: str = ""


@dataclass
class Turn:
    """What one move did, for the replies: its events, and whether it ended the game."""

    events: list[DealtEvent] = field(default_factory=list)

    @property
    def ended(self) -> bool:
        return any(isinstance(e, End) for e in self.events)


def tile_rank(edition: Edition, tile: str) -> int:
    """A tile's place in the draw for the order: a joker first, then the alphabet's order."""
    return -1 if tile == JOKER else edition.alphabet.symbols.index(tile)


def order_from(rounds: Sequence[Sequence[tuple[str, str]]], edition: Edition) -> list[str]:
    """The order of play the draws give (each player's tiles in the rounds drawn, compared in turn)."""
    keys: dict[str, list[int]] = {}
    for one in rounds:
        for player, tile in one:
            keys.setdefault(player, []).append(tile_rank(edition, tile))
    return sorted(keys, key=lambda p: keys[p])


def draw_order(players: Sequence[str], bag: Bag, edition: Edition, rng: random.Random) -> OrderDrawn:
    """Each player draws a tile from the full bag (put back after each round); ties draw again."""
    rounds: list[tuple[tuple[str, str], ...]] = []
    drawing = list(players)
    keys: dict[str, tuple[int, ...]] = {p: () for p in players}
    while drawing:
        tiles = rng.sample(bag.tiles, len(drawing))
        one = tuple(zip(drawing, tiles, strict=True))
        rounds.append(one)
        for player, tile in one:
            keys[player] += (tile_rank(edition, tile),)
        counts = Counter(keys[p] for p in drawing)
        drawing = [p for p in drawing if counts[keys[p]] > 1]
    return OrderDrawn(tuple(rounds))


class DealtGame:
    """A classic game whose bag and racks the referee holds; state rebuilt from events."""

    def __init__(
        self,
        edition: Edition,
        rules: RuleSet,
        players: Iterable[str],
        notation: Notation = Notation.FISF,
        events: Iterable[DealtEvent] = (),
        stamps: Iterable[float | None] = (),
    ) -> None:
        """``players`` as seated (the order of play is drawn); ``stamps`` the time of each event."""
        self.edition = edition
        self.base_rules = rules
        self.seats = tuple(players)
        if not 2 <= len(self.seats) <= most_players(rules):
            raise PlayerCountError(len(self.seats), 2, most_players(rules))
        self._notation = notation
        self.classic = ClassicGame(edition, rules, (), notation)
        self.bag = Bag.full(edition)
        self.racks: dict[str, str] = {}
        self.robots: dict[str, str] = {}  # the seats the computer plays: their level
        self.events: list[DealtEvent] = []
        self.rack_at_line: dict[int, str] = {}  # a turn's sheet line: its player's rack before it
        self._refill: _Refill | None = None
        self._last_was_play = False  # the next tiles dealt are the last play's replacements
        self.pace: Pace | None = None
        self.started_at: float | None = None  # when the racks were dealt
        self.turn_since: float | None = None  # when the player to move got the turn
        self.turn_count = 0  # turns and challenges so far: a reminder is for one of them
        self._reminded = -1
        given = list(stamps)
        for index, event in enumerate(events):
            self.apply_stored(event, given[index] if index < len(given) else None)

    # --- what the game shows -----------------------------------------------------

    @property
    def notation(self) -> Notation:
        return self._notation

    @property
    def board(self) -> Board:
        return self.classic.board

    @property
    def players(self) -> list[str]:
        """The players in the order of play (as seated before the draw)."""
        return self.classic.players if self.dealt else list(self.seats)

    @property
    def rules(self) -> RuleSet:
        return self.classic.rules

    @property
    def lines(self) -> list[SheetLine]:
        return self.classic.lines

    @property
    def dealt(self) -> bool:
        """Whether the order was drawn."""
        return bool(self.classic.players)

    @property
    def ended(self) -> bool:
        return self.classic.ended

    @property
    def to_move(self) -> str | None:
        return self.classic.to_move if self.dealt else None

    def rack(self, player: str) -> str:
        """The player's tiles, in record order (``?`` jokers last)."""
        return self.racks.get(player, "")

    def totals(self) -> dict[str, int]:
        return self.classic.totals()

    def standings(self) -> list[Standing]:
        return self.classic.standings()

    @property
    def awaiting_end(self) -> str | None:
        """The player who went out, while the next player may still challenge the play (None otherwise)."""
        refill = self._refill
        if self.ended or refill is None or self.bag.tiles or self.rack(refill.player):
            return None
        last = self.classic.last_play_line()
        return refill.player if last is not None and last.number == refill.line else None

    def deadline(self) -> Deadline | None:
        """The clock's next act in a game by correspondence (None: no pace, the game over or not dealt)."""
        pace = self.pace
        if pace is None or self.ended or self.turn_since is None or self.started_at is None:
            return None
        found: list[Deadline] = []
        if pace.game_days:
            found.append(Deadline(self.started_at + pace.game_days * DAY, Due.GAME_TIME))
        if pace.move_hours:
            move = pace.move_hours * HOUR
            if self._reminded != self.turn_count:
                found.append(Deadline(self.turn_since + move * REMIND_AT, Due.REMIND))
            found.append(Deadline(self.turn_since + move, Due.MOVE_TIME))
        return min(found, key=lambda d: d.at, default=None)

    def time_out(self, at: float) -> Turn:
        """What the clock does at ``at`` when its deadline has come: a reminder, a pass, or the end."""
        due = self.deadline()
        if due is None or at < due.at:
            return Turn()
        player = self.to_move or ""
        if due.due is Due.REMIND:
            return Turn([self.apply(Reminded(player, self.turn_count), at)])
        if due.due is Due.GAME_TIME or self.awaiting_end is not None:
            return self.stop(at)
        return self.pass_turn(player, at)

    # --- moves (each builds its events, applies them and returns them) -------------

    def start(self, rng: random.Random, at: float | None = None) -> Turn:
        """Draw the order, then deal each rack in the order of play."""
        turn = Turn([self.apply(draw_order(self.seats, self.bag, self.edition, rng), at)])
        for player in self.players:
            turn.events.append(self._deal(player, rng))
        return turn

    def play(self, player: str, move_text: str, rng: random.Random, at: float | None = None) -> Turn:
        """A move from the player's rack, and the replacements."""
        move = self.classic.canonical_move(move_text)
        turn = Turn([self.apply(Play(player, move), at)])
        if self.bag.tiles:
            turn.events.append(self._deal(player, rng))
        turn.events.extend(self._scoreless_end(at))
        return turn

    def exchange(self, player: str, tiles_text: str, rng: random.Random, at: float | None = None) -> Turn:
        """Tiles of the rack exchanged: new ones drawn, then the old ones back in the bag."""
        tiles = sort_tiles(self.edition.tiles(tiles_text.replace(" ", "")))
        if not tiles or any(t != JOKER and t not in self.edition.values for t in tiles):
            raise ExchangeSizeError(tiles_text)
        self.check(Exchange(player, self.edition.spell_tiles(tiles)), at)
        drawn, _ = self.bag.draw(len(tiles), rng)
        turn = Turn([self.apply(Exchange(player, self.edition.spell_tiles(tiles)), at)])
        turn.events.append(self.apply(Dealt(player, drawn)))
        turn.events.extend(self._scoreless_end(at))
        return turn

    def pass_turn(self, player: str, at: float | None = None, *, clock: bool = False) -> Turn:
        """A pass; after a player went out, the next player's pass accepts the play and ends the game.
        ``clock``: the game clock's own pass, when the move's time is over (not refused for being late)."""
        if self.awaiting_end is not None and player == self.to_move:
            return Turn(self._ending(stopped=False, at=at))
        turn = Turn([self.apply(Pass(player), at, clock=clock)])
        turn.events.extend(self._scoreless_end(at))
        return turn

    def challenge(
        self, challenger: str, words: tuple[str, ...], invalid: tuple[str, ...], at: float | None = None
    ) -> Turn:
        """A challenge of the last play with its verdict (the words found invalid)."""
        turn = Turn([self.apply(Challenge(challenger, words, invalid), at)])
        if self.awaiting_end is not None and not invalid:
            turn.events.extend(self._ending(stopped=False, at=at))
        return turn

    def withdraw(self, player: str, at: float | None = None) -> Turn:
        """The last play taken back by its player: its tiles back on the rack."""
        return Turn([self.apply(Withdrawn(player), at)])

    def stop(self, at: float | None = None) -> Turn:
        """End the game now with each player's rack (stopped: nobody went out)."""
        return Turn(self._ending(stopped=self.awaiting_end is None, at=at))

    def _deal(self, player: str, rng: random.Random) -> Dealt:
        wanted = self.edition.rack_size - len(self.rack(player))
        tiles, _ = self.bag.draw(wanted, rng)
        event = Dealt(player, tiles)
        self.apply(event)
        return event

    def _ending(self, stopped: bool, at: float | None) -> list[DealtEvent]:
        """The end, applied: the overtime each player still owes (a chess clock under NASPA or WESPA), then
        every rack as it stands."""
        events: list[DealtEvent] = [self.apply(penalty, at) for penalty in self.overtime(at)]
        racks = tuple((p, self.edition.spell_tiles(self.rack(p))) for p in self.players)
        events.append(self.apply(End(racks, stopped=stopped), at))
        return events

    def overtime(self, at: float | None) -> list[TimePenalty]:
        """The time penalties the players over their time owe at ``at`` (those already on the sheet not
        again); none without a chess clock or a time."""
        if at is None or self.rules.clock is not ClockMode.CHESS:
            return []
        found = []
        for time in self.classic.clock(at).times:
            lines = self.lines
            given = -sum(x.points for x in lines if x.kind is LineKind.TIME_PENALTY and x.player == time.player)
            points = min(MAX_PENALTY, overtime_points(self.rules, time) - given)
            if points > 0:
                found.append(TimePenalty(time.player, points))
        return found

    def _scoreless_end(self, at: float | None) -> list[DealtEvent]:
        if self.ended or not self.classic.scoreless_limit_reached:
            return []
        return self._ending(stopped=True, at=at)

    # --- events ------------------------------------------------------------------

    def check(self, event: DealtEvent, at: float | None = None) -> None:
        """Raise if a new event breaks a rule of the deal, of the turn or of the classic game."""
        if isinstance(event, Undo):
            raise DealtUndoError()
        if isinstance(event, Robot) and (event.player not in self.seats or self.dealt):
            raise UnknownPlayerError(event.player, self.seats)
        if isinstance(event, OrderDrawn | Dealt | Robot | Pace | Reminded):
            return
        if isinstance(event, TURNS):
            if not self.dealt:
                raise NotDealtError()
            if not self.ended and event.player != self.to_move:
                raise TurnError(event.player, self.to_move)
        self.classic.check(event, at)
        if isinstance(event, Play) and not self.ended:
            placement, _ = self.classic.evaluate(event.move)
            self._take(event.player, "".join(JOKER if c.joker else c.letter for c in placement.new_tiles))
        if isinstance(event, Exchange) and not self.ended:
            tiles = self.edition.tiles(event.tiles)
            self._take(event.player, tiles)
            needed = max(self.rules.exchange_min_bag, len(tiles))
            if len(self.bag) < needed:
                raise ExchangeNotAllowedError(len(self.bag), needed)

    def apply(self, event: DealtEvent, at: float | None = None, *, clock: bool = False) -> DealtEvent:
        """Apply a new event and return it, or raise and leave the game unchanged (``clock``: the game clock's
        own event, which its deadline does not refuse)."""
        self.check(event, None if clock else at)
        self.apply_stored(event, at)
        return event

    def apply_stored(self, event: DealtEvent, at: float | None = None) -> None:
        """Apply an event of the game's log, or raise and leave the game unchanged."""
        if isinstance(event, Undo):
            raise DealtUndoError()
        if isinstance(event, OrderDrawn):
            for player in order_from(event.rounds, self.edition):
                self.classic.apply_stored(Join(player), at)
            self.started_at = self.turn_since = at
        elif isinstance(event, Pace):
            self.pace = event
        elif isinstance(event, Reminded):
            self._reminded = event.turn
        elif isinstance(event, Dealt):
            self._dealt(event)
        elif isinstance(event, Robot):
            self.robots[event.player] = event.level
        elif isinstance(event, Setting | ClockPause | ClockResume):  # the game's settings and clock: no turn
            self.classic.apply_stored(event, at)
        else:
            self._classic_event(event, at)
            self.turn_count += 1
            self.turn_since = at if at is not None else self.turn_since
        self.events.append(event)

    def _dealt(self, event: Dealt) -> None:
        rack = self.rack(event.player) + event.tiles
        if event.player not in self.players or len(rack) > self.edition.rack_size:
            raise DealError(event.player, event.tiles, self.bag.tiles)
        if Counter(event.tiles) - Counter(self.bag.tiles):
            raise DealError(event.player, event.tiles, self.bag.tiles)
        self.bag = Bag(_without(self.bag.tiles, event.tiles))
        self.racks[event.player] = sort_tiles(rack)
        refill = self._refill
        if refill is not None and refill.player == event.player and self._last_was_play:
            refill.drawn += event.tiles
        self._last_was_play = False

    def _classic_event(self, event: DealtEvent, at: float | None) -> None:
        assert not isinstance(event, OrderDrawn | Dealt | Robot | Pace | Reminded)
        if isinstance(event, TURNS) and not self.dealt:
            raise NotDealtError()
        before = dict(self.racks)
        first = len(self.classic.lines) + 1
        used = ""
        if isinstance(event, Play):
            placement, _ = self.classic.evaluate(event.move)
            used = "".join(JOKER if c.joker else c.letter for c in placement.new_tiles)
            self._take(event.player, used)
        elif isinstance(event, Exchange):
            used = self.edition.tiles(event.tiles)
            self._take(event.player, used)
        target = self.classic.last_play_line() if isinstance(event, Challenge | Withdrawn) else None
        # an exchange's tiles stay secret: the sheet only counts them
        self.classic.apply_stored(Exchange(event.player, str(len(used))) if isinstance(event, Exchange) else event, at)
        for line in self.classic.lines[first - 1 :]:
            if line.kind in (LineKind.PLAY, LineKind.PASS, LineKind.EXCHANGE, LineKind.LOST_TURN):
                self.rack_at_line.setdefault(line.number, before.get(line.player, ""))
        self._last_was_play = False
        if isinstance(event, Play):
            self.racks[event.player] = _without(self.rack(event.player), used)
            self._refill = _Refill(event.player, first, before.get(event.player, ""))
            self._last_was_play = True
        elif isinstance(event, Exchange):
            self.racks[event.player] = _without(self.rack(event.player), used)
            self.bag = self.bag.plus(used)
        elif target is not None and target.removed and self._refill is not None and self._refill.line == target.number:
            refill, self._refill = self._refill, None
            self.bag = self.bag.plus(refill.drawn)
            self.racks[refill.player] = refill.rack_before

    def _take(self, player: str, tiles: str) -> None:
        """Raise unless the player's rack holds the tiles."""
        missing = Counter(tiles) - Counter(self.rack(player))
        if missing:
            raise NotOnRackError(player, sort_tiles(missing.elements()), self.rack(player))


def _without(rack: str, tiles: str) -> str:
    left = Counter(rack)
    left.subtract(tiles)
    return sort_tiles(left.elements())


def dealt_gcg(game: DealtGame, *, lexicon: str | None = None) -> str:
    """The game as GCG text, each turn's line with the player's rack before it (only for a game over:
    the racks are secret until the end)."""
    return write_gcg(game.classic, lexicon=lexicon, racks=game.rack_at_line)
