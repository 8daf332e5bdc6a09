"""Three rooms playing one simultané through the referee on a real SQLite file: together (the same draws and tops
everywhere, no draw seen in a room before its round opens there, the overall ranking hidden until every room has
closed a round, a restart mid-game), within a window, bad input, house words, typed draws."""

from __future__ import annotations

from typing import Unpack

import pytest

from bot.chat import Reply
from bot.games.duplicate.games import load_game
from core.simultane import (
    SimultaneDefinition,
)
from tests.bot.games.simultane.rooms_played import (
    A_MOVES,
    B_MOVES,
    C_MOVES,
    CONSOLE,
    DISCORD,
    OVERALL_AFTER_ONE,
    ROOMS,
    START,
    TELEGRAM,
    code_of,
    play_round_one,
    room_events,
    table_rows,
    text_of,
)
from tests.club import Club, MessageOptions

# --- three rooms through the referee ------------------------------------------------------------------


def test_three_rooms_play_together(club: Club) -> None:
    said: dict[str, list[Reply]] = {c: [] for c in ROOMS}

    def send(name: str, text: str, channel: str, **options: Unpack[MessageOptions]) -> str:
        replies = club.send(name, text, channel=channel, **options)
        for reply in replies:
            said[reply.channel or channel].append(reply)
        return text_of(replies, channel)

    created = send("Org", "/simultane creer 1 tirages ACEHNTZ", DISCORD, admin=True)
    code = code_of(created)
    assert "ACEHNTZ" not in created  # sealed: the organiser's room is told how many draws, not which
    send("Org", f"/simultane rejoindre {code}", DISCORD, admin=True)
    assert "Coup 1 — tirage : ACEHNTZ" in text_of(said[DISCORD], DISCORD)
    assert not any("ACEHNTZ" in r.text for c in (TELEGRAM, CONSOLE) for r in said[c])  # not there yet
    send("Tg", f"/simultane rejoindre {code.lower()}", TELEGRAM, admin=True)  # a code typed in lower case
    assert "Coup 1 — tirage : ACEHNTZ" in text_of(said[TELEGRAM], TELEGRAM)
    assert not any("ACEHNTZ" in r.text for r in said[CONSOLE])
    hidden = club.refused("Zoé", "/simultane classement", channel=TELEGRAM)  # the console has not started
    assert hidden == f"Simultané {code} : pas encore de classement, aucune manche n'est close dans tous les salons."
    send("Con", f"/simultane rejoindre {code}", CONSOLE, admin=True)
    # one search of round 1's top for the three rooms of this process, kept under the simultané
    searches = [key for key in club.referee.clock.tops if key[1] == 1]
    assert [key[0] for key in searches] == [f"simultane:{code}"]

    for channel, moves in zip(ROOMS, (A_MOVES, B_MOVES, C_MOVES), strict=True):
        play_round_one(club, channel, moves)
    # the rooms are paced: a room that closed round 1 shows nothing of it (top, results, next draw) while
    # another still plays it; the organiser's first close also closes the entries
    waiting = send("Org", "/cloture", DISCORD, admin=True)
    assert "Coup 1 — tirage : ACEHNTZ — temps écoulé dans ce salon" in waiting
    assert "quand tous les salons l'auront fini (encore en jeu : Salon 2, Salon 3, au plus tard" in waiting
    assert "Top" not in waiting
    assert "Coup 2" not in waiting
    late = club.refused("Late", f"/simultane rejoindre {code}", channel="telegram:-333", admin=True)
    assert late.startswith(f"Les inscriptions au simultané {code} sont closes depuis le 2027-01-15 09:00")
    club.tick(10)
    assert "(encore en jeu : Salon 3, au plus tard jusqu'à 09:01:00" in send("Tg", "/cloture", TELEGRAM, admin=True)
    assert club.refused("Org", f"/simultane classement {code}", channel=DISCORD).startswith(f"Simultané {code} : pas")
    club.restart()  # the process stops mid-game and starts again on the same file
    club.tick(10)
    assert not any("Top" in r.text or "Coup 2" in r.text for c in ROOMS for r in said[c] if r.to_user is None)
    closing = send("Con", "/cloture", CONSOLE, admin=True)  # the last room: its results and round 2 at once
    assert "Top : H6 CHANTEZ — 112 points" in closing
    assert "Coup 2 — tirage" in closing
    for reply in club.tick(0):  # the clock shows the two rooms that waited theirs
        said[reply.channel or ""].append(reply)
    second = [e["draw"] for e in room_events(club, DISCORD, "draw")][-1]
    assert [e["draw"] for e in room_events(club, TELEGRAM, "draw")][-1] == second
    for channel in (DISCORD, TELEGRAM):
        assert "Top : H6 CHANTEZ — 112 points" in text_of(said[channel], channel)
        assert f"Coup 2 — tirage : {second}" in text_of(said[channel], channel)

    # round 1 ranked room by room as for any game: no solo in a room of 6, Ana's 112 alone
    assert table_rows(send("Zoé", "/classement", DISCORD))[0][:3] == ["1", "Ana", "112"]
    assert [row[:3] for row in table_rows(send("Zoé", "/classement", TELEGRAM))] == [
        ["1", f"Bb{i}", "22"] for i in range(6)
    ]
    overall = send("Zoé", "/simultane classement", CONSOLE)
    assert f"Simultané {code}, tous centres confondus (3 salons, 17 joueurs), après 1 manche" in overall
    assert table_rows(overall) == OVERALL_AFTER_ONE

    # round 2 from the seed: nobody answers, so no room may close it early; the clock closes it everywhere
    early = club.refused("Boss", "/cloture", channel=CONSOLE, admin=True)
    assert early.startswith(f"Simultané {code} : réponses reçues, 0 sur 5. Avant la fin du temps")
    club.tick(61)
    draws = [[e["draw"] for e in room_events(club, c, "draw")] for c in ROOMS]
    tops = [[(e["top"]) for e in room_events(club, c, "close")] for c in ROOMS]
    assert draws[0] == draws[1] == draws[2]
    assert len(draws[0]) >= 3
    assert tops[0] == tops[1] == tops[2]
    assert tops[0][0] == "H6 CHANTEZ"
    game = club.storage.games(DISCORD)[-1]
    second_top = load_game(club.storage, game).closed_rounds[1].top_points
    after_two = table_rows(send("Zoé", "/simultane classement", DISCORD))
    assert after_two[0] == ["1", "Ana", "Salon 1", "122", str(10 - second_top), after_two[0][5], "1"]
    status = send("Zoé", "/simultane etat", TELEGRAM)
    assert f"Simultané {code} : tous ensemble" in status
    assert "Salons : 3 (3 en jeu ou finis" in status
    assert "ACEHNTZ" not in status
    assert "Manches au classement de tous les salons : 2" in status
    assert status.endswith(  # never a key; the entries closed at the end of the organiser's room's round 1
        "\nLes salons, dans l'ordre d'arrivée : Salon 1, Salon 2, Salon 3."
        "\nInscriptions : closes depuis le 2027-01-15 09:00 (Europe/Paris)."
    )


