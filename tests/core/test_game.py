"""The classic game engine: every event type and each rule set's differences."""

from __future__ import annotations

import pytest

from core.edition import ENGLISH, FRENCH
from core.errors import DuplicatePlayerError, GameOverError, PlacementError, UnknownPlayerError
from core.errors_classic import (
    ExchangeNotAllowedError,
    GameStartedError,
    NothingToChallengeError,
    NothingToUndoError,
    PlayerCountError,
    RackSpecError,
    WordNotInMoveError,
)
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
    Setting,
    TimePenalty,
    Undo,
    Withdrawn,
    event_from_dict,
    event_to_dict,
)
from core.game import ClassicGame, TileCountAlert, standing_events
from core.notation import Notation
from core.ranking import shared_places
from core.rules import RULE_SETS, rule_set_by_code


def fisf_game(rules: str = "fisf", players: tuple[str, ...] = ("Ana", "Ben")) -> ClassicGame:
    return ClassicGame(FRENCH, rule_set_by_code(rules), players)


def test_plays_alternate_and_totals_add_up() -> None:
    game = fisf_game()
    for event in [Play("Ana", "H7 HANTEZ"), Play("Ben", "6F FACADES"), Play("Ana", "G8 HUES")]:
        game.apply(event)
    assert [line.points for line in game.lines] == [56, 96, 20]
    assert game.totals() == {"Ana": 76, "Ben": 96}
    assert game.to_move == "Ben"
    assert game.lines[1].score is not None
    assert game.lines[1].score.bingo


def test_illegal_play_changes_nothing() -> None:
    game = fisf_game()
    game.apply(Play("Ana", "H8 VAGUE"))
    board_before = game.board.copy()
    with pytest.raises(PlacementError):
        game.apply(Play("Ben", "A1 ZEN"))
    assert game.board == board_before
    assert len(game.lines) == 1
    assert game.to_move == "Ben"
    assert len(game.events) == 1


def test_claimed_score_that_differs_is_noted() -> None:
    game = fisf_game()
    game.apply(Play("Ana", "H4 VAGUE", claimed=24))
    assert (game.lines[0].claimed, game.lines[0].points) == (24, 26)


def test_invalid_word_challenged_removes_the_move() -> None:
    game = fisf_game()
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Play("Ben", "8H VZZ"))
    game.apply(Challenge("Ana", (), ("VZZ",)))
    assert game.lines[1].points == 0
    assert game.lines[1].removed
    assert game.board.get(8, 7) is None
    assert game.board.get(7, 7) is not None
    assert game.totals() == {"Ana": 20, "Ben": 0}
    assert game.to_move == "Ana"


@pytest.mark.parametrize(
    ("rules", "lines", "totals", "to_move"),
    [
        ("box-fr", [("Ben", "lost_turn", 0)], {"Ana": 20, "Ben": 0}, "Ana"),
        ("box-en", [("Ben", "lost_turn", 0)], {"Ana": 20, "Ben": 0}, "Ana"),
        ("fisf", [("Ben", "challenge_penalty", -5)], {"Ana": 20, "Ben": -5}, "Ben"),
        ("naspa", [("Ben", "lost_turn", 0)], {"Ana": 20, "Ben": 0}, "Ana"),
        ("wespa", [("Ana", "challenge_bonus", 5)], {"Ana": 25, "Ben": 0}, "Ben"),
    ],
)
def test_valid_word_challenged_per_rule_set(
    rules: str, lines: list[tuple[str, str, int]], totals: dict[str, int], to_move: str
) -> None:
    game = fisf_game(rules)
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Challenge("Ben", ("VAGUE",), ()))
    assert [(sheet_line.player, sheet_line.kind, sheet_line.points) for sheet_line in game.lines[1:]] == lines
    assert game.totals() == totals
    assert game.to_move == to_move
    assert game.lines[0].points == 20
    assert not game.lines[0].removed


def test_penalty_per_word_counts_the_words_challenged() -> None:
    game = fisf_game("fisf")
    for event in [Play("Ana", "H7 HANTEZ"), Play("Ben", "6F FACADES")]:
        game.apply(event)
    game.apply(Challenge("Ana", ("FACADES", "CHANTEZ"), ()))
    assert game.lines[-1].points == -10


def test_challenge_needs_a_standing_last_play() -> None:
    game = fisf_game()
    with pytest.raises(NothingToChallengeError):
        game.apply(Challenge("Ben", (), ()))
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Pass("Ben"))
    with pytest.raises(NothingToChallengeError):
        game.apply(Challenge("Ben", (), ()))
    game = fisf_game()
    game.apply(Play("Ana", "H8 VAGUE"))
    with pytest.raises(WordNotInMoveError):
        game.apply(Challenge("Ben", ("VOGUE",), ()))


