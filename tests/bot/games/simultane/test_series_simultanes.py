"""A series of simultanés (issue 35, item 7): two simultanés played in three rooms and a game of the
organiser's room, ranked as one series by /serie, each simultané by its ranking across every room (solos
counted over all its players), players known by their account across rooms and games; the ranking worked
by hand from the answers sent, as text and as CSV; a simultané counted only as far as its ranking is
visible, and the heading saying so; /serie in French; the plurals of the series' and seasons' counts; a
simultané added from another room refused, changing nothing. The series' entries are stored on both
databases."""

from __future__ import annotations

import re

from bot.storage import GameKind, GameSetup, SeriesEntry, Storage
from tests.bot.games.simultane import test_series
from tests.club import Club

DISCORD, TELEGRAM, CONSOLE = "discord:111", "telegram:-222", "console"
ROOMS = (DISCORD, TELEGRAM, CONSOLE)


# --- storage on both databases ---------------------------------------------------------------------------


# the fixture: the SQLite file and the PostgreSQL server of tests/bot/games/simultane/test_series.py
store = test_series.store


def test_a_series_keeps_its_games_and_simultanes_in_one_order(store: Storage) -> None:
    setup = GameSetup("fr", "fisf", "fr", "Ref")
    games = [store.create_game(DISCORD, GameKind.DUPLICATE, "u:ref", setup, abandon_running=True).id for _ in "ab"]
    first = store.create_simultane("SER234", DISCORD, "u:org", {"code": "SER234"}).id
    second = store.create_simultane("SER567", DISCORD, "u:org", {"code": "SER567"}).id
    autumn = store.create_series(DISCORD, "Automne")
    assert store.add_series_game(autumn.id, games[0])
    assert [store.add_series_simultane(autumn.id, s) for s in (first, second, first)] == [True, True, False]
    assert store.add_series_game(autumn.id, games[1])
    assert store.series_entries(autumn.id) == [
        SeriesEntry(game=games[0]),
        SeriesEntry(simultane=first),
        SeriesEntry(simultane=second),
        SeriesEntry(game=games[1]),
    ]
    assert store.series_games(autumn.id) == games  # the games alone, as before
    assert store.remove_series_simultane(autumn.id, first)
    assert not store.remove_series_simultane(autumn.id, first)
    assert store.add_series_simultane(autumn.id, first)  # back in, after every other entry
    assert [(e.game, e.simultane) for e in store.series_entries(autumn.id)] == [
        (games[0], None),
        (None, second),
        (games[1], None),
        (None, first),
    ]
    other = store.create_series(TELEGRAM, "Sète")
    assert store.series_entries(other.id) == []


# --- two simultanés in three rooms and a game of the organiser's room, through the referee ------------------


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the monospace table in a reply, cells split where two spaces or more part them."""
    block = text.split("```")[1]
    return [re.split(r"\s{2,}", line.strip()) for line in block.strip("\n").split("\n")[2:]]


def code_of(text: str) -> str:
    found = re.search(r"code ([A-Z0-9]{6})", text)
    assert found is not None, text
    return found.group(1)


def play(club: Club, channel: str, moves: dict[str, str]) -> None:
    """Each player's answer to round 1 (ACEHNTZ), in private, under the account ``u:<name>``."""
    for name, move in moves.items():
        acks = club.send(name, f"/jouer {move}", channel=channel, private=True)
        assert any("Reçu pour le coup 1" in a.text for a in acks), acks


def simultane(club: Club, names: dict[str, str]) -> str:
    """A simultané organised in the Discord room (round 1's draw ACEHNTZ typed in advance), joined by the
    three rooms in order (each starts its game as it joins, together from now: ``names`` gives a room its
    centre's name); its code."""
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    for channel in ROOMS:
        named = f" {names[channel]}" if channel in names else ""
        assert "Coup 1 — tirage : ACEHNTZ" in club.ok(
            "Boss", f"/simultane rejoindre {code}{named}", channel=channel, admin=True
        )
    return code


def close_everywhere_then_end(club: Club) -> None:
    """Round 1 closed in every room, then each room's game ended by its referee."""
    for channel in ROOMS:
        club.ok("Boss", "/cloture", channel=channel, admin=True)
    club.tick(0)  # the rooms that finished round 1 before the last one close it with it (they are paced)
    for channel in ROOMS:
        assert "Fin de la partie duplicate" in club.ok("Boss", "/fin", channel=channel, admin=True)


