"""No dead code in ``bot/`` and ``core/`` (issue 38, item 8): vulture over the code and the tests, which may
read what the code only keeps for them. Commands registered by decorator, the discord.py and tornado hooks
named by convention, and the names in ``tests/dead_code_whitelist.py`` count as used."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
DECORATORS = "@command,@handles,@media"  # the registries call what they decorate
HOOKS = "on_*,setup_hook,data_received,write_error,SUPPORTED_METHODS,warn_*,dm_messages,guild_messages"


@pytest.mark.long(5)
def test_no_unused_function_class_or_variable() -> None:
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "vulture",
            "bot",
            "core",
            "tests",
            "tests/dead_code_whitelist.py",
            "--min-confidence",
            "60",
            "--ignore-decorators",
            DECORATORS,
            "--ignore-names",
            HOOKS,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    dead = [line for line in found.stdout.splitlines() if not line.startswith("tests/")]
    assert dead == [], "\n".join(dead)
    assert found.returncode in (0, 3), found.stderr  # 3: vulture found something (in tests/ only)
