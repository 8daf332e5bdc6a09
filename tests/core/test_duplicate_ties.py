"""The duplicate game's tied tops, solos, and draws with no play."""

from __future__ import annotations

from typing import Any

import pytest

from core.board import Board
from core.duplicate import (
    DrawMade,
    DrawRejected,
    DuplicateEvent,
    DuplicateGame,
    MoveSubmitted,
    SoloRule,
    movegen_top_finder,
)
from core.edition import FRENCH
from core.errors_duplicate import LetterNotInBagError
from core.lexicon import Lexicon
from core.notation import parse_move
from core.placement import validate_move
from core.scoring import score_placement
from core.tie import TieRule
from tests.core.duplicate_finders import (
    SMALL_WORDS,
    BruteTop,
    FoundPlay,
    FoundTop,
    first_round,
)

# --- ties, solos, no play --------------------------------------------------------------------


def test_ties_are_recorded_with_the_rule_that_broke_them() -> None:
    game = first_round(["A"])
    closed = game.close_round(BruteTop(["ZEN", "NEZ"]), {"ZEN", "NEZ"})
    assert closed.top == "H6 NEZ"
    assert closed.tie_rule == "order"
    assert set(closed.tied) >= {"H6 ZEN", "H7 NEZ", "H8 ZEN", "H8 NEZ"}
    line = game.record()[0]
    assert line.tie_rule == "order"
    assert "H8 ZEN" in line.tied
    assert line.score == 24


def test_the_draws_since_a_close_can_be_made_again_after_another_top_of_the_same_tiles() -> None:
    game = first_round(["A"])
    game.close_round(BruteTop(["ZEN", "NEZ"]), {"ZEN", "NEZ"})  # NEZ placed, AIRT left
    made: list[DuplicateEvent] = [
        game.draw_manual("AIRT+EEL"),
        game.reject_draw(),
        game.draw_manual("AEEILRT", at=2000.0),
    ]
    assert game.draws_since_close() == made
    game.choose_top("H8 ZEN")
    assert game.current is None
    assert game.draws_since_close() == []
    assert game.draw_again(made) == made
    assert game.current is not None
    assert str(game.current.draw) == "AEEILRT"
    assert game.current.opened_at == 2000.0
    assert game.draws_since_close() == made


def test_draws_that_the_bag_no_longer_allows_are_not_made_again() -> None:
    game = first_round(["A"])
    game.close_round(BruteTop(["ZEN", "NEZ"]), {"ZEN", "NEZ"})
    game.choose_top("H8 ZEN")
    events, board = list(game.events), game.board.rows()
    with pytest.raises(LetterNotInBagError):  # the only Z was played: ZZZ cannot be drawn
        game.draw_again([DrawMade("AIRT+EEL"), DrawRejected(), DrawMade("AEIOZZZ")])
    assert game.events == events
    assert game.board.rows() == board
    assert game.current is None
    with pytest.raises(TypeError):
        game.draw_again([MoveSubmitted("A", "H8 ZEN")])


def test_a_reopening_keeps_the_draws_shown_to_be_made_again_once_the_round_closes_again() -> None:
    game = first_round(["A"])
    top = BruteTop(["ZEN", "NEZ"])
    game.close_round(top, {"ZEN", "NEZ"})
    shown = [game.draw_manual("AIRT+EEL", at=1000.0), game.reject_draw(), game.draw_manual("AEEILRT", at=1001.0)]
    assert game.draws_before_reopening() == []  # no reopening yet
    game.reopen(1010.0, 45)
    assert game.current is not None
    assert game.current.number == 1
    assert game.draws_before_reopening() == []  # not closed again yet
    game.close_round(top, {"ZEN", "NEZ"})
    assert game.draws_before_reopening() == shown
    again = game.draw_again(game.draws_before_reopening(), at=1060.0)
    assert [type(e) for e in again] == [type(e) for e in shown]
    assert game.current is not None
    assert str(game.current.draw) == "AEEILRT"
    assert game.current.opened_at == 1060.0
    assert game.deadline() == 1060.0 + game.settings.seconds
    assert game.draws_before_reopening() == []  # made again: nothing more to make
    replayed = DuplicateGame.from_events(game.events)
    assert str(replayed.current.draw if replayed.current else "") == "AEEILRT"
    game.reopen(1070.0, 30)  # reopened a second time: the draw made again is the one kept
    game.close_round(top, {"ZEN", "NEZ"})
    assert [getattr(e, "draw", "-") for e in game.draws_before_reopening()] == ["AIRT+EEL", "-", "AEEILRT"]


