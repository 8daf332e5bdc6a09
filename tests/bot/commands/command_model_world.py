"""The world of the command layer's model (test_command_model.py): the accounts and channels, the command
templates sent in any state, the count of steps run, the stored rows' snapshot, the log of errors, and each kind of
game's state as the model compares it."""

from __future__ import annotations

import functools
import itertools
import logging
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from bot.messages import languages, say
from core.duplicate import DuplicateGame
from core.game import ClassicGame
from tests.ready_lists import ready_registry

REGISTRY = ready_registry()
APOLOGIES = tuple(say(lang, "apology") for lang in languages())
CHANNELS = ("c1", "c2")


@dataclass(frozen=True)
class Account:
    user: str
    name: str
    admin: bool = False


ANA = Account("u:ana", "Ana")
BEN = Account("u:ben", "Ben")
CLEO = Account("u:cleo", "Cleo")
DAN = Account("u:dan", "Dan Brun")
REF = Account("u:ref", "Ref")
BYSTANDER = Account("u:zed", "Zed")
ADMIN = Account("u:adm", "Admin", admin=True)
FAKE_BEN = Account("u:ben2", "Ben")  # another person with the same display name
ACCOUNTS = (ANA, BEN, CLEO, DAN, REF, BYSTANDER, ADMIN, FAKE_BEN)
SEATS = ("Ana", "Ben", "Cleo", "Dan")
RULES = ("box-fr", "box-en", "fisf", "naspa", "wespa")

# Commands typed in any state; {player} and {n} are filled in.
TEMPLATES = (
    "/passe",
    "/change",
    "/change 3",
    "/change ABC",
    "/change ²",
    "/conteste",
    "/conteste @{player}",
    "/conteste ZZZ",
    "/penalite {player} 10",
    "/penalite {player} -5",
    "/penalite {player} 0",
    "/penalite {player} 99999999999",
    "/annule",
    "/fin",
    "/fin !",
    "/fin {player}=EAU !",
    "/fin {player}=WWWW !",
    "/feuille",
    "/feuille {n}",
    "/grille",
    "/grille {n}",
    "/reste",
    "/export",
    "/export {n}",
    "/classement",
    "/coups",
    "/coups {player}",
    "/coups {player} {n}",
    "/moves {n}",
    "/parties",
    "/rejoindre",
    "/rejoindre {player}",
    "/reglages",
    "/reglages fuseau Europe/Paris",
    "/reglages fuseau Mars/Olympus",
    "/reglages edition en",
    "/reglages langue en",
    "/reglages langue fr",
    "/reglages minutes 0.5",
    "/aide",
    "/aide coup",
    "/cuop H8 VAGUE",
    "/verif VAGUE KA",
    "/mots",
    "/mots ajoute KA",
    "/mots retire KA",
    "/words add K4",
    "/calcul H8 VAGUE",
    "/coup H8 ZQXW",
    "/coup H8 VAGUE ²",
    "/coup",
    "/cloture",
    "/pause",
    "/reprise",
    "/prolonge 30",
    "/prolonge -3",
    "/rouvre",
    "/rouvre 20",
    "/top 2",
    "/top 9",
    "/corrige {player} 1 5 bulletin mal lu",
    "/corrige {player} 1 H8 ZQXW lu de travers",
    "/tirage -",
    "/tirage EEU+ESI?",
    "/tirage AAAAAAA",
    "/jouer H8 ZQXW",
    "/nouvelle {player} Ben",
    "/nouvelle {player} Ben !",
    "/duplicate 0.5",
    "/duplicate 0.5 !",
)

STEPS = int(os.environ.get("ARBITRE_MODEL_STEPS", "0"))
RUNS = itertools.count(1)
EXECUTED = [0]  # steps (rules) actually run, over every run: hypothesis may end a run early

_Rule = TypeVar("_Rule", bound=Callable[..., None])
_T = TypeVar("_T")


def counted(function: _Rule) -> _Rule:
    """A rule whose runs are counted in EXECUTED."""

    @functools.wraps(function)
    def step(*args: Any, **kwargs: Any) -> None:
        EXECUTED[0] += 1
        function(*args, **kwargs)

    return cast(_Rule, step)


Snapshot = tuple[tuple[str, tuple[tuple[object, ...], ...]], ...]


def snapshot(conn: sqlite3.Connection) -> Snapshot:
    """Every stored row, table by table (read through the test's own connection)."""
    tables = ("channels", "games", "events", "players", "deadlines", "house_words")
    return tuple((t, tuple(conn.execute(f"select * from {t} order by rowid"))) for t in tables)


class Watch:
    """The test's own connection to the file, and what it read last: SQLite's ``data_version`` changes
    whenever another connection commits, so a read is made again only after the file changed."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)  # autocommit: never holds a read open
        self._read: dict[str, tuple[int, object]] = {}

    def version(self) -> int:
        return int(self.conn.execute("pragma data_version").fetchone()[0])

    def cached(self, name: str, read: Callable[[], _T]) -> _T:
        """``read()``, or what it returned last if nothing was committed since (the version is taken
        before reading: a commit during the read makes the next call read again)."""
        version = self.version()
        kept = self._read.get(name)
        if kept is not None and kept[0] == version:
            return cast(_T, kept[1])
        value = read()
        self._read[name] = (version, value)
        return value

    def snapshot(self) -> Snapshot:
        return self.cached("snapshot", lambda: snapshot(self.conn))

    def close(self) -> None:
        self.conn.close()


class ErrorLog(logging.Handler):
    """Every error the bot logs (an unexpected failure, in a command or in the clock)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def classic_state(game: ClassicGame) -> object:
    lines = [
        (x.number, x.player, x.kind, x.move, x.tiles, x.went_out, x.points, x.total, x.removed) for x in game.lines
    ]
    tiles = sorted((r, c, t.letter, t.joker) for r, c, t in game.board.tiles())
    return (tuple(game.players), lines, tiles, game.to_move, game.ended, [str(a) for a in game.alerts])


def duplicate_state(game: DuplicateGame) -> object:
    rounds = [
        (
            r.number,
            str(r.draw),
            r.closed,
            r.top_text,
            r.deadline,
            r.paused_left,
            sorted((p, r.score_of(p)) for p in game.players),
        )
        for r in game.rounds
    ]
    tiles = sorted((r, c, t.letter, t.joker) for r, c, t in game.board.tiles())
    return (tuple(game.players), rounds, tiles, str(game.bag), game.finished, [str(s) for s in game.standings()])
