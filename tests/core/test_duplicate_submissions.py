"""The duplicate game's submissions: checked when the round closes, late, replaced, jokers, previews."""

from __future__ import annotations

import pytest

from core.duplicate import (
    DuplicateGame,
    SubmissionResult,
)
from core.errors import (
    FirstMoveError,
    NotConnectedError,
    WordSyntaxError,
)
from core.errors_duplicate import (
    JokerNotMarkedError,
    LateSubmissionError,
    LettersNotInDrawError,
    NoJokerLeftError,
    WordNotInLexiconError,
)
from core.notation import Notation
from tests.core.duplicate_finders import (
    SMALL_WORDS,
    BruteTop,
    first_round,
    round_results,
)

# --- submissions ----------------------------------------------------------------------------


def test_submissions_are_checked_when_the_round_closes() -> None:
    players = ["valid", "claim", "word", "illegal", "draw", "typo", "late", "twice", "quiet"]
    game = first_round(players)
    game.submit("valid", "H8 ZEN", claimed=24, at=1010)
    game.submit("claim", "h8 zen", claimed=30, at=1020)
    game.submit("word", "H8 ZANE", at=1030)
    game.submit("illegal", "A1 ZEN", at=1040)
    game.submit("draw", "H8 ZOO", at=1050)
    game.submit("typo", "H8 Z-N", at=1060)
    game.submit("late", "H8 ZEN", at=1000 + 180.5)
    game.submit("twice", "A1 ZEN", at=1070)
    game.submit("twice", "H7 NEZ", claimed=24, at=1080)
    closed = game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert closed.invalid_words == ("ZANE",)
    results = round_results(game)
    assert set(results) == set(players) - {"quiet"}
    assert game.closed_rounds[0].score_of("quiet") == 0

    assert results["valid"].valid
    assert results["valid"].score == 24
    assert not results["valid"].claimed_differs
    assert results["claim"].score == 24
    assert results["claim"].claimed_differs
    assert (results["claim"].claimed, results["claim"].score) == (30, 24)

    word = results["word"]
    assert (word.verdict, word.score) == (SubmissionResult.NOT_A_WORD, 0)
    assert isinstance(word.error, WordNotInLexiconError)
    assert word.error.words == ("ZANE",)
    assert "ZANE not in the word list" in str(word.error)

    illegal = results["illegal"]
    assert illegal.verdict == SubmissionResult.ILLEGAL
    assert isinstance(illegal.error, FirstMoveError)
    assert illegal.error.centre == "H8"

    wrong = results["draw"]
    assert wrong.verdict == SubmissionResult.NOT_IN_DRAW
    assert isinstance(wrong.error, LettersNotInDrawError)
    assert wrong.error.letters == "OO"
    assert wrong.error.draw == "AEINRTZ"

    typo = results["typo"]
    assert typo.verdict == SubmissionResult.UNREADABLE
    assert isinstance(typo.error, WordSyntaxError)

    late = results["late"]
    assert late.verdict == SubmissionResult.LATE
    assert isinstance(late.error, LateSubmissionError)
    assert late.error.seconds_late == pytest.approx(0.5)
    assert late.score == 0

    twice = results["twice"]
    assert twice.valid
    assert twice.score == 24
    assert twice.replaced == 1
    assert twice.move == "H7 NEZ"

    # the live close reuses the verdicts it judged to find the invalid words; a replay judges afresh
    def verdicts(found: dict[str, SubmissionResult]) -> dict[str, tuple[object, ...]]:
        return {p: (r.verdict, r.score, r.move, r.replaced, repr(r.error), r.placement) for p, r in found.items()}

    assert verdicts(round_results(DuplicateGame.from_events(game.events))) == verdicts(results)


def test_a_move_previewed_is_judged_again_on_a_new_draw_and_a_new_board() -> None:
    """A preview's placement is kept for the close, never for another draw or another board."""
    game = first_round(["A", "B"])
    assert game.preview("A", "H8 ZEN").valid
    assert game.preview("A", "H8 ZEN").score == 24
    game.reject_draw()
    game.draw_manual("AEIORST", at=1001.0)  # no Z, no N
    assert game.preview("A", "H8 ZEN").verdict == SubmissionResult.NOT_IN_DRAW
    game.submit("A", "H8 ZEN", at=1010)
    game.submit("B", "H8 OSA", at=1011)  # not a word of the list: only the close knows
    assert game.preview("B", "H8 OSA").valid
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert round_results(game)["A"].verdict == SubmissionResult.NOT_IN_DRAW
    assert round_results(game)["B"].verdict == SubmissionResult.NOT_A_WORD
    game.draw_manual(game.reliquat + "ENZAIRT"[: 7 - len(game.reliquat)], at=1100.0)
    again = game.preview("A", "H8 ZEN")  # the round's top covers H8 now
    assert again.verdict in (SubmissionResult.ILLEGAL, SubmissionResult.NOT_IN_DRAW), again


