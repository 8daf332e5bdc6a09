"""The console's room across restarts: what ``--lang`` starts, what a restart keeps, and what silent lines cost."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.adapters.console.room import ConsoleRoom
from bot.adapters.console.rooms import CHANNEL
from bot.referee import Referee
from bot.storage import MemoryStorage, SQLiteStorage
from tests.ready_lists import ready_registry
from tests.transcripts import console_process, replies, run_console

FRENCH = (
    "Réglages : langue fr, édition fr, notation fisf, règles box-fr, liste fr, 3 min par coup en duplicate, "
    "fuseau Europe/Paris."
)
ENGLISH = (
    "Settings: language en, edition en, notation gcg, rules box-en, list en, 3 min per duplicate move, time zone UTC."
)


@pytest.mark.parametrize(
    ("first", "script", "again", "shown"),
    [
        # set to English in a French room: the next start without --lang, or with --lang fr, keeps it English
        ((), "Ana: /reglages langue en\nAna: /reglages fuseau America/Toronto\n", (), "language en, edition fr"),
        ((), "Ana: /reglages langue en\n", ("--lang", "fr"), "time zone UTC"),
        # set to French in an English room: --lang en at the next start does not make it English again
        (("--lang", "en"), "Ann: /settings language fr\n", ("--lang", "en"), "langue fr, édition en"),
        (("--lang", "en"), "Ann: /settings language fr\n", (), "fuseau Europe/Paris"),
    ],
)
def test_a_restart_never_overwrites_a_stored_setting(
    tmp_path: Path, first: tuple[str, ...], script: str, again: tuple[str, ...], shown: str
) -> None:
    db = tmp_path / "room.sqlite"
    console_process(script, db, "--admin", "Ana", "--admin", "Ann", *first)
    second = console_process("Ana: /settings\n", db, *again)
    assert shown in second.stdout
    if "Toronto" in script:
        assert "time zone America/Toronto" in second.stdout
    store = SQLiteStorage(db)
    assert store.channel(CHANNEL).language == ("en" if "langue en" in script else "fr")
    store.close()


@pytest.mark.parametrize(
    ("lang", "kept", "note"),
    [
        ("en", "fr", "Le salon garde sa langue (fr) : --lang en ne vaut que pour un nouveau salon"),
        ("fr", "en", "The room keeps its language (en): --lang fr applies to a new room only"),
    ],
)
@pytest.mark.long(3)
def test_lang_for_a_room_that_exists_is_answered_with_a_note(tmp_path: Path, lang: str, kept: str, note: str) -> None:
    db = tmp_path / "room.sqlite"
    console_process("", db, "--lang", kept)
    second = console_process("Ana: /settings\n", db, "--lang", lang)
    assert note in second.stderr
    assert (FRENCH if kept == "fr" else ENGLISH) in second.stdout


def test_a_new_room_in_english_gets_the_english_edition_list_notation_rules_and_zone(tmp_path: Path) -> None:
    script = "Mom: /settings\nMom: /new Mom Dad\nMom: /calc 8G ZAX\nMom: /score 8G ZAX\nDad: /check ZA\n"
    out = replies(run_console(script, tmp_path / "family.sqlite", "--lang", "en"))
    assert out[0].splitlines()[0] == f"[#console] {ENGLISH}"
    assert "[#console] language ▾ [Français → /settings language fr]" in out[0]  # the settings' menus, by name
    assert "New game (en, rules box-en, gcg notation)" in out[1]
    assert "ZAX (10+1+8)x2 = 38" in out[2]  # English values, GCG reference (row 8, column G, across)
    assert "Mom: 8G ZAX" in out[3]
    assert "= 38" in out[3]
    assert "ZA valid" in out[4]


def test_a_new_room_without_lang_is_french(tmp_path: Path) -> None:
    out = replies(run_console("Ana: /reglages\nAna: /calcul H8 ZAX\n", tmp_path / "club.sqlite"))
    assert out[0].splitlines()[0] == f"[#console] {FRENCH}"
    assert "ZAX (10+1+10)x2 = 42" in out[1]


# --- silent lines: blank lines and comments ------------------------------------------------------


def test_blank_lines_and_comments_are_one_hand_over_to_the_room() -> None:
    lines = ["", "   ", "\t", "# a comment"] * 5_000 + ["Ana: /aide", "", "  "] + [""] * 10_000
    stdin = io.TextIOWrapper(io.BytesIO("\n".join(lines).encode() + b"\n"), encoding="utf-8")
    out = io.StringIO()
    storage = MemoryStorage()
    room = ConsoleRoom(Referee(storage, ready_registry(), clock_scope=CHANNEL), out, Path("images"), "Moi")
    assert asyncio.run(room.run(stdin)) == 0
    assert "/aide" in out.getvalue()
    assert "/coup" in out.getvalue()
    assert room.reads == 2  # the line that says something, then the end of the input
    assert room.lines_read == len(lines)


def test_a_line_number_after_blank_lines_is_still_right(tmp_path: Path) -> None:
    script = "\n" * 500 + "# comment\n" + "Ana: /nouvelle Ana Ben\n" + "  \n" * 300 + "Ana: /coup H8 VAG\udcffE\n"
    data = script.encode("utf-8", errors="surrogateescape")
    env = dict(os.environ, ARBITRE_DATA=str(tmp_path))
    db = tmp_path / "lines.sqlite"
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(db)], input=data, capture_output=True, timeout=120, env=env
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, result.stderr.decode()
    assert "[console] ligne 803 : octets invalides" in out
    assert "Mot illisible « VAG\ufffdE »" in out


def test_an_edit_that_changes_nothing_is_not_printed_again(tmp_path: Path) -> None:
    """The close brings the live counter and join line up to date; the console, which prints every edit as
    a new line, printed both again unchanged (found playing a club night)."""
    script = (
        "Ref: /duplicate 1 manuel\nRef: /tirage AEGUVRS\nAna> /jouer H8 VAGUE\nBen> /jouer H8 VAGUES\nRef: /cloture\n"
    )
    output = replies(run_console(script, tmp_path / "room.db"))
    assert output.count("[#console] Coup 1 : 2 joueurs sur 2 ont joué.") == 1
    assert output.count("[#console] Ana et Ben rejoignent la partie au coup 1.") == 1
    assert output.index("[#console] Coup 1 : 2 joueurs sur 2 ont joué.") < output.index(
        "[#console] Coup 1 — tirage : AEGRSUV — manche close."
    )
