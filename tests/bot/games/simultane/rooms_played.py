"""What the simultané tests share: the three rooms (Discord, Telegram, console), the club's start time, a
simultané played together and one within a window, the first round's answers in each room and the overall ranking
they give (worked by hand), and readers of the rooms' texts and events."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable

import pytest_asyncio

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.storage import Storage, StoredEvent
from core.simultane import (
    SimultaneDefinition,
    SimultaneMode,
)
from tests import waiting
from tests.club import Club
from tests.discord_club import ClubDiscord
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram

DISCORD, TELEGRAM, CONSOLE = "discord:111", "telegram:-222", "console"
ROOMS = (DISCORD, TELEGRAM, CONSOLE)
START = 1_800_000_000.0  # the club's clock: 2027-01-15 09:00 in Paris (tests/club.py)

TOGETHER = SimultaneDefinition("ABC234", "u:org", DISCORD, "s", "fr", "fr", "fisf", 1.0, "none", start=START)
WINDOW = SimultaneDefinition(
    "WIN234", "u:org", DISCORD, "s", "fr", "fr", "fisf", 1.0, "none", SimultaneMode.WINDOW, START, START + 3600
)


def text_of(replies: list[Reply], channel: str) -> str:
    return "\n".join(r.text for r in replies if r.to_user is None and r.channel == channel)


def code_of(text: str) -> str:
    found = re.search(r"code ([A-Z0-9]{6})", text)
    assert found is not None, text
    return found.group(1)


def table_rows(text: str) -> list[list[str]]:
    block = text.split("```")[1]
    return [re.split(r"\s{2,}", line.strip()) for line in block.strip("\n").split("\n")[2:]]


def room_events(club: Club, channel: str, kind: str) -> list[dict[str, object]]:
    return club.events(kind, channel=channel)


def play_round_one(club: Club, channel: str, moves: dict[str, str]) -> None:
    for name, move in moves.items():
        acks = club.send(name, f"/jouer {move}", channel=channel, private=True)
        assert any("Reçu pour le coup 1" in a.text for a in acks), acks


A_MOVES = {"Ana": "H6 CHANTEZ", **{f"Aa{i}": "H4 CHANTEZ" for i in range(5)}}
B_MOVES = {f"Bb{i}": "H8 CHANT" for i in range(6)}
C_MOVES = {f"Cc{i}": "H4 CHANT" for i in range(5)}
# Worked by hand as in the core test above: Ana's solo counts across the 17 players, none in her room.
# Each player's room by its label: no name given, "Salon N" by joining order (Discord, Telegram, console).
OVERALL_AFTER_ONE = (
    [["1", "Ana", "Salon 1", "122", "+10", "108,9", "1"]]
    + [["2", f"Aa{i}", "Salon 1", "98", "-14", "87,5", "0"] for i in range(5)]
    + [["7", f"Cc{i}", "Salon 3", "26", "-86", "23,2", "0"] for i in range(5)]
    + [["12", f"Bb{i}", "Salon 2", "22", "-90", "19,6", "0"] for i in range(6)]
)


class Process:
    """One bot process: its own connections to the shared database, its clock's channels, its lease name."""

    def __init__(self, url: str, name: str, scope: str, clock: list[float]) -> None:
        from bot.play.clock_lease import ClockLease
        from bot.storage.sql.postgres import PostgresStorage

        self.storage = PostgresStorage(url, pool_size=2)
        self.referee = Referee(
            self.storage,
            ready_registry(),
            now=lambda: clock[0],
            images=False,
            clock_scope=scope,
            clock_lease=ClockLease(name),
        )

    def send(self, channel: str, name: str, text: str, *, admin: bool = False, private: bool = False) -> str:
        replies = self.referee.handle(Incoming(channel, f"u:{name.lower()}", name, text, private=private, admin=admin))
        return "\n".join(r.text for r in replies)

    def close(self) -> None:
        self.referee.clock.shutdown()
        self.storage.close()


def events_of(storage: Storage, channel: str) -> list[StoredEvent]:
    """The stored events of the channel's last game."""
    return storage.events(storage.games(channel)[-1].id)


GROUP = -1002500025


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[ClubTelegram]:
    async with ClubTelegram(GROUP, creator="Tom") as fake:
        yield fake


def discord_texts(dc: ClubDiscord) -> list[str]:
    return [str(m.get("content") or "") for m in dc.messages.values()]


def telegram_texts(tg: ClubTelegram) -> list[str]:
    return [str(m.get("text", "")) for (chat, _), m in tg.messages.items() if chat == GROUP]


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition`` (``tests.waiting.eventually``, with a longer ``timeout``)."""
    await waiting.eventually(condition, timeout)