# The draw ACEHNTZ on an empty board (tests/bot/games/simultane/test_series.py, 2.1 and 2.3 of RULES.md):
# H6 CHANTEZ 112 (the top), H4 CHANTEZ 98, H4 CHANT 26, H8 CHANT 22.
# Accounts are u:<name>: Ana, Ben and Cy play in two games.
#
# Game 1 of the Discord room (its own, 3 players: no solo): Ben 112, Eve 98, Ana 26; tops 112.
ROOM_GAME = {"Ana": "H4 CHANT", "Ben": "H6 CHANTEZ", "Eve": "H4 CHANTEZ"}
# Simultané 1, 17 players over the three rooms: Ana's top is a solo over all of them (+10, 16 players or
# more), though no room has more than 6. Ana 122, Ben 98 (Discord), Cy 98 (Telegram), the others 26 or 22.
FIRST = {
    DISCORD: {"Ana": "H6 CHANTEZ", "Ben": "H4 CHANTEZ", **{f"Aa{i}": "H4 CHANT" for i in range(4)}},
    TELEGRAM: {"Cy": "H4 CHANTEZ", **{f"Bb{i}": "H8 CHANT" for i in range(5)}},
    CONSOLE: {f"Cc{i}": "H4 CHANT" for i in range(5)},
}
# Simultané 2, 4 players (no solo): Ben plays in the Telegram room this time, named "Club de Sète" as it
# joins. Ben 112, Ana 98, Dan 26, Cy 22.
SECOND = {
    DISCORD: {"Ana": "H4 CHANTEZ"},
    TELEGRAM: {"Ben": "H6 CHANTEZ", "Cy": "H8 CHANT"},
    CONSOLE: {"Dan": "H4 CHANT"},
}
SETE = "Club de Sète"
# The series, worked by hand (game 1, then simultané 1, then simultané 2; every game's tops are 112):
#   Ben  112 + 98 + 112 = 322 of 336, -14, 95.8 %; best 100 % first in game 1; room: his latest, Sète
#   Ana   26 + 122 + 98 = 246 of 336, -90, 73.2 %; best 122/112 = 108.9 % in simultané 1; Discord
#   Cy         98 + 22 = 120 of 224, -104, 53.6 %; best 87.5 % in simultané 1; Telegram, Sète since
#   Eve             98 of 112, 87.5 % in game 1; Discord
#   the 26s (23.2 %) share 5th place in the order they first appear: Aa0-3, Cc0-4 (simultané 1), Dan
#   (simultané 2); Bb0-4, 22 (19.6 %), 15th.
# Rooms by their label over the series: Discord "Salon 1", Telegram its name, the console "Salon 3" (the
# order they first joined).


def expected(first: str, second: str) -> list[list[str]]:
    return (
        [
            ["1", "Ben", SETE, "322", "336", "-14", "95,8", "3", "100,0 % (n° 1)"],
            ["2", "Ana", "Salon 1", "246", "336", "-90", "73,2", "3", f"108,9 % ({first})"],
            ["3", "Cy", SETE, "120", "224", "-104", "53,6", "2", f"87,5 % ({first})"],
            ["4", "Eve", "Salon 1", "98", "112", "-14", "87,5", "1", "87,5 % (n° 1)"],
        ]
        + [["5", f"Aa{i}", "Salon 1", "26", "112", "-86", "23,2", "1", f"23,2 % ({first})"] for i in range(4)]
        + [["5", f"Cc{i}", "Salon 3", "26", "112", "-86", "23,2", "1", f"23,2 % ({first})"] for i in range(5)]
        + [["5", "Dan", "Salon 3", "26", "112", "-86", "23,2", "1", f"23,2 % ({second})"]]
        + [["15", f"Bb{i}", SETE, "22", "112", "-90", "19,6", "1", f"19,6 % ({first})"] for i in range(5)]
    )


def csv_line(row: list[str]) -> str:
    """A row of the table as the CSV writes it: decimal points, the best game's number or code alone."""
    place, name, room, total, tops, gap, percent, games, best = row
    shown, _, which = best.partition(" % (")
    which = which.removesuffix(")").removeprefix("n° ")
    decimals = [percent.replace(",", "."), games, shown.replace(",", ".")]
    return ",".join([place, name, room, total, tops, gap, *decimals, which])


