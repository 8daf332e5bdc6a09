"""A score sheet without a board: the board stays on the table and each turn is typed as its points.

Each turn is a ``Turn`` event for the player to move: points, a word with its points (and, if given,
its square), a pass, an exchange, or a word taken back after a lost challenge, the last three worth
zero; a turn scores 0 to ``MOST_POINTS``. ``Undone`` takes back the last line: the end, else the last
turn. ``Finished`` ends the game with each player's rack, given by letters (valued in the edition) or
by value: when one rack is empty, its player went out and gains the others' racks, each other player
losing their own (FISF 5.1.1; NASPA's rule set: twice the others' racks, theirs unchanged); when none
is, each player loses their own (5.1.2). The rule set in force (FISF's is for two players: three or
four fall back to the box rules) also says when scoreless turns reach the limit a note shows (3.2);
the sheet never ends a game by itself. Nothing here knows a board, so the words are never judged:
the players at the table did that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from .board import Board
from .edition import JOKER, Edition
from .errors import NotationError
from .errors_boardless import (
    MOST_POINTS,
    SheetNothingToUndoError,
    SheetOverError,
    SheetPlayerError,
    SheetPointsError,
    SheetRackError,
    SheetTurnError,
    SheetTwoWentOutError,
    SheetWordError,
)
from .game_values import Standing
from .names import player_key
from .notation import Notation, TypedLetter, format_ref, format_word, parse_ref, parse_word
from .ranking import shared_places
from .rules import GoingOut, RuleSet, edition_rules, rule_set_for_players

MOST_WORD = 15  # letters of a word: the board's width


class TurnKind(StrEnum):
    """What a turn on the sheet was."""

    POINTS = "points"  # points typed, no word
    WORD = "word"  # a word and its points
    PASS = "pass"
    EXCHANGE = "exchange"
    TAKEN_BACK = "taken_back"  # the word was challenged off: the turn scores nothing


ZERO_KINDS = frozenset({TurnKind.PASS, TurnKind.EXCHANGE, TurnKind.TAKEN_BACK})


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One turn: ``word`` as tiles (uppercase symbols, "" when not given), ``square`` its square in the
    game's notation ("" when not given)."""

    kind: ClassVar[str] = "sheet_turn"
    player: str
    move: TurnKind
    points: int = 0
    word: str = ""
    square: str = ""


@dataclass(frozen=True)
class Undone:
    """The last turn taken back (a typing mistake)."""

    kind: ClassVar[str] = "sheet_undo"


@dataclass(frozen=True)
class RackLeft:
    """What a player held at the end: its value, and its letters when they were given."""

    player: str
    value: int
    letters: str = ""

    @property
    def empty(self) -> bool:
        return self.value == 0 and not self.letters


@dataclass(frozen=True)
class Finished:
    """The end of the game, with every player's rack."""

    kind: ClassVar[str] = "sheet_end"
    racks: tuple[RackLeft, ...]


SheetEvent = Turn | Undone | Finished


def sheet_event_to_dict(event: SheetEvent) -> dict[str, Any]:
    """The event as stored (plain values)."""
    if isinstance(event, Turn):
        data: dict[str, Any] = {"kind": event.kind, "player": event.player, "move": event.move.value}
        data["points"] = event.points
        data.update({key: value for key, value in (("word", event.word), ("square", event.square)) if value})
        return data
    if isinstance(event, Finished):
        return {"kind": event.kind, "racks": [[r.player, r.value, r.letters] for r in event.racks]}
    return {"kind": event.kind}


def sheet_event_from_dict(data: Mapping[str, Any]) -> SheetEvent:
    """The event a stored dict holds."""
    kind = data["kind"]
    if kind == Turn.kind:
        return Turn(
            str(data["player"]),
            TurnKind(data["move"]),
            int(data.get("points", 0)),
            str(data.get("word", "")),
            str(data.get("square", "")),
        )
    if kind == Finished.kind:
        return Finished(tuple(RackLeft(str(p), int(v), str(letters)) for p, v, letters in data["racks"]))
    if kind == Undone.kind:
        return Undone()
    raise ValueError(f"not a sheet event: {kind!r}")


# --- the sheet ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetRow:
    """A line of the sheet: a turn (``turn``), or a player's rack at the end (``rack``)."""

    number: int
    player: str
    points: int
    total: int
    turn: Turn | None = None
    rack: RackLeft | None = None
    went_out: bool = False  # an end line: the player who went out (their points are the others' racks)