def test_lost_turn_in_three_player_box_game() -> None:
    game = fisf_game("box-fr", ("Ana", "Ben", "Cy"))
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Challenge("Cy", ("VAGUE",), ()))  # Cy is not next: loses the next turn
    assert game.to_move == "Ben"
    game.apply(Pass("Ben"))
    assert game.lines[-1].kind == "lost_turn"
    assert game.lines[-1].player == "Cy"
    assert game.to_move == "Ana"


def test_withdrawn_phony_scores_zero() -> None:
    game = fisf_game("naspa")
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Withdrawn("Ana"))
    assert game.totals()["Ana"] == 0
    assert game.board.is_empty()


@pytest.mark.parametrize(
    ("rules", "events", "limit_after"),
    [
        ("box-fr", ["pass"] * 3, False),
        ("box-fr", ["pass"] * 4, True),
        ("box-fr", ["pass", "pass", "exchange", "pass", "pass"], False),
        ("fisf", ["pass"] * 5, False),
        ("fisf", ["pass", "exchange", "pass", "exchange", "pass", "pass"], True),
        ("naspa", ["pass"] * 6, True),
    ],
)
def test_scoreless_limit_is_flagged_not_enforced(rules: str, events: list[str], limit_after: bool) -> None:
    game = fisf_game(rules)
    if game.rules.scoreless_ends:  # NASPA ends at six zeros by default (test_challenge_options): turned off
        game.apply(Setting("zeros", "off"))
    for kind in events:
        player = game.to_move or ""
        game.apply(Pass(player) if kind == "pass" else Exchange(player, "AB"))
    assert game.scoreless_limit_reached is limit_after
    assert not game.ended
    game.apply(Pass(game.to_move or ""))  # playing on is still possible


def test_going_out_fisf_example() -> None:
    game = fisf_game("fisf")
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(End((("Ana", ""), ("Ben", "EAU"))))
    assert [(sheet_line.player, sheet_line.points) for sheet_line in game.lines if sheet_line.kind == "end"] == [
        ("Ana", 3),
        ("Ben", -3),
    ]
    ana, ben = game.standings()
    assert (ana.player, ana.before, ana.adjustment, ana.final, ana.place) == ("Ana", 20, 3, 23, 1)
    assert (ben.before, ben.adjustment, ben.final, ben.place) == (0, -3, -3, 2)
    with pytest.raises(GameOverError):
        game.apply(Pass("Ben"))


def test_going_out_naspa_adds_twice() -> None:
    game = ClassicGame(ENGLISH, rule_set_by_code("naspa"), ("Ana", "Ben"), Notation.GCG)
    game.apply(Play("Ana", "8H VAGUE"))
    game.apply(End((("Ana", ""), ("Ben", "QI?"))))
    assert game.totals() == {"Ana": 20 + 22, "Ben": 0}


def test_blocked_end_each_subtracts_own_rack() -> None:
    game = fisf_game("wespa")
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(End((("Ana", "KW"), ("Ben", "7"))))
    assert game.totals() == {"Ana": 20 - 20, "Ben": -7}


def test_a_stopped_game_has_nobody_going_out() -> None:
    game = fisf_game("fisf")
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(End((("Ana", ""), ("Ben", "EAU")), stopped=True))  # tiles left in the bag
    ends = [(x.player, x.points, x.went_out) for x in game.lines if x.kind == "end"]
    assert ends == [("Ana", 0, False), ("Ben", -3, False)]
    assert game.totals() == {"Ana": 20, "Ben": -3}


def test_bad_rack_at_end() -> None:
    game = fisf_game()
    with pytest.raises(RackSpecError):
        game.apply(End((("Ana", "E!"), ("Ben", ""))))
    assert not game.ended


def test_ties_share_places() -> None:
    assert shared_places([("a", 10), ("b", 30), ("c", 10), ("d", 5)]) == [
        ("b", 30, 1),
        ("a", 10, 2),
        ("c", 10, 2),
        ("d", 5, 4),
    ]
    game = fisf_game()
    game.apply(Pass("Ana"))
    game.apply(End((("Ana", "E"), ("Ben", "A"))))
    assert [s.place for s in game.standings()] == [1, 1]


def test_undo_removes_the_last_line_and_restores_board() -> None:
    game = fisf_game()
    game.apply(Play("Ana", "H7 HANTEZ"))
    game.apply(Play("Ben", "6F FACADES"))
    game.apply(Undo())
    assert len(game.lines) == 1
    assert game.to_move == "Ben"
    assert game.board.get(5, 5) is None
    game.apply(Play("Ben", "6F FACADES"))
    game.apply(Challenge("Ana", (), ("FACADES",)))
    game.apply(Undo())  # undoes the challenge: the play stands again
    assert game.lines[-1].points == 96
    assert not game.lines[-1].removed
    assert game.board.get(5, 5) is not None


def test_undo_on_empty_sheet() -> None:
    with pytest.raises(NothingToUndoError):
        fisf_game().apply(Undo())


