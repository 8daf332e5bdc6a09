"""Writing a ``ClassicGame`` as a GCG record.

Writing (``write_gcg``) gives UTF-8 text (first line ``#character-encoding UTF-8``),
``.`` for played-through tiles, the tiles played as the rack field (a game at a table: the
engine does not know the real racks; a game the referee dealt gives them, ``racks``), and
end-of-game lines in the style of the game's rule set. A player out of time under FISF
rules is a note (``#note arbitre: Ben out of time, the other plays on alone (FISF)``)
after the line before it, so that the opponent's turns in a row read as what they are.
``read_gcg(write_gcg(game))`` rebuilds the same sheet, board and totals. Known limits:
player names become nicks without spaces or colons (read back with
``player_names="name"`` to get the full names); exchange tiles are written folded to
uppercase; a turn lost in a 3-4 player box game after a pass reads back as a pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .edition import ENGLISH, JOKER, Edition
from .events import NO_LINE_KINDS, Challenge, End, Event, Exchange, Flagged, Undo, Withdrawn
from .game import ClassicGame, SheetLine, rack_value
from .gcg_model import CHALLENGED_NOTE, FLAGGED_NOTE, LOST_TURN_NOTE, TILES, UNKNOWN_EXCHANGE_NOTE, GcgPlayer
from .notation import Notation, format_ref
from .rules import GoingOut


def write_gcg(
    game: ClassicGame,
    *,
    players: Mapping[str, GcgPlayer] | None = None,
    lexicon: str | None = None,
    title: str | None = None,
    description: str | None = None,
    game_id: str | None = None,
    racks: Mapping[int, str] | None = None,
) -> str:
    """The game as GCG text (to be saved as UTF-8); ``players`` maps a player to its nick and name;
    ``racks``, when the racks are known, the player's rack (tiles) before each turn's sheet line."""
    known = {number: game.edition.spell_tiles(rack) for number, rack in (racks or {}).items()}
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
        shadow.apply_stored(event)
        if target is not None and target.removed:
            nick = identities[target.player].nick
            total = shadow.totals()[target.player]
            rack = known.get(target.number, _tiles_played(target, game.edition))
            out.append(_gcg_line(nick, rack, "--", f"-{target_points}", total))
            words = " ".join(game.edition.spell("".join(w.split())) for w in target.invalid if w.strip())
            if isinstance(event, Challenge) and words:
                by = identities[event.challenger].nick
                out.append(f"#note {CHALLENGED_NOTE.format(nick=by, words=words)}")
        for line in shadow.lines[before:]:
            out.extend(_write_line(shadow, line, event, identities, known.get(line.number)))
        if isinstance(event, Flagged):
            out.append(f"#note {FLAGGED_NOTE.format(nick=identities[event.player].nick)}")
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
    """The events that stand once each Undo removed the last event that made a line (as the game's own
    undo: a join, a setting, the clock's pauses and a flag stand)."""
    kept: list[Event] = []
    for event in events:
        if not isinstance(event, Undo):
            kept.append(event)
            continue
        for index in range(len(kept) - 1, -1, -1):
            if kept[index].kind not in NO_LINE_KINDS:
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


def _write_line(
    game: ClassicGame, line: SheetLine, event: Event, identities: Mapping[str, GcgPlayer], rack: str | None = None
) -> list[str]:
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
        played = _tiles_played(line, game.edition) if rack is None else rack
        return [_gcg_line(nick, played, f"{position} {word}", f"+{line.points}", line.total)]
    if line.kind == "pass":
        return [_gcg_line(nick, rack or "", "-", "+0", line.total)]
    if line.kind == "lost_turn":
        return [_gcg_line(nick, rack or "", "-", "+0", line.total), f"#note {LOST_TURN_NOTE}"]
    if line.kind == "exchange":
        assert isinstance(event, Exchange)
        return _write_exchange(nick, event.tiles, line.total, game.edition, rack)
    if line.kind in ("challenge_penalty", "challenge_bonus", "penalty", "time_penalty"):
        keyword = {"penalty": "(penalty)", "time_penalty": "(time)"}.get(line.kind, "(challenge)")
        score = f"+{line.points}" if line.points >= 0 and line.kind == "challenge_bonus" else f"-{abs(line.points)}"
        return [_gcg_line(nick, "", keyword, score, line.total)]
    if line.kind == "end":
        assert isinstance(event, End)
        return _write_end(game, line, event, nick)
    raise ValueError(f"sheet line of unknown kind {line.kind!r}")


def _write_exchange(nick: str, tiles: str, total: int, edition: Edition, rack: str | None = None) -> list[str]:
    """An exchange's line: the rack field is the player's rack when known, else the tiles exchanged."""
    text = edition.tiles(tiles).replace(" ", "")
    if not text:
        # GCG writes unknown tiles as their count (-3); with no count either, "-1" would claim one tile:
        # the line is a turn that scores nothing (as a pass), and the note says it was an exchange
        return [_gcg_line(nick, rack or "", "-", "+0", total), f"#note {UNKNOWN_EXCHANGE_NOTE}"]
    if text.isdigit():
        return [_gcg_line(nick, rack or "", f"-{int(text)}", "+0", total)]
    if TILES.match(text) if edition.alphabet.plain else all(c == JOKER or c in edition.alphabet for c in text):
        text = edition.spell(text)
        return [_gcg_line(nick, text if rack is None else rack, f"-{text}", "+0", total)]
    return [_gcg_line(nick, rack or "", f"-{len(text)}", "+0", total)]


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
