"""The self-hosting files (issue 40): the systemd unit is one systemd accepts, restarts the bot on failure as a user
of its own with an environment file; the compose file and the image read what ``.env.example`` sets."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import ROOT

UNIT = ROOT / "deploy" / "arbitre-discord.service"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def test_the_unit_restarts_on_failure_as_its_own_user_with_an_environment_file() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["User"] == "arbitre"
    assert service["EnvironmentFile"] == "/etc/arbitre/arbitre.env"
    assert service["ExecStart"] == "/opt/arbitre/bin/arbitre discord"
    assert service["NoNewPrivileges"] == "yes"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (Debian: systemd)")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    arbitre = Path(sys.executable).with_name("arbitre")
    text = UNIT.read_text(encoding="utf-8").replace("/opt/arbitre/bin/arbitre", str(arbitre))
    (tmp_path / "arbitre-discord.service").write_text(text, encoding="utf-8")
    done = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "arbitre-discord.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    complaints = [line for line in done.stderr.splitlines() if "arbitre-discord.service" in line]
    assert complaints == [], done.stderr


def test_every_variable_compose_reads_is_in_the_example() -> None:
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    read = set(re.findall(r"\$\{(\w+)", compose))
    offered = set(re.findall(r"^#? ?(\w+)=", example, re.MULTILINE))
    assert read <= offered | {"POSTGRES_PASSWORD"}, read - offered
    assert "POSTGRES_PASSWORD=" in example
    assert "ARBITRE_DISCORD_TOKEN=" in example
