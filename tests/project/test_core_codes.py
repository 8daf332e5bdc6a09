"""``core/`` speaks in codes and typed fields, never in sentences for players; ``bot/`` alone writes text.

- every enum of ``core`` has codes for values (lowercase identifiers);
- every error ``core`` raises is explained by ``bot.messages.explain`` from its fields, in every language,
  never by its English ``str()`` (kept for logs);
- the chat layer never turns a core object into text with ``str()`` or an f-string: it reads fields.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import pkgutil
import re
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

import core
from bot.messages import explain, languages, say
from core.errors import (
    ArbitreError,
    BoardSyntaxError,
    NotationError,
    RackSyntaxError,
    RefSyntaxError,
    SyntaxProblem,
    WordSyntaxError,
)
from core.errors_duplicate import ClockAction, TakeBackBlock, TopClause
from core.tie import TieRule
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
CODE = re.compile(r"^[a-z][a-z0-9_-]*$")


def core_modules() -> list[Any]:
    return [importlib.import_module(f"core.{info.name}") for info in pkgutil.walk_packages(core.__path__)]


def core_enums() -> list[type[enum.Enum]]:
    found: dict[str, type[enum.Enum]] = {}
    for module in core_modules():
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, enum.Enum) and value.__module__.startswith("core"):
                found[f"{value.__module__}.{name}"] = value
    return list(found.values())


@pytest.mark.parametrize("cls", core_enums(), ids=lambda cls: cls.__name__)
def test_core_enum_values_are_codes(cls: type[enum.Enum]) -> None:
    for member in cls:
        if isinstance(member.value, str):
            assert CODE.match(member.value), f"{cls.__name__}.{member.name} = {member.value!r} is not a code"


def test_the_enums_checked_include_the_ones_bot_renders() -> None:
    names = {cls.__name__ for cls in core_enums()}
    assert {"LineKind", "Removal", "EndReason", "TieRule", "SyntaxProblem", "TakeBackBlock", "ClockAction"} <= names


def test_tie_rules_of_records_written_before_the_codes_are_read() -> None:
    assert TieRule.read("fewest jokers") is TieRule.FEWEST_JOKERS
    assert TieRule.read("") is TieRule.NONE
    assert TieRule.read("order") is TieRule.ORDER


# --- every error explained from its fields ---------------------------------------------------------

SAMPLES: dict[type, Any] = {str: "Zorglub", int: 7, float: 2.5, bool: True, object: "ZZZ"}
SPECIAL: dict[str, Any] = {
    "problem": SyntaxProblem.NOT_A_LETTER,
    "reason": TakeBackBlock.NEXT_DRAW_PLAYED,
    "action": ClockAction.RESUME,
    "cause": ValueError("Zorglub"),
    "players": ("Ana", "Ben"),
    "formed": ("OZ", "ZA"),
    "words": ("OZ", "FAZ"),
    "tied": ("H8 ZEN", "H6 NEZ"),
    "lexicon_labels": ("A", "B"),
    "edition_labels": ("A", "C"),
    "letters": "OZ",
    "high": 10.0,
    "clause": TopClause.JOKER,
    "allowed": ("H8 AB", "H7 AB"),
}


def concrete_errors() -> list[type[ArbitreError]]:
    """Every error class of ``core`` (``core.errors`` and the ``core.errors_*`` modules of each domain)
    with a constructor of its own."""
    found = []
    for module in core_modules():
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, ArbitreError)
                and value.__module__ == module.__name__
                and "__init__" in vars(value)
            ):
                found.append(value)
    return found


def sample(cls: type[ArbitreError]) -> ArbitreError:
    """An instance built from sample values for its constructor's parameters."""
    hints = typing.get_type_hints(cls.__init__, vars(sys.modules[cls.__module__]))
    values = {}
    for name in inspect.signature(cls.__init__).parameters:
        if name == "self":
            continue
        if name in SPECIAL:
            values[name] = SPECIAL[name]
            continue
        hint = hints[name]
        options = typing.get_args(hint) or (hint,)
        values[name] = next(SAMPLES[o] for o in options if o in SAMPLES)
    return cls(**values)


def test_every_kind_of_error_is_sampled() -> None:
    assert len(concrete_errors()) >= 55


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("cls", concrete_errors(), ids=lambda cls: cls.__name__)
def test_every_core_error_is_explained_from_its_fields(cls: type[ArbitreError], lang: str) -> None:
    error = sample(cls)
    text = explain(error, lang)
    assert text, f"{cls.__name__} has no message"
    assert text != say(lang, "err_refused"), f"{cls.__name__} has no message of its own"
    assert "{" not in text
    assert "None" not in text
    if lang != "en":
        assert str(error) not in text  # the log line (English) is never what players read


@pytest.mark.parametrize("problem", list(SyntaxProblem))
@pytest.mark.parametrize("cls", [RefSyntaxError, WordSyntaxError, RackSyntaxError, BoardSyntaxError])
def test_every_syntax_problem_has_a_message(cls: type[NotationError], problem: SyntaxProblem) -> None:
    for lang in languages():
        text = explain(cls("Q?", problem, "%"), lang)
        assert "Q?" in text
        assert "{" not in text


# --- the chat layer reads fields, never str() of a core object ----------------------------------------

# Names under which the chat layer holds core objects (errors, events, sheet lines, rounds, draws...).
CORE_OBJECT_NAMES = {
    "error",
    "exc",
    "err",
    "cause",
    "event",
    "line",
    "sheet_line",
    "round_",
    "draw",
    "rejected",
    "result",
    "standing",
    "alert",
    "shortfall",
    "end_reason",
    "tie_rule",
    "settings",
    "rule",
    "rules",
    "verdict",
    "placement",
    "game",
}


def _terminal_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def chat_modules() -> list[Path]:
    """The modules that write what players read: the commands, the catalogs, the referee, the renderers."""
    bot = ROOT / "bot"
    modules = [*(bot / "commands").glob("*.py"), *(bot / "games").rglob("*.py"), *(bot / "play").glob("*.py")]
    modules += [*(bot / "render").glob("*.py")]
    modules += [bot / name for name in ("messages.py", "referee.py", "words/game_lists.py", "chat.py")]
    return sorted(modules)


def _message_keys(tree: ast.AST) -> set[int]:
    """The f-strings that build a catalog key from a code (``f"tie_rule_{rule}"``): not text."""
    keys: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            literal = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            if re.fullmatch(r"[a-z_]+", literal):
                keys.update(id(v) for v in node.values)
    return keys


def test_no_core_object_becomes_text_through_str() -> None:
    found = []
    for path in chat_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        keys = _message_keys(tree)
        for node in ast.walk(tree):
            if id(node) in keys:
                continue
            target: ast.expr | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
                target = node.args[0]
            elif isinstance(node, ast.FormattedValue) and node.format_spec is None:
                target = node.value
            name = _terminal_name(target) if target is not None else None
            if name in CORE_OBJECT_NAMES:
                found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: text from {name}")
    assert not found, "\n".join(found)


def test_the_chat_layer_never_reads_an_error_message() -> None:
    """No ``.args`` of an exception and no ``str(error)`` fallback in the layer that writes to players."""
    found = []
    for path in chat_modules():
        source = path.read_text(encoding="utf-8")
        for number, line in enumerate(source.splitlines(), 1):
            if re.search(r"\b(error|exc|err)\.args\b", line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
