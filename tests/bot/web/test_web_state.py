"""The live page's state, second round (issue 27): the countdown's call (FISF 3.3) and a classic game's
clocks, built from the game as the images and messages read it; pure functions of the game and the clock."""

from __future__ import annotations

import pytest

from bot.messages import say
from bot.web.page import labels
from bot.web.state import classic_state, duplicate_state
from core.duplicate import DuplicateGame
from core.duplicate.settings import DuplicateSettings
from core.edition import edition_by_code
from core.game import ClassicGame
from core.rules import rule_set_by_code


@pytest.mark.parametrize(
    ("settings", "call"),
    [
        # docs/rules.md "Clocks and calls", FISF 3.3 ("chrono – trente (ou vingt) secondes – terminé")
        (DuplicateSettings(), 30),  # the usual call, 30 s
        (DuplicateSettings(minutes=2.0, call=20), 20),  # the blitz clock's call, 20 s
        (DuplicateSettings(minutes=0.5), 15),  # a clock under a minute: half of it
        (DuplicateSettings(minutes=0.5, call=20), 15),  # never more than half
    ],
)
def test_the_open_round_carries_its_call(settings: DuplicateSettings, call: float) -> None:
    game = DuplicateGame(players=["Ana"], settings=settings)
    game.draw_manual("ACEHNTZ", at=100.0)
    state = duplicate_state(game, game_id=1, language="fr", now=100.0)
    assert state["round"]["call"] == call
    assert state["round"]["deadline"] == 100.0 + settings.minutes * 60


@pytest.mark.parametrize(("lang", "call", "end"), [("fr", "30 secondes", "Terminé"), ("en", "30 seconds", "Time")])
def test_the_call_and_the_end_in_the_rooms_language(lang: str, call: str, end: str) -> None:
    words = labels(lang)
    assert words["call"].replace("{seconds}", "30") == call
    assert words["time_up"] == end
    assert say(lang, "web_call", seconds=20) == call.replace("30", "20")


def test_a_game_without_clock_has_none() -> None:
    game = ClassicGame(edition_by_code("fr"), rule_set_by_code("fisf"), ["Ana", "Ben"])
    assert classic_state(game, game_id=1, language="fr", now=0.0)["clocks"] is None
