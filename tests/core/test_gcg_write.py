"""Writing GCG files (core.gcg): the export format, and round trips of engine games and of the samples."""

from __future__ import annotations

from typing import Any

import pytest

from core.edition import ENGLISH, FRENCH
from core.events import (
    Challenge,
    ChallengeBonus,
    End,
    Event,
    Exchange,
    Join,
    Pass,
    Penalty,
    Play,
    TimePenalty,
    Undo,
)
from core.game import ClassicGame
from core.gcg import read_gcg, write_gcg
from core.gcg_model import LOST_TURN_NOTE, GcgPlayer
from core.notation import Notation
from core.rules import rule_set_by_code
from tests.core.gcg_samples import SAMPLES, assert_same_game, load

# --- writing -------------------------------------------------------------------------------


def naspa_game() -> ClassicGame:
    game = ClassicGame(ENGLISH, rule_set_by_code("naspa"), ("Ann", "Bob"), Notation.GCG)
    events: list[Event] = [
        Play("Ann", "8G HELP"),
        Play("Bob", "J5 SOU."),
        Challenge("Ann", (), ()),
        Play("Bob", "5F GRiT."),
        Play("Ann", "G8 .OVE"),
        Challenge("Bob", ("HOVE",), ("HOVE",)),
        Exchange("Bob", "DII"),
        Pass("Ann"),
        Undo(),
        Play("Ann", "F5 .OD"),
        End((("Ann", ""), ("Bob", "EFNQ?"))),
    ]
    for event in events:
        game.apply(event)
    return game


def test_export_format() -> None:
    text = write_gcg(naspa_game(), lexicon="NWL23", title="Test game")
    lines = text.splitlines()
    assert lines[:6] == [
        "#character-encoding UTF-8",
        "#player1 Ann Ann",
        "#player2 Bob Bob",
        "#title Test game",
        "#lexicon NWL23",
        "#arbitre-rules naspa",
    ]
    assert lines[6:] == [
        ">Ann: EHLP 8G HELP +18 18",
        ">Bob: OSU J5 SOU. +8 8",
        ">Ann:  - +0 18",
        f"#note {LOST_TURN_NOTE}",
        ">Bob: ?GRT 5F GRiT. +5 13",
        ">Ann: EOV G8 .OVE +11 29",
        ">Ann: EOV -- -11 18",
        "#note arbitre: challenged by Bob, invalid HOVE",
        ">Bob: DII -DII +0 13",
        ">Ann: DO F5 .OD +7 25",
        ">Ann:  (EFNQ?) +32 57",  # NASPA: twice the rack, and no line for Bob
    ]
    assert text.endswith("\n")
    record = read_gcg(text.encode("utf-8"))
    assert record.game.lines[2].kind == "lost_turn"
    assert_same_game(record.game, naspa_game())


def test_wespa_export_writes_both_end_lines() -> None:
    game = ClassicGame(ENGLISH, rule_set_by_code("wespa"), ("Ann", "Bob"), Notation.GCG)
    events: list[Event] = [
        Play("Ann", "8G HELP"),
        Play("Bob", "J5 SOU."),
        Challenge("Ann", (), ()),
        End((("Ann", "QZ"), ("Bob", ""))),
    ]
    for event in events:
        game.apply(event)
    assert write_gcg(game).splitlines()[-4:] == [
        ">Bob: OSU J5 SOU. +8 8",
        ">Bob:  (challenge) +5 13",  # 5 per word formed: SOUP
        ">Ann: QZ (QZ) -20 -2",
        ">Bob:  (QZ) +20 33",
    ]


