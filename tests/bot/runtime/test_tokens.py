"""Token files: only their owner may read or write them (issue #11, item 4)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bot.cli import main
from bot.operations.tokens import TokenError, load_token

TOKEN = "123456789:AAHsecret-part_of_the_token"

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX file modes")


def token_file(tmp_path: Path, mode: int) -> Path:
    path = tmp_path / "tokens.toml"
    path.write_text(f'[telegram]\ntoken = "{TOKEN}"\n[discord]\ntoken = "d-token"\n')
    path.chmod(mode)
    assert stat.S_IMODE(path.stat().st_mode) == mode
    return path


@pytest.mark.parametrize("mode", [0o600, 0o400, 0o700, 0o500, 0o610, 0o601])
def test_a_file_only_its_owner_reads_and_writes_is_accepted(tmp_path: Path, mode: int) -> None:
    path = token_file(tmp_path, mode)
    assert load_token("telegram", path) == TOKEN
    assert load_token("discord", path) == "d-token"


@pytest.mark.parametrize(
    ("mode", "could"),
    [
        (0o640, "read"),
        (0o604, "read"),
        (0o644, "read"),
        (0o620, "written"),
        (0o602, "written"),
        (0o622, "written"),
        (0o660, "read and written"),
        (0o606, "read and written"),
        (0o666, "read and written"),
        (0o624, "read and written"),
    ],
)
def test_bad_mode_token_file_readable_or_writable_by_others_is_refused(tmp_path: Path, mode: int, could: str) -> None:
    path = token_file(tmp_path, mode)
    with pytest.raises(TokenError) as refused:
        load_token("telegram", path)
    message = str(refused.value)
    assert f"can be {could} by other users (mode {mode:04o})" in message
    assert f"chmod 600 {path}" in message
    assert "\n" not in message
    assert TOKEN not in message
    assert "AAHsecret" not in message


@pytest.mark.parametrize("mode", [0o620, 0o602])
def test_bad_mode_default_token_file_writable_by_others_is_refused(tmp_path: Path, mode: int) -> None:
    """The default file ($XDG_CONFIG_HOME/arbitre/tokens.toml) is held to the same rule."""
    (tmp_path / "arbitre").mkdir()
    token_file(tmp_path / "arbitre", mode)
    with pytest.raises(TokenError, match="written by other users"):
        load_token("discord", environ={"XDG_CONFIG_HOME": str(tmp_path)})


@pytest.mark.parametrize("platform", ["discord", "telegram"])
def test_bad_mode_token_file_stops_the_cli_with_one_line_and_exit_2(
    tmp_path: Path, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = token_file(tmp_path, 0o620)
    code = main([platform, "--config", str(path), "--db", str(tmp_path / "arbitre.sqlite")])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == (
        f"arbitre {platform}: {path} can be written by other users (mode 0620); make it private with: chmod 600 {path}"
    )
    assert TOKEN not in out + err
    assert "d-token" not in out + err
    assert not (tmp_path / "arbitre.sqlite").exists()  # refused before anything else happens
