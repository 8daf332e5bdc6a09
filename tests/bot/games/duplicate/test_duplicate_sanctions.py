"""FISF sanctions (rule book of 1 January 2023, section 5): each answer graded clean, warning, penalty or
zero with its clause; warnings counted, 5 points off from the fourth (sixth in blitz, 5.9); solos
compared before a penalty (3.5); late arrivals zero for the moves already played (6.2); a sanction lifted
by the referee; games without sanctions and their stored events unchanged."""

from __future__ import annotations

import csv
import dataclasses
import io
import json

import pytest

from bot.games.duplicate.texts import results_csv, round_text
from bot.messages import say
from bot.render.record import record_table, standings_text
from core.duplicate import (
    DuplicateGame,
    DuplicateSettings,
    Fault,
    Sanctions,
    SoloRule,
    event_from_dict,
    event_to_dict,
    warning_deduction,
)
from core.errors_duplicate import NoSanctionToLiftError
from tests.bot.games.duplicate.sanctions_script import (
    EXPECTED,
    EXPECTED_FAULTS,
    EXPECTED_SCORES,
    FISF,
    PLAYERS,
    play_script,
)


def test_the_tops_are_the_hand_worked_ones(scripted: DuplicateGame) -> None:
    assert [(r.top_text, r.top_points) for r in scripted.closed_rounds] == [
        ("H6 NEZ", 24),
        ("G1 TRAItES", 63),
        ("1G TUE", 9),
        ("2I SOL", 7),
        ("4D MARIES", 16),
    ]


def test_every_answer_gets_its_grade(scripted: DuplicateGame) -> None:
    for round_ in scripted.closed_rounds:
        faults = {p: round_.grade_of(p) for p in PLAYERS}
        assert faults == EXPECTED_FAULTS[round_.number], round_.number
    assert {p: [r.score_of(p) for r in scripted.closed_rounds] for p in scripted.players} == EXPECTED_SCORES
    assert [scripted.closed_rounds[2].grade_of("Eve")] == [Fault.CLEAN]


def test_the_standings_match_the_hand_worked_table(scripted: DuplicateGame) -> None:
    assert scripted.standings() == EXPECTED


def test_the_fourth_warning_costs_five_points_and_each_one_after_it() -> None:
    after_three = play_script(rounds=3)
    after_four = play_script(rounds=4)
    ben = {s.player: s for s in after_three.standings()}["Ben"]
    assert (ben.warnings, ben.deduction, ben.total) == (3, 0, 24 + 63 + 6)
    ben = {s.player: s for s in after_four.standings()}["Ben"]
    assert (ben.warnings, ben.deduction, ben.total) == (4, 5, 24 + 63 + 6 + 7 - 5)


@pytest.mark.parametrize(
    ("warnings", "threshold", "deducted"),
    [(3, 4, 0), (4, 4, 5), (5, 4, 10), (5, 6, 0), (6, 6, 5), (8, 6, 15)],
)
def test_warning_deductions_5_9(warnings: int, threshold: int, deducted: int) -> None:
    assert warning_deduction(warnings, threshold) == deducted


@pytest.mark.parametrize(("minutes", "threshold"), [(3, 4), (2.5, 4), (2, 4), (1, 6), (0.5, 6)])
def test_the_threshold_is_the_clocks_1_3_and_5_9(minutes: float, threshold: int) -> None:
    assert DuplicateSettings(minutes=minutes).warning_threshold == threshold


def test_in_blitz_five_warnings_cost_nothing() -> None:
    blitz = play_script(DuplicateSettings(minutes=1, sanctions=Sanctions.FISF, solo_min_players=4))
    ben = {s.player: s for s in blitz.standings()}["Ben"]
    assert (ben.warnings, ben.deduction, ben.total) == (5, 0, 112)


def test_the_solo_is_compared_before_the_penalty_3_5(scripted: DuplicateGame) -> None:
    move_3 = scripted.closed_rounds[2]
    assert move_3.score_of("Cleo") == 4
    assert move_3.score_before_penalty("Cleo") == 9 == move_3.top_points
    assert scripted.solo(move_3) == "Cleo"
    assert [scripted.solo(r) for r in scripted.closed_rounds] == [None, None, "Cleo", None, None]


def test_a_late_arrival_scores_zero_for_the_moves_already_played_6_2(scripted: DuplicateGame) -> None:
    first, second = scripted.closed_rounds[:2]
    assert "Eve" not in first.results
    assert "Eve" not in second.results
    assert (first.score_of("Eve"), second.score_of("Eve")) == (0, 0)
    assert first.grade_of("Eve") is None
    assert not first.warned("Eve")


def test_without_sanctions_the_same_answers_are_judged_as_before() -> None:
    plain = play_script(DuplicateSettings(solo_min_players=4))
    assert all(r.grade_of(p) is None for r in plain.closed_rounds for p in plain.players)
    scores = {p: [r.score_of(p) for r in plain.closed_rounds] for p in plain.players}
    # the slip faults count 0 (uncircled joker, reversed reference, misplaced, wrong circle); scores as they are
    assert scores["Ben"] == [24, 0, 0, 7, 0]
    assert scores["Cleo"] == [0, 13, 0, 7, 12]
    assert all(s.warnings == 0 and s.deduction == 0 for s in plain.standings())
    ben_move_1 = plain.closed_rounds[0].results["Ben"]
    assert ben_move_1.claimed_differs
    assert ben_move_1.fault is None


