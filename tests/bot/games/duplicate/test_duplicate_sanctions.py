"""FISF sanctions (rule book of 1 January 2023, section 5): each answer graded clean, warning, penalty or
zero with its clause; warnings counted, 5 points off from the fourth (sixth in blitz, 5.9); solos
compared before a penalty (3.5); late arrivals zero for the moves already played (6.2); a sanction lifted
by the referee; games without sanctions and their stored events unchanged."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest

from bot.games.duplicate import texts as duplicate_texts
from bot.games.duplicate.games import load_game
from bot.games.duplicate.texts import results_csv, round_text
from bot.messages import say
from bot.render.record import record_table, standings_text
from bot.render.results import standings_scene
from core.board import Board
from core.duplicate import (
    DuplicateGame,
    DuplicateSettings,
    DuplicateStanding,
    Fault,
    Grade,
    MoveSubmitted,
    Sanctions,
    SoloRule,
    SubmissionResult,
    event_from_dict,
    event_to_dict,
    grade_submission,
    movegen_top_finder,
    warning_deduction,
)
from core.edition import FRENCH
from core.errors_duplicate import NoSanctionToLiftError, TakeBackBlock
from core.lexicon import Lexicon
from core.notation import parse_move
from core.placement import validate_move
from core.scoring import score_placement
from tests.club import CHANNEL, Club
from tests.transcripts import run_console

WORDS = (
    "NEZ TRAIN NIER RIEN TIEN ET TE NE EN ES SE RE TU TUE NU UT AN NA IN ESSUIE SUE SUES ETE ETES SERA AS SA"
    " TA IRE RIE RAT RATE RATES AIRE ZONE ZONES SU US MURES RAMES RIMES MARIES AMIES TARIES TRIAS TRAIES"
    " TRAITES MOULE MOULES MOLE MOLES LIME LIMES MIEL MIELS OUI SOL SOLE MOU MOUS LOUE LOUES"
).split()
LEXICON = Lexicon.from_words(WORDS, name="sanctions")
FISF = DuplicateSettings(sanctions=Sanctions.FISF, solo_min_players=4)  # 3.5 says 16 players: 4 keeps it short
PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]
SECONDS = FISF.seconds

# The scripted game: each move's draw, and each player's answer (move, claimed score, seconds after the draw).
# Tops worked by hand (French values, section 1.2): H6 NEZ (1+1+10)x2 = 24; G1 TRAItES 1+1+2+1+0+1+2 = 8,
# with EN 2 and SE 3, +50 = 63; 1G TUE (1+1+1)x3 = 9; 2I SOL 1+3+1 with ES 2 = 7; 4D MARIES
# (2+1+1+1+2+1)x2 = 16.
SCRIPT: list[tuple[str, dict[str, tuple[str, int | None, float]]]] = [
    (
        "AEINRTZ",
        {
            "Ana": ("H8 NEZ", 24, 10),  # clean (5.4.2.a: the word's best score, 24)
            "Ben": ("H8 NEZ", 22, 10),  # warning 5.4.2.a: first move, claimed score not the best: paid 24
            "Cleo": ("H8 ZANE", None, 10),  # zero 5.7: word not allowed
            "Dan": ("H4 TRAIN", 12, 10),  # clean: (2+1+1+1+1)x2 = 12
        },
    ),
    (
        "+ES?",
        {
            "Ana": ("G1 TRAItES", 63, 10),  # clean
            "Ben": ("G1 TRAITES", None, 10),  # warning 5.5: joker not marked, its letter (T) certain: 63
            "Cleo": ("G2 TARIES", 13, 10),  # clean: 1+2+1+1+1+2 = 8, EN 2, SE 3 = 13
            "Dan": ("G1 TRAItES", 63, SECONDS + 20),  # zero 5.7: handed in after the end of the move
        },
    ),
    (
        "EILMOSU",
        {
            "Ana": ("4F MIELS", None, 10),  # clean: 2+1+2+1+1 = 7
            "Ben": ("2H ES", None, 10),  # warning 5.3/5.5: reference reversed (H2 ES: 2 + RE 2 + AS 2 = 6)
            "Cleo": ("1A TUE", 9, 10),  # penalty 5.6: 9 exists for TUE at 1G, not at 1A: 9 - 5 = 4; solo (3.5)
            "Dan": ("4F LIMES", 10, 10),  # warning 5.3.2: claimed 10, exact 1+1+4+1+1 = 8
            "Eve": ("4F LIME", 7, 10),  # clean, 7; Eve arrived at move 3: moves 1 and 2 count 0 (6.2)
        },
    ),
    (
        "+AR",
        {
            "Ana": ("2I SOLI", None, 10),  # zero 5.7: SOLI not allowed
            "Ben": ("2I SOL", 8, 10),  # warning 5.3.2 (Ben's fourth: 5 points off, 5.9): exact 7
            "Cleo": ("2I SOL", 7, 10),  # clean, 7
            "Dan": ("2I SA", 6, 10),  # clean: 1+3 + ES 2 = 6
            "Eve": ("6E RIEN", None, 10),  # clean: 1+3+1+1 = 6
        },
    ),
    (
        "+E?S",
        {
            "Ana": ("4D MARIES", 16, 10),  # clean, 16
            "Ben": ("4D TARiES", None, 10),  # warning 5.5: joker marked on I, stands for T: (0+1+1+1+2+1)x2 = 12
            "Cleo": ("K2 LIMES", None, 10),  # clean: (1+1+2+1+1)x2 = 12
            "Dan": ("4D MARIES", 16, 10),  # clean, 16
            "Eve": ("K2 LIMES", 12, 10),  # clean, 12
        },
    ),
]

# The standings worked by hand from the comments above: tops 24+63+9+7+16 = 119.
#   Ana  24+63+7+0+16 = 110
#   Ben  24+63+6+7+12 = 112, 5 warnings: the 4th and the 5th cost 5 each: 102
#   Cleo 0+13+4+7+12 = 36, a solo on move 3 (9 before the penalty, alone on the top): +10 = 46
#   Dan  12+0+8+6+16 = 42, 1 warning
#   Eve  0+0+7+6+12 = 25
EXPECTED = [
    DuplicateStanding(1, "Ana", 110, -9, 92.4),
    DuplicateStanding(2, "Ben", 102, -17, 85.7, warnings=5, deduction=10),
    DuplicateStanding(3, "Cleo", 46, -73, 38.7, solos=1),
    DuplicateStanding(4, "Dan", 42, -77, 35.3, warnings=1),
    DuplicateStanding(5, "Eve", 25, -94, 21.0),
]
EXPECTED_SCORES = {
    "Ana": [24, 63, 7, 0, 16],
    "Ben": [24, 63, 6, 7, 12],
    "Cleo": [0, 13, 4, 7, 12],
    "Dan": [12, 0, 8, 6, 16],
    "Eve": [0, 0, 7, 6, 12],
}
EXPECTED_FAULTS = {
    1: {"Ana": Fault.CLEAN, "Ben": Fault.FIRST_MOVE, "Cleo": Fault.NOT_A_WORD, "Dan": Fault.CLEAN},
    2: {"Ana": Fault.CLEAN, "Ben": Fault.UNCIRCLED_JOKER, "Cleo": Fault.CLEAN, "Dan": Fault.LATE},
    3: {"Ana": Fault.CLEAN, "Ben": Fault.REVERSED_REF, "Cleo": Fault.MISPLACED, "Dan": Fault.WRONG_SCORE},
    4: {"Ana": Fault.NOT_A_WORD, "Ben": Fault.WRONG_SCORE, "Cleo": Fault.CLEAN, "Dan": Fault.CLEAN},
    5: {"Ana": Fault.CLEAN, "Ben": Fault.WRONG_CIRCLE, "Cleo": Fault.CLEAN, "Dan": Fault.CLEAN},
}


def play_script(settings: DuplicateSettings = FISF, rounds: int = len(SCRIPT)) -> DuplicateGame:
    """The scripted game, played move by move with the real move generator on the small list."""
    game = DuplicateGame(FRENCH, PLAYERS, settings, lexicon_name="sanctions")
    finder = movegen_top_finder(LEXICON, FRENCH, settings)
    for number, (draw, answers) in enumerate(SCRIPT[:rounds], 1):
        if number == 3:
            game.join("Eve")  # a late arrival (6.2)
        start = 1000.0 * number
        kept = game.last_closed.reliquat if game.last_closed is not None else ""
        game.draw_manual(kept + draw if draw.startswith("+") else draw, at=start)
        for player, (move, claimed, after) in answers.items():
            game.submit(player, move, claimed, at=start + after)
        game.close_round(finder, LEXICON)
    return game


@pytest.fixture(scope="module")
def scripted() -> DuplicateGame:
    return play_script()


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


# --- the grading table (section 5) -------------------------------------------------------------------------


def board_after(rounds: int) -> tuple[Board, str]:
    """The board the scripted game's move ``rounds + 1`` is played on, and that move's draw."""
    game = play_script(rounds=rounds + 1)
    round_ = game.closed_rounds[rounds]
    assert round_.board_before is not None
    assert round_.draw is not None
    return round_.board_before, round_.draw.letters


BOARDS = {n: board_after(n) for n in (0, 2, 3, 4)}


def exact(board: Board, move: str) -> int:
    """The score of a reading, from core's scoring alone (what the paid score is compared with)."""
    return score_placement(validate_move(board, parse_move(move)), FRENCH).total


