"""`arbitre` starts fast: a subcommand imports what it uses, and building the parser imports no engine.

What each command imports is read from ``sys.modules`` in a fresh interpreter that
ran it; times are measured in bench/bench_cli_start.py, never here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import DECLARED_BY, TOOLS, build_parser
from tests.ready_lists import link_compiled_lists

# Chat libraries, images, the database, test-only libraries and the chat command layer.
HEAVY = ["discord", "telegram", "PIL", "sqlite_utils", "aiohttp", "hypothesis", "asyncio", "sqlite3", "bot.referee"]
# What looking words up has no use for: the move generator, games, storage, rendering.
MOVEGEN = ["core.movegen", "core.movegen_board", "core.movegen_plays", "core.movegen_search"]
NOT_FOR_CHECK = HEAVY + [*MOVEGEN, "core.game", "core.duplicate", "core.placement", "bot.storage", "bot.render"]

_RUN = """
import json, sys
from bot.cli import main
try:
    status = main(sys.argv[2:])
except SystemExit as stop:
    status = stop.code
with open(sys.argv[1], "w") as out:
    json.dump({"status": status, "modules": sorted(sys.modules)}, out)
"""


def run_arbitre(tmp_path: Path, *args: str) -> tuple[int, set[str], str]:
    """Exit status, modules imported and output of ``arbitre ARGS`` in a fresh interpreter."""
    report = tmp_path / "modules.json"
    env = dict(os.environ, ARBITRE_CACHE=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(report), *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(report.read_text())
    return int(data["status"] or 0), set(data["modules"]), done.stdout


def imported(modules: set[str], names: list[str]) -> list[str]:
    """The ``names`` found in ``modules``, a package counting when any of its modules is."""
    return [name for name in names if any(m == name or m.startswith(name + ".") for m in modules)]


@pytest.fixture
def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "club.txt"
    path.write_text("VAGUE\nAVIONS\nCHAT\n")
    return path


def test_check_imports_the_word_list_only(tmp_path: Path, word_list: Path) -> None:
    for run in ("compiles the list", "reads the cache"):
        status, modules, out = run_arbitre(tmp_path, "check", "--lexicon", str(word_list), "VAGUE", "LOUP")
        assert status == 1, (run, out)
        assert out.splitlines() == ["VAGUE valable", "LOUP non valable"], run
        assert imported(modules, NOT_FOR_CHECK) == [], run
        assert {"core.lexicon", "bot.words.loader"} <= modules, run
    assert "tempfile" not in modules  # the warm run writes nothing: the cache and its stamp are there


@pytest.fixture
def bundled_cache(tmp_path: Path) -> Path:
    """The test's cache folder, the bundled lists' compiled files linked in (compiling the English list took
    5 to 15 s a run; compiling is tested in test_check_imports_the_word_list_only and
    tests/bot/words/test_lexicons.py)."""
    return link_compiled_lists(tmp_path / "cache" / "lexicons")


def test_check_of_a_bundled_list_imports_no_chat_library(tmp_path: Path, bundled_cache: Path) -> None:
    status, modules, out = run_arbitre(tmp_path, "check", "--lexicon", "en", "--lang", "en", "ZAX")
    assert status == 0
    assert out.strip() == "ZAX valid"
    assert imported(modules, NOT_FOR_CHECK) == []


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["check", "--help"],
        ["discord", "--help"],
        ["telegram", "--help"],
        ["console", "--help"],
        ["duplicate", "--help"],
        ["top", "--help"],
    ],
)
def test_help_imports_no_engine_and_no_chat_library(tmp_path: Path, args: list[str]) -> None:
    status, modules, out = run_arbitre(tmp_path, *args)
    assert status == 0
    assert "usage: arbitre" in out
    assert imported(modules, NOT_FOR_CHECK + ["core.lexicon", "bot.words.loader", "core.board"]) == []


def test_score_imports_the_board_and_no_word_list(tmp_path: Path) -> None:
    status, modules, out = run_arbitre(tmp_path, "score", "H8 VAGUE")
    assert status == 0
    assert "total" in out
    assert imported(modules, HEAVY + ["core.lexicon", *MOVEGEN, "bot.words.loader"]) == []
    assert "core.scoring" in modules


# One command line per subcommand: parsed by the parser `main` builds for it (its module only)
# and by the whole parser, the result is the same.
SAMPLES = [
    ["check", "--lexicon", "en", "--json", "VAGUE", "ZAX"],
    ["lexicon", "info", "fr", "en", "--json"],
    ["score", "--edition", "en", "H8 VAGUE", "8H", "VOGUE"],
    ["top", "--rack", "EAUV?", "--moves", "H8 VAGUE", "--count", "3"],
    ["duplicate", "--seed", "3", "--joker", "vowel"],
    ["replay", "game.gcg", "--rules", "wespa"],
    ["console", "--admin", "Ana", "--db", "memory:"],
    ["discord", "--sync", "--guild", "42"],
    ["telegram", "--base-url", "http://localhost:8081/bot"],
    ["health", "--url", "http://127.0.0.1:9300/healthz"],
    ["database", "copy", "club.sqlite", "postgresql://arbitre@db/arbitre"],
]


def test_every_subcommand_has_a_sample() -> None:
    assert {args[0] for args in SAMPLES} == set(TOOLS) | set(DECLARED_BY)


@pytest.mark.parametrize("args", SAMPLES, ids=lambda args: args[0])
def test_the_parser_of_one_subcommand_parses_as_the_whole_parser(args: list[str]) -> None:
    alone = vars(build_parser(args[0]).parse_args(args))
    whole = vars(build_parser().parse_args(args))
    assert alone == whole
    assert alone["command"] == args[0]


def test_check_of_the_english_list_answers_in_english(tmp_path: Path, bundled_cache: Path) -> None:
    status, _, out = run_arbitre(tmp_path, "check", "--lexicon", "en", "ZAX", "QZX")
    assert status == 1
    assert out.splitlines() == ["ZAX valid", "QZX not valid"]
    status, _, out = run_arbitre(tmp_path, "check", "--lexicon", "en", "--lang", "fr", "ZAX")
    assert status == 0
    assert out.strip() == "ZAX valable"
