"""``python -m bot`` run from a folder that holds a ``core/`` or ``lexicons/`` of its own (issue 40): Arbitre's own
packages are imported, never that folder's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.processes import ROOT, cli_env


def test_a_folder_holding_core_does_not_shadow_arbitres(tmp_path: Path) -> None:
    for name in ("core", "lexicons"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f'raise ImportError("the folder\'s own {name}")\n')
    env = cli_env(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, "-m", "bot", "score", "H8 VAGUE"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "VAGUE (4+1+2+1+1x2)x2 = 20" in done.stdout
