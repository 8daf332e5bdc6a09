"""Simultanés: the visibility rule and the overall ranking (core.simultane) worked by hand, their storage,
and three rooms playing one through the referee on a real SQLite file: together (the same draws and tops
everywhere, no draw seen in a room before its round opens there, the overall ranking hidden until every
room has closed a round, a restart mid-game) and within a window (hidden until the window ends)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Unpack

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.chat import Incoming, Reply
from bot.games.duplicate.games import load_game
from bot.referee import Referee
from bot.storage import GameKind, GameSetup, SQLiteStorage, Storage, StoredEvent
from core.duplicate import DuplicateGame, DuplicateSettings, movegen_top_finder
from core.edition import FRENCH
from core.simultane import (
    RoomPlayer,
    RoomProgress,
    RoomResult,
    SimultaneDefinition,
    SimultaneMode,
    StartBlock,
    next_draw,
    overall_standings,
    visible_rounds,
)
from tests.club import Club, MessageOptions
from tests.discord_club import ClubDiscord
from tests.fakes import running_application, running_bot
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram

DISCORD, TELEGRAM, CONSOLE = "discord:111", "telegram:-222", "console"
ROOMS = (DISCORD, TELEGRAM, CONSOLE)
START = 1_800_000_000.0  # the club's clock: 2027-01-15 09:00 in Paris (tests/club.py)

TOGETHER = SimultaneDefinition("ABC234", "u:org", DISCORD, "s", "fr", "fr", "fisf", 1.0, "none", start=START)
WINDOW = SimultaneDefinition(
    "WIN234", "u:org", DISCORD, "s", "fr", "fr", "fisf", 1.0, "none", SimultaneMode.WINDOW, START, START + 3600
)


# --- the visibility rule (issue 25, "Rankings": every room has closed a round; a window: once it ends) ---


@pytest.mark.parametrize(
    ("definition", "rooms", "now", "visible"),
    [
        # together: the rounds every room has closed
        (TOGETHER, [RoomProgress("a", 3), RoomProgress("b", 2), RoomProgress("c", 3)], START + 60, 2),
        (TOGETHER, [RoomProgress("a", 1), RoomProgress("b", 0)], START + 60, 0),
        # a room that has joined but not started holds everyone back
        (TOGETHER, [RoomProgress("a", 4), RoomProgress("b", 0, started=False)], START + 60, 0),
        # an abandoned room holds no one back
        (TOGETHER, [RoomProgress("a", 4), RoomProgress("b", 1, abandoned=True)], START + 60, 4),
        (TOGETHER, [RoomProgress("a", 4, abandoned=True)], START + 60, 0),
        (TOGETHER, [], START + 60, 0),
        # a window: nothing before its end, even with every room finished
        (WINDOW, [RoomProgress("a", 5), RoomProgress("b", 5)], START + 3599, 0),
        # then every round a room closed, rooms that did not start or finished fewer included
        (WINDOW, [RoomProgress("a", 5), RoomProgress("b", 3), RoomProgress("c", 0, started=False)], START + 3600, 5),
    ],
)
def test_overall_results_are_visible_only_when_the_rule_allows(
    definition: SimultaneDefinition, rooms: list[RoomProgress], now: float, visible: int
) -> None:
    assert visible_rounds(definition, rooms, now) == visible


@pytest.mark.parametrize(
    ("definition", "now", "block"),
    [
        (TOGETHER, START - 1, StartBlock.TOO_EARLY),
        (TOGETHER, START, None),
        (TOGETHER, START + 10**6, None),  # together: a late room may still start
        (WINDOW, START - 1, StartBlock.TOO_EARLY),
        (WINDOW, START + 3599, None),
        (WINDOW, START + 3600, StartBlock.WINDOW_OVER),
    ],
)
def test_when_a_room_may_start(definition: SimultaneDefinition, now: float, block: StartBlock | None) -> None:
    assert definition.start_block(now) is block


def test_a_definition_survives_its_json() -> None:
    typed = SimultaneDefinition(
        "XYZ789", "u:org", "c", "seed", "fr", "fr", "fisf", 2.5, "fisf", SimultaneMode.WINDOW, 10.0, 20.0, ("AB",)
    )
    assert SimultaneDefinition.from_json(typed.to_json()) == typed
    assert SimultaneDefinition.from_json(TOGETHER.to_json()) == TOGETHER


# --- the sealed draws and the overall ranking on real games ---------------------------------------
# The draw ACEHNTZ on an empty board (French values C 3, H 4, A N T E 1, Z 10; 2.1 and 2.3 of RULES.md):
#   H6 CHANTEZ: Z on H12 (double letter), (21 + 10) x 2 + 50 = 112, the top
#   H4 CHANTEZ: C on H4, (21 + 3) x 2 + 50 = 98
#   H4 CHANT:   C on H4, (3 + 3 + 4 + 1 + 1 + 1) x 2 = 26
#   H8 CHANT:   T on H12, (3 + 4 + 1 + 1 + 2) x 2 = 22


def played(definition: SimultaneDefinition, moves: dict[str, str], rounds: int = 1) -> DuplicateGame:
    """A room's game of the simultané: its draws, each player's move in round 1, ``rounds`` rounds closed
    by the real move generator (later rounds without answers)."""
    settings = DuplicateSettings(minutes=definition.minutes)
    game = DuplicateGame(FRENCH, tuple(moves), settings, "fr")
    finder = movegen_top_finder(ready_registry().get("fr"), FRENCH, settings, count=12)
    for number in range(rounds):
        next_draw(definition, game, at=START)
        if number == 0:
            for player, move in moves.items():
                game.submit(player, move, at=START)
        game.close_round(finder, {"CHANTEZ", "CHANT"})
    return game


TYPED = SimultaneDefinition("TYP234", "u:org", DISCORD, "seed-1", "fr", "fr", "fisf", 1.0, "none", draws=("ACEHNTZ",))


def test_every_room_draws_the_same_letters_and_finds_the_same_tops() -> None:
    rooms = [played(TYPED, {"A": "H6 CHANTEZ"}, 3), played(TYPED, {"B": "H8 CHANT"}, 3)]
    draws = [[r.draw.letters for r in game.rounds if r.draw is not None] for game in rooms]
    tops = [[(r.top, r.top_points) for r in game.closed_rounds] for game in rooms]
    assert draws[0] == draws[1]
    assert sorted(draws[0][0]) == sorted("ACEHNTZ")
    assert tops[0] == tops[1]
    assert tops[0][0][1] == 112
    # the draws after the typed one come from the seed: another seed, other letters on the same board
    other_seed = SimultaneDefinition(
        "OTH234", "u:org", DISCORD, "seed-2", "fr", "fr", "fisf", 1.0, "none", draws=("ACEHNTZ",)
    )
    elsewhere = played(other_seed, {"C": "H8 CHANT"}, 2)
    assert [r.top for r in elsewhere.closed_rounds][:1] == [tops[0][0][0]]
    assert [r.draw.letters for r in elsewhere.rounds if r.draw is not None][1] != draws[0][1]


def room(channel: str, game: DuplicateGame, accounts: dict[str, str]) -> RoomResult:
    players = tuple(RoomPlayer(accounts.get(p, f"name:{channel}:{p}"), p) for p in game.players)
    return RoomResult(channel, players, tuple(game.closed_rounds))


def test_the_overall_ranking_worked_by_hand_solos_over_every_room() -> None:
    # 17 players in three rooms: only Ana finds the top of round 1, so with 16 players or more across the
    # rooms (3.5) she gets the solo, 112 + 10 = 122 (+10, 108.9 %), though her room of 6 gives none
    a_moves = {"Ana": "H6 CHANTEZ", **{f"A{i}": "H4 CHANTEZ" for i in range(5)}}
    b_moves = {f"B{i}": "H8 CHANT" for i in range(6)}
    c_moves = {f"C{i}": "H4 CHANT" for i in range(5)}
    games = [played(TYPED, moves) for moves in (a_moves, b_moves, c_moves)]
    assert games[0].standings()[0].solos == 0  # the room alone is too small for a solo
    rooms = [room(c, g, {"Ana": "user:ana"}) for c, g in zip(ROOMS, games, strict=True)]
    standings = overall_standings(rooms, 1, DuplicateSettings())
    expected = (
        [(1, "Ana", DISCORD, 122, 10, 108.9, 1)]
        + [(2, f"A{i}", DISCORD, 98, -14, 87.5, 0) for i in range(5)]
        + [(7, f"C{i}", CONSOLE, 26, -86, 23.2, 0) for i in range(5)]
        + [(12, f"B{i}", TELEGRAM, 22, -90, 19.6, 0) for i in range(6)]
    )
    assert [(s.place, s.name, s.channel, s.total, s.gap, s.percent, s.solos) for s in standings] == expected
    assert standings[0].key == "user:ana"
    # two of the top in different rooms: no solo for either (B0 now tops too)
    b_moves["B0"] = "H6 CHANTEZ"
    games[1] = played(TYPED, b_moves)
    rooms = [room(c, g, {}) for c, g in zip(ROOMS, games, strict=True)]
    ranked = overall_standings(rooms, 1, DuplicateSettings())
    assert [(s.name, s.total, s.solos) for s in ranked[:2]] == [("Ana", 112, 0), ("B0", 112, 0)]


def test_a_room_short_of_a_round_scores_nothing_in_it_and_an_account_counts_once() -> None:
    ahead, behind = played(TYPED, {"Ana": "H4 CHANTEZ"}, 2), played(TYPED, {"Ben": "H8 CHANT"}, 1)
    second_top = ahead.closed_rounds[1].top_points
    rooms = [
        room("x", ahead, {"Ana": "user:ana"}),
        room("y", behind, {"Ben": "user:ben"}),
        room("z", played(TYPED, {"Ana": "H6 CHANTEZ"}), {"Ana": "user:ana"}),  # the same account again
    ]
    standings = overall_standings(rooms, 2, DuplicateSettings(solo_min_players=2))
    tops = 112 + second_top
    assert [(s.name, s.channel, s.total, s.gap) for s in standings] == [
        ("Ana", "x", 108, 108 - tops),  # her first room's game only (98, alone best: +10, 3.5); 0 in round 2
        ("Ben", "y", 22, 22 - tops),  # 0 in the round his room never closed
    ]
    assert overall_standings(rooms, 0, DuplicateSettings())[0].total == 0


# --- storage ----------------------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        made: Storage = SQLiteStorage(tmp_path / "simultane.sqlite")
    else:
        from bot.storage.sql.postgres import PostgresStorage

        made = PostgresStorage(request.getfixturevalue("postgres_url"), pool_size=2)
    yield made
    made.close()


def test_simultanes_and_their_rooms_are_stored(store: Storage) -> None:
    created = store.create_simultane("STO234", "org-room", "u:org", TOGETHER.to_json())
    assert store.simultane("STO234") == created
    assert store.simultane("NOPE22") is None
    assert SimultaneDefinition.from_json(created.definition) == TOGETHER
    assert store.simultane_by_id(created.id) == created
    assert [store.join_simultane(created.id, c) for c in ("r1", "r2", "r1")] == [True, True, False]
    game = store.create_game("r2", GameKind.DUPLICATE, "u:ref", GameSetup("fr", "fisf", "fr", simultane="STO234"))
    assert store.game(game.id).setup.simultane == "STO234"
    store.set_simultane_game(created.id, "r2", game.id)
    assert [(r.channel, r.game) for r in store.simultane_rooms(created.id)] == [("r1", None), ("r2", game.id)]
    assert [s.code for s in store.channel_simultanes("org-room")] == ["STO234"]  # organised
    assert [s.code for s in store.channel_simultanes("r1")] == ["STO234"]  # joined
    assert store.channel_simultanes("elsewhere") == []
    with pytest.raises(Exception, match="(?i)unique|simultanes"):
        store.create_simultane("STO234", "other", "u:x", TOGETHER.to_json())


# --- three rooms through the referee ------------------------------------------------------------------


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


# --- two bot processes on one PostgreSQL database -------------------------------------------------------


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


def test_two_processes_on_postgres_play_one_simultane_each_clock_run_once(postgres_url: str) -> None:
    clock = [START]
    discord = Process(postgres_url, "shard-0", "discord:", clock)  # a Discord shard: its channels' clocks
    other = Process(postgres_url, "worker-1", "", clock)  # a Telegram webhook worker and the console
    # a chosen seed: a random one sometimes makes a draw the rules refuse, drawn again (one more draw event)
    created = discord.send(DISCORD, "Org", "/simultane creer 1 graine pg tirages ACEHNTZ", admin=True)
    code = code_of(created)
    assert "ACEHNTZ" not in created
    assert "Coup 1 — tirage : ACEHNTZ" in discord.send(DISCORD, "Org", f"/simultane rejoindre {code}", admin=True)
    for channel in (TELEGRAM, CONSOLE):
        assert "Coup 1 — tirage : ACEHNTZ" in other.send(channel, "Boss", f"/simultane rejoindre {code}", admin=True)
    by_room = {DISCORD: discord, TELEGRAM: other, CONSOLE: other}
    for (channel, process), moves in zip(by_room.items(), (A_MOVES, B_MOVES, C_MOVES), strict=True):
        for name, move in moves.items():
            assert "Reçu pour le coup 1" in process.send(channel, name, f"/jouer {move}", private=True)
    for channel, process in by_room.items():
        process.send(channel, "Boss", "/cloture", admin=True)
    # the console closed last and opened round 2; the two rooms that waited, each at its own process's tick
    assert not [e for e in events_of(discord.storage, DISCORD) if e.data["kind"] == "draw"][1:]
    assert "Coup 2 — tirage" in "\n".join(r.text for r in discord.referee.tick(clock[0]))
    assert "Coup 2 — tirage" in "\n".join(r.text for r in other.referee.tick(clock[0]))
    assert table_rows(other.send(CONSOLE, "Zoé", "/simultane classement")) == OVERALL_AFTER_ONE

    other.close()  # the worker stops mid-game (round 2 open everywhere) and starts again
    other = Process(postgres_url, "worker-1", "", clock)
    by_room = {DISCORD: discord, TELEGRAM: other, CONSOLE: other}
    clock[0] += 61  # round 2's minute is over: both processes' clocks tick, each room closes once
    for _ in range(2):
        for process in (discord, other):
            process.referee.tick(clock[0])
        clock[0] += 1
    closes = {c: [e.data["top"] for e in events_of(discord.storage, c) if e.data["kind"] == "close"] for c in ROOMS}
    assert all(len(tops) == 2 for tops in closes.values()), closes
    assert closes[DISCORD] == closes[TELEGRAM] == closes[CONSOLE]
    draws = {c: [e.data["draw"] for e in events_of(other.storage, c) if e.data["kind"] == "draw"] for c in ROOMS}
    assert draws[DISCORD] == draws[TELEGRAM] == draws[CONSOLE]
    assert len(draws[DISCORD]) == 3
    after_two = other.send(TELEGRAM, "Zoé", "/simultane classement")
    assert "après 2 manches" in after_two
    assert table_rows(after_two)[0][:4] == ["1", "Ana", "Salon 1", "122"]
    discord.close()
    other.close()


def events_of(storage: Storage, channel: str) -> list[StoredEvent]:
    """The stored events of the channel's last game."""
    return storage.events(storage.games(channel)[-1].id)


