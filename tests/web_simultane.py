"""A simultané played through the command layer for the live pages' tests (tests/bot/web/test_web_page.py, the
browser's): the rooms of a ``WebRoom``'s referee, the organiser's room its own (``CHANNEL``), the answers
sent in private, the rounds paced as the bot paces them (``close_everywhere``)."""

from __future__ import annotations

import re
from typing import Any

from bot.chat import Incoming, Reply
from core.duplicate import DuplicateGame, movegen_top_finder
from core.notation import Notation
from tests.ready_lists import ready_registry
from tests.web_room import CHANNEL, LINK, WebRoom

# the first draw's answers, best first (the French list's plays on ACEHNTZ, H6 CHANTEZ the top)
FIRST_MOVES = [
    ("H3 CHANTEZ", 100),
    ("H4 CHANTEZ", 98),
    ("H2 CHANTEZ", 94),
    ("H7 CHANTEZ", 94),
    ("H5 CHANTEZ", 92),
    ("H7 TACHEZ", 60),
    ("H7 HANTEZ", 56),
    ("H7 TANCEZ", 54),
    ("H8 HATEZ", 54),
    ("H8 ACTEZ", 52),
    ("H4 HANTEZ", 44),
    ("H5 CHEZ", 36),
    ("H4 CHANT", 26),
    ("H5 ZETA", 26),
]


async def say_in(room: WebRoom, channel: str, text: str, user: str = "Boss", **options: Any) -> list[Reply]:
    """One message to ``channel`` (the account is ``u:`` and the name lowercased)."""
    return await room.service.handle(Incoming(channel, f"u:{user.lower()}", user, text, **options))


def link_in(replies: list[Reply]) -> str:
    """The one page link the replies give."""
    found = [m.group(0) for r in replies for m in LINK.finditer(r.text)]
    assert len(found) == 1, [r.text for r in replies]
    return found[0]


async def create(room: WebRoom, rooms: dict[str, str]) -> str:
    """A simultané of 1 minute a move, round 1's draw ACEHNTZ, organised in ``CHANNEL``; ``rooms`` (the
    organiser's first) join it under their centres' names. Its code."""
    created = await room.say("/simultane creer 1 tirages ACEHNTZ", "Org", admin=True)
    words = [m.group(1) for r in created for m in re.finditer(r"\b([A-Z2-9]{6})\b", r.text)]
    code = next(w for w in words if w != "ACEHNTZ")
    for channel, name in rooms.items():
        admin = "Org" if channel == CHANNEL else "Boss"
        joined = await say_in(room, channel, f"/simultane rejoindre {code} {name}", admin, admin=True)
        assert not any(r.error for r in joined), joined
    return code


async def answer(room: WebRoom, channel: str, player: str, move: str) -> None:
    """A player's answer, sent in private from the room."""
    acks = await say_in(room, channel, f"/jouer {move}", player, private=True)
    assert any("Reçu pour le coup" in a.text for a in acks), acks


async def close_everywhere(room: WebRoom, channels: list[str]) -> None:
    """Each room closes its round (every player has answered); a room whose time is up waits for the
    others (paced), and the clock's tick closes those that waited."""
    for channel in channels:
        replies = await say_in(room, channel, "/cloture", admin=True)
        assert not any(r.error for r in replies), replies
    await room.service.tick()


def game_in(room: WebRoom, channel: str) -> DuplicateGame:
    """The room's last game, as the referee has it."""
    record = room.storage.games(channel)[-1]
    game: DuplicateGame = room.referee.games.load(room.storage, record)
    return game


def plays_of(room: WebRoom, channel: str) -> list[tuple[str, int]]:
    """The open round's plays in ``channel``, best first (what its players may answer)."""
    game = game_in(room, channel)
    current = game.current
    assert current is not None
    assert current.draw is not None
    finder = movegen_top_finder(ready_registry().get("fr"), game.edition, game.settings, count=40)
    found = finder(game.board.copy(), current.draw.letters)
    return [(p.placement.notation(Notation.FISF), p.score.total) for p in found.plays]
