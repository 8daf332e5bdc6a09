"""A French channel hears only French: every command, in several states of a classic and a duplicate game,
and its refusals, through the command layer on a real SQLite file; no reply holds an English word."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Unpack

import pytest

from bot.games.installed import COMMANDS
from bot.messages import explain
from tests.bot.locale.test_catalogs import ENGLISH
from tests.club import Club, SendOptions
from tests.project.test_core_codes import concrete_errors, sample

# Lines of records in published formats (GCG pragmas and events) are data, not sentences.
RECORD_LINE = re.compile(r"^\s*[#>]")


def english_words(text: str) -> set[str]:
    """The English words of a reply: its words in lowercase (capitalised ones too), but words of two capitals
    or more (words on the board, a joker in lowercase among them: ``HeRE`` in a random game's tops), command
    names and lines of published records."""
    found = set()
    for line in text.splitlines():
        if RECORD_LINE.match(line):
            continue
        line = re.sub(r"/[a-z_]+", " ", line)
        for word in re.findall(r"[^\W\d_]+", line):
            if sum(c.isupper() for c in word) < 2 and word.lower() in ENGLISH:
                found.add(word.lower())
    return found


class Transcript:
    """Everything a French club hears, command by command."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.heard: list[tuple[str, str]] = []

    def say(self, name: str, text: str, **kw: Unpack[SendOptions]) -> str:
        replies = self.club.send(name, text, **kw)
        for reply in replies:
            self.heard.append((text, reply.text))
        return "\n".join(r.text for r in replies)

    def tick(self, seconds: float) -> None:
        for reply in self.club.tick(seconds):
            self.heard.append((f"(clock +{seconds} s)", reply.text))

    def english(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for command, text in self.heard:
            words = english_words(text)
            if words:
                found.setdefault(command, []).append(f"{sorted(words)}: {text[:200]}")
        return found


@pytest.fixture
def transcript(tmp_path: Path) -> Iterator[Transcript]:
    club = Club(tmp_path / "club.sqlite")
    yield Transcript(club)
    club.referee.clock.shutdown()
    club.storage.close()


def every_command(t: Transcript, name: str = "Zed") -> None:
    """Each command once with no argument, and its help."""
    for spec in COMMANDS:
        french = spec.name_in("fr")
        t.say(name, f"/{french}")
        t.say(name, f"/aide {french}")


def test_no_game(transcript: Transcript) -> None:
    t = transcript
    every_command(t)
    for text in (
        "/aide",
        "/cuop H8 VAGUE",
        "/zzzzzz",
        "/verif VAGUE ZZZ",
        "/calcul H8 VAGUE",
        "/calcul Z99 VAGUE",
        "/calcul H8 VA-GUE",
        "/calcul H8",
        "/calcul A1 ZZ",
        "/reglages langue xx",
        "/reglages minutes 20",
        "/reglages fuseau Mars/Olympus",
        "/reglages liste nulle",
        "/mots ajoute KA",
        "/feuille 3",
        "/jouer H8 VAGUE",
        "/aide cuop",
    ):
        t.say("Zed", text)
    t.say("Admin", "/mots ajoute KA OM", admin=True)
    t.say("Admin", "/mots retire VAGUE", admin=True)
    t.say("Admin", "/mots", admin=True)
    assert t.english() == {}


def test_a_classic_game(transcript: Transcript) -> None:
    t = transcript
    t.say("Ana", "/nouvelle Ana Ben")
    every_command(t)
    for name, text in (
        ("Ana", "/coup H8 VAGUE 30"),
        ("Ben", "/conteste"),
        ("Ana", "/conteste"),
        ("Ben", "/coup 8H VOGUE"),
        ("Ana", "/coup H5 KXKX"),
        ("Ben", "/conteste KXKX"),
        ("Ben", "/conteste"),
        ("Ref", "/annule"),
        ("Ana", "/coup Z99 VAGUE"),
        ("Ana", "/coup H8 VA(GU)E"),
        ("Ana", "/coup A1 ZZ"),
        ("Ana", "/coup H8 VAGUE"),
        ("Ana", "/passe"),
        ("Ben", "/change 3"),
        ("Ana", "/change"),
        ("Ben", "/change EAU"),
        ("Ana", "/change 9"),
        ("Ana", "/penalite Ben 1"),
        ("Ana", "/penalite Ben 0"),
        ("Ana", "/penalite Zoe 5"),
        ("Zed", "/conteste"),
        ("Ana", "/feuille"),
        ("Ana", "/coups"),
        ("Ana", "/coups Ben"),
        ("Ana", "/grille"),
        ("Ana", "/reste"),
        ("Ana", "/export"),
        ("Ana", "/classement"),
        ("Ana", "/etat"),
        ("Ana", "/parties"),
        ("Ana", "/fin Ben=EAU"),
        ("Ana", "/fin Ben=WXYZ !"),
        ("Ana", "/fin Ben=EAU !"),
        ("Ana", "/feuille"),
        ("Ana", "/classement"),
        ("Ana", "/feuille 1"),
        ("Zed", "/nouvelle Zed"),
        ("Yan", "/rejoindre"),
        ("Zed", "/coup H8 VAGUE"),
    ):
        t.say(name, text, admin=name == "Ana")
    assert t.english() == {}


def test_a_duplicate_game(transcript: Transcript) -> None:
    t = transcript
    t.say("Ref", "/duplicate 1 manuel", admin=True)
    every_command(t)
    for name, text, private in (
        ("Ref", "/tirage AEIOUEZ", False),
        ("Ref", "/tirage -", False),
        ("Ref", "/tirage A+EINRTZ", False),
        ("Ref", "/tirage AEINRT!", False),
        ("Ref", "/tirage AEINRTZ", False),
        ("Ana", "/jouer H8 ZEN", False),
        ("Ana", "/jouer H8 ZEN 30", True),
        ("Ben", "/jouer H8 ZZZ", True),
        ("Cleo", "/jouer H8 ZENITH", True),
        ("Dan", "/jouer H8 ZANE", True),
        ("Eve", "/jouer H8 zEN", True),
        ("Ref", "/etat", False),
        ("Ref", "/pause", False),
        ("Ref", "/pause", False),
        ("Ref", "/reprise", False),
        ("Ref", "/prolonge 30", False),
        ("Ref", "/prolonge 9000", False),
        ("Ref", "/coups Ana", False),
        ("Ref", "/cloture", False),
        ("Ref", "/top 2", False),
        ("Ref", "/top 9", False),
        ("Ref", "/rouvre", False),
        ("Ref", "/cloture", False),
        ("Ref", "/corrige Ben 1 H8 ZEN bulletin mal lu", False),
        ("Ref", "/corrige Ben 1 90", False),
        ("Ref", "/rejoindre Zoe", False),
        ("Ref", "/classement", False),
        ("Ref", "/feuille", False),
        ("Ref", "/coups Ana", False),
        ("Ref", "/export", False),
        ("Ref", "/grille", False),
        ("Ref", "/reste", False),
        ("Ref", "/fin", False),
        ("Ref", "/parties", False),
    ):
        t.say(name, text, private=private, admin=name == "Ref")
    t.say("Ref", "/duplicate 0.05 !", admin=True)
    t.say("Ana", "/jouer H8 ZZZ", private=True)
    for _ in range(8):
        t.tick(2)
    t.say("Ref", "/fin", admin=True)
    assert t.english() == {}


@pytest.mark.parametrize("cls", concrete_errors(), ids=lambda cls: cls.__name__)
def test_every_core_error_in_french(cls: type) -> None:
    text = explain(sample(cls), "fr")
    assert english_words(text) == set(), text