# --- a Discord channel and a Telegram group: the real libraries against the fakes ---------------------

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
    """Wait for ``condition`` (three times ``timeout`` on a loaded machine; it ends as soon as it holds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 3 * timeout
    while not condition():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


@pytest.mark.long(6)
@pytest.mark.asyncio
async def test_a_discord_channel_and_a_telegram_group_play_one_simultane(
    discord_club: ClubDiscord, tg: ClubTelegram, storage: SQLiteStorage
) -> None:
    dc = discord_club
    # one file, and each bot's clock looks after its own platform's rooms (as `arbitre discord` and
    # `arbitre telegram` do): a room's held round is closed by its own bot's clock, and delivered by it
    by_discord = Referee(storage, ready_registry(), now=dc.now, images=False, clock_scope="discord:")
    by_telegram = Referee(storage, ready_registry(), now=dc.now, images=False, clock_scope="telegram:")
    discord = DiscordAdapter(by_discord, edit_interval=0.2, tick_seconds=0.05, clock=dc.now)
    telegram = TelegramAdapter(by_telegram, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
    discord.service.outbox_seconds = telegram.service.outbox_seconds = 0.05
    async with running_bot(dc, discord.client), running_application(telegram.application, tg):
        await discord.sync(dc.guild.id)
        args = {"minutes": 1, "draws": "ACEHNTZ"}  # /simultane create, as a form
        await dc.send_interaction("simultane create", args, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("Simultané créé, code" in t for t in discord_texts(dc)))
        code = code_of(next(t for t in discord_texts(dc) if "Simultané créé, code" in t))
        await dc.send_interaction("simultane join", {"code": code}, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("Coup 1 — tirage : ACEHNTZ" in t for t in discord_texts(dc)))
        assert not any("ACEHNTZ" in t for t in telegram_texts(tg))  # not opened in the group yet
        await tg.send_user_message(GROUP, tg.ana, f"/simultane rejoindre {code}")
        await eventually(lambda: any("Coup 1 — tirage : ACEHNTZ" in t for t in telegram_texts(tg)))
        await dc.send_interaction("play", {"position": "H6", "word": "CHANTEZ"}, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: any("Coup 1 : 1 joueur" in t for t in discord_texts(dc)))
        await dc.send_interaction("close", None, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("(encore en jeu : Salon 2" in t for t in discord_texts(dc)))  # paced
        await eventually(lambda: any("temps écoulé dans ce salon" in t for t in discord_texts(dc)))  # the draw's edit
        await dc.send_interaction("simultane ranking", None, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: any(f"Simultané {code} : pas encore" in t for t in discord_texts(dc)))
        assert not any("Top" in t for t in discord_texts(dc) + telegram_texts(tg))
        await tg.send_user_message(GROUP, tg.ana, "/cloture")  # the last room: the results everywhere
        await eventually(lambda: any("Top : H6 CHANTEZ" in t for t in telegram_texts(tg)))
        await eventually(lambda: any("Top : H6 CHANTEZ" in t for t in discord_texts(dc)))
        await tg.send_user_message(GROUP, tg.ana, "/simultane classement")
        await eventually(lambda: any(f"Simultané {code}, tous centres" in t for t in telegram_texts(tg)))
        overall = next(t for t in telegram_texts(tg) if f"Simultané {code}, tous centres" in t)
        assert "(2 salons, 1 joueur), après 1 manche" in overall
        assert "Ben" in overall
        assert "112" in overall


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
