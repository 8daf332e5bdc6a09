"""/help's order is declared, not the order the modules happen to be imported in: each command names its
section and its rank within it (``registry.command``), one command a rank."""

from __future__ import annotations

import re

import pytest

from bot.commands.context import Context
from bot.commands.registry import (
    CommandDeclarationError,
    Section,
    check_handlers,
    command,
    command_named,
    declared,
    handles,
    starts,
    withdraw,
)
from bot.games.installed import COMMANDS, MODULES
from bot.games.online import commands as online_commands
from bot.games.sheet import commands as sheet_commands
from bot.storage import GameKind
from tests.paths import REPO_ROOT


def _nothing(ctx: Context) -> None:
    """A throwaway command's handler."""


def test_the_commands_are_listed_by_section_then_rank() -> None:
    keys = [(list(Section).index(spec.section), command_named(spec.name).rank) for spec in COMMANDS]
    assert len(set(keys)) == len(keys)  # no tie left to the order of declaration
    assert keys == sorted(keys)
    assert declared() == COMMANDS


def test_a_command_declared_last_stands_where_its_rank_says() -> None:
    command("throwaway", section=Section.CLASSIC, rank=25)(_nothing)
    try:
        names = [spec.name for spec in declared()]
        assert names.index("throwaway") == names.index("score") + 1  # /score is 20, /challenge 30
        assert names[-1] != "throwaway"
    finally:
        withdraw("throwaway")
    assert declared() == COMMANDS


def test_two_commands_of_one_rank_in_a_section_are_refused() -> None:
    with pytest.raises(CommandDeclarationError, match="also /score's"):
        command("throwaway", section=Section.CLASSIC, rank=command_named("score").rank)(_nothing)
    assert declared() == COMMANDS


def test_a_handler_by_kind_may_be_given_before_its_command_is_declared() -> None:
    handles("throwaway", None)(_nothing)
    try:
        with pytest.raises(CommandDeclarationError, match="not declared"):
            check_handlers()
        command("throwaway", section=Section.GENERAL, rank=1000)(_other)
        check_handlers()
        assert command_named("throwaway").handler_for(None) is _nothing
        assert command_named("throwaway").handler_for(GameKind.CLASSIC) is _other
    finally:
        withdraw("throwaway")
    check_handlers()


def _other(ctx: Context) -> None:
    """Another throwaway handler."""


def test_every_module_declaring_commands_or_a_kind_is_installed() -> None:
    root = REPO_ROOT
    declaring = re.compile(r"^@command\(|^@handles\(|handles\(\"|= register\(", re.MULTILINE)
    found = {
        ".".join(path.relative_to(root).with_suffix("").parts)
        for path in (root / "bot").rglob("*.py")
        if declaring.search(path.read_text(encoding="utf-8"))
    }
    assert found == {module.__name__ for module in MODULES}
    assert {command_named(spec.name).handler.__module__ for spec in COMMANDS} <= found


def test_the_kinds_declare_their_start_by_the_words_of_new() -> None:
    new = command_named("new")
    assert new.handler_for(None, ["en-ligne", "Ana", "Ben"]) is online_commands.start
    assert new.handler_for(GameKind.DUPLICATE, ["online", "Ana", "Ben"]) is online_commands.start  # whatever runs
    assert new.handler_for(GameKind.ONLINE, ["sans-grille", "Ana", "Ben"]) is sheet_commands.start
    assert new.handler_for(GameKind.CLASSIC, ["Ana", "Ben"]) is new.handler  # the classic game's own


def test_a_start_by_words_is_tried_before_the_handler_by_kind() -> None:
    handles("throwaway", GameKind.CLASSIC)(_other)
    starts("throwaway", lambda words: "go" in words)(_nothing)
    try:
        command("throwaway", section=Section.GENERAL, rank=1000)(_other)
        assert command_named("throwaway").handler_for(GameKind.CLASSIC, ["go"]) is _nothing
        assert command_named("throwaway").handler_for(GameKind.CLASSIC, ["stay"]) is _other
    finally:
        withdraw("throwaway")
    check_handlers()