def test_a_series_ranks_two_simultanes_over_every_room_and_a_game_of_its_room(club: Club) -> None:
    assert "Série « Automne » ouverte" in club.ok("Org", "/serie nouvelle Automne", channel=DISCORD, admin=True)
    club.ok("Ref", "/duplicate 1 manuel", channel=DISCORD)
    club.ok("Ref", "/tirage ACEHNTZ", channel=DISCORD)
    play(club, DISCORD, ROOM_GAME)
    club.ok("Ref", "/cloture", channel=DISCORD)
    club.ok("Ref", "/fin", channel=DISCORD)
    added = club.ok("Ref", "/serie ajoute", channel=DISCORD)
    assert added == "Partie n° 1 ajoutée à la série « Automne » (1 partie)."  # never "1 parties"
    assert "Saison du salon, 1 partie duplicate terminée :" in club.ok("Zoé", "/saison", channel=DISCORD)

    first = simultane(club, {})
    assert club.ok("Org", f"/serie ajoute {first}", channel=DISCORD) == (  # its organiser, not an admin
        f"Simultané {first} ajouté à la série « Automne » (2 parties) : il y compte par son classement tous"
        " centres confondus, à mesure qu'il est visible."
    )
    for channel, moves in FIRST.items():
        play(club, channel, moves)
    for channel in (DISCORD, TELEGRAM):  # the console has not closed round 1: nothing of it is visible
        club.ok("Boss", "/cloture", channel=channel, admin=True)
    hidden = club.ok("Zoé", "/serie", channel=DISCORD)
    assert hidden.startswith(
        f"Série « Automne » (ouverte), 2 parties (n° 1 de /parties, simultané {first}) :\n"
        f"Simultané {first} : pas encore compté, son classement tous centres confondus n'est pas encore visible.\n"
    )
    assert [row[:4] for row in table_rows(hidden)] == [
        ["1", "Ben", "Salon 1", "112"],
        ["2", "Eve", "Salon 1", "98"],
        ["3", "Ana", "Salon 1", "26"],
    ]
    club.ok("Boss", "/cloture", channel=CONSOLE, admin=True)  # the last room to finish round 1: it closes
    club.tick(0)  # and the rooms that waited for it close theirs (paced): round 1 closed everywhere, games go on
    partial = club.ok("Zoé", "/serie", channel=DISCORD)
    assert f"\nSimultané {first} : compté sur 1 manche pour l'instant, ses salons n'ont pas fini.\n" in partial
    assert table_rows(partial)[:2] == [
        ["1", "Ben", "Salon 1", "210", "224", "-14", "93,8", "2", "100,0 % (n° 1)"],
        ["2", "Ana", "Salon 1", "148", "224", "-76", "66,1", "2", f"108,9 % ({first})"],  # 26 + 122, the solo in
    ]
    for channel in ROOMS:
        assert "Fin de la partie duplicate" in club.ok("Boss", "/fin", channel=channel, admin=True)
    whole = club.ok("Zoé", "/serie", channel=DISCORD)
    assert "pour l'instant" not in whole
    assert "pas encore" not in whole

    # a game of the room that played simultané 1 counts already, through it
    number = len(club.storage.games(DISCORD))
    refused = club.refused("Boss", f"/serie ajoute {number}", channel=DISCORD, admin=True)
    assert refused.startswith(f"La partie n° {number} est celle que ce salon a jouée au simultané {first}")

    second = simultane(club, {TELEGRAM: SETE})
    for channel, moves in SECOND.items():
        play(club, channel, moves)
    close_everywhere_then_end(club)
    added = club.ok("Boss", f"/serie ajoute {second.lower()}", channel=DISCORD, admin=True)  # an admin; any case
    assert f"Simultané {second} ajouté à la série « Automne » (3 parties)" in added

    # elsewhere than the organiser's room, or by someone else there: refused, nothing stored changes
    club.ok("Boss", "/serie nouvelle Sète", channel=TELEGRAM, admin=True)
    elsewhere = club.refused("Boss", f"/serie ajoute {first}", channel=TELEGRAM, admin=True)
    assert elsewhere == (
        f"Le simultané {first} a été organisé dans un autre salon : seul le salon de son organisateur le met"
        " dans une série ou l'en retire."
    )
    assert club.refused("Boss", f"/serie retire {second}", channel=TELEGRAM, admin=True).startswith(
        f"Le simultané {second} a été organisé dans un autre salon"
    )
    not_theirs = club.refused("Zoé", f"/serie retire {second}", channel=DISCORD)
    assert not_theirs == (
        f"Seul l'organisateur du simultané {second} ou un administrateur du salon le met dans une série ou l'en retire."
    )
    assert club.refused("Org", f"/serie ajoute {second}", channel=DISCORD).startswith(
        f"Le simultané {second} est déjà dans la série « Automne »"
    )
    assert club.refused("Org", "/serie ajoute ZZZ999", channel=DISCORD) == "Aucun simultané n'a le code « ZZZ999 »."

    ranking = club.ok("Zoé", "/serie", channel=DISCORD)
    assert ranking.startswith(
        f"Série « Automne » (ouverte), 3 parties (n° 1 de /parties, simultanés {first}, {second}) :\n```"
    )
    assert table_rows(ranking) == expected(first, second)
    assert club.ok("Zoé", "/series", channel=DISCORD) == ranking  # the English name, in a French channel too

    (export,) = club.send("Zoé", "/serie export", channel=DISCORD)
    assert export.document is not None
    assert export.document_name is not None
    lines = export.document.decode("utf-8").splitlines()
    assert lines[0] == "place,joueur,salon,total,tops,écart,pourcentage,parties,meilleure,n° de la meilleure"
    assert lines[1:] == [csv_line(row) for row in expected(first, second)]
    assert lines[1] == f"1,Ben,{SETE},322,336,-14,95.8,3,100.0,1"
    assert lines[2] == f"2,Ana,Salon 1,246,336,-90,73.2,3,108.9,{first}"

    # taken out, the series is the game and simultané 1: Ben 210 (his room Discord's again), Ana 148
    removed = club.ok("Org", f"/serie retire {second}", channel=DISCORD)
    assert removed == f"Simultané {second} retiré de la série « Automne »."
    without = club.ok("Zoé", "/serie", channel=DISCORD)
    assert f"2 parties (n° 1 de /parties, simultané {first}) :" in without
    assert [row[:4] for row in table_rows(without)[:3]] == [
        ["1", "Ben", "Salon 1", "210"],
        ["2", "Ana", "Salon 1", "148"],
        ["3", "Eve", "Salon 1", "98"],  # tied with Cy, first seen before him
    ]
    assert club.ok("Org", f"/serie ajoute {second}", channel=DISCORD).startswith(f"Simultané {second} ajouté")
    assert table_rows(club.ok("Zoé", "/serie", channel=DISCORD)) == expected(first, second)

    # the plurals of a season, and of a series in English
    assert "Saison du salon, 2 parties duplicate terminées :" in club.ok("Zoé", "/saison", channel=TELEGRAM)
    club.ok("Boss", "/reglages langue en", channel=CONSOLE, admin=True)
    club.ok("Boss", "/series new Spring", channel=CONSOLE, admin=True)
    assert club.ok("Boss", "/series add 1", channel=CONSOLE, admin=True) == (
        'Game no. 1 added to the series "Spring" (1 game).'
    )
    assert "(2 games)." in club.ok("Boss", "/series add 2", channel=CONSOLE, admin=True)
    spring = club.ok("Zoé", "/series", channel=CONSOLE)
    assert spring.startswith('Series "Spring" (open), 2 games (no. 1, 2 of /games):\n```')
    # the console's own games of the two simultanés, as any room game (no room column): 26 each, one place
    players = ("Cc0", "Cc1", "Cc2", "Cc3", "Cc4", "Dan")
    assert [row[:3] for row in table_rows(spring)] == [["1", name, "26"] for name in players]
    assert "The channel's season, 2 finished duplicate games:" in club.ok("Zoé", "/season", channel=CONSOLE)


