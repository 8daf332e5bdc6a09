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
  Arbitre's way to write any other penalty; ``#note arbitre: NICK out of time, the other plays on alone
  (FISF)`` (before the first event line, or after any) is that player's chess clock run out (``Flagged``).
- GCG event lines name players by nick; the game's players are the nicks (or the full
  names with ``player_names="name"``), player 1 first. If the first turn belongs to
  another player the game's order is rotated so that the engine's turn order matches.

Writing is ``write_gcg`` (``core.gcg_write``, where its policies are), importable from here
too; ``read_gcg(write_gcg(game))`` rebuilds the same sheet, board and totals.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from .edition import Edition
from .errors import ArbitreError
from .errors_records import GcgEventError
from .events import (
    Challenge,
    ChallengeBonus,
    End,
    Event,
    Exchange,
    Flagged,
    Pass,
    Penalty,
    Play,
    TimePenalty,
    Withdrawn,
)
from .game import ClassicGame, SheetLine, rack_value
from .gcg_model import (
    CHALLENGED_NOTE_RE,
    FLAGGED_NOTE_RE,
    LOST_TURN_NOTE,
    TURN_TYPES,
    UNKNOWN_EXCHANGE_NOTE,
    GcgEntry,
    GcgPlayer,
)
from .gcg_read import ParsedGcg, decode_gcg, parse_gcg
from .gcg_write import write_gcg
from .notation import format_move
from .rules import GoingOut, RuleSet, rule_set_by_code

__all__ = ["GcgEvent", "GcgRecord", "end_style", "read_gcg", "rules_for_lexicon", "write_gcg"]


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


# --- policies --------------------------------------------------------------------------


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
    parsed = parse_gcg(text, edition)
    return _Replay(parsed, rules, player_names, strict).run()


class _Replay:
    """Pushes the events of parsed entries into a ClassicGame and fills in the computed values."""

    def __init__(self, parsed: ParsedGcg, rules: RuleSet | None, player_names: str, strict: bool) -> None:
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
        self._flags(self.parsed.notes, None)
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
            if self.error is None:
                self._flags(entry.notes, entry)
        if pending and self.error is None:
            self._end(pending)
        return self._record()

    def _flags(self, notes: Sequence[str], entry: GcgEntry | None) -> None:
        """The players whose clock ran out (FISF) by Arbitre's notes, after ``entry`` (or before any line)."""
        for note in notes:
            flagged = FLAGGED_NOTE_RE.match(note)
            if flagged is None or flagged.group(1) not in self.names:
                continue
            try:
                self.game.apply_stored(Flagged(self.names[flagged.group(1)]))
            except (ArbitreError, ValueError) as cause:
                if entry is None:
                    raise
                self._refuse(entry, cause)
                return

    # --- one line ---

    def _push(self, entry: GcgEntry, event: Event) -> list[SheetLine] | None:
        """Push an event; the new sheet lines, or None when the engine refuses it."""
        entry.event = event
        before = len(self.game.lines)
        try:
            self.game.apply_stored(event)
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
            challenged = CHALLENGED_NOTE_RE.match(note)
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
