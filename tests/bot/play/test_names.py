"""Look-alike names are never a second "Ana" (issue #20, item 34): a name is shown without its invisible
characters, and one drawn like another player's (a Cyrillic А, a zero-width space, fullwidth letters) is
that name for the game: marked ``Ana (2)`` when it is another account's, refused where the same name is."""

from __future__ import annotations

import pytest

from core.game import player_key
from tests.club import Club
from tests.storage_backends import active_game

CYRILLIC_ANA = "\u0410na"  # А (Cyrillic capital A) n a
ZERO_WIDTH_ANA = "Ana\u200b"  # a zero-width space after it
GREEK_ANA = "\u0391na"  # Α (Greek capital alpha)
FULLWIDTH_ANA = "\uff21na"  # Ａ (fullwidth A)
LOOK_ALIKES = [CYRILLIC_ANA, ZERO_WIDTH_ANA, GREEK_ANA, FULLWIDTH_ANA, "A\u200dn\u00ada", "\u202eAna"]


@pytest.mark.parametrize("name", LOOK_ALIKES, ids=["cyrillic", "zero-width", "greek", "fullwidth", "joiners", "bidi"])
def test_look_alike_names_are_the_same_player(name: str) -> None:
    assert player_key(name) == player_key("Ana") == player_key("ANA") == player_key("Àna")
    assert player_key("Anna") != player_key("Ana")
    assert player_key("\u0410nn\u0430") != player_key("Ana")


def players_in(text: str) -> list[str]:
    return [line for line in text.splitlines() if "Ana" in line or "\u0410na" in line]


@pytest.mark.parametrize(
    ("lang", "setup", "one", "several", "join"),
    [
        ("fr", [], "{} rejoint la partie au coup 1.", "{} et {} rejoignent la partie au coup 1.", "/rejoindre"),
        (
            "en",
            ["/settings language en"],
            "{} joins the game at move 1.",
            "{} and {} join the game at move 1.",
            "/join",
        ),
    ],
)
def test_look_alike_accounts_joining_a_duplicate_are_marked(
    club: Club, lang: str, setup: list[str], one: str, several: str, join: str
) -> None:
    for text in setup:
        club.ok("Ref", text, admin=True)
    club.ok("Ref", "/duplicate 3")
    assert one.format("Ana") in club.ok("Ana", join)
    # one line names everyone who joined at this move (it edits itself as they arrive)
    assert several.format("Ana", f"{CYRILLIC_ANA} (2)") in club.ok(CYRILLIC_ANA, join, user="u:cyrillic")
    shown = several.format(f"Ana, {CYRILLIC_ANA} (2)", "Ana (3)")  # shown without it
    assert shown in club.ok(ZERO_WIDTH_ANA, join, user="u:zero-width")
    # one who joins by playing gets a free name too
    club.ok(GREEK_ANA, "/jouer H8 VAGUE" if lang == "fr" else "/play H8 VAGUE", user="u:greek", private=True)
    game = club.referee.duplicate_games.load(club.storage, active_game(club.storage, "club"))
    assert game.players == ["Ana", f"{CYRILLIC_ANA} (2)", "Ana (3)", f"{GREEK_ANA} (4)"]
    assert len({player_key(p) for p in game.players}) == 4  # four players, each told apart


def test_a_referee_cannot_seat_look_alike_names_twice_in_a_classic_game(club: Club) -> None:
    for name in (CYRILLIC_ANA, ZERO_WIDTH_ANA, FULLWIDTH_ANA):
        assert (
            club.refused("Ref", f"/nouvelle Ana {name}") == f"{name.replace(chr(0x200B), '')} est déjà dans la partie."
        )


def test_a_look_alike_account_cannot_take_a_classic_seat_that_is_held(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")  # Ana's seat is her account's
    answer = club.refused(CYRILLIC_ANA, "/rejoindre", user="u:cyrillic")
    assert answer == "La place d'Ana appartient déjà à un autre compte. Choisissez un autre nom : /rejoindre NOM."
    assert club.refused(ZERO_WIDTH_ANA, f"/rejoindre {ZERO_WIDTH_ANA}", user="u:zero-width").startswith(
        "La place d'Ana"
    )


def test_a_look_alike_account_cannot_take_a_held_classic_seat_in_english(club: Club) -> None:
    club.ok("Ref", "/settings language en", admin=True)
    club.ok("Ann", "/new Ann Ben")
    answer = club.refused("\u0410nn", "/join", user="u:cyrillic")
    assert answer == "Ann's seat already belongs to another account. Choose another name: /join NAME."


def test_a_name_is_shown_without_its_invisible_characters(club: Club) -> None:
    text = club.ok("Ref", "/nouvelle Zo\u200bé\u2060 Ben\u00ad")
    assert "Joueurs : Zoé, Ben." in text
    decomposed = "Zoe\u0301"  # e + combining acute: composed as it is shown
    assert club.refused("Ref", f"/nouvelle {decomposed} Zoé !") == "Zoé est déjà dans la partie."


def test_a_name_mixing_latin_and_cyrillic_is_marked_even_first(club: Club) -> None:
    """Whoever comes first, the look-alike is the marked one: the real Ana keeps her plain name."""
    club.ok("Ref", "/duplicate 3")
    assert "\u0410na (2) rejoint la partie au coup 1." in club.ok(CYRILLIC_ANA, "/rejoindre", user="u:cyrillic")
    assert "\u0410na (2) et Ana rejoignent" in club.ok("Ana", "/rejoindre")
    assert "Ana et \u0410\u043d\u043d\u0430 rejoignent" in club.ok(
        "\u0410\u043d\u043d\u0430", "/rejoindre", user="u:anna"
    )
    game = club.referee.duplicate_games.load(club.storage, active_game(club.storage, "club"))
    assert game.players == ["\u0410na (2)", "Ana", "\u0410\u043d\u043d\u0430"]  # a Russian Анна is no look-alike
