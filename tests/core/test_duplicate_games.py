"""Whole duplicate games: seeded, replayed from their events, with the real move generator."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from core.board import Board
from core.duplicate import (
    DrawMade,
    DuplicateGame,
    DuplicateSettings,
    MoveSubmitted,
    RoundClosed,
    SubmissionResult,
    event_from_dict,
    event_to_dict,
    movegen_top_finder,
)
from core.edition import FRENCH
from core.errors_duplicate import LettersNotInDrawError
from core.lexicon import Lexicon
from core.notation import parse_move
from core.placement import apply_placement, validate_move
from core.scoring import score_placement
from tests.core.duplicate_finders import (
    SMALL_WORDS,
    BruteTop,
    first_round,
    round_results,
)
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT


# --- whole games ------------------------------------------------------------------------------


def _replay_checks(game: DuplicateGame) -> None:
    """Every top re-scores identically on the replayed board; tiles are conserved; draws meet the rule."""
    board = Board()
    rule = game.settings.draw_rule
    for round_, line in zip(game.closed_rounds, game.record()):
        assert round_.draw is not None
        assert rule.is_met(round_.draw.letters, round_.number, game.edition)
        if round_.top is None:
            continue
        placement = validate_move(board, parse_move(f"{line.ref} {line.word}", game.notation), game.notation)
        assert score_placement(placement, game.edition).total == line.score == round_.top_points
        apply_placement(board, placement)
    assert board == game.board
    on_board = Counter("?" if t.joker else t.letter for _, _, t in board.tiles())
    assert on_board + Counter(game.bag.tiles) + Counter(game.reliquat) == Counter(game.edition.bag())


def _play_solo(game: DuplicateGame, seed: int, top_finder: object, lexicon: object, limit: int = 60) -> None:
    rng = random.Random(seed)
    while not game.finished and len(game.rounds) < limit:
        game.draw(rng, at=float(len(game.rounds)) * 200)
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        game.close_round(top_finder, lexicon)  # type: ignore[arg-type]


def test_full_seeded_game_on_a_small_lexicon() -> None:
    finder = BruteTop(SMALL_WORDS)
    game = DuplicateGame(FRENCH, ["solo"], DuplicateSettings(solo_min_players=1), lexicon_name="small")
    _play_solo(game, 3, finder, set(SMALL_WORDS))
    assert game.finished
    assert len(game.closed_rounds) >= 10
    _replay_checks(game)
    cumulative = [line.cumulative for line in game.record()]
    assert cumulative == sorted(cumulative)
    assert cumulative[-1] == game.tops_total

    # the same game rebuilt from its events, through JSON, without word list or top finder
    data = json.loads(json.dumps([event_to_dict(e) for e in game.events]))
    again = DuplicateGame.from_events(event_from_dict(d) for d in data)
    assert again.board == game.board
    assert again.record() == game.record()
    assert again.standings() == game.standings()
    assert again.end_reason == game.end_reason
    assert again.end_letters == game.end_letters
    assert again.lexicon_name == "small"
    assert again.settings == game.settings

    # same seed, same game
    other = DuplicateGame(FRENCH, ["solo"], DuplicateSettings(solo_min_players=1))
    _play_solo(other, 3, BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert other.record() == game.record()


def test_events_with_submissions_replay_to_the_same_results() -> None:
    game = first_round(["A", "B"])
    game.submit("A", "H8 ZEN", claimed=24, at=1010)
    game.submit("B", "H8 ZANE", at=1020)
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    game.record_score("B", 1, 12)
    data = [event_to_dict(e) for e in game.events]
    kinds = [d["kind"] for d in data]
    assert kinds == ["start", "draw", "submit", "submit", "close", "score"]
    again = DuplicateGame.from_events(event_from_dict(d) for d in data)
    assert again.standings() == game.standings()
    assert round_results(again)["B"].verdict == SubmissionResult.NOT_A_WORD
    assert isinstance(again.events[1], DrawMade)
    assert isinstance(again.events[2], MoveSubmitted)
    assert isinstance(again.events[4], RoundClosed)


def test_a_failed_event_leaves_the_game_unchanged() -> None:
    game = first_round(["A"])
    before = (len(game.events), str(game.bag), game.reliquat)
    with pytest.raises(LettersNotInDrawError):
        game.apply(RoundClosed("H8 ZOO"))  # a top that the draw cannot give
    assert (len(game.events), str(game.bag), game.reliquat) == before
    assert game.current is not None
    assert not game.current.closed
    assert game.board.is_empty()


# --- with the real move generator ---------------------------------------------------------------


def test_movegen_top_finder_matches_the_brute_force_on_a_small_lexicon() -> None:
    lexicon = Lexicon.from_words(SMALL_WORDS, name="small")
    settings = DuplicateSettings()
    fast = movegen_top_finder(lexicon, FRENCH, settings)
    slow = BruteTop(SMALL_WORDS)
    game = DuplicateGame(FRENCH, ["A"], settings)
    rng = random.Random(11)
    for _ in range(6):
        if game.finished:
            break
        game.draw(rng)
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        expected = slow(game.board, round_.draw.letters)
        closed = game.close_round(fast, lexicon)
        best = expected.plays[0].score.total if expected.plays else 0
        assert game.closed_rounds[-1].top_points == best
        assert (closed.top is None) == (not expected.plays)
    _replay_checks(game)


FR_LIST = ROOT / "lexicons" / "fr.txt.gz"


@pytest.mark.skipif(not FR_LIST.exists(), reason="lexicons/fr.txt.gz is not built")
def test_full_game_with_movegen_on_the_french_list() -> None:
    # the bundled French list as the shared registry compiled it (compiling it here from lexicons/fr.txt.gz
    # took 20 of the test's 21 s)
    lexicon = ready_registry().get("fr")
    settings = DuplicateSettings()
    game = DuplicateGame(FRENCH, ["solo"], settings, lexicon_name="fr")
    _play_solo(game, 1, movegen_top_finder(lexicon, FRENCH, settings), lexicon)
    assert game.finished
    assert game.tops_total > 500
    first = game.closed_rounds[0].top
    assert first is not None
    assert first.ref.horizontal
    _replay_checks(game)


def test_every_public_name_of_the_duplicate_package_is_importable_from_it() -> None:
    import importlib

    import core.duplicate as package

    for job in ("clock", "events", "game", "judging", "ranking", "record", "replay", "rounds", "settings", "tops"):
        module = importlib.import_module(f"core.duplicate.{job}")
        for name, value in vars(module).items():
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__:
                assert getattr(package, name) is value, f"core.duplicate.{job}.{name}"
                assert name in package.__all__
