"""Who may do what (issue #20): the permission table of docs/playing.md, played line by line as each of four
people.

The table under "Who may do what" in docs/playing.md (moved there from the README) is the declaration: every
example command of a line is sent, in a channel set up for it, by someone who is not in the game, by a player
of the game, by the game's referee (who is not a player) and by a channel admin, and is accepted or refused
(changing nothing stored) as the line says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.club import Club
from tests.paths import REPO_ROOT

PLAYING = REPO_ROOT / "docs" / "playing.md"
HEADING = "### Who may do what"

# The four people, by column: (display name, channel admin)
PEOPLE = {
    "anyone": ("Zoé", False),
    "a player (their seat)": ("Ben", False),
    "the game's referee": ("Ana", False),
    "a channel admin": ("Max", True),
}


@dataclass(frozen=True)
class Line:
    """One line of the permission table: what, its example commands, and who may (by column)."""

    what: str
    examples: tuple[str, ...]
    allowed: dict[str, bool]


def permission_table() -> list[Line]:
    """The permission table, read from docs/playing.md."""
    text = PLAYING.read_text(encoding="utf-8")
    section = text[text.index(HEADING) + len(HEADING) :]
    section = section[: section.find("\n#")]  # up to the next heading: later tables are not this one
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert header[:2] == ["what", "for example"], header
    assert header[2:] == list(PEOPLE), header
    table = []
    for row in rows[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        examples = tuple(re.findall(r"`([^`]+)`", cells[1]))
        assert examples, row
        assert set(cells[2:]) <= {"yes", "no"}, row
        table.append(Line(cells[0], examples, {who: cell == "yes" for who, cell in zip(header[2:], cells[2:])}))
    return table


# --- what each example needs in the channel before it is sent --------------------------------------


def nothing(club: Club) -> None:
    """An empty channel."""


def classic(club: Club) -> None:
    """A classic game started by Ana for Ben and Chloe (Ben to move); Ana is its referee, not a player."""
    club.ok("Ana", "/nouvelle Ben Chloe")


def classic_played(club: Club) -> None:
    classic(club)
    club.ok("Ben", "/coup H8 VAGUE")


def classic_ended(club: Club) -> None:
    """Ben has played and Ana ended the game (with a rack she then wants to take back)."""
    classic_played(club)
    club.ok("Ana", "/fin Chloe=EAU !")


def classic_to_challenge(club: Club) -> None:
    """Chloe has just played: Ben may challenge her move."""
    classic(club)
    club.ok("Ben", "/passe")
    club.ok("Chloe", "/coup H8 VAGUE")


def duplicate(club: Club) -> None:
    """A duplicate game refereed by Ana, round 1 open, Ben has played."""
    club.ok("Ana", "/duplicate 1 manuel")
    club.ok("Ana", "/tirage KVASEIU")
    club.ok("Ben", "/jouer H5 KVAS", private=True)


def duplicate_paused(club: Club) -> None:
    duplicate(club)
    club.ok("Ana", "/pause")


def duplicate_closed(club: Club) -> None:
    duplicate(club)
    club.ok("Ana", "/cloture")


SETUPS: dict[str, Callable[[Club], None]] = {
    "/reglages": classic_played,
    "/mots": classic_played,
    "/feuille": classic_played,
    "/verif KAOS": classic_played,
    "/reglages langue en": classic,
    "/reglages fuseau UTC": classic,
    "/mots ajoute KAOS": classic,
    "/mots retire VAGUE": classic,
    "/nouvelle en Ben Chloe": nothing,
    "/nouvelle Ben Chloe !": classic,
    "/rejoindre": classic,
    "/coup H8 VAGUE": classic,
    "/passe": classic,
    "/passe @Chloe": classic_played,
    "/siege Ben libre": classic_played,
    "/conteste": classic_to_challenge,
    "/annule": classic_played,
    "/penalite Ben 10": classic_played,
    "/fin !": classic_played,
    "/undo": classic_ended,
    "/pause": duplicate,
    "/reprise": duplicate_paused,
    "/prolonge 30": duplicate,
    "/cloture": duplicate,
    "/corrige Ben 1 10": duplicate_closed,
}

TABLE = permission_table()
CASES = [
    pytest.param(example, who, line.allowed[who], id=f"{example} by {who}")
    for line in TABLE
    for example in line.examples
    for who in PEOPLE
]


def test_every_example_of_the_permission_table_has_its_set_up_and_no_other() -> None:
    assert sorted(example for line in TABLE for example in line.examples) == sorted(SETUPS)


@pytest.mark.parametrize(("example", "who", "allowed"), CASES)
def test_the_permission_table_is_what_the_bot_enforces(club: Club, example: str, who: str, allowed: bool) -> None:
    SETUPS[example](club)
    name, admin = PEOPLE[who]
    if allowed:
        club.ok(name, example, admin=admin)
    else:
        club.refused(name, example, admin=admin)  # with a polite answer, nothing stored changed


def test_a_referee_of_a_throwaway_game_cannot_change_the_channel_for_good(club: Club) -> None:
    """The issue's lines: Zoé starts a game, then tries to change the channel's language and house words."""
    club.ok("Zoé", "/nouvelle Zoé Yann")
    assert "Seul un administrateur du salon" in club.refused("Zoé", "/reglages langue en")
    assert "Seul un administrateur du salon" in club.refused("Zoé", "/mots ajoute KAOS ZOUVE")
    assert "Seul un administrateur du salon" in club.refused("Zoé", "/mots retire VAGUE")
    club.ok("Zoé", "/fin !")
    assert club.ok("Ana", "/verif KAOS VAGUE") == "KAOS non valable, VAGUE valable (liste : fr)"
    assert "langue fr" in club.ok("Ana", "/reglages")


def test_an_english_channel_is_told_in_english(club: Club) -> None:
    club.ok("Max", "/settings language en", admin=True)
    club.ok("Zoe", "/new Zoe Yann")
    refused = club.refused("Zoe", "/settings timezone UTC")
    assert refused.startswith("Only a channel admin may change what /settings sets: it holds for the whole channel")
    assert club.refused("Zoe", "/words add KAOS").startswith("Only a channel admin may change what /words sets")
