"""One game protocol: a kind of game is its class, its ``Kind`` and commands, and its messages.

The throwaway kind here, a solitaire sheet (one player adding up points, no board to play on), is
added the way a new format would be, touching no file of the bot: its class (``Solitaire``, what
``core`` would hold, answering ``core.kinds.Game``), its ``Kind`` registered with ``bot.games.kinds.register``
and its one command (``registry.command``), and its messages (a catalog; a real kind adds them to
``bot/locale/*/LC_MESSAGES/arbitre.po``). A real kind also adds its name to ``GameKind``
(``bot/storage/records.py``, one line: what storage records); the throwaway one declares it for the
test only. So a new kind touches: its class in ``core``, its package in ``bot/games`` (its kind and
commands, imported by ``bot/games/installed.py``: ``tests/bot/games/test_kind_package.py``), the catalogs, and that
one line. The views (/etat, /sheet, /standings, /board, /games)
answer through the kind, with no change to ``views.py``.

The cache tests show the games in memory changing only with a committed transaction: a command that
fails after changing its game leaves the next command the committed game (rebuilt from the log once,
since the cache knew the change rolled back), and a refusal before any change costs no rebuild.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.catalogs import CATALOGS
from bot.chat import Incoming
from bot.commands.context import Context, UserError
from bot.commands.registry import Access, Section, command
from bot.commands.registry import withdraw as withdraw_command
from bot.games.kinds import Kind, kind_of, register, withdraw
from bot.referee import Referee
from bot.storage import GameKind, GameRecord, GameSetup, SQLiteStorage
from core.board import Board
from core.edition import Edition, edition_by_code
from core.events import Pass, event_to_dict
from core.kinds import Game
from core.notation import Notation
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
EN_CATALOG = ROOT / "bot" / "locale" / "en" / "LC_MESSAGES" / "arbitre.po"
MOST = 100  # points a solitaire turn may score: a check made after the change, so that a command fails late

# --- the kind's class (what core would hold) -------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """One turn's points."""

    points: int


class Solitaire:
    """One player's sheet: points scored turn after turn; an empty board, never played on."""

    def __init__(self, player: str, events: list[Scored] | None = None) -> None:
        self.edition: Edition = edition_by_code("fr")
        self.board = Board()
        self.players = [player]
        self.events: list[Scored] = []
        for event in events or []:
            self.apply_stored(event)

    @property
    def notation(self) -> Notation:
        return Notation.FISF

    @property
    def total(self) -> int:
        return sum(e.points for e in self.events)

    def apply(self, event: Scored) -> Scored:
        self.apply_stored(event)
        return event

    def apply_stored(self, event: Scored) -> None:
        self.events.append(event)


def _a_game(game: Game[Scored]) -> Game[Scored]:
    return game  # mypy: Solitaire answers the protocol every kind of game answers


# --- its kind, its command, its messages -----------------------------------------------------------


class SolitaireKind(Kind[Solitaire]):
    kind: GameKind  # declared by the fixture (a real kind names its GameKind here)

    def build(self, record: GameRecord, events: list[dict[str, Any]]) -> Solitaire:
        return Solitaire(record.setup.players[0], [Scored(int(e["points"])) for e in events])

    def apply_stored(self, game: Solitaire, data: dict[str, Any]) -> None:
        game.apply_stored(Scored(int(data["points"])))

    def sheet(self, ctx: Context, game: Solitaire) -> str:
        lines, total = [], 0
        for number, event in enumerate(game.events, 1):
            total += event.points
            lines.append(ctx.say("solo_line", n=number, points=event.points, total=total))
        return "\n".join(lines) or ctx.say("sheet_empty")

    def board(self, ctx: Context, game: Solitaire, ended: bool) -> tuple[str, bytes | None]:
        return ctx.say("solo_no_board"), None

    def unseen(self, ctx: Context, game: Solitaire) -> str:
        return ctx.say("solo_no_board")

    def export(self, ctx: Context, record: GameRecord, game: Solitaire) -> tuple[str, bytes, str]:
        data = json.dumps([e.points for e in game.events]).encode()
        return self.standings(ctx, game)[0], data, "solo.json"

    def standings(self, ctx: Context, game: Solitaire) -> tuple[str, bytes | None]:
        return ctx.say("solo_total", player=game.players[0], total=game.total), None

    def moves(self, ctx: Context, record: GameRecord, game: Solitaire, name: str) -> str:
        return self.sheet(ctx, game)

    def status(self, ctx: Context, record: GameRecord, game: Solitaire) -> None:
        ctx.reply(self.standings(ctx, game)[0])

    def summary(self, ctx: Context, game: Solitaire) -> tuple[str, str]:
        return game.players[0], str(game.total)