@dataclass
class BoardlessGame:
    """A score sheet for a game played on a board the bot never sees."""

    edition: Edition
    players: list[str]
    notation_used: Notation = Notation.FISF
    events: list[SheetEvent] = field(default_factory=list)
    base_rules: RuleSet | None = None  # the rule set chosen (None: the edition's)
    board: Board = field(default_factory=Board)  # always empty: the board is on the table
    turns: list[Turn] = field(default_factory=list, init=False)
    end: Finished | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        stored, self.events = self.events, []
        for event in stored:
            self.apply_stored(event)

    @property
    def notation(self) -> Notation:
        return self.notation_used

    @property
    def rules(self) -> RuleSet:
        """The rule set in force for this many players."""
        return rule_set_for_players(self.base_rules or edition_rules(self.edition), max(len(self.players), 2))

    @property
    def ended(self) -> bool:
        return self.end is not None

    @property
    def to_move(self) -> str | None:
        """The player whose turn it is (None once the game is over)."""
        if self.ended or not self.players:
            return None
        return self.players[len(self.turns) % len(self.players)]

    def find_player(self, name: str) -> str | None:
        """The player called ``name`` (case, accents and look-alike letters ignored)."""
        key = player_key(name)
        return next((p for p in self.players if player_key(p) == key), None)

    # --- taking events ---

    def apply(self, event: SheetEvent) -> SheetEvent:
        self.check(event)
        self.apply_stored(event)
        return event

    def apply_stored(self, event: SheetEvent) -> None:
        self.events.append(event)
        if isinstance(event, Turn):
            self.turns.append(event)
        elif isinstance(event, Undone):
            if self.end is not None:
                self.end = None
            else:
                self.turns.pop()
        else:
            self.end = event

    def check(self, event: SheetEvent) -> None:
        """Raise a ``SheetError`` when the event cannot be taken now."""
        if isinstance(event, Undone):
            if not self.turns and not self.ended:
                raise SheetNothingToUndoError()
            return
        if self.ended:
            raise SheetOverError()
        if isinstance(event, Turn):
            self._check_turn(event)
            return
        racks = {r.player for r in event.racks}
        unknown = next((r.player for r in event.racks if r.player not in self.players), None)
        if unknown is not None or len(racks) != len(event.racks) or racks != set(self.players):
            raise SheetPlayerError(unknown or ", ".join(sorted(set(self.players) - racks)))
        empty = tuple(r.player for r in event.racks if r.empty)
        if len(empty) > 1:
            raise SheetTwoWentOutError(empty)

    def _check_turn(self, turn: Turn) -> None:
        to_move = self.to_move
        if to_move is None or turn.player != to_move:
            raise SheetTurnError(turn.player, to_move or "")
        if not 0 <= turn.points <= MOST_POINTS or (turn.move in ZERO_KINDS and turn.points):
            raise SheetPointsError(turn.points, 0 if turn.move in ZERO_KINDS else MOST_POINTS)
        if turn.word and not self.is_word(turn.word):
            raise SheetWordError(turn.word)

    # --- reading what was typed ---

    def letters(self, word: str) -> tuple[TypedLetter, ...]:
        """A word's tiles, jokers marked (``VAGuE``, ``VAG(U)E``); SheetWordError when it is not a word of
        this edition's letters that fits the board (every letter typed: no ``.``)."""
        try:
            letters = parse_word(word, alphabet=self.edition.alphabet)
        except NotationError:
            raise SheetWordError(word) from None
        if not 0 < len(letters) <= MOST_WORD or any(t.letter is None for t in letters):
            raise SheetWordError(word)
        return letters

    def is_word(self, word: str) -> bool:
        """Whether ``word`` is a word of this edition's letters that fits the board."""
        try:
            self.letters(word)
        except SheetWordError:
            return False
        return True

    def word_tiles(self, typed: str) -> str:
        """A typed word in its canonical form (jokers in lowercase: ``VAGuE``); SheetWordError when it is
        not one."""
        return format_word(self.letters(typed), self.edition.alphabet)

    def square(self, typed: str) -> str:
        """A typed square (``H4``, ``4H``) in the game's notation; NotationError when it is not one."""
        return format_ref(parse_ref(typed, self.notation), self.notation)

    def rack(self, player: str, typed: str) -> RackLeft:
        """A rack left at the end: a value (``7``) or letters (``QZ``, ``?`` for a joker), "" when empty."""
        text = typed.strip()
        if not text:
            return RackLeft(player, 0)
        if text.isdigit():
            value = int(text)
            if len(text) > 3 or value > self.edition_total():
                raise SheetRackError(player, typed)
            return RackLeft(player, value)
        letters = self.edition.tiles(text).replace(" ", "")
        if len(letters) > self.edition.rack_size or any(c != JOKER and c not in self.edition.values for c in letters):
            raise SheetRackError(player, typed)
        return RackLeft(player, sum(self.edition.values.get(c, 0) for c in letters), letters)

    def edition_total(self) -> int:
        """The value of every tile of the edition: no rack is worth more."""
        return sum(self.edition.values.get(tile, 0) for tile in self.edition.bag())

    # --- the sheet ---

    def totals(self) -> dict[str, int]:
        """Each player's total, the end included once it is there."""
        totals = dict.fromkeys(self.players, 0)
        for row in self.rows():
            totals[row.player] = row.total
        return totals

    def rows(self) -> list[SheetRow]:
        """The sheet's lines: the turns, then one line per player at the end."""
        totals = dict.fromkeys(self.players, 0)
        rows: list[SheetRow] = []
        for number, turn in enumerate(self.turns, 1):
            totals[turn.player] += turn.points
            rows.append(SheetRow(number, turn.player, turn.points, totals[turn.player], turn=turn))
        if self.end is not None:
            for rack, change, went_out in self._end_changes():
                totals[rack.player] += change
                rows.append(
                    SheetRow(len(rows) + 1, rack.player, change, totals[rack.player], rack=rack, went_out=went_out)
                )
        return rows

    def _end_changes(self) -> list[tuple[RackLeft, int, bool]]:
        assert self.end is not None
        racks = {r.player: r for r in self.end.racks}
        out = [r for r in racks.values() if r.empty]
        twice = bool(out) and self.rules.going_out is GoingOut.ADD_TWICE
        changes: list[tuple[RackLeft, int, bool]] = []
        for player in self.players:
            rack = racks[player]
            if out and rack is out[0]:
                gained = sum(r.value for r in racks.values() if r is not rack)
                changes.append((rack, 2 * gained if twice else gained, True))
            else:
                changes.append((rack, 0 if twice else -rack.value, False))
        return changes

    def standings(self) -> list[Standing]:
        """Best first; equal totals share a place."""
        before = dict.fromkeys(self.players, 0)
        for turn in self.turns:
            before[turn.player] += turn.points
        final = self.totals()
        return [
            Standing(player, before[player], score - before[player], score, place)
            for player, score, place in shared_places((p, final[p]) for p in self.players)
        ]

    def scoreless_streak(self) -> int:
        """Turns in a row, at the end of the sheet, that scored nothing (passes only, under box rules)."""
        only_passes = self.rules.scoreless_counts_only_passes
        streak = 0
        for turn in reversed(self.turns):
            if turn.points or (only_passes and turn.move is not TurnKind.PASS):
                break
            streak += 1
        return streak

    @property
    def scoreless_limit_reached(self) -> bool:
        """Whether the scoreless turns in a row reached the rule set's limit (a note; never an end)."""
        return not self.ended and self.scoreless_streak() >= self.rules.scoreless_limit(len(self.players))


