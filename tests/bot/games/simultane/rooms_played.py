"""What the simultané tests share: the three rooms (Discord, Telegram, console), the club's start time, a
simultané played together and one within a window, the first round's answers in each room and the overall ranking
they give (worked by hand), and readers of the rooms' texts and events."""

from __future__ import annotations

import re

from bot.chat import Reply
from core.simultane import (
    SimultaneDefinition,
    SimultaneMode,
)
from tests.club import Club

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
