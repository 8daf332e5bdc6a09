"""``arbitre health`` (the container's health check) against a real running bot, and the token read from the file
a ``..._FILE`` variable names (a container's secret) (issue 40)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.operations.tokens import TokenError, load_token
from tests.fakes._common import free_port
from tests.processes import ROOT, cli_env


def health(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "health"],
        cwd=ROOT,
        env=cli_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("kind", ["HTTP", "METRICS"])  # the one port, or the metrics' port of their own
def test_health_asks_the_running_bots_port(tmp_path: Path, kind: str) -> None:
    port = str(free_port())
    ports = {f"ARBITRE_{kind}_PORT": port, f"ARBITRE_{kind}_ADDRESS": "0.0.0.0"}
    env = cli_env(tmp_path, **ports)
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot", "console"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stderr is not None
        assert "/healthz" in bot.stderr.readline()  # the port is bound
        for _ in range(100):  # the console says it runs once its room is open
            asked = health(tmp_path, **ports)
            if asked.returncode == 0:
                break
            time.sleep(0.1)
        assert (asked.returncode, asked.stdout) == (0, "ok\n")
    finally:
        assert bot.stdin is not None
        bot.stdin.close()
        bot.wait(timeout=30)
    gone = health(tmp_path, **{f"ARBITRE_{kind}_PORT": port})
    assert gone.returncode == 1
    assert gone.stderr.startswith(f"arbitre health: http://127.0.0.1:{port}/healthz: ")


def test_health_without_a_port_says_so(tmp_path: Path) -> None:
    asked = health(tmp_path)
    assert asked.returncode == 2
    assert "ARBITRE_HTTP_PORT" in asked.stderr


def test_the_token_from_a_secret_file(tmp_path: Path) -> None:
    secret = tmp_path / "discord_token"
    secret.write_text("from-the-secret-file\n", encoding="utf-8")
    env = {"ARBITRE_DISCORD_TOKEN_FILE": str(secret), "XDG_CONFIG_HOME": str(tmp_path)}
    assert load_token("discord", environ=env) == "from-the-secret-file"
    both = {**env, "ARBITRE_DISCORD_TOKEN": "from-the-variable"}
    assert load_token("discord", environ=both) == "from-the-variable"
    with pytest.raises(TokenError, match=r"ARBITRE_DISCORD_TOKEN_FILE: cannot read .*missing: No such file"):
        load_token("discord", environ={**env, "ARBITRE_DISCORD_TOKEN_FILE": str(tmp_path / "missing")})
    secret.write_text("\n", encoding="utf-8")
    with pytest.raises(TokenError, match="is empty"):
        load_token("discord", environ=env)
