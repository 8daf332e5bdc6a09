"""The move generator compiled by mypyc (``ARBITRE_COMPILE=1``, setup.py) finds the same tops as its sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from tests.processes import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
COMPILED: list[str] = PROJECT["tool"]["arbitre"]["compiled"]

# run with the compiled copy first on the path: every compiled module is the extension, and the golden file's
# positions (tests/core/test_top_golden.py) give the same tops, scores, tie rules and five best plays
CHECK = """
import importlib, json, sys
from importlib.machinery import EXTENSION_SUFFIXES
modules = json.loads(sys.argv[1])
for name in modules:
    module = importlib.import_module(name)
    assert module.__file__ is not None and module.__file__.endswith(EXTENSION_SUFFIXES[0]), module.__file__
from tests.core.test_top_golden import GOLDEN, golden_rows
for code in sorted(GOLDEN):
    assert golden_rows(code) == GOLDEN[code]["positions"], code
print("same tops", sorted(GOLDEN))
"""


def test_the_compiled_modules_are_sources_of_the_pure_engine() -> None:
    assert COMPILED
    for path in COMPILED:
        assert (ROOT / path).is_file(), path
        assert path.startswith("core/"), path  # the pure engine only: no I/O to lose in a compiled module


@pytest.mark.long(40)
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="needs a C compiler")
def test_the_compiled_move_generator_finds_the_golden_tops(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "core", tmp_path / "core", ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run(
        [sys.executable, "-m", "mypyc", *COMPILED], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    names = [path.removesuffix(".py").replace("/", ".") for path in COMPILED]
    for path in COMPILED:
        assert (tmp_path / path.removesuffix(".py")).with_suffix(EXTENSION_SUFFIXES[0]).is_file(), path
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    # -P: neither the working folder nor the script's own on the path, so core is the compiled copy's
    checked = subprocess.run(
        [sys.executable, "-P", "-c", CHECK, json.dumps(names)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert checked.stdout.strip() == "same tops ['en', 'fr']"
