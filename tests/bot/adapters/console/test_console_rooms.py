"""Console rooms: ``arbitre console --room NAME`` on one SQLite file, each process a room of its own.

Real console processes on one real file: most are fed a script on stdin and run it to its end
(``tests.transcripts``); where two must run at once, or a test must wait for what a console's clock does,
``LiveConsole`` types lines into a running process and waits for the lines it prints (never a sleep, never
a measured time: ``WAIT`` only bounds a wait for a line that must come).
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

import pytest

from bot.adapters.console.rooms import CHANNEL, ROOM_PREFIX, RoomKey, room_key, room_of
from bot.storage import SQLiteStorage
from bot.tools.common import EXIT_BROKEN_PIPE
from tests.bot.adapters.console.test_console_room import ENGLISH, FRENCH
from tests.console_clock import DrivenClock, run_driven
from tests.paths import REPO_ROOT
from tests.transcripts import console_process, replies, run_console

ROOT = REPO_ROOT
WAIT = 60.0  # seconds at most for a line that must come (the test fails if it does not; never a measure)
IMAGE = re.compile(r"\((?:image|file): (?P<path>[^)]+)\)")


class LiveConsole:
    """A running ``arbitre console`` process: lines typed into it as the test goes, its output read as it
    comes (a thread), its errors in a file."""

    def __init__(self, db: Path, *args: str) -> None:
        env = dict(os.environ, ARBITRE_DATA=str(db.parent))
        self.errors = db.parent / f"stderr-{len(list(db.parent.glob('stderr-*')))}.txt"
        with self.errors.open("w") as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot", "console", "--db", str(db), *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
                encoding="utf-8",
                env=env,
                cwd=ROOT,
            )
        self.lines: list[str] = []
        self.ended = False
        self.seen = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.seen:
                self.lines.append(line.rstrip("\n"))
                self.seen.notify_all()
        with self.seen:
            self.ended = True
            self.seen.notify_all()

    def send(self, *lines: str) -> None:
        """Type ``lines`` into the console."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first line printed so far or to come that ``pattern`` (a regular expression) finds."""

        def found() -> re.Match[str] | None:
            return next((m for line in self.lines if (m := re.search(pattern, line))), None)

        with self.seen:
            self.seen.wait_for(lambda: found() is not None or self.ended, WAIT)
            match = found()
        assert match is not None, f"{pattern!r} not printed:\n" + self.output + self.errors.read_text()
        return match

    @property
    def output(self) -> str:
        with self.seen:
            return "\n".join(self.lines) + "\n"

    def finish(self) -> str:
        """End the input, wait for the console to exit 0 without a traceback; its whole output."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(WAIT)
        self.reader.join(WAIT)
        errors = self.errors.read_text()
        assert status == 0, errors
        assert "Traceback" not in errors, errors
        return self.output

    def __enter__(self) -> LiveConsole:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.process.poll() is None:  # a failed test: the process goes with it
            self.process.kill()
            self.process.wait(WAIT)


@contextmanager
def opened(db: Path) -> Iterator[SQLiteStorage]:
    """The database file, opened for the test's reads and closed after them."""
    store = SQLiteStorage(db)
    try:
        yield store
    finally:
        store.close()


def image_paths(output: str) -> list[Path]:
    """The paths of the images and files a console's output says it wrote."""
    return [Path(m.group("path")) for m in IMAGE.finditer(output)]


# --- rooms, names, the default room ----------------------------------------------------------------