def test_a_late_submission_does_not_replace_one_in_time() -> None:
    game = first_round(["A", "B"], minutes=1)
    game.submit("A", "H8 ZEN", at=1059)
    game.submit("A", "H6 ZEN", at=1061)  # after the one-minute deadline
    game.submit("B", "H8 ZEN", at=1030)
    game.submit("B", "A1 ZEN", at=1040)  # a later move in time replaces the earlier one
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    results = round_results(game)
    assert results["A"].valid
    assert results["A"].move == "H8 ZEN"
    assert results["B"].verdict == SubmissionResult.ILLEGAL


def test_the_open_round_counts_each_player_who_answered_once() -> None:
    game = first_round(["A", "B", "C"], minutes=1)
    round_ = game.current
    assert round_ is not None
    assert round_.answered == 0
    game.submit("A", "H8 ZEN", at=1010)
    game.submit("A", "H6 ZEN", at=1020)  # a replaced answer counts once
    assert round_.answered == 1
    game.submit("B", "H8 ZEN", at=1030)
    game.join("D")
    game.submit("D", "H8 ZEN", at=1040)
    assert round_.answered == 3
    assert round_.answered == len({s.player for s in round_.submissions})


def test_grace_seconds_and_untimed_submissions() -> None:
    game = first_round(["A", "B"], minutes=1, grace_seconds=5)
    game.submit("A", "H8 ZEN", at=1064)
    game.submit("B", "H8 ZEN")  # no time given: never late
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert all(r.valid for r in round_results(game).values())
    assert game.deadline(game.closed_rounds[0]) == 1065


def test_jokers_must_be_written_as_jokers() -> None:
    game = first_round(["marked", "brackets", "unmarked", "two", "plain"], draw="AEINRT?")
    game.submit("marked", "H8 zEN")
    game.submit("brackets", "H8 (Z)EN")
    game.submit("unmarked", "H8 ZEN")
    game.submit("two", "H8 zEn")
    game.submit("plain", "H8 RATE")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    results = round_results(game)
    assert results["marked"].score == 4
    assert results["brackets"].score == 4
    unmarked = results["unmarked"]
    assert unmarked.verdict == SubmissionResult.NOT_IN_DRAW
    assert isinstance(unmarked.error, JokerNotMarkedError)
    assert (unmarked.error.letters, unmarked.error.draw) == ("Z", "AEINRT?")
    two = results["two"]
    assert isinstance(two.error, NoJokerLeftError)
    assert two.error.letters == "N"
    assert results["plain"].score == 8


def test_joker_written_when_the_draw_has_none() -> None:
    game = first_round(["A"])
    game.submit("A", "H8 ZeN")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    error = round_results(game)["A"].error
    assert isinstance(error, NoJokerLeftError)
    assert "jokers written for E" in str(error)


def test_vertical_first_move_and_gcg_submissions() -> None:
    game = first_round(["fisf", "gcg", "vertical"])
    game.submit("fisf", "H8 ZEN")
    game.submit("gcg", "8H ZEN", notation=Notation.GCG)
    game.submit("vertical", "8H ZEN")  # FISF: column 8 from row H, vertical
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    results = round_results(game)
    assert [results[p].score for p in ("fisf", "gcg", "vertical")] == [24, 24, 24]
    top = game.closed_rounds[0].top
    assert top is not None
    assert top.ref.horizontal


def test_preview_judges_without_recording() -> None:
    game = first_round(["A"])
    assert game.preview("A", "H8 ZEN").score == 24
    assert game.preview("A", "H8 ZANE", set(SMALL_WORDS)).verdict == SubmissionResult.NOT_A_WORD
    assert game.current is not None
    assert game.current.submissions == []


def test_second_round_checks_connection_against_the_top() -> None:
    game = first_round(["A"])
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert game.board.rows()[7].strip(".") != ""
    game.draw_manual(f"{game.reliquat}+" + "".join(sorted("SEOIL"))[: 7 - len(game.reliquat)])
    game.submit("A", "A1 SI")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert isinstance(round_results(game, 2)["A"].error, NotConnectedError)