# (clause, board: moves played before, answer, claimed, fault, paid: a reading whose exact score is paid,
#  or a number of points); each clause starts with the section the fault is graded by
GRADING = [
    ("5.3.1 exact score", 2, "4F LIMES", 8, Fault.CLEAN, "4F LIMES"),
    ("5.3.1 no score claimed", 2, "4F LIMES", None, Fault.CLEAN, "4F LIMES"),
    ("5.3.2 wrong score", 2, "4F LIMES", 9, Fault.WRONG_SCORE, "4F LIMES"),
    ("5.5 joker not marked", 4, "4D TARIES", None, Fault.UNCIRCLED_JOKER, "4D tARIES"),
    ("5.5 joker on another letter", 4, "4D TARiES", None, Fault.WRONG_CIRCLE, "4D tARIES"),
    ("5.5 joker marked, the draw holds the letter", 2, "4F LIMeS", None, Fault.WRONG_CIRCLE, "4F LIMES"),
    ("5.3 reference reversed", 2, "2H ES", None, Fault.REVERSED_REF, "H2 ES"),
    ("5.3 reference reversed, score claimed", 2, "2H ES", 6, Fault.REVERSED_REF, "H2 ES"),
    ("5.6 misplaced, the claimed score exists", 2, "1A TUE", 9, Fault.MISPLACED, 4),
    ("5.6 misplaced, 4 points or less: zero", 3, "A1 ES", 2, Fault.MISPLACED_TO_ZERO, 0),
    ("5.4.1.c misplaced with no score claimed", 2, "1A TUE", None, Fault.GRID_ERROR, 0),
    ("5.7 word not allowed", 3, "2I SOLI", None, Fault.NOT_A_WORD, 0),
    ("5.7 cross-word not allowed", 2, "F4 LIMES", None, Fault.NOT_A_WORD, 0),
    ("5.4.1.c grid error", 2, "O1 TUE", None, Fault.GRID_ERROR, 0),
    ("5.4.1.d letter error", 2, "4F LIMEZ", None, Fault.LETTER_ERROR, 0),
    ("5.4.1.a unreadable", 2, "4F LI-ME", None, Fault.UNREADABLE, 0),
    ("5.3.1 first move, the word's best score", 0, "H4 NEZ", 24, Fault.CLEAN, 24),
    ("5.4.2.a first move, wrong score", 0, "H8 NEZ", 23, Fault.FIRST_MOVE, 24),
    ("5.3.1 first move off the centre, paid the best", 0, "A1 NEZ", None, Fault.CLEAN, 24),
]


