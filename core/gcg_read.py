"""Reading GCG text into entries, without replaying them: the bytes' encoding, pragmas, event lines."""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from .edition import ENGLISH, JOKER, Edition, edition_by_code
from .errors import NotationError
from .errors_records import GcgSyntaxError
from .gcg_model import TILES, GcgEntry, GcgPlayer
from .notation import Notation, notation_by_name, parse_move
from .rules import RuleSet, rule_set_by_code

# numbers in ASCII digits, bounded: a file's "+٢٠" or 5,000-digit score is a syntax error
_NUMBER = re.compile(r"^[+-]?[0-9]{1,9}$")
_REF = re.compile(r"^(?:[0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2})$")
_WORD = re.compile(r"^[A-Za-z.]+$")
_PAREN_RACK = re.compile(r"^\(([A-Za-z?]*|[0-9]{1,3})\)$")
_PRAGMA = re.compile(r"^#(\S*)\s*(.*)$")
_ENCODING = re.compile(rb"^\s*#character-encoding\s+(\S+)", re.IGNORECASE)
_KEYWORDS = {"(challenge)", "(time)", "(penalty)"}


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
class ParsedGcg:
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


def parse_gcg(text: str, edition: Edition | None = None) -> ParsedGcg:
    parsed = ParsedGcg() if edition is None else ParsedGcg(edition=edition, edition_given=True)
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


def _pragma(parsed: ParsedGcg, number: int, raw: str, line: str) -> bool:
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


def _player_pragma(parsed: ParsedGcg, number: int, raw: str, index: int, value: str) -> None:
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


def _event_line(parsed: ParsedGcg, number: int, raw: str, body: str) -> GcgEntry:
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
    rack_ok = not before or all(c.isalnum() or c == JOKER for c in before[0]) or _are_tiles(before[0], edition)
    if len(before) > 1 or not rack_ok:  # a rack of an edition's tiles may hold other signs (L·L)
        raise fail(f"{' '.join(before)!r} is not a rack")
    entry.rack = before[0] if before else ""
    end_loss = entry.type == "end_rack" and negative
    entry.label = entry.move or (f"{entry.rack} {key}".strip() if end_loss else key)
    return entry


def _are_tiles(text: str, edition: Edition) -> bool:
    """Whether ``text`` is tiles of the edition (lowercase allowed) or ``?`` blanks."""
    if edition.alphabet.plain:
        return bool(TILES.match(text))
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
