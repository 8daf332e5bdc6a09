"""Game clocks of classic games (issue 26; docs/rules.md "Game clocks"; FISF classic rules, 6 "La
limitation de temps"): the chess clock, FISF's out of time, NASPA/WESPA overtime, the stopwatch, the
referee's pause, and a restart, with the referee's clock moved by the test."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.chat import Reply
from bot.cli import main
from core.classic_clock import Mark, PlayerTime, overtime_points, read_clock
from core.gcg import read_gcg
from core.rules import ClockMode, rule_set_by_code
from tests.club import START, Club

# --- the clock's arithmetic ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("over_seconds", "minutes", "points"),
    [
        (0, 0, 0),
        (1, 1, 10),  # NASPA, WESPA: 10 points per minute or part of a minute over
        (60, 1, 10),
        (61, 2, 20),
        (150, 3, 30),
        (600, 10, 100),
        (900, 15, 100),  # counted up to the limit (10 minutes), where the game is ended
    ],
)
def test_overtime_is_ten_points_per_started_minute(over_seconds: int, minutes: int, points: int) -> None:
    rules = rule_set_by_code("naspa")
    time = PlayerTime("Ana", 25 * 60 + over_seconds, 25 * 60, flagged=False)
    assert time.overtime_minutes == minutes
    assert overtime_points(rules, time) == points


def test_fisf_has_no_overtime_points() -> None:
    time = PlayerTime("Ana", 40 * 60, 30 * 60, flagged=True)  # FISF 6: out of time, no points taken
    assert overtime_points(rule_set_by_code("fisf"), time) == 0


def test_the_clock_runs_for_the_player_to_move_and_stops_when_paused() -> None:
    rules = dataclasses.replace(rule_set_by_code("fisf"), clock=ClockMode.CHESS)
    marks = [
        Mark(0.0, "Ana", False, 0),
        Mark(50.0, "Ben", False, 1),  # Ana moved after 50 s
        Mark(80.0, "Ben", True, 1),  # paused 30 s into Ben's move
        Mark(1000.0, "Ben", False, 1),  # resumed
    ]
    reading = read_clock(rules, ("Ana", "Ben"), marks, 1010.0)
    assert [t.used for t in reading.times] == [50.0, 40.0]
    assert reading.running_for == "Ben"
    assert reading.deadline == 1010.0 + 30 * 60 - 40


# --- in the chat -----------------------------------------------------------------------------------


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


def test_fisf_a_player_runs_out_of_time_and_the_other_plays_on_alone(club: Club) -> None:
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    assert "pendule 30 min par joueur" in club.ok("Ana", "/reglages pendule oui")
    club.now += 60
    assert "Pendule : Ana 29:00 · Ben 30:00 — tourne pour Ben" in club.ok("Ana", "/coup H8 VAGUE")
    assert club.tick(30 * 60 - 1) == []  # Ben has a second left: nothing to do
    club.now += 1
    refused = club.refused("Ben", "/coup 9H AS")  # his time is over, before the clock's tick says so
    assert refused == "Ben n'a plus de temps : le coup n'est pas pris."
    said = texts(club.tick(0))
    assert "⏱ Ben n'a plus de temps : il ne joue plus, Ana continue seul (sans échange)." in said
    assert "Pendule : Ana 29:00 · Ben temps écoulé — tourne pour Ana" in said
    assert [e["player"] for e in club.events("flagged")] == ["Ben"]
    club.now += 30
    assert "À Ana de jouer." in club.ok("Ana", "/coup 9H AS")  # Ana plays again: Ben is passed over
    assert club.refused("Ana", "/change ABC") == (
        "Ana joue seul après le temps écoulé de l'adversaire : pas d'échange (règle FISF)."
    )
    assert "Ana passe.\nScores : Ana 23 · Ben 0\nÀ Ana de jouer." in club.ok("Ana", "/passe")  # hers again
    assert texts(club.tick(28 * 60 + 29)) == ""
    said = texts(club.tick(1))  # Ana's time is over too (FISF 8: each loses their own rack)
    assert "⏱ Ana n'a plus de temps non plus : terminez la partie avec /fin et les lettres restantes." in said
    assert "1. Ana 22 (23 -1)\n2. Ben -11 (0 -11)" in club.ok("Ana", "/fin Ana=E Ben=ZE !")
    # the GCG record says why Ana then plays twice, and reads back with Ben out of time (issue 37, item 8)
    record = next(r.document for r in club.send("Ana", "/export") if r.document is not None).decode("utf-8")
    lines = record.splitlines()
    flagged = lines.index("#note arbitre: Ben out of time, the other plays on alone (FISF)")
    assert lines[flagged - 1].startswith(">Ana: AEGUV 8H VAGUE")
    assert lines[flagged + 1].startswith(">Ana: S I8 .S")
    assert "#note arbitre: Ana out of time, the other plays on alone (FISF)" in lines
    again = read_gcg(record)
    assert again.error is None
    assert again.game.flagged == {"Ana", "Ben"}
    assert again.game.totals() == {"Ana": 22, "Ben": -11}


def _naspa_with_overtime(club: Club, over_seconds: int) -> None:
    club.ok("Ana", "/nouvelle naspa Ana Ben")
    assert "pendule 25 min par joueur" in club.ok("Ana", "/reglages pendule 25")
    club.now += 25 * 60 + over_seconds
    said = club.ok("Ana", "/coup H8 VAGUE")
    assert f"Ana +{over_seconds // 60}:{over_seconds % 60:02d} (dépassement, -30)" in said


def test_naspa_three_minutes_of_overtime_cost_thirty_points(club: Club, tmp_path: Path) -> None:
    _naspa_with_overtime(club, 150)  # 2:30 over: 3 started minutes
    club.now += 10
    club.ok("Ben", "/coup 9H AS")
    ended = club.ok("Ana", "/fin Ana=E Ben=EAU !")
    assert "Dépassement de temps : Ana -30 (3 min)." in ended
    assert [(e["player"], e["points"]) for e in club.events("time_penalty")] == [("Ana", 30)]
    assert "1. Ben 0 (3 -3)\n2. Ana -11 (-10 -1)" in ended  # 20 - 30 for the overtime, - 1 for her E
    record = next(r.document for r in club.send("Ana", "/export") if r.document is not None).decode("utf-8")
    time_lines = [line for line in record.splitlines() if "(time)" in line]
    assert time_lines
    assert time_lines[0].startswith(">Ana:")
    assert time_lines[0].split()[-2:] == ["-30", "-10"]
    path = tmp_path / "overtime.gcg"
    path.write_text(record, encoding="utf-8")
    assert main(["replay", str(path)]) == 0  # the time penalty line replays, every total agrees


def test_an_end_taken_back_does_not_take_the_overtime_twice(club: Club) -> None:
    _naspa_with_overtime(club, 150)
    club.ok("Ben", "/coup 9H AS")
    club.ok("Ana", "/fin Ana=E Ben=EAU !")
    club.ok("Ana", "/annule")  # a wrong rack typed: the end is taken back, the game goes on
    ended = club.ok("Ana", "/fin Ana=E Ben=E !")
    assert "Dépassement" not in ended  # already on the sheet
    assert [(e["player"], e["points"]) for e in club.events("time_penalty")] == [("Ana", 30)]


def test_naspa_the_game_is_ended_at_the_overtime_limit(club: Club) -> None:
    _naspa_with_overtime(club, 150)
    club.ok("Ben", "/coup 9H AS")  # Ben answers at once: Ana's clock runs again, 2:30 over
    assert texts(club.tick(7 * 60 + 29)) == ""
    club.now += 1
    assert club.refused("Ana", "/coup 8G AVE") == "Ana n'a plus de temps : le coup n'est pas pris."
    said = texts(club.tick(0))
    assert "⏱ Ana dépasse de 10 min : la partie est arrêtée." in said
    assert "Dépassement de temps : Ana -100 (10 min)." in said
    assert club.storage.games("club")[-1].status == "ended"
    assert club.storage.deadlines() == []


def test_stopwatch_the_turn_passes_after_two_minutes(club: Club) -> None:
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    assert "chrono, 120 s par coup" in club.ok("Ana", "/reglages pendule chrono")
    club.now += 30
    assert "Chrono : Ben, 2:00 pour ce coup" in club.ok("Ana", "/coup H8 VAGUE")
    assert texts(club.tick(119)) == ""
    said = texts(club.tick(1))
    assert "⏱ 2:00 écoulées pour ce coup : Ben passe son tour." in said
    assert "Chrono : Ana, 2:00 pour ce coup" in said  # the stopwatch starts again for Ana
    passes = [e for e in club.storage.events(club.storage.games("club")[-1].id) if e.data["kind"] == "pass"]
    assert [(e.data["player"], e.author) for e in passes] == [("Ben", "clock")]
    club.now += 100
    assert "Chrono : Ben, 2:00 pour ce coup" in club.ok("Ana", "/coup 9H AS")


def test_a_restart_keeps_the_clocks(club: Club) -> None:
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    club.ok("Ana", "/reglages pendule 10")
    club.now += 125
    club.ok("Ana", "/coup H8 VAGUE")
    club.now += 200
    club.ok("Ben", "/coup 9H AS")
    club.now += 15
    before = club.ok("Ana", "/etat")
    assert "Pendule : Ana 7:40 · Ben 6:40 — tourne pour Ana" in before
    club.restart()
    assert club.ok("Ana", "/etat") == before
    assert [d.at for d in club.storage.deadlines()] == [START + 340 + 460]  # Ana's 7:40 from now
    assert texts(club.tick(459)) == ""
    assert "⏱ Ana n'a plus de temps" in texts(club.tick(1))


def test_the_referee_pauses_the_clock(club: Club) -> None:
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    club.ok("Ana", "/reglages pendule 1")
    club.now += 20
    club.ok("Ana", "/coup H8 VAGUE")
    assert "seul l'arbitre" in club.refused("Ben", "/pause").lower()
    paused = club.ok("Ana", "/pause")
    assert "Pendule arrêtée." in paused
    assert "Pendule : Ana 0:40 · Ben 1:00 (en pause)" in paused
    assert club.storage.deadlines() == []
    assert texts(club.tick(3600)) == ""  # an hour paused: nothing runs out
    assert club.refused("Ana", "/pause") == "/pause impossible : le chrono est arrêté."
    assert "Pendule relancée, pour Ben." in club.ok("Ana", "/reprise")
    assert club.refused("Ana", "/reprise") == "/reprise impossible : le chrono est en marche."
    assert texts(club.tick(59)) == ""
    assert "⏱ Ben n'a plus de temps" in texts(club.tick(1))


def test_replies_carry_the_countdown_the_platforms_draw(club: Club) -> None:
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    club.ok("Ana", "/reglages pendule 10")
    club.now += 100
    [played] = club.send("Ana", "/coup H8 VAGUE")
    assert played.deadline == club.now + 600  # Ben's ten minutes, shown live on Discord and Telegram
    club.now += 50
    [status] = club.send("Ana", "/etat")
    assert status.deadline == club.now + 550
    [paused] = club.send("Ana", "/pause")
    assert paused.deadline is None  # nothing counts down while paused


def test_a_game_without_a_clock_shows_none(club: Club) -> None:
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    club.now += 3600
    assert "Pendule" not in club.ok("Ana", "/coup H8 VAGUE")
    assert club.storage.deadlines() == []
    assert club.tick(3600) == []
    no_clock = "Cette partie n'a pas de pendule (/reglages pendule 30 avant le premier coup)."
    assert club.refused("Ana", "/pause") == no_clock