@pytest.mark.parametrize(("clause", "before", "move", "claimed", "fault", "paid"), GRADING, ids=[g[0] for g in GRADING])
def test_grading_table_section_5(
    clause: str, before: int, move: str, claimed: int | None, fault: Fault, paid: str | int
) -> None:
    board, draw = BOARDS[before]
    result = grade_submission(
        board, draw, MoveSubmitted("P", move, claimed), lambda w: w in LEXICON, FRENCH, FISF.notation, Sanctions.FISF
    )
    assert result.fault is fault
    assert clause.split()[0] == fault.section
    expected = paid if isinstance(paid, int) else exact(board, paid)
    assert result.score == expected
    assert result.valid == (fault.grade is not Grade.ZERO)
    if fault is Fault.MISPLACED:
        assert result.penalty == 5
        assert result.score + result.penalty == claimed


def test_at_most_one_warning_per_move_5_8() -> None:
    board, draw = BOARDS[4]
    result = grade_submission(
        board, draw, MoveSubmitted("P", "4D TARiES", 99), lambda w: w in LEXICON, FRENCH, FISF.notation, Sanctions.FISF
    )
    assert result.fault is Fault.WRONG_CIRCLE
    assert result.claimed_differs


def test_a_late_answer_stays_zero_whatever_it_says() -> None:
    board, draw = BOARDS[2]
    result = grade_submission(
        board,
        draw,
        MoveSubmitted("P", "2H ES", 6),
        lambda w: w in LEXICON,
        FRENCH,
        FISF.notation,
        Sanctions.FISF,
        late_by=3.0,
    )
    assert (result.verdict, result.score, result.fault) == (SubmissionResult.LATE, 0, Fault.LATE)


