"""The duplicate game's draws: order errors, rejected draws, automatic draws, settings."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from core.draw import Counts, DrawRule, Shortfall
from core.duplicate import (
    DrawRejected,
    DuplicateGame,
    DuplicateSettings,
)
from core.edition import FRENCH
from core.errors import (
    DuplicatePlayerError,
    UnknownPlayerError,
)
from core.errors_duplicate import (
    DrawPendingError,
    DuplicateSettingError,
    NoRoundOpenError,
    SubmissionsMadeError,
)
from core.notation import Notation
from tests.core.duplicate_finders import (
    SMALL_WORDS,
    BruteTop,
    ScriptedTop,
    first_round,
)

# --- draws inside the game --------------------------------------------------------------------


def test_round_order_errors() -> None:
    game = DuplicateGame(FRENCH, ["A"])
    with pytest.raises(NoRoundOpenError):
        game.submit("A", "H8 ZEN")
    with pytest.raises(NoRoundOpenError):
        game.close_round(BruteTop(SMALL_WORDS), set())
    game.draw_manual("AEINRTZ")
    with pytest.raises(DrawPendingError, match="AEINRTZ is still open"):
        game.draw_manual("AEINRTS")
    with pytest.raises(UnknownPlayerError):
        game.submit("Z", "H8 ZEN")
    with pytest.raises(DuplicatePlayerError):
        game.join("A")
    game.submit("A", "H8 ZEN")
    with pytest.raises(SubmissionsMadeError):
        game.reject_draw()
    assert len(game.events) == 3


def test_manual_draw_breaking_the_rule_is_reported_and_can_be_rejected() -> None:
    game = DuplicateGame(FRENCH, ["A"])
    game.draw_manual("AEIOUEZ")
    round_ = game.current
    assert round_ is not None
    assert round_.shortfall == Shortfall("AEEIOUZ", 6, 1, 0, 2, 1)
    game.reject_draw()
    assert len(game.bag) == 102
    assert game.reliquat == ""
    game.draw_manual("AEINRTZ")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert game.record()[0].rejected == ("-AEEIOUZ",)


def test_rejected_draw_gives_back_the_kept_letters() -> None:
    game = first_round(["A"])
    game.close_round(ScriptedTop(["H8 ZEN"]), set())
    assert game.reliquat == "AIRT"
    game.draw_manual("AIRT+AEI")  # 5 vowels, 2 consonants
    game.reject_draw()
    assert game.reliquat == ""
    assert len(game.bag) == 99
    game.draw_manual("BCDEIOS")
    assert str(game.current.draw if game.current else "") == "BCDEIOS"


def test_automatic_draws_with_rejections_are_recorded() -> None:
    seen_rejection = False
    for seed in range(60):
        game = DuplicateGame(FRENCH, ["A"])
        events = game.draw(random.Random(seed))
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        assert DrawRule().is_met(round_.draw.letters, 1, FRENCH)
        if any(isinstance(e, DrawRejected) for e in events):
            seen_rejection = True
            assert round_.rejected
            assert all(str(d).startswith("-") for d in round_.rejected)
            assert round_.draw_record.startswith("-")
        assert Counter(game.bag.tiles) + Counter(round_.draw.letters) == Counter(FRENCH.bag())
    assert seen_rejection


def test_settings_are_checked() -> None:
    with pytest.raises(DuplicateSettingError, match="minutes = 11"):
        DuplicateSettings(minutes=11)
    with pytest.raises(DuplicateSettingError, match="minutes = 0"):
        DuplicateSettings(minutes=0)
    assert DuplicateSettings(minutes=0.05).seconds == pytest.approx(3.0)
    with pytest.raises(DuplicateSettingError, match="solo_min_players"):
        DuplicateSettings(solo_min_players=0)
    settings = DuplicateSettings(minutes=2, y=Counts.CONSONANT, notation=Notation.GCG)
    assert DuplicateSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings
    assert settings.draw_rule.y is Counts.CONSONANT