def solo(ctx: Context) -> None:
    """``/solo``: start a solitaire sheet; ``/solo N``: score N points on it."""
    kind = kind_of(SolitaireKind.kind)
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None:
        setup = GameSetup(edition="fr", notation="fisf", lexicon="fr", players=(ctx.message.name,))
        ctx.storage.create_game(ctx.message.channel, kind.kind, ctx.message.user, setup)
        ctx.reply(ctx.say("solo_started", player=ctx.message.name))
        return
    points = ctx.whole_number(ctx.tokens[0]) if ctx.tokens else 0
    if points < 0:
        raise UserError("solo_negative")  # refused before the game changes
    games = ctx.services.games
    game: Solitaire = games.load(ctx.storage, record)
    game.apply(Scored(points))
    games.cache(record.kind).append(ctx.storage, record, game, {"kind": "scored", "points": points}, ctx.message.user)
    if points > MOST:
        raise UserError("solo_too_many", most=MOST)  # a check after the change: the transaction rolls back
    ctx.reply(ctx.say("solo_scored", player=game.players[0], points=points, total=game.total))


MESSAGES = {
    "name_solo": "solo",
    "usage_solo": "/solo [POINTS]",
    "help_solo": "XS Start a solitaire sheet, or score points on it.",
    "summary_solo": "XS A solitaire sheet.",
    "kind_solitaire": "solitaire",
    "solo_started": "XS {player} plays alone.",
    "solo_scored": "XS {player} +{points}: {total}",
    "solo_line": "XS {n}. +{points} = {total}",
    "solo_total": "XS {player}: {total}",
    "solo_no_board": "XS a solitaire has no board.",
    "solo_too_many": "XS at most {most} points a turn.",
    "solo_negative": "XS points are never negative.",
}


@pytest.fixture
def solitaire(tmp_path: Path) -> Iterator[str]:
    """The solitaire kind registered, its command declared and its messages in a catalog (language
    ``xs``: the English catalog and the kind's messages); the language's code. All withdrawn after."""
    member = str.__new__(GameKind, "solitaire")  # what a real kind writes in GameKind: SOLITAIRE = "solitaire"
    member._name_, member._value_ = "SOLITAIRE", "solitaire"
    GameKind._value2member_map_["solitaire"] = member
    SolitaireKind.kind = member
    folder = tmp_path / "locale"
    (folder / "xs" / "LC_MESSAGES").mkdir(parents=True)
    text = EN_CATALOG.read_text(encoding="utf-8").replace('"Language: en\\n"', '"Language: xs\\n"', 1)
    text += "".join(f"\nmsgid {json.dumps(key)}\nmsgstr {json.dumps(value)}\n" for key, value in MESSAGES.items())
    (folder / "xs" / "LC_MESSAGES" / "arbitre.po").write_text(text, encoding="utf-8")
    CATALOGS.add_directory(folder)
    register(SolitaireKind())
    command("solo", section=Section.CLASSIC, rank=1000, access=Access.PLAYER)(solo)
    try:
        yield "xs"
    finally:
        withdraw_command("solo")
        withdraw(member)
        CATALOGS.remove_directory(folder)
        del GameKind._value2member_map_["solitaire"]


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Referee]:
    storage = SQLiteStorage(tmp_path / "kinds.sqlite")
    made = Referee(storage, ready_registry(), images=False)
    yield made
    made.clock.shutdown()
    storage.close()


def say(referee: Referee, text: str, user: str = "u:ana", name: str = "Ana") -> str:
    replies = referee.handle(Incoming("room", user, name, text))
    return "\n".join(r.text for r in replies)


def test_a_throwaway_kind_answers_the_views_through_the_protocol(solitaire: str, referee: Referee) -> None:
    referee.storage.save_channel(referee.storage.channel("room").with_changes(language=solitaire))
    assert _a_game(Solitaire("Ana")).players == ["Ana"]
    assert say(referee, "/solo") == "XS Ana plays alone."
    assert say(referee, "/solo 5") == "XS Ana +5: 5"
    assert say(referee, "/solo 7") == "XS Ana +7: 12"
    assert say(referee, "/etat") == "XS Ana: 12"  # /status by its French name: every language's name works
    assert say(referee, "/sheet") == "XS 1. +5 = 5\nXS 2. +7 = 12"
    assert say(referee, "/standings") == "XS Ana: 12"
    assert say(referee, "/board") == "XS a solitaire has no board."
    assert say(referee, "/unseen") == "XS a solitaire has no board."
    (exported,) = referee.handle(Incoming("room", "u:ana", "Ana", "/export"))
    assert exported.document == b"[5, 7]"
    assert exported.document_name == "game-1-solo.json"
    listed = say(referee, "/games")
    assert "solitaire" in listed
    assert "Ana" in listed
    assert "12" in listed