def test_three_rooms_within_a_window(club: Club) -> None:
    # the club's clock is 09:00 in Paris: the window runs from 10:00 to 12:00
    created = club.ok(
        "Org", "/simultane creer 2027-01-15T10:00 2027-01-15T12:00 tirages ACEHNTZ", channel=DISCORD, admin=True
    )
    code = code_of(created)
    assert "du 2027-01-15 10:00 (Europe/Paris) au 2027-01-15 12:00 (Europe/Paris)" in created
    for channel in ROOMS:  # the Discord room gives its centre's name as it joins
        named = " Club de Sète" if channel == DISCORD else ""
        joined = club.ok("Boss", f"/simultane rejoindre {code}{named}", channel=channel, admin=True)
        assert "du 2027-01-15 10:00 (Europe/Paris) au 2027-01-15 12:00" in joined
        assert "ACEHNTZ" not in joined
        assert "Coup 1" not in joined  # joining a window starts nothing
    # the organiser's own room is in at once; the others wait for its word
    assert club.refused("Boss", "/simultane commencer", channel=TELEGRAM, admin=True).startswith(
        f"Le salon attend encore que l'organisateur du simultané {code} l'admette"
    )
    admitted = club.ok("Org", f"/simultane admettre {code} 2 3", channel=DISCORD, admin=True)
    assert admitted.startswith(f"Simultané {code} : admis, Salon 2, Salon 3.")
    early = club.refused("Boss", "/simultane commencer", channel=DISCORD, admin=True)
    assert early == f"Le simultané {code} ne commence que le 2027-01-15 10:00 (Europe/Paris)."

    for hour, channel, moves in ((1, DISCORD, A_MOVES), (2, TELEGRAM, B_MOVES), (2.5, CONSOLE, C_MOVES)):
        club.now = START + hour * 3600  # each room at its own time
        assert "Coup 1 — tirage : ACEHNTZ" in club.ok("Boss", "/simultane commencer", channel=channel, admin=True)
        play_round_one(club, channel, moves)
        club.ok("Boss", "/cloture", channel=channel, admin=True)
        assert "Fin de la partie duplicate" in club.ok("Boss", "/fin !", channel=channel, admin=True)
        hidden = club.refused("Zoé", "/simultane classement", channel=channel)
        assert "sera visible à la fin de la fenêtre, le 2027-01-15 12:00 (Europe/Paris)" in hidden
        assert club.refused("Zoé", "/simultane export", channel=channel) == hidden  # nor as a file
        own = club.ok("Zoé", "/classement", channel=channel)  # the room's own ranking is there at once
        assert next(iter(moves)) in own
    club.now = START + 3 * 3600  # 12:00: the window has ended
    overall = club.ok("Zoé", "/simultane classement", channel=TELEGRAM)
    sete = [[cell.replace("Salon 1", "Club de Sète") for cell in row] for row in OVERALL_AFTER_ONE]
    assert table_rows(overall) == sete
    assert sete != OVERALL_AFTER_ONE
    (export,) = club.send("Zoé", f"/simultane export {code}", channel=CONSOLE)
    assert export.document is not None
    assert export.document_name == f"simultane-{code}.csv"
    lines = export.document.decode("utf-8").splitlines()
    assert lines[0] == "place,joueur,salon,total,écart,pourcentage,solos,avert.,arrêt au coup"
    assert lines[1:3] == ["1,Ana,Club de Sète,122,10,108.9,1,0,", "2,Aa0,Club de Sète,98,-14,87.5,0,0,"]
    assert lines[-1] == "12,Bb5,Salon 2,22,-90,19.6,0,0,"
    assert len(lines) == 18
    late = club.refused("Late", f"/simultane rejoindre {code}", channel="telegram:-333", admin=True)
    assert late == f"La fenêtre du simultané {code} est close depuis le 2027-01-15 12:00 (Europe/Paris)."