@pytest.mark.long(3)
def test_two_rooms_keep_their_own_games_settings_and_files(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    # vichy is created in English, sete in French (--lang is each new room's); Ana plays in both
    run_console("Ana: /new Ana Bob\nAna: /score 8G ZAX\nAna: /board\n", db, "--room", "vichy", "--lang", "en")
    sete_first = run_console("Ana: /nouvelle Ana Ben\nAna: /coup H8 VAGUE\nAna: /grille\n", db, "--room", "sete")
    vichy = replies(run_console("Ana: /settings\nAna: /games\nAna: /board\n", db, "--room", "Vichy"))
    kept = console_process("Ana: /reglages\nAna: /parties\n", db, "--room", "sete", "--lang", "en")
    sete = replies(kept.stdout)
    default = replies(run_console("Ana: /parties\n", db))

    assert vichy[0].startswith(f"[#vichy] {ENGLISH}")  # --room Vichy is vichy: case is ignored
    assert "Ana, Bob" in vichy[1]
    assert "Ben" not in vichy[1]
    assert "(1)" in vichy[1]
    assert sete[0].startswith(f"[#sete] {FRENCH}")  # a room that exists keeps its language, and says so
    assert "Le salon garde sa langue (fr) : --lang en ne vaut que pour un nouveau salon" in kept.stderr
    assert "Ana, Ben" in sete[1]
    assert "Bob" not in sete[1]
    assert "(1)" in sete[1]
    assert default == ["[#console] Aucune partie n'a encore été jouée dans ce salon."]
    with opened(db) as store:
        vichy_games, sete_games = store.games(RoomKey("vichy").channel), store.games(RoomKey("sete").channel)
        assert len(vichy_games) == len(sete_games) == 1
        assert store.games(CHANNEL) == []
        assert vichy_games[0].referee == sete_games[0].referee == "console:ana"  # one account in both rooms
    # each room's images in its own folder beside the database, never over another's
    vichy_images, sete_images = image_paths("\n".join(vichy)), image_paths(sete_first)
    assert vichy_images
    assert sete_images
    assert {p.parent for p in vichy_images} == {tmp_path / "images" / "vichy"}
    assert {p.parent for p in sete_images} == {tmp_path / "images" / "sete"}
    assert all(p.is_file() for p in vichy_images + sete_images)


@pytest.mark.parametrize("name", ["", "a b", "x" * 33, "vichy/", "sète", "a:b", "vichy\n", "%", ".."])
def test_a_bad_room_name_is_refused_in_one_line_with_exit_2(tmp_path: Path, name: str) -> None:
    db = tmp_path / "club.sqlite"
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db), f"--room={name}"],
        input="Ana: /aide\n",
        capture_output=True,
        text=True,
        timeout=WAIT,
        env=dict(os.environ, ARBITRE_DATA=str(tmp_path)),
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("arbitre console: --room ")
    assert "a room's name is 1 to 32 letters, digits, - or _" in result.stderr
    assert not db.exists()  # refused before the database is opened


def test_names_at_the_limits_are_rooms(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    longest = "Club_de-Vichy-" + "9" * 18  # 32 characters
    out = replies(run_console("Ana: /parties\n", db, f"--room={longest}"))
    assert out == [f"[#{longest.lower()}] Aucune partie n'a encore été jouée dans ce salon."]
    assert replies(run_console("Ana: /parties\n", db, "--room=-"))[0].startswith("[#-] ")


@pytest.mark.long(3)
def test_the_default_room_is_the_room_console_as_before(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    first = run_console("Ana: /nouvelle Ana Ben\nAna: /coup H8 VAGUE\nAna: /grille\n", db)
    assert "[#console] Ana : H8 VAGUE" in first
    (board,) = image_paths(first)
    assert board.parent == tmp_path / "images"
    assert board.is_file()
    for same in (("--room", "console"), ("--room", "CONSOLE")):
        games = replies(run_console("Ben: /parties\n", db, *same))
        assert games[0].startswith("[#console] Parties du salon (1)")
        assert "Ana, Ben" in games[0]
    assert "Aucune partie" in run_console("Ben: /parties\n", db, "--room", "consoles")
    with opened(db) as store:
        (game,) = store.games(CHANNEL)
        assert game.referee == "console:ana"
        assert store.channel(CHANNEL).language == "fr"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("--room", "Vichy"), "Salon : vichy (chaque console lancée avec --room est un salon ; les comptes sont"),
        (("--room", "vichy", "--lang", "en"), "Room: vichy (each console started with --room is a room of its own;"),
        ((), None),
    ],
)
def test_a_person_typing_is_told_the_rooms_name(tmp_path: Path, args: tuple[str, ...], line: str | None) -> None:
    """The banner a terminal shows (standard input is a terminal: a pseudo-terminal here, ended by Ctrl-D)."""
    controller, terminal = pty.openpty()
    command = [sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "club.sqlite"), "--admin", "Ana", *args]
    env = dict(os.environ, ARBITRE_DATA=str(tmp_path))
    with subprocess.Popen(command, stdin=terminal, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT) as console:
        os.close(terminal)
        os.write(controller, b"\x04")  # Ctrl-D: the end of the input
        out, _ = console.communicate(timeout=WAIT)
    os.close(controller)
    assert console.returncode == 0
    banner = out.splitlines()
    assert banner[1] in ("Administrateurs : Ana", "Admins: Ana")
    if line is None:
        assert banner[2].startswith("Base : ")
        assert "Salon" not in out
    else:
        assert banner[2].startswith(line)
        assert banner[3].startswith(("Base : ", "Database: "))


