"""The online kind held to a model: a stateful hypothesis test beside the command layer's
(``test_command_model.py``), through the command layer on a real SQLite file.

Two to four seats (one may be the computer's) under a random rule set send random legal moves (drawn from
the move generator for the rack each player was told in private), illegal ones (tiles not on the rack, a
square off the board, a turn not theirs, an exchange of tiles they lack), exchanges, passes, challenges,
/rack, clock ticks and restarts on the same file. After every step:

- no reply is the apology, and a refused command changes nothing stored;
- the bag, the racks and the board hold the whole tile set, and each rack holds at most seven tiles;
- the game in memory equals the game rebuilt from its stored log;
- the rack each player was last told in private is the rack they hold;
- no rack told in private ever appears in a public reply before the end.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bot.games.online.kind import build
from core.edition import FRENCH, JOKER
from core.movegen import generate_plays
from core.notation import Notation
from core.online import DealtGame
from tests.bot.games.online.test_online_chat import racks_told
from tests.club import CHANNEL, REGISTRY, Club

FRENCH_LIST = REGISTRY.get("fr")
STEPS = int(os.environ.get("ARBITRE_MODEL_STEPS", "0"))
RULES = ("box-fr", "fisf", "naspa", "wespa")


class OnlineModel(RuleBasedStateMachine):
    """Players of one online game in a club, each knowing only what they were told."""

    def __init__(self) -> None:
        super().__init__()
        self.club = Club(Path(tempfile.mkdtemp()) / "online.sqlite")
        self.told: dict[str, str] = {}
        self.secret: set[str] = set()
        self.public: list[str] = []
        self.draws = 0

    def teardown(self) -> None:
        self.club.close()

    # --- the game ---

    def game(self) -> DealtGame:
        record = self.club.storage.games(CHANNEL)[-1]
        found: DealtGame = self.club.referee.games.load(self.club.storage, record)
        return found

    def send(self, name: str, text: str) -> None:
        replies = self.club.send(name, text)
        told = racks_told(replies)
        self.told |= told
        self.secret |= {rack for rack in told.values() if len(rack) >= 5}
        if not self.game().ended:
            self.public += [r.text for r in replies if r.to_user is None]

    def refused(self, name: str, text: str) -> None:
        self.club.refused(name, text)

    @initialize(
        rules=st.sampled_from(RULES),
        seats=st.integers(min_value=2, max_value=4),
        robot=st.booleans(),
        draws=st.integers(0, 2**16),
        pace=st.booleans(),
    )
    def start(self, rules: str, seats: int, robot: bool, draws: int, pace: bool) -> None:
        self.draws = draws
        self.club.referee.draws = random.Random(draws)  # the same draws when hypothesis runs the steps again
        if rules != "box-fr":
            seats = 2
        names = ["Ana", "Ben", "Cleo", "Dan"][:seats]
        if robot:
            names[-1] = "robot"
        by_mail = " 24h 3j" if pace else ""
        self.send("Ana", f"/nouvelle en-ligne {rules} {' '.join(names)} faible{by_mail}")
        for name in names[1:]:
            if name != "robot":
                self.send(name, "/rejoindre")

    def to_move(self) -> str:
        return self.game().to_move or ""

    def rack(self, name: str) -> str:
        return self.told.get(f"u:{name.lower()}", "")

    # --- rules ---

    @precondition(lambda self: not self.game().ended)
    @rule(choice=st.integers(min_value=0, max_value=10_000))
    def legal_move(self, choice: int) -> None:
        game, name = self.game(), self.to_move()
        if game.awaiting_end is not None:
            self.send(name, "/passe")
            return
        plays = generate_plays(game.board, self.rack(name), FRENCH_LIST, FRENCH)
        if plays:
            self.send(name, f"/coup {plays[choice % len(plays)].placement.notation(Notation.FISF)}")
        elif len(game.bag) >= 7:
            self.send(name, f"/change {self.rack(name)}")
        else:
            self.send(name, "/passe")

    @precondition(lambda self: not self.game().ended)
    @rule(count=st.integers(min_value=1, max_value=25), choice=st.integers(min_value=0, max_value=10_000))
    def several_moves(self, count: int, choice: int) -> None:
        """Games go deep: the players to move make legal moves in a row (while the game lasts)."""
        for index in range(count):
            if self.game().ended:
                return
            self.legal_move(choice + index)

    @precondition(lambda self: not self.game().ended and self.game().awaiting_end is None)
    @rule(kind=st.sampled_from(["not_on_rack", "off_board", "not_their_turn", "exchange_lacking"]))
    def illegal_move(self, kind: str) -> None:
        game, name = self.game(), self.to_move()
        rack = self.rack(name)
        lacking = next(t for t in "ZYXWKJQHFV" if t not in rack)
        if kind == "not_on_rack":
            self.refused(name, f"/coup H8 {lacking}{lacking}{lacking}")
        elif kind == "off_board":
            self.refused(name, f"/coup H14 {rack[:3].replace(JOKER, 'e')}")
        elif kind == "not_their_turn":
            other = next((p for p in game.players if p != name and p not in game.robots), None)
            if other is not None:
                self.refused(other, "/passe")
        else:
            self.refused(name, f"/change {lacking}")

    @precondition(lambda self: not self.game().ended and self.game().classic.last_play_line() is not None)
    @rule()
    def challenge(self) -> None:
        game = self.game()
        line = game.classic.last_play_line()
        assert line is not None
        challenger = next((p for p in game.players if p != line.player and p not in game.robots), None)
        if challenger is None or line.challenged_by is not None:
            return
        self.send(challenger, "/conteste")

    @precondition(lambda self: not self.game().ended)
    @rule()
    def phony(self) -> None:
        """A word made of the rack's first tiles wherever it fits: valid or not, a challenge judges it."""
        game, name = self.game(), self.to_move()
        rack = self.rack(name).replace(JOKER, "")
        if game.board.tiles() or len(rack) < 2 or game.awaiting_end is not None:
            return
        self.send(name, f"/coup H8 {rack[:3]}")

    @rule()
    def rack_asked(self) -> None:
        game = self.game()
        human = next((p for p in game.players if p not in game.robots), "Ana")
        self.send(human, "/chevalet")

    @rule(hours=st.sampled_from([0.5, 6, 30]))
    def tick(self, hours: float) -> None:
        self.club.tick(hours * 3600)

    @rule()
    def restart(self) -> None:
        self.club.restart()
        self.draws += 1
        self.club.referee.draws = random.Random(self.draws)

    # --- invariants ---

    @invariant()
    def tiles_are_conserved(self) -> None:
        game = self.game()
        on_board = "".join(JOKER if t.joker else t.letter for _, _, t in game.board.tiles())
        held = game.bag.tiles + "".join(game.racks.values()) + on_board
        assert Counter(held) == Counter(FRENCH.bag())
        assert all(len(rack) <= FRENCH.rack_size for rack in game.racks.values())

    @invariant()
    def memory_equals_the_log(self) -> None:
        record = self.club.storage.games(CHANNEL)[-1]
        rebuilt = build(record, [e.data for e in self.club.storage.events(record.id)])
        game = self.game()
        assert rebuilt.racks == game.racks
        assert rebuilt.totals() == game.totals()
        assert rebuilt.bag == game.bag
        assert rebuilt.ended == game.ended

    @invariant()
    def each_player_was_told_their_rack(self) -> None:
        game = self.game()
        for player in game.players:
            told = self.rack(player)
            if player not in game.robots and told and told != "-" and not game.ended:
                assert told == game.edition.spell_tiles(game.rack(player)), player

    @invariant()
    def no_rack_in_public(self) -> None:
        for rack in self.secret:
            assert not any(rack in text for text in self.public), rack


OnlineModel.TestCase.settings = settings(
    max_examples=max(3, STEPS // 40),
    stateful_step_count=40,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
test_online_kind_holds_to_its_model = OnlineModel.TestCase
