"""Players of an online game driven through a platform's real library (``test_online_discord``,
``test_online_telegram``): what each was told in private, the move each chooses from that rack alone, and the
checks that no rack showed anywhere else before the end."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from bot.cli import main
from bot.games.online.kind import build
from bot.storage import GameRecord, SQLiteStorage
from core.edition import FRENCH
from core.gcg import read_gcg
from core.movegen import generate_plays
from core.notation import Notation
from core.online import DealtGame
from tests.ready_lists import ready_registry

FRENCH_LIST = ready_registry().get("fr")
RACK_LINE = re.compile(r"(?:chevalet|rack)[^:\n]*: ([A-Z?]+|-)\s*$", re.MULTILINE)
SECRET_LENGTH = 5  # a rack this long or longer is looked for in what the public saw (shorter ones may be words)


def rack_told(text: str) -> str | None:
    """The rack a private line tells (its last ``Votre chevalet : ...``), None if it tells none."""
    found = RACK_LINE.findall(text)
    return found[-1] if found else None


def game_in(storage: SQLiteStorage, channel: str, number: int = 0) -> tuple[GameRecord, DealtGame]:
    """The channel's online game ``number`` (1 the first of the channel; 0 the last), rebuilt from its stored log."""
    record = storage.games(channel)[number - 1 if number else -1]
    return record, build(record, [e.data for e in storage.events(record.id)])


def chosen_move(game: DealtGame, rack: str) -> tuple[str, str]:
    """(command, arguments) a player with ``rack`` sends: the best play the move generator finds, else an
    exchange of the whole rack while the bag allows, else a pass; after an opponent went out, a pass."""
    if game.awaiting_end is not None:
        return "pass", ""
    plays = generate_plays(game.board, rack, FRENCH_LIST, FRENCH)
    if plays:
        best = max(plays, key=lambda p: (p.total, p.placement.notation(Notation.FISF)))
        return "score", best.placement.notation(Notation.FISF)
    if len(game.bag) >= max(7, len(rack)):
        return "exchange", rack
    return "pass", ""


def missing_tile(rack: str) -> str:
    """A tile the rack lacks (for a move that must be refused)."""
    return next(t for t in "ZYXWKJQ" if t not in rack)


def assert_no_rack_in(racks: Iterable[str], texts: Iterable[str], where: str) -> None:
    """No rack of ``racks`` (long enough to be no accident) in any of ``texts``."""
    shown = list(texts)
    for rack in racks:
        if len(rack) >= SECRET_LENGTH:
            leaked = [text for text in shown if rack in text]
            assert not leaked, f"rack {rack} in {where}: {leaked[0]!r}"


def assert_export_replays(document: bytes, game: DealtGame) -> None:
    """The exported GCG, read again by the GCG reader, ends with the game's final totals."""
    replayed = read_gcg(document, strict=True)
    assert replayed.game.ended
    assert replayed.game.totals() == game.totals()


def replay_file(document: bytes, tmp_path: Path) -> int:
    """``arbitre replay`` on the exported file: its exit status."""
    record = tmp_path / "online.gcg"
    record.write_bytes(document)
    return main(["replay", str(record)])
