"""A simultané room's centre name (issue 25, polish: a hall's projector and a federation's ranking read
names, not channel keys): given as the room joins or later, limited politely, shown wherever the room is;
and the simultané's counts said with their plural in every catalog (French: 0 and 1 singular; English: 1)."""

from __future__ import annotations

import pytest

from bot.simultanes.names import NAME_MAX, centre_name, room_labels, say_counted
from bot.storage import SimultaneRoom
from tests.bot.games.simultane.rooms_played import CONSOLE, DISCORD, TELEGRAM, code_of, table_rows
from tests.bot.games.simultane.test_simultane_ranking import three_rooms_after_round_one
from tests.club import Club


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        ("fr", 0, "Simultané X : le classement de tous les salons après 0 manche (0 salon, 0 joueur)."),
        ("fr", 1, "Simultané X : le classement de tous les salons après 1 manche (1 salon, 1 joueur)."),
        ("fr", 2, "Simultané X : le classement de tous les salons après 2 manches (2 salons, 2 joueurs)."),
        ("en", 0, "Simultané X: the ranking across every room after 0 rounds (0 rooms, 0 players)."),
        ("en", 1, "Simultané X: the ranking across every room after 1 round (1 room, 1 player)."),
        ("en", 2, "Simultané X: the ranking across every room after 2 rounds (2 rooms, 2 players)."),
    ],
)
def test_the_counts_take_their_plural(lang: str, count: int, expected: str) -> None:
    said = say_counted(lang, "simultane_overall_live", code="X", rounds=count, rooms=count, players=count)
    assert said == expected


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        ("fr", 0, "0 tirage saisi d'avance"),
        ("fr", 1, "1 tirage saisi d'avance"),
        ("fr", 2, "2 tirages saisis d'avance"),
        ("en", 0, "0 draws typed in advance"),
        ("en", 1, "1 draw typed in advance"),
        ("en", 2, "2 draws typed in advance"),
    ],
)
def test_the_draws_typed_in_advance_take_their_plural(lang: str, count: int, expected: str) -> None:
    values = {"code": "X", "mode": "m", "minutes": "1", "edition": "fr", "lexicon": "ods9"}
    assert expected in say_counted(lang, "simultane_created", draws=count, **values)


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        ("fr", 0, "Salons : 0 (0 en jeu ou fini, 0 pas encore commencé)."),
        ("fr", 1, "Salons : 1 (1 en jeu ou fini, 1 pas encore commencé)."),
        ("fr", 2, "Salons : 2 (2 en jeu ou finis, 2 pas encore commencés)."),
        ("en", 0, "Rooms: 0 (0 playing or finished, 0 not started yet)."),
        ("en", 1, "Rooms: 1 (1 playing or finished, 1 not started yet)."),
        ("en", 2, "Rooms: 2 (2 playing or finished, 2 not started yet)."),
    ],
)
def test_the_status_counts_take_their_plural(lang: str, count: int, expected: str) -> None:
    values = {"code": "X", "mode": "m", "minutes": "1", "edition": "fr", "lexicon": "ods9", "rounds": 0}
    assert expected in say_counted(lang, "simultane_status", rooms=count, playing=count, waiting=count, **values)


@pytest.mark.parametrize(
    ("words", "name"),
    [
        (["Club", "de", "Sète"], "Club de Sète"),
        (["  Vichy ", "(Allier)"], "Vichy (Allier)"),  # spaces made single
        (["L’Isle-Adam", "&", "Co."], "L’Isle-Adam & Co."),
        (["Salle", "3/B"], "Salle 3/B"),
        (["A" * NAME_MAX], "A" * NAME_MAX),
        (["A" * (NAME_MAX + 1)], None),  # too long for a projector's column
        (["`Club`"], None),  # a chat's markup
        (["@everyone"], None),
        (["-Club"], None),  # a letter or a digit first
        (["Club\nde"], "Club de"),
        ([], None),
    ],
)
def test_a_centre_s_name_is_limited_in_length_and_characters(words: list[str], name: str | None) -> None:
    assert centre_name(words) == name


def test_a_room_with_no_name_is_shown_by_its_joining_order() -> None:
    rooms = [SimultaneRoom(1, "discord:9", None, 1.0), SimultaneRoom(1, "telegram:-4", None, 2.0, name="Vichy")]
    assert room_labels("fr", rooms) == {"discord:9": "Salon 1", "telegram:-4": "Vichy"}
    assert room_labels("en", rooms) == {"discord:9": "Room 1", "telegram:-4": "Vichy"}


def test_names_given_on_joining_and_later_show_in_the_ranking(club: Club) -> None:
    code = three_rooms_after_round_one(club, names={DISCORD: "Club de Sète", TELEGRAM: "Vichy"})
    before = {row[1]: row[2] for row in table_rows(club.ok("Zoé", "/simultane classement", channel=CONSOLE))}
    assert (before["Ana"], before["Bb0"], before["Cc0"]) == ("Club de Sète", "Vichy", "Salon 3")
    renamed = club.ok("Boss", f"/simultane nom {code} Montpellier", channel=CONSOLE, admin=True)
    assert renamed == (
        f"Dans le simultané {code}, ce salon s'appelle désormais « Montpellier » : c'est le nom que montrent"
        " les classements, la page et les fichiers."
    )
    after = {row[1]: row[2] for row in table_rows(club.ok("Zoé", "/simultane classement", channel=CONSOLE))}
    assert (after["Ana"], after["Bb0"], after["Cc0"]) == ("Club de Sète", "Vichy", "Montpellier")
    status = club.ok("Zoé", "/simultane etat", channel=CONSOLE)
    assert "\nLes salons, dans l'ordre d'arrivée : Club de Sète, Vichy, Montpellier.\n" in status


def test_a_bad_name_is_refused_politely_and_changes_nothing(club: Club) -> None:
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    long_name = "Club " + "x" * NAME_MAX
    refused = club.refused("Boss", f"/simultane rejoindre {code} {long_name}", channel=TELEGRAM, admin=True)
    assert refused == (
        f"Un nom de centre a de 1 à {NAME_MAX} caractères : des lettres, des chiffres, des espaces et"
        " ' - . , & ( ) / (par exemple : /simultane nom CODE Club de Vichy). Rien n'a changé."
    )
    assert club.refused("Boss", f"/simultane rejoindre {code} `Vichy`", channel=TELEGRAM, admin=True) == refused
    joined = club.ok("Boss", f"/simultane rejoindre {code} Vichy", channel=TELEGRAM, admin=True)
    assert joined.startswith(f"Ce salon a rejoint le simultané {code} sous le nom « Vichy » (tous ensemble")
    assert club.refused("Boss", f"/simultane nom {code} {long_name}", channel=TELEGRAM, admin=True) == refused
    not_joined = club.refused("Boss", f"/simultane nom {code} Sète", channel=CONSOLE, admin=True)
    assert (
        not_joined
        == f"Ce salon n'a pas rejoint le simultané {code} : un administrateur tape /simultane rejoindre {code}."
    )
    club.refused("Zoé", f"/simultane nom {code} Sète", channel=TELEGRAM)  # not an admin: refused, nothing changed
    club.ok("Boss", "/reglages langue en", channel=CONSOLE, admin=True)
    english = club.refused("Boss", f"/simultane join {code} {long_name}", channel=CONSOLE, admin=True)
    assert english.startswith(f"A centre's name has 1 to {NAME_MAX} characters")
    assert english.endswith("Nothing has changed.")