def test_without_sanctions_nothing_is_graded() -> None:
    board, draw = BOARDS[4]
    result = grade_submission(
        board, draw, MoveSubmitted("P", "4D TARIES"), lambda w: w in LEXICON, FRENCH, FISF.notation, Sanctions.NONE
    )
    assert (result.verdict, result.score, result.fault) == (SubmissionResult.NOT_IN_DRAW, 0, None)


def test_every_public_name_of_the_sanctions_modules_is_importable_from_the_package() -> None:
    import importlib

    import core.duplicate as package

    for job in ("sanctions", "grading"):
        module = importlib.import_module(f"core.duplicate.{job}")
        for name, value in vars(module).items():
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__:
                assert getattr(package, name) is value, f"core.duplicate.{job}.{name}"
                assert name in package.__all__


# --- the console -------------------------------------------------------------------------------------------

CONSOLE = """Ref: /duplicate 3 manuel sanctions
Ref: /tirage EEEISU?
Cleo> /jouer H8 ESSUIE
Ana> /jouer H8 ESSUiE 99
Ben> /jouer H8 ESSUIEZ
Ref: /cloture
Ref: /corrige Cleo 1 lever joker lu sur le bulletin
Ref: /corrige Ben 1 lever
Ref: /corrige Ben 1 lever pourquoi pas
Ref: /feuille
"""


@pytest.mark.long(3)
def test_the_console_grades_an_uncircled_joker_as_a_warning(tmp_path: Path) -> None:
    output = run_console(CONSOLE, tmp_path / "game.sqlite")
    assert "Sanctions FISF (section 5 du règlement)" in output
    assert "Reçu pour le coup 1 : H8 ESSUIE. Votre réponse sera jugée à la clôture, comme un bulletin" in output
    assert "Cleo : H8 ESSUIE 12 — avertissement (§ 5.5 : joker non indiqué)" in output
    assert "Ana : H8 ESSUiE 12 [annoncé 99] — avertissement (§ 5.5 : joker indiqué sur une autre lettre)" in output
    assert "[-> cleo] Coup 1 : votre réponse H8 ESSUIE vaut 12 — avertissement (§ 5.5 : joker non indiqué)." in output
    assert "Vous avez 1 avertissement ; à partir du 4e" in output
    assert "Ben : H8 ESSUIEZ 0" in output
    assert "zéro (§ 5.4.1.d : erreur de lettre)" in output
    assert "Sanction levée pour Cleo au coup 1 : joker lu sur le bulletin." in output
    assert "Syntaxe : /corrige" in output  # no reason given: nothing lifted
    assert "Ben, coup 1 : pas d'avertissement ni de pénalité à lever." in output
    assert "coup 1, Cleo, sanction levée : joker lu sur le bulletin" in output
    assert "coup 1, Ana : avertissement (§ 5.5 : joker indiqué sur une autre lettre)" in output
    standings = output.rsplit("Classement après 1 coup, top cumulé", 1)[1]  # the text's (not the image's line)
    assert "avert." in standings


