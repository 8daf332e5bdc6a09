"""A duplicate game typed into the console adapter across restarts (one SQLite file).

Each console session runs in the test's process on a clock the test drives (``tests/console_clock.py``): what
is tested is what the clock does while a console is stopped or running, and no real time passes for it (the
time between two sessions is moved past the stored deadline; a script's ``:sleep`` runs the clock's work due
meanwhile). The parts are independent tests; each reaches its starting point quickly (the referee closes the
rounds before it with /cloture). One session is a real process, the one killed with ``kill -9``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.games.duplicate.games import load_game
from bot.storage import SQLiteStorage
from tests.console_clock import DrivenClock, run_driven
from tests.transcripts import replies

ROUND = 3.0  # seconds: /duplicate 0.05
PAST_DEADLINE = ROUND + 0.5


def until_past_deadline(db: Path, now: float) -> float:
    """Seconds from ``now`` to half a second past the open round's stored deadline."""
    store = SQLiteStorage(db)
    try:
        (deadline,) = store.deadlines()
        return max(0.0, deadline.at + 0.5 - now)
    finally:
        store.close()


def reliquat(db: Path) -> str:
    store = SQLiteStorage(db)
    try:
        record = store.active_game("console")
        assert record is not None
        return load_game(store, record).reliquat
    finally:
        store.close()


def draw_after(db: Path, new: str) -> str:
    kept = reliquat(db)
    return f"{kept}+{new[: 7 - len(kept)]}" if kept else new


ROUND_1 = (
    "Ref: /duplicate 0.05 manuel\n"
    "Ref: /tirage ACEHNTZ\n"
    "Ben> /jouer H4 CHANTEZ\n"
    "Cy> /jouer H8 ZZZ\n"
    "Cy> /jouer H6 CHANT\n"
    "Dan> /jouer H7 ZEBRE\n"
    "Dan: /jouer H8 ZETA\n"
)


def test_a_round_overdue_while_the_console_was_stopped_closes_at_start_up(tmp_path: Path) -> None:
    db = tmp_path / "dup.sqlite"
    clock = DrivenClock()
    # session 1: round 1 opens (3 s clock); three players submit privately, one twice
    first = run_driven(ROUND_1, db, clock)
    channel_before_close = "\n".join(line for line in first.splitlines() if not line.startswith("[->"))
    for secret in ("H4 CHANTEZ", "ZZZ", "H6 CHANT", "ZEBRE", "ZETA"):
        assert secret not in channel_before_close
    assert "[-> ben] Reçu pour le coup 1 : H4 CHANTEZ" in first
    assert "(remplace H8 ZZZ)" in first
    assert "[-> dan] Reçu pour le coup 1 : H7 ZEBRE, mais il vaudra 0" in first
    assert "[#console] Votre coup doit rester secret" in first

    clock.advance(until_past_deadline(db, clock.now()))  # the deadline passes while the bot is stopped
    # session 2: the overdue round is closed at start-up with what was submitted; a late move
    second = replies(run_driven("Dan> /jouer H8 ZETA\n", db, clock))
    results = next(r for r in second if "Top : " in r)
    assert "Coup 1 — tirage ACEHNTZ" in results
    assert "Top : " in results
    assert "Ben : H4 CHANTEZ" in results
    assert "Cy : H6 CHANT" in results
    assert "Dan : H7 ZEBRE 0 — lettres absentes du tirage : B, E, R" in results
    # the late move is refused, after the close's images (printed before the first line typed is answered)
    assert "Trop tard pour le coup 1" in second[-1]
    # the live lines, printed as they changed by session 1, are not printed again at the close (issue 37)
    assert "[#console] Coup 1 : 3 joueurs sur 3 ont joué." in first.split("\n\n")
    assert "[#console] Ben, Cy et Dan rejoignent la partie au coup 1." in first.split("\n\n")
    assert not any(r.startswith(("[#console] Coup 1 : 3 joueurs", "[#console] Ben, Cy et Dan")) for r in second)


