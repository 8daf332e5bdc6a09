"""The duplicate game's ranking: places, gaps and percentages (FISF rules), and the referee's typed scores."""

from __future__ import annotations

import pytest

from core.duplicate import (
    DuplicateStanding,
    percent_of,
    rank_players,
)
from core.errors import UnknownPlayerError
from core.errors_duplicate import (
    NegativeScoreError,
    RoundNotClosedError,
    ScoreAboveTopError,
)
from tests.core.duplicate_finders import club_game

# --- ranking ------------------------------------------------------------------------------


def test_rules_example_ranking() -> None:
    standings = rank_players([24, 36, 18], {"B": [20, 36, 9], "A": [24, 30, 18]})
    assert standings == [
        DuplicateStanding(1, "A", 72, -6, 92.3),
        DuplicateStanding(2, "B", 65, -13, 83.3),
    ]
    assert str(standings[0]) == "1. A 72 (-6, 92.3 %)"


def test_percent_and_shared_places() -> None:
    assert percent_of(72, 78) == 92.3
    assert percent_of(65, 78) == 83.3
    assert percent_of(1, 8) == 12.5
    assert percent_of(1, 16) == 6.3
    assert percent_of(0, 0) == 0.0
    standings = rank_players([10, 10], {"A": [10, 5], "B": [5, 10], "C": [10, 10], "D": [0, 0]})
    assert [(s.place, s.player, s.gap) for s in standings] == [(1, "C", 0), (2, "A", -5), (2, "B", -5), (4, "D", -20)]
    assert str(standings[0]) == "1. C 20 (0, 100.0 %)"


def test_rules_example_as_a_club_game() -> None:
    game = club_game()
    assert [r.top_points for r in game.closed_rounds] == [24, 36, 18]
    assert game.tops_total == 78
    assert game.standings() == [
        DuplicateStanding(1, "A", 72, -6, 92.3),
        DuplicateStanding(2, "B", 65, -13, 83.3),
    ]
    assert [r.reliquat for r in game.closed_rounds] == ["AIRT", "T", "ES"]
    lines = game.record()
    assert [
        (sheet_line.number, sheet_line.draw, sheet_line.ref, sheet_line.word, sheet_line.score, sheet_line.cumulative)
        for sheet_line in lines
    ] == [
        (1, "AEINRTZ", "H8", "ZEN", 24, 24),
        (2, "AIRT+DHM", "11H", "DIRHAM", 36, 60),
        (3, "T+BELOSU", "L7", "BOULAT", 18, 78),
    ]
    assert lines[1].scores == (("A", 30), ("B", 36))
    assert [(s.place, s.player, s.total, s.gap, s.percent) for s in game.standings()] == [
        (1, "A", 72, -6, 92.3),
        (2, "B", 65, -13, 83.3),
    ]


def test_score_above_the_top_is_a_typing_error() -> None:
    game = club_game()
    events = len(game.events)
    with pytest.raises(ScoreAboveTopError, match="B, move 2: 63 is above the top 36") as info:
        game.record_score("B", 2, 63)
    assert info.value.score == 63
    assert info.value.top == 36
    assert len(game.events) == events
    assert game.standings()[1].total == 65
    with pytest.raises(NegativeScoreError, match="-3"):
        game.record_score("B", 2, -3)
    with pytest.raises(RoundNotClosedError, match="round 4 is not closed"):
        game.record_score("B", 4, 3)
    with pytest.raises(UnknownPlayerError, match="'Z'"):
        game.record_score("Z", 1, 3)
    game.record_score("B", 2, 0)  # a correction replaces the earlier entry
    assert game.standings()[1].total == 29