def test_a_lifted_sanction_no_longer_counts_and_is_kept(scripted: DuplicateGame) -> None:
    game = DuplicateGame.from_events(scripted.events)
    game.lift("Ben", 4, "score misread by the referee")
    game.lift("Cleo", 3, "the reference was written clearly")
    standings = {s.player: s for s in game.standings()}
    assert (standings["Ben"].warnings, standings["Ben"].deduction, standings["Ben"].total) == (4, 5, 107)
    assert game.closed_rounds[2].score_of("Cleo") == 9  # the penalty given back; the solo stays
    assert standings["Cleo"].total == 51
    lines = game.record()
    assert lines[3].lifted == (("Ben", "score misread by the referee"),)
    assert ("Ben", Fault.WRONG_SCORE) not in lines[3].faults
    again = DuplicateGame.from_events(event_from_dict(json.loads(json.dumps(event_to_dict(e)))) for e in game.events)
    assert again.standings() == game.standings()
    assert again.record() == game.record()


@pytest.mark.parametrize(("player", "number"), [("Ana", 1), ("Cleo", 1), ("Dan", 2), ("Eve", 1)])
def test_only_a_warning_or_a_penalty_can_be_lifted(scripted: DuplicateGame, player: str, number: int) -> None:
    game = DuplicateGame.from_events(scripted.events)
    with pytest.raises(NoSanctionToLiftError):
        game.lift(player, number, "why not")
    assert game.standings() == scripted.standings()


def test_the_graded_game_replays_from_its_events_through_json(scripted: DuplicateGame) -> None:
    data = json.loads(json.dumps([event_to_dict(e) for e in scripted.events]))
    assert data[0]["settings"]["sanctions"] == "fisf"
    again = DuplicateGame.from_events(event_from_dict(d) for d in data)
    assert again.standings() == scripted.standings()
    assert again.record() == scripted.record()
    assert again.record_data() == scripted.record_data()


def test_a_game_without_sanctions_stores_the_settings_it_stored_before() -> None:
    old = {"minutes": 3, "solo_bonus": 10, "solo_min_players": 16, "y": "either"}
    old |= {"joker": "either", "first_move_horizontal": True, "notation": "fisf", "grace_seconds": 0.0}
    settings = DuplicateSettings.from_dict({**old, "solo_requires_top": True})  # as stored before issue 37
    assert settings.sanctions is Sanctions.NONE
    assert settings.to_dict() == old
    assert settings.solo is SoloRule.BEST  # the rule book's solo (3.5)
    assert DuplicateSettings.from_dict(FISF.to_dict()) == FISF
    club_rule = dataclasses.replace(FISF, solo=SoloRule.TOP)
    assert club_rule.to_dict()["solo"] == "top"
    assert DuplicateSettings.from_dict(club_rule.to_dict()) == club_rule


def test_record_and_exports_carry_the_warnings(scripted: DuplicateGame) -> None:
    data = scripted.record_data()
    assert data["sanctions"] == "fisf"
    assert [(s["player"], s["warnings"], s["deduction"]) for s in data["standings"]][:2] == [
        ("Ana", 0, 0),
        ("Ben", 5, 10),
    ]
    assert data["moves"][2]["faults"]["Cleo"] == ["misplaced", "penalty", "5.6"]
    rows = list(csv.reader(io.StringIO(results_csv("en", scripted).decode())))
    assert rows[0][6:8] == ["warn.", "deducted"]
    assert rows[0][8] == say("en", "col_move_number", n=1)
    ben = next(r for r in rows if r[1] == "Ben")
    assert ben[2] == "102"
    assert ben[6:8] == ["5", "10"]
    assert ben[8:] == ["24", "63", "6", "7", "12"]
    plain = play_script(DuplicateSettings(solo_min_players=4))
    assert "warnings" not in plain.record_data()["standings"][0]
    assert "sanctions" not in plain.record_data()
    assert len(next(csv.reader(io.StringIO(results_csv("en", plain).decode())))) == 6 + 5


@pytest.mark.parametrize(
    ("lang", "warned", "penalty", "standing"),
    [
        ("fr", "avertissement (§ 5.3 : sens de la référence inversé)", "pénalité de 5 points (§ 5.6", "5 (-10)"),
        ("en", "warning (§ 5.3: reference orientation reversed)", "5-point penalty (§ 5.6", "5 (-10)"),
    ],
)
def test_texts_say_the_grade_and_the_clause(
    scripted: DuplicateGame, lang: str, warned: str, penalty: str, standing: str
) -> None:
    text = round_text(lang, scripted, scripted.closed_rounds[2])
    ben = next(line for line in text.splitlines() if line.startswith("Ben"))
    cleo = next(line for line in text.splitlines() if line.startswith("Cleo"))
    assert warned in ben
    assert penalty in cleo
    table = standings_text(lang, scripted)
    assert standing in next(line for line in table.splitlines() if " Ben " in line)
    record = record_table(lang, scripted)
    assert sum(1 for line in record.splitlines() if "§" in line) == sum(
        1 for faults in EXPECTED_FAULTS.values() for f in faults.values() if f is not Fault.CLEAN
    )
