"""Seats and accounts in the command layer: the referee frees a seat a same-name account took first
(issue 20 item 13)."""

from __future__ import annotations

import pytest

from tests.club import Club

IMPOSTOR = "u:ben-2"  # another account whose display name is also Ben


@pytest.mark.parametrize(
    ("lang", "lines", "held", "freed"),
    [
        (
            "fr",
            ("/nouvelle Ana Ben", "/coup H8 VAGUE", "/coup 9H .S", "/siege Ben libre", "/passe"),
            "La place de Ben est liée à un autre compte que le vôtre",
            "Ana libère la place de Ben : le compte qui la tenait n'y joue plus."
            " Ben la reprend avec /rejoindre Ben, ou en jouant sous ce nom.",
        ),
        (
            "en",
            ("/new Ana Ben", "/score 8H VAGUE", "/score I8 .S", "/seat Ben free", "/pass"),
            "Ben's seat is bound to another account",
            "Ana frees Ben's seat: the account that held it no longer plays it."
            " Ben takes it back with /join Ben, or by playing under that name.",
        ),
    ],
    ids=["fr", "en"],
)
def test_the_referee_frees_a_seat_a_same_name_account_took_and_the_real_player_takes_it(
    club: Club, lang: str, lines: tuple[str, ...], held: str, freed: str
) -> None:
    new, first, second, free, pass_ = lines
    if lang == "en":
        club.ok("Ana", "/settings language en", admin=True)
    club.ok("Ana", new)
    club.ok("Ana", first)
    club.ok("Ben", pass_, user=IMPOSTOR)  # Ben#2 plays first under the name Ben: the seat is his
    club.ok("Ana", pass_)
    assert held in club.refused("Ben", second)  # the real Ben is locked out
    assert club.ok("Ana", free) == freed
    game = club.storage.games("club")[-1]
    assert "Ben" not in [name for user, name in club.storage.players(game.id) if user == IMPOSTOR]
    club.refused("Ben", pass_, user=IMPOSTOR)  # no longer plays for Ben, nor takes the seat back by name
    played = club.ok("Ben", second)  # the real Ben takes his seat by playing
    assert "Ben" in played.splitlines()[0]
    assert ("La place de Ben est désormais liée à ce compte." if lang == "fr" else "Ben's seat is now bound") in played


def test_only_the_referee_frees_a_seat_and_bad_requests_are_explained(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ben", "/rejoindre Ben")
    assert "Seul l'arbitre de la partie (Ana) ou un administrateur du salon peut utiliser /siege." in club.refused(
        "Ben", "/siege Ana libre"
    )
    assert "Zoé ne joue pas dans cette partie (Ana, Ben)." in club.refused("Ana", "/siege Zoé libre")
    assert "Syntaxe : /siege JOUEUR libre" in club.refused("Ana", "/siege Ben")
    club.ok("Ana", "/siege Ben libre")
    assert "La place de Ben n'est liée à aucun compte : Ben la prend avec /rejoindre Ben." in club.refused(
        "Ana", "/siege Ben libre"
    )
    assert "La place de Ben est désormais liée à ce compte." in club.ok("Ben", "/rejoindre Ben", user="u:ben-real")


def test_a_duplicate_game_has_no_seat_to_free(club: Club) -> None:
    club.ok("Ana", "/duplicate")
    assert club.refused("Ana", "/siege Ben libre") == (
        "Les places se libèrent en partie classique. En duplicate, un second compte Ben joue sous le nom"
        " « Ben (2) » : personne n'est privé de sa place."
    )
