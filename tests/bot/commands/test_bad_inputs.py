"""Bad bytes, bad files and bad numbers get one clear line, never a traceback nor the apology (issue #11, item 4)."""

from __future__ import annotations

import io
import os
import random
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.chat import LOGGED_CHARS, MAX_COMMAND_CHARS, Incoming, Reply
from bot.cli import main
from bot.messages import languages, say
from bot.referee import Referee
from bot.storage import MIGRATIONS, GameKind, GameSetup, SQLiteStorage, StorageOpenError
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
LEXICONS = ready_registry()


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
    assert "Traceback" not in err
    assert "Error" not in err
    assert "[console] ligne 2 : octets invalides (pas de l'UTF-8) remplacés par \ufffd" in out
    assert "[console] ligne 3 : octets invalides" in out
    assert "Mot illisible « VAG\ufffdE »" in out  # the line was still read, and refused politely
    assert "Ana : H8 VAGUE" in out
    assert "Ben passe" in out


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
            setup = GameSetup("fr", "fisf", "fr", rules="box-fr", players=("Ana", "Ben"))
            game = store.create_game(f"c{number}", GameKind.CLASSIC, "ana", setup)
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
        damaged = bytearray(real_database(tmp_path / "real.sqlite"))
        damaged[2 * 4096 : 3 * 4096] = random.Random(7).randbytes(4096)  # a b-tree page overwritten
        path = tmp_path / "damaged.sqlite"
        path.write_bytes(bytes(damaged))
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
    assert error.path == path, (error.path, error.reason)
    assert error.reason.startswith(reason), error.reason
    assert str(error) == f"cannot open the database {path}: {error.reason}"
    assert "\n" not in str(error)
    if before is not None:
        assert path.read_bytes() == before  # nothing written into a file that is not ours


