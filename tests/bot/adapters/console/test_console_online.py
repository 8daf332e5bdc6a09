"""Online games to their end in the console adapter (a real ``arbitre console`` process on a real SQLite
file, typed to line by line): two players, four players, and one player against the computer. Each player
plays from the rack the console printed to them privately (``[-> ana] ...``); the channel's lines never
hold a rack before the end, and the final scores equal the exported GCG replayed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games.online.kind import build
from bot.storage import SQLiteStorage
from core.edition import FRENCH
from core.gcg import read_gcg
from core.movegen import generate_plays
from core.notation import Notation
from core.online import DealtGame
from tests.club import REGISTRY

FRENCH_LIST = REGISTRY.get("fr")
MARK = "Zed> ."  # a private line that is no command: the console answers it, so every reply before was printed
MARK_REPLY = "/aide · /help"
RACK = re.compile(r"^\[-> (\w+)\] .*(?:chevalet|rack)[^:]*: (\S+)$", re.MULTILINE)


class Console:
    """A console process typed to one line at a time."""

    def __init__(self, db: Path) -> None:
        env = dict(os.environ, ARBITRE_DATA=str(db.parent), PYTHONUNBUFFERED="1")
        self.db = db
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "console", "--db", str(db), "--admin", "Ana"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.racks: dict[str, str] = {}
        self.public: list[str] = []

    def type(self, line: str) -> str:
        """What the console printed for one typed line."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(f"{line}\n{MARK}\n")
        self.process.stdin.flush()
        out: list[str] = []
        while True:
            read = self.process.stdout.readline()
            assert read, "the console stopped"
            if MARK_REPLY in read:
                break
            out.append(read)
        text = "".join(out)
        for user, rack in RACK.findall(text):
            self.racks[user] = rack
        self.public += [block for block in text.split("\n\n") if block.startswith("[#")]
        return text

    def close(self) -> str:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)
        assert self.process.returncode == 0
        assert self.process.stderr is not None
        errors = self.process.stderr.read()
        assert "Traceback" not in errors, errors
        return errors

    def game(self) -> DealtGame:
        storage = SQLiteStorage(self.db)
        try:
            record = storage.games("console")[-1]
            return build(record, [e.data for e in storage.events(record.id)])
        finally:
            storage.close()


def play_to_the_end(console: Console) -> DealtGame:
    for _ in range(200):
        game = console.game()
        if game.ended:
            return game
        name = game.to_move or ""
        if game.awaiting_end is not None:
            console.type(f"{name}: /passe")
            continue
        rack = console.racks[name.lower()]
        assert rack == game.edition.spell_tiles(game.rack(name))
        plays = generate_plays(game.board, rack, FRENCH_LIST, FRENCH)
        if plays:
            console.type(f"{name}: /coup {max(plays, key=lambda p: p.total).placement.notation(Notation.FISF)}")
        elif len(game.bag) >= 7:
            console.type(f"{name}: /change {rack}")
        else:
            console.type(f"{name}: /passe")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    "new",
    ["/nouvelle en-ligne Ana Ben", "/nouvelle en-ligne Ana Ben Cleo Dan", "/nouvelle en-ligne Ana robot"],
    ids=["two", "four", "computer"],
)
@pytest.mark.long(5)
def test_an_online_game_to_its_end_in_the_console(tmp_path: Path, new: str) -> None:
    console = Console(tmp_path / "online.sqlite")
    try:
        started = console.type(f"Ana: {new}")
        assert "Partie en ligne" in started
        for name in new.split()[2:]:
            if name not in ("Ana", "robot"):
                assert "désormais liée" in console.type(f"{name}: /rejoindre")
        game = play_to_the_end(console)
        assert not game.bag.tiles
        before_end = console.public[:-2]
        for rack in console.racks.values():
            if len(rack) >= 5:
                assert not any(rack in block for block in before_end), rack
        exported = console.type("Ana: /export")
        assert "#player1" in exported
        gcg = exported.split("```")[1].strip("\n") + "\n"
        assert read_gcg(gcg, strict=True).game.totals() == game.totals()
    finally:
        console.close()