def test_room_channels_keep_every_clock_scope_to_its_own_room() -> None:
    """A clock scope is a prefix: no room's channel starts with another room's, nor with another platform's
    scope, and none holds a wildcard of SQL's LIKE (the outbox reads a scope through it)."""
    names = [None, "vichy", "vichy2", "vichy_2", "vichyx2", "vi", "console-2", "terminal", "a" * 32, "-", "_"]
    rooms = [room_key(name) for name in names]
    assert None not in rooms
    keys = [room for room in rooms if room is not None]
    assert len({k.channel for k in keys}) == len(keys) == len({k.image_dir(Path("db")) for k in keys})
    for room in keys:
        assert room_of(room.channel) == room
        others = [k for k in keys if k != room]
        assert not any(other.channel.startswith(room.channel) for other in others), room
        named = room != RoomKey()
        assert not named or not room.channel.startswith((CHANNEL, "discord:", "telegram:"))
        assert not named or ("_" not in room.channel and "%" not in room.channel)
    assert room_key("Vichy") == room_key("vichy") == RoomKey("vichy")
    assert room_key("console") == room_key(None) == RoomKey()
    assert RoomKey("vichy").channel.startswith(ROOM_PREFIX)


# --- the clock: each console looks after its own room only ------------------------------------------


def open_round(player: str) -> list[str]:
    """A duplicate round of 3 seconds (the shortest) with the draw ACEHNTZ and one answer, typed by Ref."""
    return ["Ref: /duplicate 0.05 manuel", "Ref: /tirage ACEHNTZ", f"{player}> /jouer H6 CHANTEZ"]


def test_each_console_closes_its_own_rooms_rounds_only(tmp_path: Path) -> None:
    """A clock scope is a prefix: the room console's (``console``) and the room vichy's must not reach the
    room vichy2, whose round's deadline passes first, while its console is stopped."""
    db = tmp_path / "club.sqlite"
    clock = DrivenClock()  # the consoles' time, which the test moves
    # vichy2 opens a round and stops: its deadline, the earliest, passes while its console is stopped
    opened_round = "\n".join(open_round("Cy")) + "\n"
    assert "Coup 1 — tirage : ACEHNTZ" in run_driven(opened_round, db, clock, "--room", "vichy2")
    # the room console and the room vichy (both prefixes of vichy2's name) run rounds closed by their clocks
    outputs = ""
    for room in ((), ("--room", "vichy")):
        clock.advance(0.1)
        player = "Dan" if room else "Ben"
        output = run_driven("\n".join([*open_round(player), ":sleep 3.5"]) + "\n", db, clock, *room)
        assert re.search(rf"^{player} : H6 CHANTEZ 112 \(top\)", output, re.M), output  # closed by its clock
        outputs += output
    assert "Cy" not in outputs
    assert "[#vichy2" not in outputs
    with opened(db) as store:  # vichy2's round, past its deadline before theirs, is still open
        assert [d.channel for d in store.deadlines()] == [RoomKey("vichy2").channel]
    # vichy2's console closes it as it starts again
    again = replies(run_driven("", db, clock, "--room", "vichy2"))
    closed = next(r for r in again if "Top : H6 CHANTEZ" in r)
    # the results, the exact count first
    assert closed.startswith("[#vichy2] Coup 1 clos : 1 joueur sur 1 a joué.\nCoup 1 — tirage ACEHNTZ")
    assert "Cy : H6 CHANTEZ 112 (top)" in closed
    with opened(db) as store:
        assert store.deadlines() == []