@pytest.mark.parametrize(
    ("text", "admin", "answer"),
    [
        ("/simultane creer", False, "Seul un administrateur du salon"),
        ("/simultane creer 25:00", True, "« 25:00 » n'est pas une heure"),
        ("/simultane creer 2027-01-15T11:00 2027-01-15T10:00", True, "La fin de la fenêtre doit venir après"),
        ("/simultane creer tirages", True, "Syntaxe"),
        ("/simultane creer tirages AB3", True, "« AB3 » n'est pas un tirage"),
        ("/simultane creer 99", True, "« 99 » : le temps par coup va de 0,05 à 10 minutes"),
        ("/simultane creer graine", True, "Syntaxe"),
        ("/simultane creer demain", True, "Syntaxe"),
        ("/simultane rejoindre", True, "Syntaxe"),
        ("/simultane rejoindre ZZZZZZ", True, "Aucun simultané n'a le code « ZZZZZZ »."),
        ("/simultane rejoindre ZZZZZZ", False, "Seul un administrateur du salon"),
        ("/simultane commencer", True, "Ce salon n'a créé ni rejoint aucun simultané."),
        ("/simultane classement", False, "Ce salon n'a créé ni rejoint aucun simultané."),
        ("/simultane etat QQQQQQ", False, "Aucun simultané n'a le code « QQQQQQ »."),
        ("/simultane n'importe", True, "Syntaxe"),
    ],
)
def test_bad_input_gets_a_polite_answer_and_changes_nothing(club: Club, text: str, admin: bool, answer: str) -> None:
    assert answer in club.refused("Boss", text, channel=TELEGRAM, admin=admin)