def test_a_box_rules_channel_plays_without_sanctions_in_the_console(tmp_path: Path) -> None:
    script = "Ref: /duplicate 3 manuel\nRef: /tirage EEEISU?\nCleo> /jouer H8 ESSUIE\nRef: /cloture\n"
    output = run_console(script, tmp_path / "game.sqlite")
    assert "Sanctions FISF" not in output
    assert "avert." not in output
    assert "§" not in output
    assert "Cleo : H8 ESSUIE 0 — joker à écrire en minuscule pour S" in output


def test_the_same_answer_of_another_player_is_graded_once() -> None:
    board, draw = BOARDS[4]
    looked_up: list[str] = []

    def is_word(word: str) -> bool:
        looked_up.append(word)
        return word in LEXICON

    same: dict[tuple[str, int | None, str | None], SubmissionResult] = {}
    first = grade_submission(
        board, draw, MoveSubmitted("P", "4D TARIES"), is_word, FRENCH, FISF.notation, Sanctions.FISF, same=same
    )
    count = len(looked_up)
    second = grade_submission(
        board, draw, MoveSubmitted("Q", "4D TARIES"), is_word, FRENCH, FISF.notation, Sanctions.FISF, same=same
    )
    assert count > 0
    assert len(looked_up) == count
    assert second == dataclasses.replace(first, player="Q")
    assert first.fault is Fault.UNCIRCLED_JOKER


# --- the chat commands ---------------------------------------------------------------------------------


def test_the_fisf_rule_set_brings_the_sanctions_and_training_takes_them_off(club: Club) -> None:
    club.ok("Ref", "/settings rules fisf", admin=True)
    club.ok("Ref", "/duplicate 3 manuel")
    assert club.events("start")[0]["settings"]["sanctions"] == "fisf"
    club.ok("Ref", "/duplicate 3 manuel entrainement !")
    assert "sanctions" not in club.events("start")[0]["settings"]
    club.ok("Ref", "/settings rules box-fr", admin=True)
    club.ok("Ref", "/duplicate 3 manuel sanctions !")
    assert club.events("start")[0]["settings"]["sanctions"] == "fisf"


@pytest.mark.parametrize(
    ("lang", "lift", "ack", "feedback", "lifted"),
    [
        (
            "fr",
            "lever",
            "Votre réponse sera jugée à la clôture, comme un bulletin (sanctions FISF : ni score ni sanction avant)",
            "votre réponse H8 ESSUIE vaut 12",
            "Sanction levée pour Cleo au coup 1",
        ),
        (
            "en",
            "lift",
            "Your answer will be judged at the close, as a slip is (FISF sanctions: no score and no sanction before)",
            "your answer H8 ESSUIE scores 12",
            "Sanction lifted for Cleo on move 1",
        ),
    ],
)
def test_a_warning_told_privately_and_lifted_by_the_referee(
    club: Club, lang: str, lift: str, ack: str, feedback: str, lifted: str
) -> None:
    club.ok("Ref", f"/settings language {lang}", admin=True)
    club.ok("Ref", "/duplicate 3 manual sanctions")
    club.ok("Ref", "/draw EEEISU?")
    assert ack in club.ok("Cleo", "/play H8 ESSUIE", private=True)
    club.ok("Ana", "/play H8 EsSUIE 12", private=True)
    closing = club.send("Ref", "/close")
    private = [r for r in closing if r.private]
    assert [r.to_user for r in private] == ["u:cleo"]
    assert feedback in private[0].text
    club.refused("Ref", f"/correct Ana 1 {lift} no reason to")  # nothing to lift: nothing stored
    club.refused("Ref", f"/correct Cleo 1 {lift}")  # a reason is required
    assert lifted in club.ok("Ref", f"/correct Cleo 1 {lift} circle seen on the slip")
    assert club.events("lift") == [{"kind": "lift", "player": "Cleo", "round": 1, "reason": "circle seen on the slip"}]