def test_a_private_reply_a_room_owed_is_printed_when_it_starts_again(tmp_path: Path) -> None:
    """A named room's console delivers what waits for console accounts too (its output closed as it answered)."""
    db = tmp_path / "club.sqlite"
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the console writes anything
    env = dict(os.environ, ARBITRE_DATA=str(tmp_path))
    args = [sys.executable, "-m", "bot", "console", "--db", str(db), "--room", "vi_chy"]
    with subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE, env=env, cwd=ROOT
    ) as gone:
        os.close(write_end)
        _, errors = gone.communicate(b"Ben> /parties\n", timeout=WAIT)
    assert gone.returncode == EXIT_BROKEN_PIPE, errors.decode()
    out = replies(run_console("", db, "--room", "vi_chy"))
    assert out == ["[-> ben] Aucune partie n'a encore été jouée dans ce salon."]
    assert replies(run_console("", db, "--room", "vi_chy")) == []  # printed once


# --- a simultané across two consoles --------------------------------------------------------------


def test_a_simultane_across_two_console_rooms(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    with LiveConsole(db, "--room", "vichy", "--admin", "Ana") as vichy:
        vichy.send("Ana: /simultane creer 1 tirages ACEHNTZ")
        code = vichy.wait_for(r"^\[#vichy\] Simultané créé, code (\w{6})").group(1)
        vichy.send(f"Ana: /simultane rejoindre {code}", "Ben> /jouer H6 CHANTEZ")
        vichy.wait_for(r"Reçu pour le coup 1")
        with LiveConsole(db, "--room", "sete", "--admin", "Bob") as live_sete:
            live_sete.send(f"Bob: /simultane rejoindre {code} Sète", "Cy> /jouer H8 CHANTEZ")
            live_sete.wait_for(r"Reçu pour le coup 1")
            vichy.send("Ana: /cloture")  # every player of vichy answered: its time is up, it waits for sete
            vichy.wait_for(r"temps écoulé dans ce salon")
            live_sete.send("Bob: /cloture")  # the last room: its results at once, and vichy's at its clock's tick
            live_sete.wait_for(r"^Cy : H8 CHANTEZ 94$")
            vichy.wait_for(r"^Ben : H6 CHANTEZ 112 \(top\)")
            live_sete.send("Bob: /simultane classement", "Bob: /simultane export")
            live_sete.wait_for(r"\.csv")
            sete = replies(live_sete.finish())
        vichy.send(f"Ana: /simultane classement {code}")
        vichy.wait_for(r"^\[#vichy\] Simultané \w{6}, tous centres confondus \(2 salons, 2 joueurs\), après 1 manche")
        organiser = vichy.finish()
    assert f"[#sete] Ce salon a rejoint le simultané {code} sous le nom « Sète »" in sete[0]
    assert any(r.startswith("[#sete] Coup 1 — tirage : ACEHNTZ") for r in sete)
    assert "Cy : H8 CHANTEZ 94" in next(r for r in sete if "Top : H6 CHANTEZ" in r).splitlines()
    assert any(r.startswith(f"[#sete] Simultané {code}, tous centres confondus (2 salons, 2 joueurs)") for r in sete)
    (export,) = [p for p in image_paths("\n".join(sete)) if p.suffix == ".csv"]
    assert export.parent == tmp_path / "images" / "sete"
    rows = export.read_text(encoding="utf-8")
    assert ",Ben,Salon 1,112," in rows
    assert ",Cy,Sète,94," in rows
    assert "[#sete" not in organiser
    assert "Cy" not in organiser
