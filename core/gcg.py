"""GCG game records: reading them into a ``ClassicGame``, writing any ``ClassicGame`` as GCG.

Reading (``read_gcg``) takes the bytes of a file (ISO-8859-1 unless the first line is
``#character-encoding UTF-8``) or text, and gives a ``GcgRecord``: the players, the
pragmata, one ``GcgEntry`` per event line, and the ``ClassicGame`` rebuilt from the
events. Policies:

- Scores in the file are not trusted. Every play is placed and scored by the engine;
  the record keeps the recorded score and cumulative beside the computed ones, and an
  entry whose recorded score differs from the computed one is a mismatch.
- The rule set comes from ``rules=``, else from an ``#arbitre-rules`` pragma (written by
  ``write_gcg``), else from ``#lexicon``: CSW* -> WESPA, anything else (or none) -> NASPA.
- The end-of-game lines (``>a: (OPEG) +14``, ``>b: OPEG (OPEG) -7``, ``>a: AB (AB) -4`` ...)
  that follow each other make one ``End`` event with every rack: the engine computes the
  adjustment under the rule set, whatever style the file uses. A file in the other style
  gives mismatches, not an error; an adjustment the engine makes that no line records
  (e.g. the loser's ``-7`` under WESPA rules in a NASPA-style file) is added as an entry
  with ``recorded=None`` right after the group. Time penalties and other penalties written
  after the end-of-game lines are applied before the ``End`` (the engine refuses events
  after the end); entries stay in file order.
- The first line the engine rejects (an illegal placement, ``--`` when the last play is
  not that player's, an exchange with too few tiles in the bag...) stops the replay: the
  record keeps everything before it, ``record.error`` names the line, that entry is
  ``rejected`` and the later ones ``skipped``. ``strict=True`` raises the error instead.
  Malformed lines always raise ``GcgSyntaxError`` (line number and text in the message).
- A pass line followed by ``#note arbitre: turn lost (challenge)`` (how ``write_gcg``
  writes a turn lost to a double challenge) is replayed as that challenge when the rule
  set takes turns away; a pass or exchange line followed by ``#note arbitre: exchange of
  unknown tiles`` (how ``write_gcg`` writes an exchange whose tiles and count nobody gave:
  ``-`` rather than a made-up count) as that exchange; a ``--`` line followed by ``#note arbitre: challenged by NICK,
  invalid WORD...`` is replayed as that successful challenge rather than a plain
  withdrawal; ``(challenge) -N`` is a challenge lost for N points under rules
  with a penalty per word (FISF), otherwise a plain ``Penalty``; ``(penalty) -N`` is
  Arbitre's way to write any other penalty.
- GCG event lines name players by nick; the game's players are the nicks (or the full
  names with ``player_names="name"``), player 1 first. If the first turn belongs to
  another player the game's order is rotated so that the engine's turn order matches.

Writing (``write_gcg``) gives UTF-8 text (first line ``#character-encoding UTF-8``),
``.`` for played-through tiles, the tiles played as the rack field (the engine does not
know the real racks), and end-of-game lines in the style of the game's rule set.
``read_gcg(write_gcg(game))`` rebuilds the same sheet, board and totals. Known limits:
player names become nicks without spaces or colons (read back with
``player_names="name"`` to get the full names); exchange tiles are written folded to
uppercase; a turn lost in a 3-4 player box game after a pass reads back as a pass.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from .edition import ENGLISH, JOKER, Edition, edition_by_code
from .errors import ArbitreError, GcgEventError, GcgSyntaxError, NotationError
from .events import (
    Challenge,
    ChallengeBonus,
    End,
    Event,
    Exchange,
    Join,
    Pass,
    Penalty,
    Play,
    TimePenalty,
    Undo,
    Withdrawn,
)
from .game import ClassicGame, SheetLine, rack_value
from .notation import Move, Notation, format_move, format_ref, notation_by_name, parse_move
from .rules import GoingOut, RuleSet, rule_set_by_code

ENTRY_TYPES = (
    "play",
    "pass",
    "exchange",
    "withdrawn",
    "challenge_bonus",
    "end_rack",
    "penalty",
    "time_penalty",
)
TURN_TYPES = frozenset({"play", "pass", "exchange", "withdrawn"})

LOST_TURN_NOTE = "arbitre: turn lost (challenge)"
UNKNOWN_EXCHANGE_NOTE = "arbitre: exchange of unknown tiles"
CHALLENGED_NOTE = "arbitre: challenged by {nick}, invalid {words}"
_CHALLENGED = re.compile(r"^arbitre: challenged by (\S+), invalid (.+)$")

# numbers in ASCII digits, bounded: a file's "+٢٠" or 5,000-digit score is a syntax error
_NUMBER = re.compile(r"^[+-]?[0-9]{1,9}$")
_REF = re.compile(r"^(?:[0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2})$")
_WORD = re.compile(r"^[A-Za-z.]+$")
_TILES = re.compile(r"^[A-Za-z?]+$")
_PAREN_RACK = re.compile(r"^\(([A-Za-z?]*|[0-9]{1,3})\)$")
_PRAGMA = re.compile(r"^#(\S*)\s*(.*)$")
_ENCODING = re.compile(rb"^\s*#character-encoding\s+(\S+)", re.IGNORECASE)
_KEYWORDS = {"(challenge)", "(time)", "(penalty)"}


# --- results ----------------------------------------------------------------


@dataclass(frozen=True)
class GcgPlayer:
    """A player of a record: the nick used on event lines and the full name."""

    nick: str
    name: str

    def __str__(self) -> str:
        return self.nick if self.name == self.nick else f"{self.nick} ({self.name})"


@dataclass
class GcgEntry:
    """One event line of a record, with what the file says and what the engine computed.

    ``status``: ``ok`` or ``mismatch`` once replayed, ``rejected`` for the line that
    stopped the replay, ``skipped`` for the lines after it. ``synthetic`` entries stand
    for end-of-game adjustments the engine made that no line of the file records.
    """

    line: int
    text: str
    player: str  # the nick
    type: str  # one of ENTRY_TYPES
    label: str  # the event as written, without the rack: "8D ZAX", "-", "-QO", "(OPEG)"...
    rack: str = ""
    recorded: int | None = None
    recorded_cumulative: int | None = None
    move: str | None = None  # plays: position and word as in the file
    tiles: str = ""  # exchanged tiles, or the letters in brackets of an end-of-game line
    notes: list[str] = field(default_factory=list)
    event: Event | None = None
    computed: int | None = None
    cumulative: int | None = None  # the player's recomputed total after this line
    status: str = "pending"
    synthetic: bool = False
    parsed_move: Move | None = field(default=None, repr=False)
    keyword: str = ""  # (challenge), (time) or (penalty)
    gains: bool = False  # end-of-game line written with a + (the player who went out)

    @property
    def mismatch(self) -> bool:
        """Whether the engine disagrees with the file on this line (or refused it)."""
        return self.status in ("mismatch", "rejected")


class GcgEvent(NamedTuple):
    """An event line as the engine sees it: the lines of one end-of-game group share one ``End``."""

    line: int
    event: Event
    recorded: int | None
    cumulative: int | None


@dataclass
class GcgRecord:
    """A replayed GCG record: metadata, entries in file order and the rebuilt game."""

    players: tuple[GcgPlayer, ...]
    lexicon: str | None
    title: str | None
    description: str | None
    game_id: str | None
    notes: list[str]  # notes before the first event
    racks: dict[str, str]  # #rack1, #rack2... by nick
    pragmata: list[tuple[int, str, str]]  # unknown pragmata: (line, name, value)
    entries: list[GcgEntry]
    game: ClassicGame
    names: dict[str, str]  # nick -> player name in the game
    error: GcgEventError | None = None

    @property
    def rules(self) -> RuleSet:
        return self.game.base_rules

    @property
    def events(self) -> list[GcgEvent]:
        """(line, engine event, recorded score, recorded cumulative) for each line replayed or refused."""
        return [
            GcgEvent(e.line, e.event, e.recorded, e.recorded_cumulative)
            for e in self.entries
            if e.event is not None and not e.synthetic
        ]

    @property
    def replayed(self) -> list[GcgEntry]:
        """The entries the engine saw (every one unless an error stopped the replay)."""
        return [e for e in self.entries if e.status != "skipped"]

    @property
    def mismatches(self) -> list[GcgEntry]:
        """Entries whose recorded score differs from the engine's, and the refused line."""
        return [e for e in self.entries if e.mismatch]

    def final(self) -> dict[str, int]:
        """Each nick's recomputed total."""
        totals = self.game.totals()
        return {p.nick: totals.get(self.names[p.nick], 0) for p in self.players}

    def to_gcg(self) -> str:
        """The replayed game written back as GCG, with this record's nicks, names and metadata."""
        players = {self.names[p.nick]: p for p in self.players}
        return write_gcg(
            self.game,
            players=players,
            lexicon=self.lexicon,
            title=self.title,
            description=self.description,
            game_id=self.game_id,
        )


