"""Game records: the kind and status enums, the typed set-up and its JSON, read from every layout earlier
versions stored (a database file written by hand with their layout included)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.chat import Incoming
from bot.referee import Referee
from bot.storage import GameKind, GameSetup, GameSetupError, GameStatus, SQLiteStorage
from tests.ready_lists import ready_registry

# --- the enums keep the strings databases hold --------------------------------------------------------


def test_kinds_and_statuses_are_the_stored_strings() -> None:
    assert [k.value for k in GameKind] == ["classic", "duplicate", "boardless", "online"]
    assert [s.value for s in GameStatus] == ["active", "ended", "abandoned"]
    assert GameKind("duplicate") is GameKind.DUPLICATE
    assert GameStatus("abandoned") is GameStatus.ABANDONED
    assert f"kind_{GameKind.CLASSIC}" == "kind_classic"  # catalog keys are built this way


# --- the set-up's JSON ---------------------------------------------------------------------------------

names = st.text(max_size=12)
setups = st.builds(
    GameSetup,
    edition=names,
    notation=names,
    lexicon=names,
    referee_name=names,
    rules=st.none() | names,
    players=st.lists(names, max_size=4).map(tuple),
    manual=st.booleans(),
)


@given(setups)
def test_a_setup_reads_back_what_it_wrote(setup: GameSetup) -> None:
    stored = json.dumps(setup.to_json(), ensure_ascii=False)
    assert GameSetup.from_json(json.loads(stored)) == setup


old_layouts = st.fixed_dictionaries(
    {},
    optional={
        "edition": names,
        "rules": names,
        "notation": names,
        "lexicon": names,
        "players": st.lists(names, max_size=4),
        "referee_name": names,
        "manual": st.booleans(),
    },
)


@given(old_layouts)
def test_reading_then_writing_keeps_every_key_an_earlier_version_stored(data: dict[str, Any]) -> None:
    written = GameSetup.from_json(data).to_json()
    assert {key: written.get(key) for key in data} == data


# What each version wrote (bot/games/classic/commands.py and bot/games/duplicate/commands.py, and before them
# bot/commands/classic.py and duplicate.py, since the first commit).
CLASSIC_DICT = {
    "edition": "fr",
    "rules": "box-fr",
    "notation": "fisf",
    "lexicon": "fr",
    "players": ["Ana", "Ben"],
    "referee_name": "Ref",
}
DUPLICATE_DICT = {
    "edition": "en",
    "lexicon": "/lists/club.txt",
    "notation": "gcg",
    "manual": True,
    "referee_name": "Ré",
}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (CLASSIC_DICT, GameSetup("fr", "fisf", "fr", "Ref", rules="box-fr", players=("Ana", "Ben"))),
        ({**CLASSIC_DICT, "players": []}, GameSetup("fr", "fisf", "fr", "Ref", rules="box-fr")),
        (DUPLICATE_DICT, GameSetup("en", "gcg", "/lists/club.txt", "Ré", manual=True)),
        ({**DUPLICATE_DICT, "manual": False}, GameSetup("en", "gcg", "/lists/club.txt", "Ré")),
        # missing keys (or null): the edition fr, its notation and bundled list, no rules, no players, "?"
        ({}, GameSetup("fr", "fisf", "fr", "?")),
        ({"edition": "en"}, GameSetup("en", "gcg", "en", "?")),
        ({"edition": "en", "notation": "fisf", "players": None, "manual": None}, GameSetup("en", "fisf", "en", "?")),
        ({"rules": None, "referee_name": None}, GameSetup("fr", "fisf", "fr", "?")),
        # unknown keys (a later version's) are ignored
        ({**CLASSIC_DICT, "minutes": 2.5, "clock": {"x": 1}}, GameSetup.from_json(CLASSIC_DICT)),
    ],
)
def test_stored_layouts_and_defaults(data: dict[str, Any], expected: GameSetup) -> None:
    assert GameSetup.from_json(data) == expected


def test_the_written_layout_is_the_one_earlier_versions_read() -> None:
    classic = GameSetup.from_json(CLASSIC_DICT).to_json()
    assert classic == {**CLASSIC_DICT, "manual": False}
    assert list(classic)[:2] == ["edition", "rules"]
    duplicate = GameSetup.from_json(DUPLICATE_DICT).to_json()
    assert duplicate == {**DUPLICATE_DICT, "players": []}
    assert "rules" not in duplicate


@pytest.mark.parametrize(
    ("data", "key", "value"),
    [
        ({"edition": 3}, "edition", 3),
        ({"lexicon": ["fr"]}, "lexicon", ["fr"]),
        ({"notation": True}, "notation", True),
        ({"referee_name": 7}, "referee_name", 7),
        ({"rules": 1}, "rules", 1),
        ({"players": "Ana Ben"}, "players", "Ana Ben"),
        ({"players": ["Ana", 2]}, "players", ["Ana", 2]),
        ({"manual": "yes"}, "manual", "yes"),
        (["edition", "fr"], "setup", ["edition", "fr"]),
    ],
)
def test_a_value_of_the_wrong_type_is_named(data: Any, key: str, value: object) -> None:
    with pytest.raises(GameSetupError) as refused:
        GameSetup.from_json(data)
    assert (refused.value.key, refused.value.value) == (key, value)
    assert repr(value) in str(refused.value)


# --- a database written by an earlier version -----------------------------------------------------------

CHANNEL = "club"
OLD_GAMES = [  # id, kind, referee, status, setup: as the games table held them
    (1, "classic", "u:ref", "ended", json.dumps(CLASSIC_DICT, ensure_ascii=False)),
    (
        2,
        "duplicate",
        "u:ref",
        "active",
        json.dumps({**DUPLICATE_DICT, "edition": "fr", "lexicon": "fr", "notation": "fisf"}),
    ),
]
SETTINGS = {
    "minutes": 1.0,
    "solo_bonus": 10,
    "solo_min_players": 16,
    "solo_requires_top": True,
    "y": "either",
    "joker": "either",
    "first_move_horizontal": True,
    "notation": "fisf",
    "grace_seconds": 0.0,
}
OLD_EVENTS = [  # game, seq, kind, data
    (1, 1, "play", {"kind": "play", "player": "Ana", "move": "H8 VAGUE", "claimed": None}),
    (1, 2, "play", {"kind": "play", "player": "Ben", "move": "8H VOGUE", "claimed": None}),
    (1, 3, "end", {"kind": "end", "racks": [["Ana", "EAU"]]}),
    (2, 1, "start", {"kind": "start", "edition": "fr", "players": [], "settings": SETTINGS, "lexicon": "fr"}),
    (2, 2, "draw", {"kind": "draw", "draw": "AEGUVSL", "at": 1800000000.0}),
    (2, 3, "join", {"kind": "join", "player": "Ana"}),
    (2, 4, "submit", {"kind": "submit", "player": "Ana", "move": "H4 VAGUES", "claimed": None, "at": 1800000000.0}),
]


def old_database(path: Path) -> None:
    """A database file whose games were written, row by row, with the layout earlier versions used."""
    SQLiteStorage(path).close()  # the tables (their schema is unchanged)
    with sqlite3.connect(path) as conn:
        for game_id, kind, referee, status, setup in OLD_GAMES:
            conn.execute(
                "insert into games (id, channel, kind, referee, status, setup, created) values (?, ?, ?, ?, ?, ?, ?)",
                [game_id, CHANNEL, kind, referee, status, setup, 1_799_990_000.0 + game_id],
            )
        for game_id, seq, kind, data in OLD_EVENTS:
            conn.execute(
                "insert into events (game, seq, kind, data, author, at) values (?, ?, ?, ?, ?, ?)",
                [game_id, seq, kind, json.dumps(data), "u:ref", 1_799_990_000.0 + seq],
            )
        for game_id, user, name, position in [(1, "u:ana", "Ana", 0), (1, "u:ben", "Ben", 1), (2, "u:ana", "Ana", 0)]:
            conn.execute(
                "insert into players (game, user, name, position) values (?, ?, ?, ?)", [game_id, user, name, position]
            )
    conn.close()


def test_a_database_written_with_the_old_layout_is_read_and_played_on(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    old_database(path)
    storage = SQLiteStorage(path)
    referee = Referee(storage, ready_registry(), now=lambda: 1_800_000_100.0, images=False)

    def say(name: str, text: str, admin: bool = False) -> str:
        replies = referee.handle(Incoming(CHANNEL, f"u:{name.lower()}", name, text, admin=admin))
        return "\n".join(r.text for r in replies)

    try:
        classic, duplicate = storage.games(CHANNEL)
        assert (classic.kind, classic.status) == (GameKind.CLASSIC, GameStatus.ENDED)
        assert classic.setup == GameSetup("fr", "fisf", "fr", "Ref", rules="box-fr", players=("Ana", "Ben"))
        assert (duplicate.kind, duplicate.status) == (GameKind.DUPLICATE, GameStatus.ACTIVE)
        assert duplicate.setup == GameSetup("fr", "fisf", "fr", "Ré", manual=True)
        assert storage.active_game(CHANNEL) == duplicate
        assert storage.lists_in_use() == ["fr"]
        listing = say("Zed", "/parties")
        assert "n°1" in listing
        assert "Ana, Ben" in listing
        assert "terminée" in listing
        assert "n°2" in listing
        sheet = say("Zed", "/feuille 1")
        assert "H8 VAGUE" in sheet
        assert "Ana 17" in say("Zed", "/classement 1")
        assert "arbitre : Ré" in say("Zed", "/nouvelle Cleo Dan")  # the set-up's referee name
        assert "(Ré)" in say("Zed", "/cloture")
        closed = say("Ref", "/cloture", admin=True)  # the set-up's list judges; manual: the referee draws next
        assert "VAGUES" in closed
        assert "/tirage LETTRES" in closed
    finally:
        referee.clock.shutdown()
        storage.close()