def test_a_lifted_sanction_keeps_the_close_as_a_correction_does(scripted: DuplicateGame) -> None:
    game = DuplicateGame.from_events(scripted.events)
    assert game.can_take_back_close() is None
    game.lift("Ben", 5, "circle seen on the slip")
    assert game.can_take_back_close() is TakeBackBlock.CORRECTED_SINCE


def test_the_standings_image_has_the_warnings_column(scripted: DuplicateGame) -> None:
    scene = standings_scene(duplicate_texts.standings_view("fr", scripted))
    assert [label.text for label in scene.labels if label.role == "head"][-2:] == ["Solos", "Avert."]
    cells = [label.text for label in scene.labels if label.role == "cell"]
    ben = cells.index("Ben")
    assert cells[ben : ben + 5] == ["Ben", "102", "−17", "85,7", "5 (−10)"]
    plain = play_script(DuplicateSettings(solo_min_players=4))
    heads = [label.text for label in standings_scene(duplicate_texts.standings_view("fr", plain)).labels]
    assert "Avert." not in heads


@pytest.mark.parametrize(
    ("lang", "start", "draw", "play", "close", "moved", "warned", "note"),
    [
        (
            "fr",
            "/duplicate 3 manuel sanctions",
            "/tirage CHANTEZ",
            "/jouer",
            "/cloture",
            " — premier coup : compté à sa meilleure place, H6 (§ 5.4.2.a)",
            " — compté en H6",
            "meilleure place : H6",
        ),
        (
            "en",
            "/duplicate 3 manual sanctions",
            "/draw CHANTEZ",
            "/play",
            "/close",
            " — first move: counted at its best place, H6 (§ 5.4.2.a)",
            " — counted at H6",
            "best place: H6",
        ),
    ],
)
def test_a_first_move_written_elsewhere_says_where_it_was_counted_5_4_2_a(
    club: Club, lang: str, start: str, draw: str, play: str, close: str, moved: str, warned: str, note: str
) -> None:
    """The word is paid its best place's score (H6 CHANTEZ, Z on the double letter H12: 112) whatever the
    reference; the results say where, so that 112 beside H4 CHANTEZ (98 there) reads right."""
    club.ok("Ref", f"/settings language {lang}", admin=True)
    club.ok("Ref", start)
    club.ok("Ref", draw)
    club.ok("Ana", f"{play} H4 CHANTEZ", private=True)  # 98 where written
    club.ok("Ben", f"{play} 8D CHANTEZ 100", private=True)  # vertical, a wrong score: a warning
    club.ok("Cleo", f"{play} H6 CHANTEZ", private=True)  # at the best place
    closed = club.ok("Ref", close)
    lines = {
        name: next(line for line in closed.splitlines() if line.startswith((f"{name} : ", f"{name}: ")))
        for name in ("Ana", "Ben", "Cleo")
    }
    assert "H4 CHANTEZ 112" in lines["Ana"]
    assert lines["Ana"].endswith(moved)
    assert "5.4.2.a" in lines["Ben"]
    assert lines["Ben"].endswith(warned)
    assert "H6 CHANTEZ 112" in lines["Cleo"]
    assert "5.4.2.a" not in lines["Cleo"]
    record = club.storage.active_game(CHANNEL)
    assert record is not None
    game = load_game(club.storage, record)
    round_ = game.closed_rounds[0]
    notes = {row.player: row.note for row in duplicate_texts.result_view(lang, game, round_).rows}
    assert notes["Ana"] == note
    assert notes["Cleo"] == ""


def test_without_sanctions_a_first_move_counts_where_written(club: Club) -> None:
    club.ok("Ref", "/duplicate 3 manuel")
    club.ok("Ref", "/tirage CHANTEZ")
    club.ok("Ana", "/jouer H4 CHANTEZ", private=True)
    closed = club.ok("Ref", "/cloture")
    line = next(line for line in closed.splitlines() if line.startswith("Ana : "))
    assert line == "Ana : H4 CHANTEZ 98"