def test_movegen_tie_rule_is_recorded() -> None:
    game = first_round(["A"])
    lexicon = Lexicon.from_words(["ZEN", "NEZ"])
    closed = game.close_round(movegen_top_finder(lexicon, FRENCH), lexicon)
    assert closed.top == "H6 NEZ"
    assert closed.tie_rule == "order"
    assert "H8 ZEN" in closed.tied


def test_tie_rule_given_by_the_finder_is_kept() -> None:
    game = first_round(["A"], draw="EINRTZ?")
    plays = [
        FoundPlay(p, score_placement(p, FRENCH), p.jokers)
        for p in (validate_move(Board(), parse_move(m)) for m in ("H8 ZEN", "H8 ZeN"))
    ]
    closed = game.close_round(lambda board, rack: FoundTop(tuple(plays), TieRule.FEWEST_JOKERS), set())
    assert closed.top == "H8 ZEN"
    assert closed.tie_rule is TieRule.FEWEST_JOKERS
    assert closed.tied == ()


def test_solo_needs_enough_players_and_is_alone_on_the_top() -> None:
    settings: dict[str, Any] = {"solo_min_players": 3}
    game = first_round(["A", "B", "C"], **settings)
    game.submit("A", "H8 ZEN")
    game.submit("B", "H8 ZE")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    round_ = game.closed_rounds[0]
    assert game.solo(round_) == "A"
    standings = {s.player: s for s in game.standings()}
    assert standings["A"].total == 34
    assert standings["A"].solos == 1
    assert standings["A"].gap == 10
    assert game.record()[0].solo == "A"
    assert game.record()[0].scores == (("A", 24), ("B", 0), ("C", 0))

    shared = first_round(["A", "B", "C"], **settings)
    shared.submit("A", "H8 ZEN")
    shared.submit("B", "H6 ZEN")
    shared.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert shared.solo(shared.closed_rounds[0]) is None

    too_few = first_round(["A", "B"], **settings)
    too_few.submit("A", "H8 ZEN")
    too_few.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert too_few.solo(too_few.closed_rounds[0]) is None


def test_solo_on_the_best_player_score_unless_the_top_is_required() -> None:
    for rule, expected in ((SoloRule.TOP, None), (SoloRule.BEST, "A")):
        game = first_round(["A", "B"], solo_min_players=2, solo=rule, solo_bonus=5)
        game.submit("A", "H8 NE")
        game.submit("B", "A1 ZEN")
        game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
        assert game.solo(game.closed_rounds[0]) == expected


def test_no_play_possible_draws_again() -> None:
    # FISF 3.6: no play for the draw -> its letters go back to the bag and a different draw is made (this
    # test said the game ended; 3.7 ends it only when no different draw can be made:
    # tests/core/test_fisf_top_and_end.py)
    game = first_round(["A"], draw="AEINRTZ")
    closed = game.close_round(BruteTop(["QI"]), {"QI"})
    assert closed.top is None
    assert not game.finished
    assert game.end_reason is None
    assert len(game.bag) == 102
    assert game.reliquat == ""
    assert game.record()[0].score == 0
    assert game.record()[0].ref == ""
    game.draw_manual("ABCDEFG")
    assert game.current is not None
    assert game.current.number == 2