def test_a_command_failing_after_changing_its_game_leaves_the_committed_game(solitaire: str, referee: Referee) -> None:
    referee.storage.save_channel(referee.storage.channel("room").with_changes(language=solitaire))
    say(referee, "/solo")
    say(referee, "/solo 5")
    say(referee, "/solo 7")
    cache = referee.games.cache(kind_of(SolitaireKind.kind).kind)
    assert cache.builds == 1
    assert len(cache) == 1

    assert say(referee, "/solo 999") == "XS at most 100 points a turn."  # changed the game, then failed
    assert len(cache) == 0  # the change rolled back: the game it changed is dropped, not guessed at later
    assert say(referee, "/etat") == "XS Ana: 12"
    assert cache.builds == 2  # rebuilt from the committed log, once

    assert say(referee, "/solo -3") == "XS points are never negative."  # refused before any change
    assert say(referee, "/solo 1") == "XS Ana +1: 13"
    assert say(referee, "/etat") == "XS Ana: 13"
    assert cache.builds == 2  # neither the refusal nor the committed move cost a rebuild
    assert [e.data["points"] for e in referee.storage.events(referee.storage.games("room")[0].id)] == [5, 7, 1]


class Boom(Exception):
    """What goes wrong inside the transaction."""


def test_a_classic_move_rolled_back_is_not_in_the_game_the_next_command_sees(referee: Referee) -> None:
    say(referee, "/new Ana Ben")
    say(referee, "/score H8 VAGUE")
    record = referee.storage.active_game("room")
    assert record is not None
    sheet = say(referee, "/sheet")
    cache = referee.classic_games
    builds = cache.builds
    with pytest.raises(Boom):
        with referee.games.transaction(referee.storage):
            game = cache.load(referee.storage, record)
            event = game.apply(Pass("Ben"))
            cache.append(referee.storage, record, game, event_to_dict(event), "u:ben")
            assert game.to_move == "Ana"  # changed in memory, inside the transaction
            raise Boom
    # the same sheet (asked again within a minute: answered privately, said to be unchanged since)
    note, again = say(referee, "/sheet").split("\n", 1)
    assert note.startswith("Déjà affiché dans le salon il y a")
    assert again == sheet
    assert cache.load(referee.storage, record).to_move == "Ben"
    assert cache.builds == builds + 1  # the changed game was dropped at the rollback and rebuilt once

    with referee.games.transaction(referee.storage):  # the same change, committed: kept, nothing rebuilt
        game = cache.load(referee.storage, record)
        cache.append(referee.storage, record, game, event_to_dict(game.apply(Pass("Ben"))), "u:ben")
    assert cache.load(referee.storage, record) is game
    assert game.to_move == "Ana"
    assert cache.builds == builds + 1


def test_a_change_inside_a_transaction_opened_otherwise_is_taken_from_the_log(referee: Referee) -> None:
    say(referee, "/new Ana Ben")
    record = referee.storage.active_game("room")
    assert record is not None
    cache = referee.classic_games
    cache.load(referee.storage, record)
    builds = cache.builds
    with pytest.raises(Boom):
        with referee.storage.transaction():  # its end is not the cache's to see
            with referee.games.transaction(referee.storage):
                game = cache.load(referee.storage, record)
                cache.append(referee.storage, record, game, event_to_dict(game.apply(Pass("Ana"))), "u:ana")
            assert len(cache) == 0  # not taken as committed: the outer transaction may still roll back
            raise Boom
    assert cache.load(referee.storage, record).to_move == "Ana"  # it did: the pass is in no game
    assert cache.builds == builds + 1


# --- no dispatch on game classes outside the protocol ---------------------------------------------

GAME_CLASSES = {"ClassicGame", "DuplicateGame"}


def _named(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Tuple):
        return {name for element in node.elts for name in _named(element)}
    return set()


def test_no_module_tells_game_kinds_apart_by_their_class() -> None:
    found = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "core").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                if len(node.args) == 2 and _named(node.args[1]) & GAME_CLASSES:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
    sample = ast.parse("isinstance(game, (ClassicGame, core.duplicate.DuplicateGame))").body[0]
    assert isinstance(sample, ast.Expr)
    assert isinstance(sample.value, ast.Call)
    assert _named(sample.value.args[1]) == GAME_CLASSES  # the walk would see either form


def test_the_views_ask_the_kind_and_never_name_one() -> None:
    views = (ROOT / "bot" / "games" / "common" / "views.py").read_text(encoding="utf-8")
    tree = ast.parse(views)
    compared = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(isinstance(c, ast.Attribute) and c.attr in {"CLASSIC", "DUPLICATE"} for c in node.comparators)
    ]
    assert compared == []
    assert "isinstance" not in views