@pytest.mark.skipif(os.name == "nt", reason="POSIX file modes")
@pytest.mark.parametrize(
    ("what", "reason"), [("folder", "its folder {folder} is not writable"), ("file", "the file is not writable")]
)
def test_bad_database_in_a_place_that_cannot_be_written(tmp_path: Path, what: str, reason: str) -> None:
    """File modes do not stop root: there, the immutable attribute does (``chattr +i``)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "arbitre.sqlite"
    if what == "file":
        real_database(path, games=1)
    undo = read_only_file(path if what == "file" else folder)
    if undo is None:
        pytest.skip("nothing can be made read-only here (chattr +i refused)")
    try:
        with pytest.raises(StorageOpenError) as refused:
            SQLiteStorage(path)
    finally:
        undo()
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


# --- files this version cannot read: one line at start, never the apology at every command -----------


def read_only_file(path: Path) -> Callable[[], None] | None:
    """Make ``path`` unwritable, even for root (the immutable attribute); how to undo it (None: cannot)."""
    if os.geteuid() != 0:
        mode = 0o700 if path.is_dir() else 0o600
        path.chmod(0o444)
        return lambda: path.chmod(mode)
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        return None

    def undo() -> None:
        subprocess.run(["chattr", "-i", str(path)], check=True)

    return undo


def edited_database(kind: str, path: Path) -> str:
    """A real database at ``path`` changed in the way ``kind`` names; the reason its opening must give."""
    real_database(path, games=2)
    db = sqlite3.connect(path)
    try:
        if kind == "outbox-dropped":
            db.execute("drop table outbox")
            return "it has no table outbox (a damaged or hand-edited file)"
        if kind == "column-dropped":
            db.execute("alter table games drop column referee")
            return "its table games has no column referee (a damaged or hand-edited file)"
        if kind == "unknown-kind":
            db.execute("update games set kind = 'triplicate' where id = 2")
            return "game 2 (channel c1) is of an unknown kind 'triplicate' (a damaged or hand-edited file)"
        if kind == "bad-setup":
            db.execute("update games set setup = '{\"players\": 3}' where id = 1")
            return "game 1 (channel c0) has a set-up that cannot be read (game set-up: 'players' cannot be 3)"
        if kind == "event-not-json":
            db.execute('update events set data = \'{"kind": "pass", \' where game = 2 and seq = 7')
            return "event 7 of game 2 (channel c1) is not a JSON object (a damaged or hand-edited file)"
        if kind == "event-not-object":
            db.execute("update events set data = '[1, 2]' where game = 1 and seq = 3")
            return "event 3 of game 1 (channel c0) is not a JSON object"
        if kind == "newer-version":
            db.execute("insert into migrations (version, name, applied) values (99, 'from a newer Arbitre', 0)")
            known = MIGRATIONS[-1][0]
            said = "a newer version of Arbitre wrote it (database version 99; this version knows versions up to"
            return f"{said} {known})"
        raise AssertionError(kind)
    finally:
        db.commit()
        db.close()


EDITED = ["outbox-dropped", "column-dropped", "unknown-kind", "bad-setup", "event-not-json", "event-not-object"]


@pytest.mark.long(6)
@pytest.mark.parametrize("kind", [*EDITED, "newer-version", "read-only"])
def test_a_database_this_version_cannot_use_stops_the_console_with_one_line_and_exit_2(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "club.sqlite"
    if kind == "read-only":
        real_database(path, games=1)
        undo = read_only_file(path)
        if undo is None:
            pytest.skip("the file cannot be made read-only here (chattr +i refused)")
        reason = "the file is not writable"
    else:
        undo, reason = None, edited_database(kind, path)
    before = path.read_bytes()
    try:
        result = cli("console", path, tmp_path)
    finally:
        if undo is not None:
            undo()
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"arbitre console: cannot open the database {path}: {reason}"), lines[0]
    assert path.read_bytes() == before  # nothing written into a file this version cannot read


def test_a_new_database_and_the_folders_made_for_it_are_for_the_owner_only(tmp_path: Path) -> None:
    """It holds open duplicate submissions: no other local user may read it (st_mode bits, as root too)."""
    tmp_path.chmod(0o755)
    path = tmp_path / "data" / "arbitre" / "club.sqlite"
    store = SQLiteStorage(path)
    try:
        store.create_game("c", GameKind.CLASSIC, "ana", GameSetup("fr", "fisf", "fr", players=("Ana", "Ben")))
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in path.parent.iterdir()}
        assert modes == {"club.sqlite": 0o600, "club.sqlite-wal": 0o600, "club.sqlite-shm": 0o600}
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE((tmp_path / "data").stat().st_mode) == 0o700
        assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755  # a folder the bot did not make is left alone
    finally:
        store.close()


def test_the_console_makes_its_default_database_for_the_owner_only(tmp_path: Path) -> None:
    env = dict(os.environ, ARBITRE_DATA=str(tmp_path / "share" / "arbitre"))
    env.pop("ARBITRE_DB", None)
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console"], input=b"Ana: /aide\n", capture_output=True, env=env, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    made = [tmp_path / "share", tmp_path / "share" / "arbitre", tmp_path / "share" / "arbitre" / "arbitre.sqlite"]
    assert [oct(stat.S_IMODE(p.stat().st_mode)) for p in made] == [oct(0o700), oct(0o700), oct(0o600)]


# --- numbers typed in commands: unicode digits, huge numbers -----------------------------------

BIG = "9" * 5000
APOLOGIES = {say(lang, "apology") for lang in languages()}


class Room:
    """A referee on a real SQLite file; every answer is checked not to be the apology."""

    def __init__(self, path: Path) -> None:
        self.now = 1_800_000_000.0
        self.storage = SQLiteStorage(path)
        self.referee = Referee(self.storage, LEXICONS, now=lambda: self.now, images=False)

    def send(self, name: str, text: str, *, private: bool = False) -> list[Reply]:
        admin = name == "Admin"  # the channel's admin (settings are theirs)
        replies = self.referee.handle(Incoming("club", f"u:{name.lower()}", name, text, private=private, admin=admin))
        assert replies, text
        assert not any(r.text in APOLOGIES for r in replies), text[:100]
        return replies

    def refused(self, name: str, text: str, *, private: bool = False) -> str:
        """A command that must be refused, changing nothing; its answer."""
        before = self.log()
        replies = self.send(name, text, private=private)
        assert all(r.error for r in replies), (text[:100], replies)
        assert self.log() == before, text[:100]
        return replies[0].text

    def log(self) -> list[dict[str, object]]:
        return [e.data for g in self.storage.games("club") for e in self.storage.events(g.id)]

    def close(self) -> None:
        self.referee.clock.shutdown()
        self.storage.close()


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    room = Room(tmp_path / "club.sqlite")
    yield room
    room.close()


CLASSIC_BAD_NUMBERS = [
    # (command, what the answer says)
    ("/coup H8 VAGUE ²", "Le score annoncé « ² » n'est pas un nombre entier"),  # the move is readable
    ("/coup H٣ VAGUE", "Coup illisible « H٣ VAGUE »"),  # an Arabic-Indic 3 was read as H3
    ("/coup ８H VAGUE", "Coup illisible"),  # a fullwidth 8
    ("/coup H8 VAGUE 99999999999", "Le score annoncé « 99999999999 » n'est pas un nombre entier"),
    (f"/coup H8 VAGUE {BIG}", f"Le score annoncé « {BIG[:20]} » n'est pas un nombre entier"),
    ("/change ²", "« ² » : un échange porte sur 1 à 7 lettres"),
    ("/change ٣", "« ٣ » : un échange porte sur 1 à 7 lettres"),
    (f"/change {BIG}", "un échange porte sur 1 à 7 lettres"),
    ("/penalite Ben ²", "« ² » n'est pas un nombre entier."),
    ("/penalite Ben 99999999999", "« 99999999999 » n'est pas un nombre entier."),
    (f"/penalite Ben {BIG}", f"« {BIG[:20]} » n'est pas un nombre entier."),
    ("/fin Ben=٣ !", "Ben : « ٣ » n'est ni des lettres (? pour un joker) ni un nombre de 0 à 70."),
    ("/fin Ben=71 !", "Ben : « 71 » n'est ni des lettres"),
    ("/fin Ben=99999999999 !", "Ben : « 99999999999 » n'est ni des lettres"),
    (f"/fin Ben={BIG[:4000]} !", "n'est ni des lettres (? pour un joker) ni un nombre de 0 à 70."),
    ("/feuille ²", "« ² » n'est pas un nombre entier."),
    ("/export ٣", "« ٣ » n'est pas un nombre entier."),
    ("/grille 99999999999", "« 99999999999 » n'est pas un nombre entier."),
    ("/reglages minutes ²", "Réglage inconnu ou valeur invalide : minutes ²."),
    ("/reglages minutes 1e999", "Réglage inconnu ou valeur invalide : minutes 1e999."),
    ("/reglages minutes nan", "Réglage inconnu ou valeur invalide : minutes nan."),
    (f"/reglages minutes {BIG}", "Réglage inconnu ou valeur invalide"),
]


@pytest.mark.parametrize(("command", "answer"), CLASSIC_BAD_NUMBERS, ids=[c[:30] for c, _ in CLASSIC_BAD_NUMBERS])
def test_bad_number_in_a_classic_game_is_refused_politely(room: Room, command: str, answer: str) -> None:
    room.send("Ana", "/nouvelle Ana Ben")
    room.send("Ana", "/coup H8 VAGUE")
    room.send("Ben", "/passe")
    assert answer in room.refused("Admin" if command.startswith("/reglages") else "Ana", command)


def test_a_rack_given_in_points_is_still_read_up_to_the_most_a_rack_holds(room: Room) -> None:
    room.send("Ana", "/nouvelle Ana Ben")
    room.send("Ana", "/coup H8 VAGUE")
    ended = "\n".join(r.text for r in room.send("Ana", "/fin Ben=70 !"))
    assert "Ben -70 (0 -70)" in ended
    assert "Ana 20 (20 +0)" in ended


DUPLICATE_BAD_NUMBERS = [
    ("/duplicate ² !", "« ² » n'est pas un nombre (par exemple 45 ou 1,5)."),
    (f"/duplicate {BIG} !", f"« {BIG[:20]} » n'est pas un nombre"),
    ("/duplicate nan !", "Syntaxe : /duplicate"),
    ("/prolonge ²", "« ² » n'est pas un nombre (par exemple 45 ou 1,5)."),
    ("/prolonge 1e999", "« 1e999 » n'est pas un nombre"),
    ("/rouvre ²", "« ² » n'est pas un nombre (par exemple 45 ou 1,5)."),
    (f"/rouvre {BIG}", f"« {BIG[:20]} » n'est pas un nombre"),
    ("/top ²", "top"),
    ("/corrige Ana ² H8 VAGUE", "Syntaxe : /corrige"),
    ("/corrige Ana 1 ²", "« ² » n'est pas un nombre entier."),
    ("/corrige Ana 1 1,5", "« 1,5 » n'est pas un nombre entier."),
    (f"/corrige Ana {BIG} 10", "Syntaxe : /corrige"),
    ("/classement ٣", "« ٣ » n'est pas un nombre entier."),
]


@pytest.mark.parametrize(("command", "answer"), DUPLICATE_BAD_NUMBERS, ids=[c[:30] for c, _ in DUPLICATE_BAD_NUMBERS])
def test_bad_number_in_a_duplicate_game_is_refused_politely(room: Room, command: str, answer: str) -> None:
    room.send("Ref", "/duplicate 3")
    room.send("Ana", "/jouer H8 VAGUE", private=True)
    room.send("Ref", "/cloture")
    assert answer in room.refused("Ref", command)


def test_bad_number_in_a_private_duplicate_move_is_received_as_unreadable(room: Room) -> None:
    """A duplicate answer is taken as typed (it scores 0 when unreadable): the player is told why."""
    room.send("Ref", "/duplicate 3")
    for move in ("H8 VAGUE ²", "H٣ VAGUE", f"H8 VAGUE {BIG}"):
        text = "\n".join(r.text for r in room.send("Ana", f"/jouer {move}", private=True))
        assert "mais il vaudra 0 : coup illisible" in text


# --- a huge message ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["/verif ", "/coup H8 ", "/nouvelle Ana ", "/aide ", "/reglages fuseau "])
def test_huge_command_of_100_kb_is_refused_in_one_short_line(room: Room, command: str) -> None:
    text = command + "A" * 100_000
    answer = room.refused("Ana", text)
    assert answer == f"Message trop long ({len(text)} caractères) : une commande en compte au plus {MAX_COMMAND_CHARS}."


def test_huge_chatter_is_ignored_and_a_command_at_the_limit_is_read(room: Room) -> None:
    assert room.referee.handle(Incoming("club", "u:ana", "Ana", "A" * 100_000)) == []  # not a command
    longest = "/verif " + " ".join(["VAGUE"] * ((MAX_COMMAND_CHARS - 7) // 6))
    assert len(longest) <= MAX_COMMAND_CHARS
    assert "VAGUE valable" in room.send("Ana", longest)[0].text


def test_huge_message_is_never_logged_whole() -> None:
    """Unexpected errors are logged with the message (``%s``): its text is cut."""
    text = "/verif " + "A" * 100_000
    logged = str(Incoming("club", "u:ana", "Ana", text))
    assert logged.startswith("Ana@club: /verif AAA")
    assert logged.endswith(f"… ({len(text)} characters)")
    assert len(logged) < LOGGED_CHARS + 60
    reply = str(Reply("B" * 160_000, channel="club"))
    assert len(reply) < LOGGED_CHARS + 60
    assert reply.endswith("(160000 characters)")
    assert str(Incoming("club", "u:ana", "Ana", "/verif VAGUE")) == "Ana@club: /verif VAGUE"


def test_a_private_message_or_reply_is_logged_by_its_length_never_its_text() -> None:
    """An open duplicate submission, or its acknowledgement, must not reach the operator's log."""
    submission = Incoming("telegram:7", "telegram:7", "Ana", "/jouer H8 VAGUE", private=True)
    assert str(submission) == "Ana@telegram:7 (private): /jouer … (15 characters)"
    ack = Reply("Reçu pour le coup 1 : H8 VAGUE", to_user="telegram:7", outbox_id=12)
    assert str(ack) == "(private #12 to telegram:7) 30 characters"
    draw = Reply("Coup 1 — tirage : AEGUV", channel="club", outbox_id=13)
    assert str(draw) == "(channel #13) Coup 1 — tirage : AEGUV"