# --- decoding and parsing -----------------------------------------------------------


def end_style(entries: Sequence[GcgEntry], edition: Edition) -> GoingOut | None:
    """How the file credits the player who went out, read off its own end-of-game line.

    Files do not follow their lexicon's federation: Woogles credits twice the rack in
    CSW games too. ``+N`` for a rack worth N/2 is the NASPA style, worth N the WESPA one.
    """
    for entry in entries:
        if entry.type != "end_rack" or not entry.gains or entry.recorded is None:
            continue
        try:
            value = rack_value(entry.tiles, edition)
        except ValueError:
            return None
        if value and entry.recorded == 2 * value:
            return GoingOut.ADD_TWICE
        if value and entry.recorded == value:
            return GoingOut.ADD_AND_SUBTRACT
    return None


def rules_for_lexicon(lexicon: str | None) -> RuleSet:
    """WESPA rules for a CSW lexicon, NASPA rules for anything else."""
    if lexicon and lexicon.strip().upper().startswith("CSW"):
        return rule_set_by_code("wespa")
    return rule_set_by_code("naspa")


def decode_gcg(data: bytes) -> str:
    """The text of a GCG file: UTF-8 if the first line says so (or a BOM), else ISO-8859-1."""
    encoding = "iso-8859-1"
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        encoding = "utf-8"
    first_line = data.split(b"\n", 1)[0]
    match = _ENCODING.match(first_line)
    if match:
        name = match.group(1).decode("ascii", "replace")
        try:
            encoding = codecs.lookup(name).name
        except LookupError:
            raise GcgSyntaxError(
                1, first_line.decode("latin-1").rstrip("\r"), f"unknown character encoding {name}"
            ) from None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        number = data[: error.start].count(b"\n") + 1
        text = data.split(b"\n")[number - 1].decode(encoding, "replace").rstrip("\r")
        raise GcgSyntaxError(number, text, f"bytes that are not valid {encoding}") from None


