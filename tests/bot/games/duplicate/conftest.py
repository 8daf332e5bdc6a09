"""The scripted game of the sanctions tests, played once per test module that asks for it."""

from __future__ import annotations

import pytest

from core.duplicate import DuplicateGame
from tests.bot.games.duplicate.sanctions_script import play_script


@pytest.fixture(scope="module")
def scripted() -> DuplicateGame:
    return play_script()
