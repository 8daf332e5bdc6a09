"""A free seat the referee typed is taken by its exact name only (issue 37, item 10): eleven look-alikes of
"Ana" (other scripts' letters, case, accents, invisible, fullwidth, tag and direction characters, spaces)
each played Ana's move and bound her seat; now none does, the real Ana still takes it, and a look-alike
that answers in duplicate plays under its own name."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.play import seats
from core.names import player_key
from tests.club import Club

LOOKALIKES = [
    "\u0410na",  # Cyrillic A
    "\u0391na",  # Greek Alpha
    "A\u200bna",  # a zero-width space
    "\uff21\uff4e\uff41",  # fullwidth
    "ana",
    "ANA",
    "An\u00e0",
    "A\u0301na",  # a combining accent
    "A n a",
    "Ana\U000e0041",  # a tag character
    "\u202eana",  # a right-to-left override
]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_look_alike_never_takes_a_free_seat_in_a_classic_game(club: Club, name: str) -> None:
    club.ok("Ref", "/nouvelle Ana Ben")
    refused = club.refused(name, "/coup H8 VAGUE", user="u:impostor")
    assert "Ana" in refused
    assert "liée à ce compte" not in refused
    if name.strip().casefold() in ("ana", "anà"):  # typed as a name, a look-alike the game folds to Ana
        assert club.refused(name, f"/rejoindre {name}", user="u:impostor") == (
            "La place « Ana » se prend sous son nom exact (/rejoindre Ana), ou par l'arbitre. Rien n'a changé."
        )
    assert club.storage.players(club.storage.games("club")[-1].id) == []  # Ana's seat is still free
    claimed = club.ok("Ana", "/coup H8 VAGUE", user="u:ana")  # the real one, by her exact name
    assert "liée à ce compte" in claimed
    assert club.storage.players(club.storage.games("club")[-1].id) == [("u:ana", "Ana")]


@pytest.mark.parametrize("name", LOOKALIKES[:4])
def test_a_look_alike_answering_in_duplicate_plays_under_its_own_name(club: Club, name: str) -> None:
    club.ok("Ref", "/duplicate 1 manuel")
    club.ok("Ref", "/rejoindre Ana")  # the referee adds a seat for Ana
    club.ok("Ref", "/tirage ACEHNTZ")
    replies = club.say(name, "/jouer H8 CHANT", user="u:impostor", private=True)
    assert "Vous voici inscrit à la partie sous le nom" in replies
    assert "« Ana »" not in replies
    seats = dict(club.storage.players(club.storage.games("club")[-1].id))
    assert seats["u:impostor"] != "Ana"
    assert "Ana" not in seats.values()  # Ana's seat is still free for her
    refused = club.refused(name, "/rejoindre ana", user="u:someone")
    assert refused.startswith("La place « Ana » se prend sous son nom exact")


@pytest.mark.parametrize(("name", "user"), [("Ana", "u:ana"), ("Ana Dupont", "u:ana2"), (" Ana ", "u:ana3")])
def test_an_answer_under_a_free_seat_s_exact_name_takes_it_in_duplicate(club: Club, name: str, user: str) -> None:
    """The whole display name or its first word, as typed (``seats.exact``): the answer is Ana's, not a
    newcomer's, though a quick answer first checks the name against the game's folded names."""
    club.ok("Ref", "/duplicate 1 manuel")
    club.ok("Ref", "/rejoindre Ben")
    club.ok("Ref", "/rejoindre Ana")
    club.ok("Ref", "/tirage ACEHNTZ")
    replies = club.say(name, "/jouer H8 CHANT", user=user, private=True)
    assert "Vous voici inscrit" not in replies
    assert dict(club.storage.players(club.storage.games("club")[-1].id)) == {user: "Ana"}


@given(st.text())
def test_names_equal_as_typed_fold_alike(name: str) -> None:
    """A seat found by its exact name (``seats.exact``) has the player key of the name typed: a name whose
    key no seat has claims no seat (the quick answer's check, ``DuplicateGame.has_player_like``)."""
    assert player_key(seats.exact(name)) == player_key(name)