def test_penalties_use_no_turn() -> None:
    game = fisf_game("naspa")
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Penalty("Ana", 10))
    game.apply(TimePenalty("Ben", 10))
    game.apply(ChallengeBonus("Ana", 5))
    assert game.totals() == {"Ana": 15, "Ben": -10}
    assert game.to_move == "Ben"


LOW_BAG_ROWS = [  # 86 tiles on the board: 102 - 86 - 14 on racks = 2 left in the bag
    "AAAAAAAAABBCCDD",
    "DEEEEEEEEEEEEEE",
    "EFFGGHHIIIIIIII",
    "JKLLLLLMMMNNNNN",
    "NOOOOOOPPQRRRRR",
    "RSSSSSSTTTT....",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
]


@pytest.mark.parametrize(("rules", "allowed"), [("box-fr", True), ("box-en", False), ("fisf", False)])
def test_exchange_needs_tiles_in_bag_per_rule_set(rules: str, allowed: bool) -> None:
    from core.board import Board

    game = fisf_game(rules)
    assert game.bag_count() == 102 - 14
    game.board = Board.from_rows(LOW_BAG_ROWS)  # a position reached off-sheet, for the bag count
    assert game.bag_count() == 2
    if allowed:
        game.apply(Exchange("Ana", "AB"))
        assert game.lines[-1].kind == "exchange"
    else:
        with pytest.raises(ExchangeNotAllowedError) as info:
            game.apply(Exchange("Ana", "A"))
        assert (info.value.in_bag, info.value.needed) == (2, 7)
        assert not game.lines


def test_exchange_of_more_tiles_than_the_bag_holds() -> None:
    from core.board import Board

    game = fisf_game("box-fr")
    game.board = Board.from_rows(LOW_BAG_ROWS)
    with pytest.raises(ExchangeNotAllowedError):
        game.apply(Exchange("Ana", "ABC"))


def test_alert_when_a_letter_is_played_too_often() -> None:
    game = fisf_game()
    game.apply(Play("Ana", "H5 KAKI"))
    assert game.alerts == [TileCountAlert("K", 2, 1)]


def test_the_alert_of_a_withdrawn_play_goes_with_it() -> None:
    game = fisf_game()
    game.apply(Play("Ana", "H5 KAKI"))
    game.apply(Challenge("Ben", (), ("KAKI",)))
    assert game.alerts == []
    assert game.unseen()["K"] == 1


def test_players_join_before_the_first_move_only() -> None:
    game = ClassicGame(FRENCH, rule_set_by_code("box-fr"))
    game.apply(Join("Ana"))
    with pytest.raises(PlayerCountError):
        game.apply(Pass("Ana"))
    game.apply(Join("Ben"))
    with pytest.raises(DuplicatePlayerError):
        game.apply(Join("Ben"))
    game.apply(Pass("Ana"))
    with pytest.raises(GameStartedError):
        game.apply(Join("Cy"))
    with pytest.raises(UnknownPlayerError):
        game.apply(Pass("Zoe"))


def test_fisf_with_three_players_falls_back_to_box_rules() -> None:
    game = fisf_game("fisf", ("Ana", "Ben", "Cy"))
    assert game.rules.code == "box-fr"


def test_events_round_trip_through_dicts_give_the_same_sheet() -> None:
    events: list[Event] = [
        Play("Ana", "H7 HANTEZ", claimed=56),
        Play("Ben", "6F FACADES"),
        Challenge("Ana", ("FACADES",), ()),
        Pass("Ben"),
        Exchange("Ana", "3"),
        Penalty("Ben", 5),
        Undo(),
        Play("Ben", "G8 HUES"),
        End((("Ana", "EAU"), ("Ben", ""))),
    ]
    game = ClassicGame(FRENCH, RULE_SETS["fisf"], ("Ana", "Ben"), events=events)
    again = ClassicGame(
        FRENCH,
        RULE_SETS["fisf"],
        ("Ana", "Ben"),
        events=[event_from_dict(event_to_dict(e)) for e in events],
    )
    assert [str(sheet_line) for sheet_line in game.lines] == [str(sheet_line) for sheet_line in again.lines]
    assert game.board == again.board
    assert game.standings() == again.standings()


@pytest.mark.parametrize(
    ("kinds", "standing"),
    [
        (["join", "play", "undo"], [0]),
        (["play", "join", "undo"], [1]),  # a join makes no line: the play goes
        (["play", "pass", "undo", "undo"], []),
        (["play", "undo", "pass"], [2]),
        (["join", "join", "undo"], [0, 1]),  # nothing to take back
        (["challenge", "play", "undo", "end"], [0, 3]),
    ],
)
def test_an_undo_takes_back_the_last_event_that_made_a_line(kinds: list[str], standing: list[int]) -> None:
    assert standing_events(kinds) == standing