def engine_games() -> dict[str, ClassicGame]:
    games: dict[str, ClassicGame] = {"naspa": naspa_game()}

    def build(
        edition: Any, rules: str, players: tuple[str, ...], notation: Notation, events: list[Event]
    ) -> ClassicGame:
        game = ClassicGame(edition, rule_set_by_code(rules), players, notation)
        for event in events:
            game.apply(event)
        return game

    games["wespa"] = build(
        ENGLISH,
        "wespa",
        ("Ann", "Bob"),
        Notation.GCG,
        [
            Play("Ann", "8D JOKER"),
            Challenge("Bob", ("JOKER",), ()),
            Play("Bob", "H8 .OAMED"),
            Exchange("Ann", ""),
            TimePenalty("Bob", 10),
            Penalty("Ann", 7),
            ChallengeBonus("Bob", 5),
            Play("Bob", "13C GRAzE."),
            Challenge("Ann", (), ("GRAZED",)),
            Undo(),
            Pass("Ann"),
            Exchange("Bob", "7"),
            End((("Ann", "?"), ("Bob", ""))),
        ],
    )
    games["wespa-blocked"] = build(
        ENGLISH,
        "wespa",
        ("Ann", "Bob"),
        Notation.GCG,
        [
            Play("Ann", "8D JOKER"),
            Pass("Bob"),
            End((("Ann", "7"), ("Bob", "eau"))),
        ],
    )
    games["fisf"] = build(
        FRENCH,
        "fisf",
        ("Ana", "Ben"),
        Notation.FISF,
        [
            Play("Ana", "H7 HANTEZ"),
            Play("Ben", "6F FACADES"),
            Challenge("Ana", ("FACADES", "CHANTEZ"), ()),
            Play("Ana", "G8 HUES"),
            Play("Ben", "F10 JOUET"),
            Challenge("Ana", (), ("JOUET",)),
            End((("Ana", "EAU"), ("Ben", ""))),
        ],
    )
    games["fisf, stopped with tiles in the bag"] = build(
        FRENCH,
        "fisf",
        ("Ana", "Ben", "Cleo"),
        Notation.FISF,
        [
            Play("Ana", "H8 VAGUE"),
            End((("Ana", ""), ("Ben", "EAU"), ("Cleo", "")), stopped=True),
        ],
    )
    games["box-en, three players"] = build(
        ENGLISH,
        "box-en",
        ("Ann", "Bob", "Cy"),
        Notation.GCG,
        [
            Play("Ann", "8D JOKER"),
            Challenge("Cy", (), ()),
            Play("Bob", "H8 .OAMED"),
            Pass("Ann"),
            End((("Ann", "QZ"), ("Bob", "AE"), ("Cy", ""))),
        ],
    )
    games["names with spaces, joined"] = build(
        ENGLISH,
        "naspa",
        (),
        Notation.GCG,
        [
            Join("Ann Marie"),
            Join("Bob: the Builder"),
            Play("Ann Marie", "8D JOKER"),
            Play("Bob: the Builder", "H8 .OAMED"),
        ],
    )
    return games


@pytest.mark.parametrize("name", list(engine_games()))
def test_round_trip_of_games_built_with_the_engine(name: str) -> None:
    game = engine_games()[name]
    record = read_gcg(write_gcg(game).encode("utf-8"), player_names="name")
    assert record.error is None
    assert record.mismatches == []
    assert record.game.edition is game.edition
    assert record.game.notation is game.notation
    assert record.rules.code == game.rules.code  # the rules in force: 3 players fall back from fisf to box-fr
    assert_same_game(record.game, game)
    assert [sheet_line.claimed for sheet_line in record.game.lines] == [sheet_line.claimed for sheet_line in game.lines]
    assert record.game.players == game.players


@pytest.mark.parametrize("name", SAMPLES + ["wrong_score.gcg"])
def test_round_trip_of_the_samples(name: str) -> None:
    record = load(name)
    again = read_gcg(record.to_gcg().encode("utf-8"))
    assert again.players == record.players
    assert again.lexicon == record.lexicon
    assert again.title == record.title
    assert again.game_id == record.game_id
    assert again.mismatches == []
    assert_same_game(again.game, record.game)
    # and a second trip gives the same text
    assert again.to_gcg() == record.to_gcg()


def test_nicks_are_made_safe_and_unique() -> None:
    game = ClassicGame(ENGLISH, rule_set_by_code("naspa"), ("a b", "a_b", ""), Notation.GCG)
    lines = write_gcg(game).splitlines()
    assert lines[1:4] == ["#player1 a_b a b", "#player2 a_b_2 a_b", "#player3 player3 player3"]
    given = {"a b": GcgPlayer("ab", "Ab Ba")}
    assert write_gcg(game, players=given).splitlines()[1] == "#player1 ab Ab Ba"


def test_a_stopped_game_writes_only_the_racks_it_knows() -> None:
    game = engine_games()["fisf, stopped with tiles in the bag"]
    text = write_gcg(game)
    assert text.splitlines()[-1] == ">Ben: EAU (EAU) -3 -3"
    assert "()" not in text