@dataclass
class _Parsed:
    players: dict[int, GcgPlayer] = field(default_factory=dict)
    lexicon: str | None = None
    title: str | None = None
    description: str | None = None
    game_id: str | None = None
    notes: list[str] = field(default_factory=list)
    racks: dict[int, str] = field(default_factory=dict)
    pragmata: list[tuple[int, str, str]] = field(default_factory=list)
    entries: list[GcgEntry] = field(default_factory=list)
    rules: RuleSet | None = None
    edition: Edition = ENGLISH
    edition_given: bool = False  # by the caller: the #arbitre-edition pragma is then not read
    notation: Notation = Notation.GCG


def _parse(text: str, edition: Edition | None = None) -> _Parsed:
    parsed = _Parsed() if edition is None else _Parsed(edition=edition, edition_given=True)
    in_note = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff") if number == 1 else raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            in_note = _pragma(parsed, number, raw, line)
        elif line.startswith(">"):
            parsed.entries.append(_event_line(parsed, number, raw.rstrip(), line[1:]))
            in_note = False
        elif in_note:  # a note that goes on over several lines
            notes = parsed.entries[-1].notes if parsed.entries else parsed.notes
            notes[-1] += "\n" + line
        else:
            raise GcgSyntaxError(number, raw, "expected a pragma (#...) or an event line (>nick: ...)")
    return parsed


def _pragma(parsed: _Parsed, number: int, raw: str, line: str) -> bool:
    """Read one pragma; True when it is a note (which may go on over the next lines)."""
    match = _PRAGMA.match(line)
    assert match is not None
    name, value = match.group(1).lower(), match.group(2).strip()
    player = re.fullmatch(r"player([0-9]{1,3})", name)
    rack = re.fullmatch(r"rack([0-9]{1,3})", name)
    if name == "note":
        (parsed.entries[-1].notes if parsed.entries else parsed.notes).append(value)
        return True
    if player:
        _player_pragma(parsed, number, raw, int(player.group(1)), value)
    elif rack:
        parsed.racks[int(rack.group(1))] = value
    elif name == "lexicon":
        parsed.lexicon = value or None
    elif name == "title":
        parsed.title = value
    elif name == "description":
        parsed.description = value
    elif name == "id":
        parsed.game_id = value
    elif name == "character-encoding":
        pass  # used by decode_gcg when on the first line
    elif name == "arbitre-rules":
        try:
            parsed.rules = rule_set_by_code(value)
        except KeyError as error:
            raise GcgSyntaxError(number, raw, str(error.args[0])) from None
    elif name == "arbitre-edition" and not parsed.edition_given:
        try:
            parsed.edition = edition_by_code(value)
        except KeyError as error:
            raise GcgSyntaxError(number, raw, str(error.args[0])) from None
    elif name == "arbitre-notation":
        try:
            parsed.notation = notation_by_name(value)
        except ValueError as error:
            raise GcgSyntaxError(number, raw, str(error)) from None
    else:
        parsed.pragmata.append((number, name, value))
    return False


