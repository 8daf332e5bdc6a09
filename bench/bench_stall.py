"""Can one long game stall the other channels? Print the figures.

A classic game of 10,000 events (5,000 moves each taken back: a play and an undo) is stored in a
SQLite file beside a short game in another channel. A fresh service (nothing in memory, as after a
restart) receives one command in the long game's channel, which has to rebuild it from its log;
meanwhile another thread sends a command every 10 ms in the other channel and times each answer.
Then: the cost of a /pass in a game of 5,000 passes, the size of its /sheet, the time of its /export.

Usage: .venv/bin/python bench/bench_stall.py [--events 10000] [--root CHECKOUT]
(``--root`` runs the same measurement against another checkout, e.g. an older commit's worktree.)
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--events", type=int, default=10_000, help="events of the long game (play + undo pairs)")
parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="the checkout to measure")
ARGS = parser.parse_args()
sys.path.insert(0, ARGS.root)

from bot.chat import Incoming  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.storage import SQLiteStorage  # noqa: E402
from bot.words.loader import LexiconRegistry  # noqa: E402

REGISTRY = LexiconRegistry()


def service(storage: SQLiteStorage) -> Referee:
    """A referee on ``storage`` (older checkouts took the registry's ``get``, newer ones the registry)."""
    lists = REGISTRY if "lexicons" in inspect.signature(Referee.__init__).parameters else REGISTRY.get
    return Referee(storage, lists, images=False)  # type: ignore[arg-type]


def say(referee: Referee, channel: str, text: str) -> float:
    """Seconds one command takes."""
    start = time.perf_counter()
    referee.handle(Incoming(channel, "u:ref", "Ref", text, admin=True))
    return time.perf_counter() - start


def long_game(path: Path, events: int) -> None:
    """A game of ``events`` events in channel 'long' (written straight to the log), a short one in 'other'."""
    storage = SQLiteStorage(path)
    referee = service(storage)
    say(referee, "long", "/nouvelle Ana Ben")
    say(referee, "other", "/nouvelle Cleo Dan")
    say(referee, "other", "/coup H8 VAGUE")
    game = storage.active_game("long")
    assert game is not None
    with storage.transaction():
        for _ in range(events // 2):
            storage.append_event(game.id, {"kind": "play", "player": "Ana", "move": "H8 VAGUE", "claimed": None}, "u")
            storage.append_event(game.id, {"kind": "undo"}, "u")
    storage.close()


def stall(path: Path) -> tuple[float, list[float]]:
    """(seconds of the long game's first command after a restart, latencies in the other channel meanwhile)."""
    storage = SQLiteStorage(path)
    referee = service(storage)
    say(referee, "other", "/reste")  # the other channel's game in memory, as in a running bot
    latencies: list[float] = []
    done = threading.Event()

    def other_channel() -> None:
        while not done.is_set():
            latencies.append(say(referee, "other", "/reste"))
            time.sleep(0.01)

    thread = threading.Thread(target=other_channel)
    thread.start()
    time.sleep(0.05)
    cold = say(referee, "long", "/reste")
    done.set()
    thread.join()
    storage.close()
    return cold, latencies


def passes(path: Path, count: int) -> tuple[float, int, float]:
    """(ms per /pass at the end of a game of ``count`` passes, /sheet characters, /export seconds)."""
    storage = SQLiteStorage(path)
    referee = service(storage)
    say(referee, "passes", "/nouvelle Ana Ben")
    game = storage.active_game("passes")
    assert game is not None
    with storage.transaction():
        for index in range(count - 20):
            storage.append_event(game.id, {"kind": "pass", "player": "Ana" if index % 2 == 0 else "Ben"}, "u")
    say(referee, "passes", "/reste")  # in memory
    timings = [say(referee, "passes", "/passe") for _ in range(20)]
    sheet = referee.handle(Incoming("passes", "u:ref", "Ref", "/feuille", admin=True))
    export = say(referee, "passes", "/export")
    storage.close()
    return statistics.median(timings) * 1000, sum(len(r.text) for r in sheet), export


def main() -> None:
    REGISTRY.get("fr")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stall.sqlite"
        long_game(path, ARGS.events)
        cold, latencies = stall(path)
        per_pass, sheet_chars, export = passes(Path(folder) / "passes.sqlite", 5_000)
    print(f"checkout: {ARGS.root}")
    print(f"long game: {ARGS.events} events; its first command after a restart: {cold:.2f} s")
    if latencies:
        print(
            f"other channel meanwhile: {len(latencies)} commands, median {statistics.median(latencies) * 1000:.1f} ms,"
            f" max {max(latencies) * 1000:.1f} ms (target: under 50 ms)"
        )
    print(f"game of 5,000 passes: /pass {per_pass:.1f} ms, /sheet {sheet_chars:,} characters, /export {export:.2f} s")


if __name__ == "__main__":
    main()
