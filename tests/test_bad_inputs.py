"""Bad bytes, bad files and bad numbers get one clear line, never a traceback nor the apology (issue #11, item 4)."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.storage import SQLiteStorage, StorageOpenError

ROOT = Path(__file__).resolve().parent.parent


def console(stdin: bytes, db: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """A real ``arbitre console`` process fed raw bytes."""
    env = dict(os.environ, ARBITRE_DATA=str(db.parent))
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db), *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )


# --- invalid bytes on the console's input --------------------------------------------------


def test_bad_bytes_on_the_console_are_replaced_said_and_the_console_goes_on(tmp_path: Path) -> None:
    script = (
        b"Ana: /nouvelle Ana Ben\n"
        b"Ana: /coup H8 VAG\xffE\n"  # a Latin-1 byte inside a word
        b"\xff\xfe\xc3\n"  # nothing but bad bytes, and a cut sequence
        b"Ana: /coup H8 VAGUE\n"
        b"Ben: /passe\n"
    )
    result = console(script, tmp_path / "a.sqlite")
    out, err = result.stdout.decode("utf-8"), result.stderr.decode("utf-8")
    assert result.returncode == 0, err
    assert "Traceback" not in err and "Error" not in err
    assert "[console] ligne 2 : octets invalides (pas de l'UTF-8) remplacés par \ufffd" in out
    assert "[console] ligne 3 : octets invalides" in out
    assert "Mot illisible « VAG\ufffdE »" in out  # the line was still read, and refused politely
    assert "Ana : H8 VAGUE" in out and "Ben passe" in out  # the lines after it are played


def test_bad_bytes_note_in_english_and_a_bad_sleep_is_refused(tmp_path: Path) -> None:
    script = b"Ann: /new Ann Bob\n\x80\n:sleep 1e999\n:sleep \xd9\xa3\n:sleep -1\nAnn: /score 8H VAGUE\n"
    result = console(script, tmp_path / "b.sqlite", "--lang", "en")
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, result.stderr.decode()
    assert "[console] line 2: bytes that are not UTF-8 replaced by \ufffd" in out
    assert out.count(":sleep SECONDS") == 3  # infinity, an Arabic-Indic 3, a negative time: refused at once
    assert "Ann: 8H VAGUE" in out


# --- damaged, foreign or misplaced database files ------------------------------------------


def real_database(path: Path, games: int = 20) -> bytes:
    """The bytes of a real Arbitre database with some games in it."""
    store = SQLiteStorage(path)
    with store.transaction():
        for number in range(games):
            game = store.create_game(f"c{number}", "classic", "ana", {"players": ["Ana", "Ben"]})
            for _ in range(100):
                store.append_event(game.id, {"kind": "pass", "player": "Ana", "note": "x" * 40}, "ana")
    store.close()
    data = path.read_bytes()
    assert len(data) > 10 * 4096
    return data


def png_image() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), "white").save(out, format="PNG")
    return out.getvalue()


def bad_database(kind: str, tmp_path: Path) -> tuple[Path, str]:
    """A database path of the given kind of trouble, and the reason its opening must give."""
    if kind == "truncated":
        data = real_database(tmp_path / "real.sqlite")
        path = tmp_path / "truncated.sqlite"
        path.write_bytes(data[: len(data) // 2])
        return path, f"it is truncated: {len(data) // 2} bytes where its header announces {len(data) // 4096} pages"
    if kind == "truncated-header":
        path = tmp_path / "cut.sqlite"
        path.write_bytes(real_database(tmp_path / "real.sqlite")[:60])
        return path, "it is truncated: 60 bytes, less than SQLite's 100-byte header"
    if kind == "damaged":
        data = bytearray(real_database(tmp_path / "real.sqlite"))
        data[2 * 4096 : 3 * 4096] = random.Random(7).randbytes(4096)  # a b-tree page overwritten
        path = tmp_path / "damaged.sqlite"
        path.write_bytes(bytes(data))
        return path, "it is damaged (SQLite's check: "
    if kind == "png":
        path = tmp_path / "board.sqlite"
        path.write_bytes(png_image())
        return path, "it is not a SQLite database (it does not start with SQLite's header)"
    if kind == "random":
        path = tmp_path / "noise.sqlite"
        path.write_bytes(random.Random(11).randbytes(8192))
        return path, "it is not a SQLite database (it does not start with SQLite's header)"
    if kind == "directory":
        path = tmp_path / "folder.sqlite"
        path.mkdir()
        return path, "it is a directory, not a file"
    if kind == "under-a-file":
        (tmp_path / "data").write_text("a file where a folder should be\n")
        return tmp_path / "data" / "arbitre.sqlite", f"{tmp_path / 'data'} is a file, not a folder"
    if kind == "uncreatable-folder":
        return Path("/proc/arbitre-test/arbitre.sqlite"), "its folder /proc/arbitre-test cannot be created"
    raise AssertionError(kind)


BAD_DATABASES = ["truncated", "truncated-header", "damaged", "png", "random", "directory", "under-a-file"]
if Path("/proc/self").is_dir():
    BAD_DATABASES.append("uncreatable-folder")  # Linux: nobody, not even root, creates a folder in /proc


@pytest.mark.parametrize("kind", BAD_DATABASES)
def test_bad_database_file_raises_a_storage_open_error_naming_the_trouble(tmp_path: Path, kind: str) -> None:
    path, reason = bad_database(kind, tmp_path)
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(StorageOpenError) as refused:
        SQLiteStorage(path)
    error = refused.value
    assert error.path == path and error.reason.startswith(reason), error.reason
    assert str(error) == f"cannot open the database {path}: {error.reason}"
    assert "\n" not in str(error)
    if before is not None:
        assert path.read_bytes() == before  # nothing written into a file that is not ours


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="file modes do not stop root")
@pytest.mark.parametrize(
    ("what", "reason"), [("folder", "its folder {folder} is not writable"), ("file", "the file is not writable")]
)
def test_bad_database_in_a_place_that_cannot_be_written(tmp_path: Path, what: str, reason: str) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "arbitre.sqlite"
    if what == "file":
        real_database(path, games=1)
        path.chmod(0o444)
    folder.chmod(0o500)
    try:
        with pytest.raises(StorageOpenError) as refused:
            SQLiteStorage(path)
    finally:
        folder.chmod(0o700)
    assert refused.value.reason == reason.format(folder=folder)


def test_an_empty_file_is_a_new_database_and_a_sound_one_opens(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    SQLiteStorage(empty).close()
    real_database(tmp_path / "real.sqlite", games=2)
    store = SQLiteStorage(tmp_path / "real.sqlite")
    assert len(store.games("c1")) == 1
    store.close()


def cli(tool: str, db: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``arbitre TOOL --db DB`` with a token that is never used: the database is refused first."""
    env = dict(
        os.environ,
        ARBITRE_DATA=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        ARBITRE_DISCORD_TOKEN="MTIz.never-used.token",
        ARBITRE_TELEGRAM_TOKEN="123456:never-used-token",
        ARBITRE_DISCORD_API="http://127.0.0.1:9/api/v10",  # a closed port: nothing would answer
    )
    args = [sys.executable, "-m", "bot", tool, "--db", str(db)]
    if tool == "telegram":
        args += ["--base-url", "http://127.0.0.1:9/bot"]
    return subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)


@pytest.mark.parametrize("tool", ["console", "discord", "telegram"])
@pytest.mark.parametrize("kind", ["truncated", "png", "random", "directory", "under-a-file"])
def test_bad_database_stops_the_cli_with_one_line_and_exit_2(tmp_path: Path, tool: str, kind: str) -> None:
    path, reason = bad_database(kind, tmp_path)
    result = cli(tool, path, tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"arbitre {tool}: cannot open the database {path}: {reason}")
