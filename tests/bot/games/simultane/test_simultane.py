"""Simultanés: the visibility rule and the overall ranking (core.simultane) worked by hand, the sealed draws and
tops of real games in every room, and their storage (SQLite and PostgreSQL). Three rooms playing through the
referee: test_simultane_rooms.py; processes and platforms: test_simultane_processes.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import GameKind, GameSetup, SQLiteStorage, Storage
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
from tests.bot.games.simultane.rooms_played import (
    CONSOLE,
    DISCORD,
    ROOMS,
    START,
    TELEGRAM,
    TOGETHER,
    WINDOW,
)
from tests.ready_lists import ready_registry

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
