"""What the memory store costs: opening a fresh one, and a command in a game whose log grows.

A classic game on ``MemoryStorage`` takes ``--commands`` commands (a pass, then the state), and the
CPU time per command is printed with the time to open a fresh store. The hand-written memory store
copied every table at each transaction, so its cost per command grew with the log; the SQLite one
in memory does not.

Usage: .venv/bin/python bench/bench_memory_store.py [--commands 1000] [--root CHECKOUT]
(``--root`` runs the same measurement against another checkout, e.g. an older commit's worktree.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--commands", type=int, default=1000, help="commands of the game (a pass and a state each pair)")
parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="the checkout to measure")
ARGS = parser.parse_args()
sys.path.insert(0, ARGS.root)

from bot.chat import Incoming  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.storage import MemoryStorage  # noqa: E402
from tests.ready_lists import ready_registry  # noqa: E402

PLAYERS = (("u:ana", "Ana"), ("u:ben", "Ben"))


def main() -> None:
    started = time.process_time()
    for _ in range(20):
        MemoryStorage()
    fresh = (time.process_time() - started) / 20
    store = MemoryStorage()
    referee = Referee(store, ready_registry(), images=False)
    referee.handle(Incoming("c1", "u:ana", "Ana", "/nouvelle Ana Ben", admin=True))
    started = time.process_time()
    for i in range(ARGS.commands // 2):
        user, name = PLAYERS[i % 2]
        referee.handle(Incoming("c1", user, name, "/passe"))
        referee.handle(Incoming("c1", user, name, "/etat"))
    command = (time.process_time() - started) / (ARGS.commands // 2 * 2)
    print(f"a fresh store: {fresh * 1000:.2f} ms CPU; a command: {command * 1000:.2f} ms CPU")
    print(f"(the game's log: {len(store.events(1))} events)")


if __name__ == "__main__":
    main()