def _player_pragma(parsed: _Parsed, number: int, raw: str, index: int, value: str) -> None:
    if parsed.entries:
        raise GcgSyntaxError(number, raw, "players are declared before the first event line")
    parts = value.split(None, 1)
    if not parts:
        raise GcgSyntaxError(number, raw, "a player pragma is #playerN nick Full Name")
    nick = parts[0]
    if ":" in nick:
        raise GcgSyntaxError(number, raw, "a nick cannot contain ':'")
    if index in parsed.players:
        raise GcgSyntaxError(number, raw, f"player {index} is already declared")
    if any(p.nick == nick for p in parsed.players.values()):
        raise GcgSyntaxError(number, raw, f"two players with the nick {nick}")
    name = parts[1].strip() if len(parts) > 1 else nick
    parsed.players[index] = GcgPlayer(nick, name)


_SIGNED = re.compile(r"^[+-][0-9]{1,9}$")
_CUMULATIVE = re.compile(r"^-?[0-9]{1,9}$")


def _without_trailing_text(tokens: list[str]) -> list[str]:
    """The tokens up to the cumulative score: Quackle writes the words a play formed after it
    (``>Ann: ADEHLRS 9c HERALDS +80 146 HE, AD``)."""
    if len(tokens) >= 2 and _NUMBER.match(tokens[-1]) and _NUMBER.match(tokens[-2]):
        return tokens
    for index in range(1, len(tokens) - 1):
        if _SIGNED.match(tokens[index]) and _CUMULATIVE.match(tokens[index + 1]):
            return tokens[: index + 2]
    return tokens


def _event_line(parsed: _Parsed, number: int, raw: str, body: str) -> GcgEntry:
    """Read ``nick: [RACK] EVENT SCORE CUMULATIVE`` (the text after ``>``)."""

    def fail(reason: str) -> GcgSyntaxError:
        return GcgSyntaxError(number, raw, reason)

    nick, colon, rest = body.partition(":")  # nicks may hold dots, dashes... but no colon
    nick = nick.strip()
    if not colon:
        raise fail("an event line is >nick: rack move score cumulative")
    if not nick or any(c.isspace() for c in nick):
        raise fail("the nick before ':' must be one word")
    if parsed.players and nick not in {p.nick for p in parsed.players.values()}:
        known = ", ".join(p.nick for p in parsed.players.values())
        raise fail(f"{nick} is not a declared player ({known})")
    tokens = _without_trailing_text(rest.split())
    if len(tokens) < 3:
        raise fail("expected the event, its score and the cumulative score")
    *middle, score_text, cumulative_text = tokens
    if not _NUMBER.match(score_text):
        raise fail(f"{score_text!r} is not a score like +12 or -5")
    if not _NUMBER.match(cumulative_text):
        raise fail(f"{cumulative_text!r} is not a cumulative score")
    score, negative = int(score_text), score_text.startswith("-")
    entry = GcgEntry(number, raw, nick, "", "", recorded=score, recorded_cumulative=int(cumulative_text))
    key, before = middle[-1], middle[:-1]
    edition = parsed.edition
    paren = _paren_rack(key, edition)
    if key == "-":
        entry.type = "pass"
    elif key == "--":
        entry.type = "withdrawn"
    elif key.startswith("-"):
        entry.type, entry.tiles = "exchange", key[1:]
        if not (_are_tiles(entry.tiles, edition) or re.fullmatch("[1-7]", entry.tiles)):
            raise fail(f"{key!r}: an exchange is -LETTERS (? for a blank) or -N")
    elif key in _KEYWORDS:
        entry.keyword = key
        if key == "(challenge)":
            entry.type = "penalty" if negative else "challenge_bonus"
        elif not negative:
            raise fail(f"{key} is a penalty, written -N")
        else:
            entry.type = "time_penalty" if key == "(time)" else "penalty"
    elif paren is not None:
        entry.type, entry.tiles, entry.gains = "end_rack", paren.upper(), not negative
    elif len(middle) >= 2 and _REF.match(middle[-2]):
        entry.type, before = "play", middle[:-2]
        if not _is_word(key, edition):
            raise fail(f"{key!r}: a word is letters (lowercase for blanks) and '.' for tiles on the board")
        entry.move = f"{middle[-2]} {key}"
        try:
            entry.parsed_move = parse_move(
                entry.move, Notation.GCG, lowercase_is_plain=False, alphabet=edition.alphabet
            )
        except NotationError as error:
            raise fail(str(error)) from None
    else:
        raise fail("cannot read this event (a play is POSITION WORD, e.g. 8D ZAX)")
    if len(before) > 1 or (before and not all(c.isalnum() or c == JOKER for c in before[0])):
        raise fail(f"{' '.join(before)!r} is not a rack")
    entry.rack = before[0] if before else ""
    end_loss = entry.type == "end_rack" and negative
    entry.label = entry.move or (f"{entry.rack} {key}".strip() if end_loss else key)
    return entry


