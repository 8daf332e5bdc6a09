"""``arbitre --version``, ``--log-level`` and ``--log-format`` (issue 40): the real process, and the formatter."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from bot.operations.logs import BadLogOptionError, LogSettings, configure, log_settings
from tests.processes import ROOT, cli_env


def arbitre(tmp_path: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=cli_env(tmp_path, **env),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_version_says_the_release_and_python(tmp_path: Path) -> None:
    done = arbitre(tmp_path, "--version")
    assert done.returncode == 0
    assert done.stdout.startswith(f"arbitre {version('arbitre')} (Python {sys.version.split()[0]}, ")
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--log-level", "loud", "console"], "arbitre: log level 'loud': one of debug, info, warning, error is needed"),
        (["console", "--log-format", "xml"], "arbitre: log format 'xml': one of text, json is needed"),
    ],
)
def test_an_unknown_level_or_format_is_refused_in_one_line(tmp_path: Path, args: list[str], said: str) -> None:
    done = arbitre(tmp_path, *args)
    assert done.returncode == 2
    assert done.stderr.strip() == said


def json_lines(text: str) -> list[dict[str, object]]:
    lines = [line for line in text.splitlines() if line.strip()]
    return [json.loads(line) for line in lines]


def test_debug_in_json_lines_from_the_options_after_the_command(tmp_path: Path) -> None:
    done = arbitre(tmp_path, "console", "--log-level", "debug", "--log-format", "json", stdin="Ana: /verif VAGUE\n")
    assert done.returncode == 0, done.stderr
    assert "VAGUE" in done.stdout
    records = json_lines(done.stderr)  # every line a JSON object
    assert records
    assert {"time", "level", "logger", "message"} <= set(records[0])
    assert any(record["level"] == "debug" for record in records)


def test_the_environment_chooses_when_no_option_does(tmp_path: Path) -> None:
    quiet = arbitre(tmp_path, "console", stdin="Ana: /verif VAGUE\n")
    assert quiet.stderr == ""  # the console logs only what goes wrong by default
    loud = arbitre(
        tmp_path, "console", stdin="Ana: /verif VAGUE\n", ARBITRE_LOG_LEVEL="DEBUG", ARBITRE_LOG_FORMAT="json"
    )
    assert any(record["level"] == "debug" for record in json_lines(loud.stderr))
    overridden = arbitre(
        tmp_path, "--log-level", "warning", "console", stdin="Ana: /verif VAGUE\n", ARBITRE_LOG_LEVEL="debug"
    )
    assert overridden.stderr == ""


@pytest.fixture
def kept_levels() -> Iterator[None]:
    """The root's and Arbitre's log levels as they were before the test configured them."""
    root, own = logging.getLogger(), logging.getLogger("arbitre")
    levels = root.level, own.level
    yield
    root.setLevel(levels[0])
    own.setLevel(levels[1])


@pytest.mark.usefixtures("kept_levels")
def test_json_lines_mask_secrets_and_carry_the_traceback() -> None:
    stream = io.StringIO()
    handler = configure(LogSettings(logging.DEBUG, "json"), ["s3cr3t-token"], stream)
    try:
        log = logging.getLogger("arbitre.test")
        log.debug("connecting with s3cr3t-token")
        try:
            raise ValueError("bad s3cr3t-token")
        except ValueError:
            log.exception("failed")
    finally:
        logging.getLogger().removeHandler(handler)
    first, second = json_lines(stream.getvalue())
    assert first["message"] == "connecting with ***"
    assert first["level"] == "debug"
    assert first["logger"] == "arbitre.test"
    assert "ValueError: bad ***" in str(second["exception"])
    assert "s3cr3t" not in stream.getvalue()


@pytest.mark.usefixtures("kept_levels")
def test_libraries_stay_at_warning_unless_debugging() -> None:
    stream = io.StringIO()
    handler = configure(LogSettings(logging.INFO, "text"), [], stream)
    try:
        logging.getLogger("httpx").info("GET https://api.telegram.org/bot.../getUpdates")
        logging.getLogger("arbitre").info("started")
    finally:
        logging.getLogger().removeHandler(handler)
    assert "getUpdates" not in stream.getvalue()
    assert "started" in stream.getvalue()


def test_settings_read_names_in_any_case() -> None:
    assert log_settings("Warning", "JSON") == LogSettings(logging.WARNING, "json")
    with pytest.raises(BadLogOptionError):
        log_settings("trace")
