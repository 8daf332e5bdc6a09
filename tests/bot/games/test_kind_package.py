"""A new kind of game is one package plus its messages: the throwaway tally (``tests/throwaway_kind``:
its class, its ``Kind``, its commands module and its messages) is added with the one line that imports its
commands module, as ``bot/games/installed.py`` imports the others, and plays through the referee: its
command, the views that every kind answers through its ``Kind``, /games and /help."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.catalogs import CATALOGS
from bot.chat import Incoming
from bot.commands.registry import withdraw as withdraw_command
from bot.games.kinds import withdraw
from bot.referee import Referee
from bot.storage import GameKind, SQLiteStorage
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
PACKAGE = ROOT / "tests" / "throwaway_kind"
LANGUAGE = "xt"  # the English catalog and the tally's messages


@pytest.fixture
def tally(tmp_path: Path) -> Iterator[None]:
    """The tally installed, its messages in a catalog; all of it withdrawn after."""
    member = str.__new__(GameKind, "tally")  # what a real kind writes in GameKind: TALLY = "tally"
    member._name_, member._value_ = "TALLY", "tally"
    GameKind._value2member_map_["tally"] = member
    folder = tmp_path / "locale" / LANGUAGE / "LC_MESSAGES"
    folder.mkdir(parents=True)
    english = (ROOT / "bot" / "locale" / "en" / "LC_MESSAGES" / "arbitre.po").read_text(encoding="utf-8")
    catalog = english.replace('"Language: en\\n"', f'"Language: {LANGUAGE}\\n"', 1)
    (folder / "arbitre.po").write_text(catalog + "\n" + (PACKAGE / "messages.po").read_text(encoding="utf-8"))
    CATALOGS.add_directory(tmp_path / "locale")
    importlib.import_module("tests.throwaway_kind.commands")  # the one line bot/games/installed.py would hold
    try:
        yield
    finally:
        withdraw_command("tally")
        withdraw(member)
        for name in [name for name in sys.modules if name.startswith("tests.throwaway_kind")]:
            del sys.modules[name]
        CATALOGS.remove_directory(tmp_path / "locale")
        del GameKind._value2member_map_["tally"]


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Referee]:
    storage = SQLiteStorage(tmp_path / "tally.sqlite")
    made = Referee(storage, ready_registry(), images=False)
    made.storage.save_channel(made.storage.channel("room").with_changes(language=LANGUAGE))
    yield made
    made.clock.shutdown()
    storage.close()


def said(referee: Referee, text: str, name: str = "Ana") -> str:
    replies = referee.handle(Incoming("room", f"u:{name.lower()}", name, text))
    return "\n".join(r.text for r in replies)


def test_a_kind_added_as_a_package_plays(tally: None, referee: Referee) -> None:
    assert said(referee, "/tally Ana") == "A tally needs two players at least."
    assert said(referee, "/tally Ana Ben") == "A tally between Ana, Ben."
    assert said(referee, "/tally 12") == "Ana +12: 12"
    assert said(referee, "/tally 5", name="Ben") == "Ben +5: 5"
    assert said(referee, "/tally 3") == "Ana +3: 15"
    assert said(referee, "/tally 3", name="Cy") == "Cy is not in this tally."
    assert said(referee, "/status") == "Ana 15, Ben 5"
    assert said(referee, "/sheet") == "Ana +12\nBen +5\nAna +3"
    assert said(referee, "/board") == "A tally has no board."
    (exported,) = referee.handle(Incoming("room", "u:ana", "Ana", "/export"))
    assert exported.document == b'[["Ana", 12], ["Ben", 5], ["Ana", 3]]'
    assert "tally" in said(referee, "/games")
    assert "/tally — A tally of points." in said(referee, "/help").split("\n")


def test_the_package_is_its_class_kind_commands_and_messages() -> None:
    assert sorted(p.name for p in PACKAGE.iterdir() if p.suffix in (".py", ".po")) == [
        "__init__.py",
        "commands.py",
        "game.py",
        "kind.py",
        "messages.po",
    ]