# --- replaying -----------------------------------------------------------------------


def read_gcg(
    data: bytes | str,
    *,
    rules: RuleSet | None = None,
    player_names: Literal["nick", "name"] = "nick",
    strict: bool = False,
    edition: Edition | None = None,
) -> GcgRecord:
    """Read a GCG record and replay it with the engine (see the module's policies).

    ``edition`` is the game's edition (then the ``#arbitre-edition`` pragma is not read);
    by default the pragma's, else English.

    Raises ``GcgSyntaxError`` on a malformed line; with ``strict``, ``GcgEventError`` on
    the first line the engine refuses (otherwise ``record.error`` is set).
    """
    text = decode_gcg(bytes(data)) if isinstance(data, (bytes, bytearray)) else data
    parsed = _parse(text, edition)
    return _Replay(parsed, rules, player_names, strict).run()


class _Replay:
    """Pushes the events of parsed entries into a ClassicGame and fills in the computed values."""

    def __init__(self, parsed: _Parsed, rules: RuleSet | None, player_names: str, strict: bool) -> None:
        self.parsed = parsed
        self.strict = strict
        if parsed.players:
            self.players = tuple(parsed.players[i] for i in sorted(parsed.players))
        else:  # no #player pragmata: the nicks of the event lines, in order of appearance
            nicks = dict.fromkeys(e.player for e in parsed.entries)
            self.players = tuple(GcgPlayer(n, n) for n in nicks)
        full_names = [p.name for p in self.players]
        use_names = player_names == "name" and len(set(full_names)) == len(full_names)
        self.names = {p.nick: (p.name if use_names and p.name else p.nick) for p in self.players}
        order = [p.nick for p in self.players]
        first = next((e.player for e in parsed.entries if e.type in TURN_TYPES), None)
        if first in order:
            start = order.index(first)
            order = order[start:] + order[:start]
        self.order = order
        if rules is None:
            rules = parsed.rules or rules_for_lexicon(parsed.lexicon)
            style = end_style(parsed.entries, parsed.edition)
            if style is not None and style is not rules.going_out:
                rules = dataclasses.replace(rules, going_out=style)
        self.game = ClassicGame(parsed.edition, rules, [self.names[n] for n in order], parsed.notation)
        self.error: GcgEventError | None = None
        self.extra: dict[int, list[GcgEntry]] = {}  # synthetic entries after an entry (by id)

    def run(self) -> GcgRecord:
        pending: list[GcgEntry] = []
        for entry in self.parsed.entries:
            if self.error is not None:
                entry.status = "skipped"
                continue
            if entry.type == "end_rack":
                pending.append(entry)
                continue
            if pending and entry.type in TURN_TYPES:
                self._end(pending)
                pending = []
                if self.error is not None:
                    entry.status = "skipped"
                    continue
            self._entry(entry)
        if pending and self.error is None:
            self._end(pending)
        return self._record()

    # --- one line ---

    def _push(self, entry: GcgEntry, event: Event) -> list[SheetLine] | None:
        """Push an event; the new sheet lines, or None when the engine refuses it."""
        entry.event = event
        before = len(self.game.lines)
        try:
            self.game.push_stored(event)
        except (ArbitreError, ValueError) as cause:
            self._refuse(entry, cause)
            return None
        return self.game.lines[before:]

    def _refuse(self, entry: GcgEntry, cause: Exception) -> None:
        error = GcgEventError(entry.line, entry.text, cause)
        if self.strict:
            raise error from cause
        self.error = error
        entry.status = "rejected"

    def _entry(self, entry: GcgEntry) -> None:
        name = self.names[entry.player]
        recorded = entry.recorded or 0
        event: Event
        if entry.type == "play":
            assert entry.parsed_move is not None
            text = format_move(entry.parsed_move, self.game.notation)
            event = Play(name, text, claimed=entry.recorded)
        elif entry.type == "pass" and UNKNOWN_EXCHANGE_NOTE in entry.notes:
            event = Exchange(name, "")  # how write_gcg writes an exchange of unknown tiles and count
        elif entry.type == "pass":
            event = self._lost_turn(name) if LOST_TURN_NOTE in entry.notes else Pass(name)
        elif entry.type == "exchange":
            event = Exchange(name, "" if UNKNOWN_EXCHANGE_NOTE in entry.notes else entry.tiles)
        elif entry.type == "withdrawn":
            self._withdrawn(entry, name)
            return
        elif entry.type == "challenge_bonus":
            event = ChallengeBonus(name, recorded)
        elif entry.type == "penalty":
            event = self._penalty(entry, name, abs(recorded))
        else:
            event = TimePenalty(name, abs(recorded))
        lines = self._push(entry, event)
        if lines is not None:
            if entry.type == "play":
                entry.computed = lines[0].points
            else:
                entry.computed = sum(line.points for line in lines if line.player == name)

    def _lost_turn(self, name: str) -> Event:
        """A turn lost to a challenge, as the challenge itself when the rule set gives exactly that."""
        rules = self.game.rules
        if (
            rules.challenge_lost_turn
            and not rules.challenge_penalty_per_word
            and not rules.challenge_bonus_per_word
            and self.game.to_move == name
            and self.game.last_play_line() is not None
        ):
            return Challenge(name, (), ())
        return Pass(name)

    def _penalty(self, entry: GcgEntry, name: str, points: int) -> Event:
        """``(challenge) -N``: a challenge lost under a rule set with a penalty per word, if it adds up."""
        rules = self.game.rules
        per_word = rules.challenge_penalty_per_word
        target = self.game.last_play_line()
        if (
            entry.keyword == "(challenge)"
            and per_word
            and not rules.challenge_bonus_per_word
            and not rules.challenge_lost_turn
            and target is not None
            and target.placement is not None
            and points % per_word == 0
        ):
            words = tuple(w.text for w in target.placement.words)
            count = points // per_word
            if 1 <= count <= len(words):
                return Challenge(name, words[:count], ())
        return Penalty(name, points)

    def _withdrawn(self, entry: GcgEntry, name: str) -> None:
        event: Event = Withdrawn(name)
        for note in entry.notes:
            challenged = _CHALLENGED.match(note)
            if challenged and challenged.group(1) in self.names:
                words = challenged.group(2).split()
                if not self.game.edition.alphabet.plain:
                    words = [self.game.edition.tiles(w) for w in words]
                event = Challenge(self.names[challenged.group(1)], (), tuple(words))
        target = self.game.last_play_line()
        if target is not None and target.player != name:
            entry.event = event
            owner = next(n for n, v in self.names.items() if v == target.player)
            self._refuse(entry, ValueError(f"the last play is {owner}'s, not {entry.player}'s"))
            return
        points = target.points if target is not None else 0
        if self._push(entry, event) is not None:
            entry.computed = -points

    # --- end of the game ---

    def _end(self, group: list[GcgEntry]) -> None:
        """One End event for consecutive end-of-game lines, every rack given."""
        racks: dict[str, str] = {}
        for entry in group:
            racks[entry.player] = "" if entry.gains else entry.tiles
        missing = [n for n in self.order if n not in racks]
        out = [e for e in group if e.gains]
        if out and missing:  # NASPA style: the loser's rack is in the winner's brackets
            held = [racks[e.player] for e in group if not e.gains]
            racks[missing[0]] = _remainder(out[0].tiles, held)
        # nobody credited with the others' racks: a game stopped with tiles left (or blocked)
        event = End(tuple((self.names[n], racks.get(n, "")) for n in self.order), stopped=not out)
        lines = self._push(group[0], event)
        for entry in group:
            entry.event = event
        if lines is None:
            for entry in group[1:]:
                entry.status = "skipped"
            return
        sums = Counter[str]()
        for line in lines:
            sums[line.player] += line.points
        seen: set[str] = set()
        for entry in group:
            entry.computed = 0 if entry.player in seen else sums[self.names[entry.player]]
            seen.add(entry.player)
        for nick in self.order:
            points = sums[self.names[nick]]
            if nick in seen or points == 0:
                continue
            synthetic = GcgEntry(
                group[-1].line,
                "",
                nick,
                "end_rack",
                f"({racks.get(nick, '')})",
                tiles=racks.get(nick, ""),
                event=event,
                computed=points,
                synthetic=True,
                notes=["end-of-game adjustment that the file does not record"],
            )
            self.extra.setdefault(id(group[-1]), []).append(synthetic)

    # --- the record ---

    def _record(self) -> GcgRecord:
        entries: list[GcgEntry] = []
        for entry in self.parsed.entries:
            entries.append(entry)
            entries.extend(self.extra.get(id(entry), []))
        running = {p.nick: 0 for p in self.players}
        for entry in entries:
            if entry.status == "skipped":
                continue
            if entry.status == "pending":
                entry.status = "ok" if entry.recorded == entry.computed else "mismatch"
            running[entry.player] = running.get(entry.player, 0) + (entry.computed or 0)
            entry.cumulative = running[entry.player]
        parsed = self.parsed
        racks = {parsed.players[i].nick: r for i, r in parsed.racks.items() if i in parsed.players}
        return GcgRecord(
            players=self.players,
            lexicon=parsed.lexicon,
            title=parsed.title,
            description=parsed.description,
            game_id=parsed.game_id,
            notes=parsed.notes,
            racks=racks,
            pragmata=parsed.pragmata,
            entries=entries,
            game=self.game,
            names=self.names,
            error=self.error,
        )