# --- numbers in a GCG file -------------------------------------------------------------------

GCG_HEAD = "#character-encoding UTF-8\n#player1 Ana Ana\n#player2 Ben Ben\n"
BAD_GCG = [
    (GCG_HEAD + f">Ana: AEGUV 8D VAGUE +{BIG} {BIG}\n", f"'+{BIG}' is not a score like +12 or -5"),
    (GCG_HEAD + ">Ana: AEGUV 8D VAGUE +٢٠ ٢٠\n", "'+٢٠' is not a score like +12 or -5"),
    (GCG_HEAD + ">Ana: AEGUV ٨D VAGUE +20 20\n", "line 4: cannot read this event (a play is POSITION WORD"),
    (GCG_HEAD + f">Ana: AEGUV 8D VAGUE +20 20\n>Ben: EEE -{BIG} +0 0\n", "an exchange is -LETTERS"),
    (GCG_HEAD + f">Ana: AEGUV 8D VAGUE +20 20\n>Ben: ({BIG}) +{BIG} 40\n", "is not a score like +12 or -5"),
    (f"#player{BIG} Ana Ana\n#player2 Ben Ben\n>Ana: AEGUV 8D VAGUE +20 20\n", "Ana is not a declared player"),
]


@pytest.mark.parametrize(("content", "reason"), BAD_GCG, ids=range(len(BAD_GCG)))
def test_bad_number_in_a_gcg_file_is_one_line_from_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, reason: str
) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"arbitre replay: {path}: ")
    assert reason in err
    assert len(err.strip().splitlines()) == 1