def all_words_known(game: BoardlessGame) -> bool:
    """Whether every scoring turn has its word and square (what a GCG record needs)."""
    return all(turn.move in ZERO_KINDS or (turn.move is TurnKind.WORD and bool(turn.square)) for turn in game.turns)


def write_sheet_gcg(game: BoardlessGame, nicks: Sequence[str]) -> str:
    """The sheet as GCG text (``all_words_known`` must hold); ``nicks``: one GCG nick per player, in order.

    The rack field holds the word's letters (``?`` for a joker) (the real racks were never typed); a word taken back is
    written as a pass with a note, an exchange as ``-`` with a note (its tiles were never typed).
    """
    names = dict(zip(game.players, nicks, strict=True))
    out = ["#character-encoding UTF-8"]
    out += [f"#player{i} {names[p]} {p}" for i, p in enumerate(game.players, 1)]
    out.append(f"#arbitre-edition {game.edition.code}")
    for row in game.rows():
        nick = names[row.player]
        turn, rack = row.turn, row.rack
        if turn is not None and turn.move is TurnKind.WORD:
            ref = format_ref(parse_ref(turn.square, game.notation), Notation.GCG)
            letters = game.letters(turn.word)
            symbols = "".join(t.letter or "" for t in letters)
            word = game.edition.alphabet.spell(symbols, [t.joker for t in letters])
            tiles = "".join(JOKER if t.joker else game.edition.spell(t.letter or "") for t in letters)
            out.append(f">{nick}: {tiles} {ref} {word} +{row.points} {row.total}")
        elif turn is not None:
            out.append(f">{nick}: - +0 {row.total}")
            if turn.move is not TurnKind.PASS:
                out.append(f"#note arbitre: {turn.move.value.replace('_', ' ')}")
        elif rack is not None:
            out.extend(_end_line(game, row, rack, nick))
    return "\n".join(out) + "\n"


def _end_line(game: BoardlessGame, row: SheetRow, rack: RackLeft, nick: str) -> list[str]:
    """A rack's line at the end: ``(EAU) +3`` for the player who went out, ``EAU (EAU) -3`` for the others
    (``(7) -7`` for a rack given by value)."""
    if row.went_out:
        others = [r for r in game.end.racks if r is not rack] if game.end is not None else []
        if all(r.letters or r.empty for r in others):
            held = game.edition.spell("".join(r.letters for r in others))
        else:
            held = str(row.points)
        return [f">{nick}: ({held}) +{row.points} {row.total}"]
    if not rack.value and not rack.letters:
        return []
    letters = game.edition.spell(rack.letters) if rack.letters else ""
    return [f">{nick}: {letters} ({letters or rack.value}) -{rack.value} {row.total}"]