def _remainder(tiles: str, held: Sequence[str]) -> str:
    """The letters in brackets minus those other players hold (numbers are kept as they are)."""
    if tiles.isdigit() or not held:
        return tiles
    left = Counter(tiles)
    for rack in held:
        left -= Counter(rack)
    kept: list[str] = []
    for char in tiles:
        if left[char] > 0:
            kept.append(char)
            left[char] -= 1
    return "".join(kept)


# --- writing -------------------------------------------------------------------------


def write_gcg(
    game: ClassicGame,
    *,
    players: Mapping[str, GcgPlayer] | None = None,
    lexicon: str | None = None,
    title: str | None = None,
    description: str | None = None,
    game_id: str | None = None,
) -> str:
    """The game as GCG text (to be saved as UTF-8); ``players`` maps a player to its nick and name."""
    identities = _identities(game.players, players or {})
    out = ["#character-encoding UTF-8"]
    for index, name in enumerate(game.players, start=1):
        player = identities[name]
        out.append(f"#player{index} {player.nick} {player.name}")
    for pragma, value in (("title", title), ("description", description), ("id", game_id), ("lexicon", lexicon)):
        if value:
            out.append(f"#{pragma} {' '.join(value.split())}")
    out.append(f"#arbitre-rules {game.rules.code}")  # in force: 3-4 players fall back to the box rules
    if game.edition.code != ENGLISH.code:
        out.append(f"#arbitre-edition {game.edition.code}")
    if game.notation is not Notation.GCG:
        out.append(f"#arbitre-notation {game.notation}")
    shadow = ClassicGame(game.edition, game.base_rules, game.initial_players, game.notation)
    for event in _effective_events(game.events):
        target = shadow.last_play_line() if isinstance(event, (Withdrawn, Challenge)) else None
        target_points = target.points if target is not None else 0
        before = len(shadow.lines)
        shadow.push_stored(event)
        if target is not None and target.removed:
            nick = identities[target.player].nick
            total = shadow.totals()[target.player]
            out.append(_gcg_line(nick, _tiles_played(target, game.edition), "--", f"-{target_points}", total))
            words = " ".join(game.edition.spell("".join(w.split())) for w in target.invalid if w.strip())
            if isinstance(event, Challenge) and words:
                by = identities[event.challenger].nick
                out.append(f"#note {CHALLENGED_NOTE.format(nick=by, words=words)}")
        for line in shadow.lines[before:]:
            out.extend(_write_line(shadow, line, event, identities))
    return "\n".join(out) + "\n"