def test_after_kill_9_the_restart_does_not_print_the_live_lines_again(tmp_path: Path) -> None:
    """Issue 37, item 8: a console killed with ``kill -9`` while its round ran; the round closed by the clock at
    the restart printed the counter and the join line a second time, before its results."""
    db = tmp_path / "dup.sqlite"
    out = tmp_path / "first.txt"
    env = dict(os.environ, ARBITRE_DATA=str(tmp_path))
    with out.open("w") as printed:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "console", "--db", str(db)],
            stdin=subprocess.PIPE,
            stdout=printed,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        assert process.stdin is not None
        process.stdin.write(ROUND_1.replace("/duplicate 0.05", "/duplicate 0.075"))
        process.stdin.flush()
        until = time.monotonic() + 60
        while "Ben, Cy et Dan rejoignent" not in out.read_text() and time.monotonic() < until:
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)  # no clean stop: the round is still open
        process.wait()
    assert "[#console] Coup 1 : 3 joueurs sur 3 ont joué." in out.read_text()
    clock = DrivenClock()  # the restart: past the deadline at once
    clock.advance(until_past_deadline(db, clock.now()))
    second = replies(run_driven("", db, clock))
    assert any("Top : " in r for r in second)  # the overdue round closed at the restart
    assert not any(r.startswith(("[#console] Coup 1 : 3 joueurs", "[#console] Ben, Cy et Dan")) for r in second)


# Round 1's top, CHANTEZ, takes the whole draw: round 2's draw is typed without a kept part, in the same
# console (one start-up fewer than reading the kept letters from the file between two consoles).
ROUNDS_1_AND_2 = ROUND_1 + "Ref: /cloture\nRef: /tirage EEIKLRS\nBen> /jouer 8H KIR\n"


def test_a_round_is_closed_by_the_clock_while_the_console_runs(tmp_path: Path) -> None:
    db = tmp_path / "dup.sqlite"
    # round 2 closed by the clock while the console runs
    third = replies(run_driven(f"{ROUNDS_1_AND_2}:sleep {PAST_DEADLINE}\n", db, DrivenClock()))
    # nothing kept from round 1; what follows round 2's draw is round 2's
    opened = next(i for i, r in enumerate(third) if r.startswith("[#console] Coup 2 — tirage : EEIKLRS"))
    assert any("plus que" in r for r in third[opened:])  # the warning
    assert any("Coup 2 — tirage" in r and "Cy : pas de réponse, 0" in r for r in third[opened:])


def test_a_round_left_open_at_a_stop_is_resumed_and_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "dup.sqlite"
    clock = DrivenClock()
    # One session closes rounds 1 and 2 (round 2's top, TZARINES, takes the whole draw too), opens round 3
    # and stops in the middle; the next, a second later, resumes it and loses nothing.
    rounds = ROUND_1.replace("/duplicate 0.05", "/duplicate 0.075") + "Ref: /cloture\n"
    rounds += "Ref: /tirage AEINRST\nBen> /jouer 8H KIR\nRef: /cloture\nRef: /tirage EEIKLRS\nBen> /jouer H2 AA\n"
    first = run_driven(rounds, db, clock)
    assert "[#console] Coup 2 — tirage : AEINRST" in first
    assert "[#console] Coup 3 — tirage : EEIKLRS" in first
    assert "Reçu pour le coup 3 : H2 AA" in first
    assert draw_after(db, "EEIKLRS") == "EEIKLRS"
    clock.advance(1.0)
    # the new console's first line plays at once; it then waits, on its own clock, for the stored deadline
    script = f"Cy> /jouer H2 AA\n:sleep {until_past_deadline(db, clock.now()) + 0.5:.1f}\nBen: /classement\n"
    fifth = replies(run_driven(script, db, clock))
    closing = next(r for r in fifth if "Coup 3 — tirage" in r and "Top : " in r)
    assert "Ben : H2 AA" in closing
    assert "Cy : H2 AA" in closing
    assert "Classement après 3 coups" in fifth[-1]