def test_a_room_joins_once_and_a_running_game_is_not_replaced(club: Club) -> None:
    # a window: a room starts its game itself (together at a set time, the clock does: see below)
    code = code_of(club.ok("Org", "/simultane creer 2027-01-15T10:00 2027-01-15T12:00", channel=DISCORD, admin=True))
    club.ok("Boss", f"/simultane rejoindre {code}", channel=TELEGRAM, admin=True)
    again = club.refused("Boss", f"/simultane rejoindre {code}", channel=TELEGRAM, admin=True)
    assert again == f"Ce salon a déjà rejoint le simultané {code}."
    club.ok("Org", f"/simultane admettre {code} 1", channel=DISCORD, admin=True)
    not_joined = club.refused("Boss", f"/simultane commencer {code}", channel=CONSOLE, admin=True)
    assert not_joined.startswith(f"Ce salon n'a pas rejoint le simultané {code}")
    club.now = START + 3600
    club.ok("Ref", "/duplicate 1", channel=TELEGRAM)  # the room's own game is running
    running = club.refused("Boss", "/simultane commencer", channel=TELEGRAM, admin=True)
    assert running.startswith("Une partie duplicate est en cours dans ce salon")


def test_a_room_s_house_words_change_neither_the_tops_nor_the_verdicts(club: Club) -> None:
    # the room takes CHANTEZ out of its list: its own games would refuse it; the simultané's list is the
    # same in every room, so the top stays H6 CHANTEZ and the answer scores (2.1 of RULES.md: 112)
    club.ok("Boss", "/mots retire CHANTEZ", channel=TELEGRAM, admin=True)
    club.wait_for_tops_list(TELEGRAM)
    club.ok("Boss", "/duplicate 1 manuel", channel=TELEGRAM, admin=True)  # the room's own game, for comparison
    club.ok("Boss", "/tirage ACEHNTZ", channel=TELEGRAM, admin=True)
    play_round_one(club, TELEGRAM, {"Bea": "H6 CHANTEZ"})
    own = club.ok("Boss", "/cloture", channel=TELEGRAM, admin=True)
    assert "Top : H6 CHANTEZ" not in own
    assert "Bea : H6 CHANTEZ 112" not in own
    club.ok("Boss", "/fin !", channel=TELEGRAM, admin=True)
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    club.ok("Boss", f"/simultane rejoindre {code}", channel=TELEGRAM, admin=True)
    play_round_one(club, TELEGRAM, {"Bea": "H6 CHANTEZ"})
    waiting = club.ok("Boss", "/cloture", channel=TELEGRAM, admin=True)  # the organiser's room plays none
    assert "Top" not in waiting
    assert f"Tapez /simultane clore {code} quand" in waiting
    club.ok("Org", f"/simultane clore {code}", channel=DISCORD, admin=True)
    closed = text_of(club.tick(0), TELEGRAM)  # the clock shows the results the room held
    assert "Top : H6 CHANTEZ — 112 points" in closed
    assert "Bea : H6 CHANTEZ 112 (top)" in closed
    refused = club.refused("Boss", "/top 2", channel=TELEGRAM, admin=True)
    assert (
        refused
        == f"Simultané {code} : le top placé est celui de tous les salons, il ne peut pas être changé dans un salon."
    )


def test_typed_draws_are_counted_not_shown_and_a_seed_can_be_chosen(club: Club) -> None:
    created = club.ok("Org", "/simultane creer 2 graine club tirages EEU+ESI? ACEHNTZ", channel=DISCORD, admin=True)
    assert "2 min par coup" in created
    assert "2 tirages saisis d'avance" in created
    assert "EEU" not in created
    assert "ACEHNTZ" not in created
    assert "club" not in created.lower().split("code")[1]
    record = club.storage.simultane(code_of(created))
    assert record is not None
    definition = SimultaneDefinition.from_json(record.definition)
    assert (definition.seed, definition.draws, definition.minutes) == ("club", ("EEU+ESI?", "ACEHNTZ"), 2.0)
    status = club.ok("Zoé", "/simultane", channel=DISCORD)  # the organiser's room, no word: the status
    assert status.startswith(f"Simultané {definition.code} : tous ensemble")
    assert "EEU" not in status