def _identities(names: Sequence[str], given: Mapping[str, GcgPlayer]) -> dict[str, GcgPlayer]:
    """A nick (one word, no colon, unique) and a one-line full name for each player."""
    identities: dict[str, GcgPlayer] = {}
    used: set[str] = set()
    for index, name in enumerate(names, start=1):
        chosen = given.get(name, GcgPlayer(name, name))
        nick = re.sub(r"[\s:]+", "_", chosen.nick.strip()) or f"player{index}"
        base, suffix = nick, 2
        while nick in used:
            nick, suffix = f"{base}_{suffix}", suffix + 1
        used.add(nick)
        identities[name] = GcgPlayer(nick, " ".join(chosen.name.split()) or nick)
    return identities


def _effective_events(events: Sequence[Event]) -> list[Event]:
    """The events that stand once each Undo removed the last event that made a line."""
    kept: list[Event] = []
    for event in events:
        if not isinstance(event, Undo):
            kept.append(event)
            continue
        for index in range(len(kept) - 1, -1, -1):
            if not isinstance(kept[index], Join):
                del kept[index]
                break
    return kept


def _gcg_line(nick: str, rack: str, what: str, score: str, total: int) -> str:
    return f">{nick}: {rack} {what} {score} {total}"


def _tiles_played(line: SheetLine, edition: Edition) -> str:
    assert line.placement is not None
    return edition.spell("".join(sorted(JOKER if c.joker else c.letter for c in line.placement.new_tiles)))


def _normal_rack(rack: str, edition: Edition) -> str:
    """Letters in uppercase with ``?`` for blanks (the edition's labels), or a number, as the End event gave them."""
    text = edition.tiles(rack).replace(" ", "")
    if text.lstrip("-").isdigit():
        return str(abs(int(text)))
    return edition.spell(text)


def _are_tiles(text: str, edition: Edition) -> bool:
    """Whether ``text`` is tiles of the edition (lowercase allowed) or ``?`` blanks."""
    if edition.alphabet.plain:
        return bool(_TILES.match(text))
    tiles = edition.tiles(text)
    return bool(tiles) and all(c == JOKER or c in edition.alphabet for c in tiles)