def test_a_simultane_counts_once_and_only_in_a_duplicate_series(club: Club) -> None:
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    club.ok("Boss", f"/simultane rejoindre {code}", channel=DISCORD, admin=True)  # its game, 1 of /parties
    club.ok("Org", "/serie nouvelle Hiver", channel=DISCORD, admin=True)
    assert "Partie n° 1 ajoutée" in club.ok("Boss", "/serie ajoute", channel=DISCORD, admin=True)  # the room's
    twice = club.refused("Org", f"/serie ajoute {code}", channel=DISCORD)
    assert twice == (
        f"La partie n° 1, dans la série « Hiver », est celle que ce salon a jouée au simultané {code} :"
        " retirez-la d'abord (/serie retire 1) pour que le simultané y compte tous centres confondus."
    )
    club.ok("Boss", "/serie retire 1", channel=DISCORD, admin=True)
    added = club.ok("Org", f"/serie ajoute {code}", channel=DISCORD)
    assert added.startswith(f"Simultané {code} ajouté à la série « Hiver » (1 partie) :")
    club.ok("Boss", "/fin", channel=DISCORD, admin=True)
    club.ok("Org", "/serie fin", channel=DISCORD, admin=True)

    club.ok("Org", "/serie nouvelle Printemps", channel=DISCORD, admin=True)
    club.ok("Ana", "/nouvelle Ana Ben", channel=DISCORD)
    assert "Partie n° 2 ajoutée" in club.ok("Ana", "/serie ajoute", channel=DISCORD)
    classic = club.refused("Org", f"/serie ajoute {code}", channel=DISCORD)
    assert classic == (
        f"Le simultané {code} est une partie duplicate : la série « Printemps » réunit des parties classiques."
    )