def _is_word(text: str, edition: Edition) -> bool:
    """Whether ``text`` is tiles of the edition (lowercase for blanks) and ``.`` for tiles on the board."""
    if edition.alphabet.plain:
        return bool(_WORD.match(text))
    return all(p.symbol is not None or p.typed == "." for p in edition.alphabet.scan(text))


def _paren_rack(key: str, edition: Edition) -> str | None:
    """What is inside ``(TILES)``, ``(N)`` or ``()``, or None when ``key`` is not that."""
    if edition.alphabet.plain:
        match = _PAREN_RACK.match(key)
        return match.group(1) if match else None
    if len(key) < 2 or key[0] != "(" or key[-1] != ")":
        return None
    inside = key[1:-1]
    return inside if not inside or inside.isdigit() or _are_tiles(inside, edition) else None


def _write_line(game: ClassicGame, line: SheetLine, event: Event, identities: Mapping[str, GcgPlayer]) -> list[str]:
    nick = identities[line.player].nick
    if line.kind == "play":
        assert line.placement is not None
        placement = line.placement
        cells = placement.main_word.cells
        if game.edition.alphabet.plain:
            word = "".join((c.letter.lower() if c.joker else c.letter) if c.new else "." for c in cells)
        else:
            symbols = "".join(c.letter if c.new else "." for c in cells)
            word = game.edition.spell_word(symbols, [c.joker and c.new for c in cells])
        position = format_ref(placement.ref, Notation.GCG)
        played = _tiles_played(line, game.edition)
        return [_gcg_line(nick, played, f"{position} {word}", f"+{line.points}", line.total)]
    if line.kind == "pass":
        return [_gcg_line(nick, "", "-", "+0", line.total)]
    if line.kind == "lost_turn":
        return [_gcg_line(nick, "", "-", "+0", line.total), f"#note {LOST_TURN_NOTE}"]
    if line.kind == "exchange":
        assert isinstance(event, Exchange)
        return _write_exchange(nick, event.tiles, line.total, game.edition)
    if line.kind in ("challenge_penalty", "challenge_bonus", "penalty", "time_penalty"):
        keyword = {"penalty": "(penalty)", "time_penalty": "(time)"}.get(line.kind, "(challenge)")
        score = f"+{line.points}" if line.points >= 0 and line.kind == "challenge_bonus" else f"-{abs(line.points)}"
        return [_gcg_line(nick, "", keyword, score, line.total)]
    if line.kind == "end":
        assert isinstance(event, End)
        return _write_end(game, line, event, nick)
    raise ValueError(f"sheet line of unknown kind {line.kind!r}")


def _write_exchange(nick: str, tiles: str, total: int, edition: Edition) -> list[str]:
    text = edition.tiles(tiles).replace(" ", "")
    if not text:
        # GCG writes unknown tiles as their count (-3); with no count either, "-1" would claim one tile:
        # the line is a turn that scores nothing (as a pass), and the note says it was an exchange
        return [_gcg_line(nick, "", "-", "+0", total), f"#note {UNKNOWN_EXCHANGE_NOTE}"]
    if text.isdigit():
        return [_gcg_line(nick, "", f"-{int(text)}", "+0", total)]
    if _TILES.match(text) if edition.alphabet.plain else all(c == JOKER or c in edition.alphabet for c in text):
        text = edition.spell(text)
        return [_gcg_line(nick, text, f"-{text}", "+0", total)]
    return [_gcg_line(nick, "", f"-{len(text)}", "+0", total)]


def _write_end(game: ClassicGame, line: SheetLine, event: End, nick: str) -> list[str]:
    racks = {player: _normal_rack(rack, game.edition) for player, rack in event.racks}
    if line.went_out:
        others = [racks[p] for p in game.players if racks.get(p, "") not in ("", "0")]
        if all(not r.isdigit() for r in others):
            held = "".join(others)
        else:
            held = str(sum(rack_value(r, game.edition) for r in others))
        return [_gcg_line(nick, "", f"({held})", f"+{line.points}", line.total)]
    someone_out = any(x.kind == "end" and x.went_out for x in game.lines)
    if someone_out and game.rules.going_out is GoingOut.ADD_TWICE and len(game.players) == 2:
        return []  # NASPA files only credit the player who went out
    rack = racks.get(line.player, "")
    if not rack and line.points == 0:
        return []  # a stopped game: nothing was left on this rack, or nobody said what
    held = "" if rack.isdigit() else rack  # the rack field holds tiles: a value given instead is only in brackets
    return [_gcg_line(nick, held, f"({rack})", f"-{abs(line.points)}", line.total)]
