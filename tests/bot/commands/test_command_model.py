"""The command layer held to a model of the game: a stateful hypothesis test.

Several channels and accounts (players, a referee, a bystander, a channel admin, and a second
account whose display name is also "Ben") send any command in any state: classic games under
every rule set, duplicate games in both modes, valid moves drawn from the move generator so that
games go deep, invalid ones, challenges, undo, penalties, ends, arbiter corrections, clock ticks,
and restarts of the service on the same SQLite file. After every step:

- no reply is the apology (an unexpected error fails the test with the steps that caused it);
- each game in memory equals the game rebuilt from its stored log by a fresh process-like service;
- every sheet total is the sum of its lines, and every line's points are what a replay computes;
- turns follow the seating order, turns lost to challenges included;
- no secret submission reaches a public reply before its round closes;
- a refused command changes nothing stored, and a bystander changes nothing in a game it is not in;
- every move stored for a seat comes from the seat's account, the game's referee or an admin.

CI runs fixed seeds, 40 runs of 50 random steps split in twenty tests; ``ARBITRE_MODEL_STEPS=20000 make
test-model`` runs long.
"""

from __future__ import annotations

import json
import logging
import os
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bot.chat import Incoming, Reply
from bot.games.classic.commands import build_from_data as build_classic
from bot.games.duplicate.games import build_from_data as build_duplicate
from bot.referee import Referee
from bot.storage import GameKind, GameRecord, GameStatus, SQLiteStorage
from core.draw import draw_tiles
from core.duplicate import DuplicateGame
from core.game import TURN_KINDS, ClassicGame, player_key
from core.movegen import Play, find_top
from tests.bot.commands.command_model_world import (
    ACCOUNTS,
    ADMIN,
    ANA,
    APOLOGIES,
    BEN,
    BYSTANDER,
    CHANNELS,
    CLEO,
    DAN,
    EXECUTED,
    FAKE_BEN,
    REF,
    REGISTRY,
    RULES,
    RUNS,
    SEATS,
    STEPS,
    TEMPLATES,
    Account,
    ErrorLog,
    Watch,
    classic_state,
    counted,
    duplicate_state,
)


class CommandModel(RuleBasedStateMachine):
    """Drives a Referee on a real SQLite file and checks the invariants after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(os.environ["ARBITRE_MODEL_DIR"]) / f"run-{next(RUNS)}"
        self.folder.mkdir(parents=True)
        self.path = self.folder / "model.sqlite"
        self.clock = 1_800_000_000.0
        self.storage = SQLiteStorage(self.path)
        self.watch = Watch(self.path)
        self.referee = self._service()
        self.log = ErrorLog()
        logging.getLogger("arbitre").addHandler(self.log)
        self.transcript: list[str] = []
        self.secrets: dict[tuple[int, int], set[str]] = {}  # (game, round) -> moves submitted, unrevealed
        self.tops: dict[tuple[object, ...], list[Play]] = {}  # a duplicate round's position -> its best plays
        self.rebuilt: dict[tuple[str, str], object] = {}  # (record, log) -> the state rebuilt from them

    def _service(self) -> Referee:
        return Referee(self.storage, REGISTRY, now=lambda: self.clock, images=False)

    def teardown(self) -> None:
        if os.environ.get("ARBITRE_MODEL_TRACE"):
            with sqlite3.connect(self.path) as conn:
                depth = conn.execute("select max(n) from (select count(*) n from events group by game)").fetchone()
            self.transcript.append(f"deepest game: {depth[0]} events")
            Path(os.environ["ARBITRE_MODEL_TRACE"]).open("a").write("\n".join(self.transcript) + "\n=====\n")
        logging.getLogger("arbitre").removeHandler(self.log)
        self.referee.clock.shutdown()
        self.storage.close()
        self.watch.close()

    # --- sending -----------------------------------------------------------------------

    def send(self, channel: str, account: Account, text: str, private: bool = False) -> list[Reply]:
        """One message through the command layer, with every check that concerns a single step."""
        line = f"{channel} {account.name}<{account.user}>{'>' if private else ':'} {text}"
        self.transcript.append(line)
        before = self.watch.snapshot()
        may_change = account is not BYSTANDER or self._bystander_may_change(text, channel)
        last_event = self._last_event_id()
        message = Incoming(channel, account.user, account.name, text, private=private, admin=account.admin)
        replies = self.referee.handle(message)
        after = self.watch.snapshot()
        refusal = next((r.text for r in replies if r.error), None)
        self.transcript[-1] += f"  => refused: {refusal[:90]!r}" if refusal is not None else "  => ok"
        self._check_replies(line, replies, typed=text)
        if any(r.error for r in replies):
            assert before == after, f"a refused command changed what is stored: {line}\n{self._story()}"
        if not may_change:
            assert before == after, f"a bystander changed a game: {line}\n{self._story()}"
        self._check_authors(last_event, account, line)
        return replies

    def _bystander_may_change(self, text: str, channel: str) -> bool:
        """Joining, playing in duplicate, or starting a game where none runs are anyone's right."""
        name = text.split()[0].lstrip("/") if text.startswith("/") and text.split() else ""
        running = self.storage.active_game(channel)
        if running is not None and running.referee == BYSTANDER.user:
            return True  # it started this game: it is its referee, not a bystander
        if name in ("rejoindre", "join", "jouer", "play"):
            return True
        if name in ("nouvelle", "new", "duplicate"):
            return running is None
        if name in ("corrige", "correct", "rouvre", "reopen"):  # these reach the last game, ended or not
            games = self.storage.games(channel)
            return bool(games) and games[-1].referee == BYSTANDER.user
        return False

    def _check_replies(self, line: str, replies: list[Reply], typed: str = "") -> None:
        open_rounds: dict[int, tuple[str, int | None]] = {}  # game -> its channel and open round, read once
        for reply in replies:
            assert reply.text.strip(), f"an empty reply to {line}"
            assert not any(a.split(".")[0] in reply.text for a in APOLOGIES), (
                f"the apology answered {line}\n{self._story()}"
            )
            if reply.to_user is None:
                self._check_no_secret(line, reply, typed, open_rounds)
        errors = [r for r in self.log.records if r.name.startswith("arbitre")]
        assert not errors, f"logged error after {line}: {errors[0].getMessage()}\n{self._story()}"

    def _check_no_secret(
        self, line: str, reply: Reply, typed: str, open_rounds: dict[int, tuple[str, int | None]]
    ) -> None:
        for (game_id, number), moves in self.secrets.items():
            if game_id not in open_rounds:
                record = self.storage.game(game_id)
                current = self._duplicate(record).current
                running = record.status is GameStatus.ACTIVE and current is not None
                open_rounds[game_id] = (record.channel, current.number if running and current else None)
            channel, open_round = open_rounds[game_id]
            if reply.channel != channel:
                continue
            if open_round == number:
                leaked = [m for m in moves if m in reply.text and m not in typed]
                assert not leaked, f"secret move {leaked[0]} in a public reply to {line}\n{self._story()}"

    def _last_event_id(self) -> int:
        return int(self.watch.conn.execute("select coalesce(max(id), 0) from events").fetchone()[0])

    def _check_authors(self, after_id: int, account: Account, line: str) -> None:
        """Moves for a seat come from its account, the referee or an admin (checked on the step's events)."""
        rows = self.watch.conn.execute("select game, data, author from events where id > ?", [after_id]).fetchall()
        for game_id, data_text, author in rows:
            data = json.loads(data_text)
            seat = data.get("player") or data.get("challenger")
            if seat is None or data.get("kind") in ("join", "penalty", "score", "correct", "time_penalty"):
                continue
            record = self.storage.game(game_id)
            owners = {player_key(name): user for user, name in self.storage.players(game_id)}
            allowed = {owners.get(player_key(seat)), record.referee}
            assert author in allowed or account.admin, (
                f"{author} acted for {seat} ({data.get('kind')}) without being its account or the referee: "
                f"{line}\n{self._story()}"
            )

    def _story(self) -> str:
        return "steps:\n" + "\n".join(self.transcript[-60:])

    # --- reading the stored games -------------------------------------------------------

    def _all_games(self) -> list[GameRecord]:
        return self.watch.cached("games", lambda: [g for c in CHANNELS for g in self.storage.games(c)])

    def _running(self, channel: str, kind: GameKind) -> GameRecord | None:
        record = self.storage.active_game(channel)
        return record if record is not None and record.kind is kind else None

    def _classic(self, record: GameRecord) -> ClassicGame:
        return self.referee.classic_games.load(self.storage, record)

    def _duplicate(self, record: GameRecord) -> DuplicateGame:
        return self.referee.duplicate_games.load(self.storage, record)

    @staticmethod
    def _referee_of(record: GameRecord) -> Account:
        return next(a for a in ACCOUNTS if a.user == record.referee)

    def _account_for(self, record: GameRecord, seat: str) -> Account:
        owners = {player_key(name): user for user, name in self.storage.players(record.id)}
        owner = owners.get(player_key(seat))
        by_user = {a.user: a for a in ACCOUNTS}
        if owner is not None:
            return by_user[owner]
        return next((a for a in (ANA, BEN, CLEO, DAN) if a.name.split()[0] == seat), REF)

    # --- rules: starting games -------------------------------------------------------------

    @initialize(
        rules=st.sampled_from(RULES),
        seats=st.lists(st.sampled_from(SEATS), min_size=2, max_size=4, unique=True),
        manual=st.booleans(),
        english=st.booleans(),
    )
    def start(self, rules: str, seats: list[str], manual: bool, english: bool) -> None:
        """Each run starts with a classic game in one channel and a duplicate game in the other."""
        self.send("c1", REF, f"/nouvelle {'en' if english else 'fr'} {rules} {' '.join(seats)}")
        self.send("c2", ADMIN, "/duplicate 0.5" + (" manuel" if manual else ""))

    @rule(
        channel=st.sampled_from(CHANNELS),
        starter=st.sampled_from((REF, ANA, ADMIN, BYSTANDER)),
        players=st.one_of(
            st.lists(st.sampled_from(SEATS), min_size=2, max_size=4, unique=True),
            st.lists(st.sampled_from((*SEATS, "ana", "Zoé", "@Ben", "Émile")), min_size=0, max_size=5),
        ),
        rules=st.sampled_from(RULES),
        english=st.booleans(),
        confirm=st.booleans(),
    )
    @counted
    def new_classic(
        self, channel: str, starter: Account, players: list[str], rules: str, english: bool, confirm: bool
    ) -> None:
        words = ["/nouvelle", "en" if english else "fr", rules, *players] + (["!"] if confirm else [])
        self.send(channel, starter, " ".join(words))

    @rule(
        channel=st.sampled_from(CHANNELS),
        starter=st.sampled_from((REF, ADMIN, BEN)),
        manual=st.booleans(),
        confirm=st.booleans(),
    )
    @counted
    def new_duplicate(self, channel: str, starter: Account, manual: bool, confirm: bool) -> None:
        words = ["/duplicate", "0.5"] + (["manuel"] if manual else []) + (["!"] if confirm else [])
        self.send(channel, starter, " ".join(words))

    # --- rules: classic play ------------------------------------------------------------

    def _playable(self, channel: str) -> bool:
        record = self._running(channel, GameKind.CLASSIC)
        if record is None:
            return False
        game = self._classic(record)
        return not game.ended and game.to_move is not None and len(game.players) >= 2

    def _any_playable(self) -> bool:
        return any(self._playable(c) for c in CHANNELS)

    def _round_open(self, channel: str) -> bool:
        record = self._running(channel, GameKind.DUPLICATE)
        if record is None:
            return False
        current = self._duplicate(record).current
        return current is not None and current.draw is not None

    def _any_round_open(self) -> bool:
        return any(self._round_open(c) for c in CHANNELS)

    def _any_running(self) -> bool:
        return any(self.storage.active_game(c) is not None for c in CHANNELS)

    @precondition(_any_playable)
    @rule(
        channel=st.sampled_from(CHANNELS),
        seed=st.integers(0, 2**16),
        count=st.integers(1, 12),
        who=st.sampled_from(("seat", "seat", "seat", "ref", "any")),
    )
    @counted
    def classic_moves(self, channel: str, seed: int, count: int, who: str) -> None:
        """A few moves in a row, as a game goes on (mostly typed by the player to move)."""
        if not self._playable(channel):
            channel = next(c for c in CHANNELS if self._playable(c))
        for index in range(count):
            if not self._playable(channel):
                return
            self._classic_move(channel, seed + index, who)

    def _classic_move(self, channel: str, seed: int, who: str) -> None:
        record = self._running(channel, GameKind.CLASSIC)
        assert record is not None
        game = self._classic(record)
        assert game.to_move is not None
        rng = random.Random(seed)
        unseen = list(game.unseen().elements())
        rng.shuffle(unseen)
        rack = "".join(unseen[:7])
        lexicon = REGISTRY.get(record.setup.lexicon)
        result = find_top(game.board, rack, lexicon, game.edition, 5, first_move_horizontal_only=False)
        if not result.plays:
            text = "/passe"
        else:
            play = rng.choice(result.plays)
            text = f"/coup {play.placement.notation(game.notation)}"
            if rng.random() < 0.2:
                text += f" {play.total + rng.choice((0, 1))}"
        if who == "seat":
            account = self._account_for(record, game.to_move)
        elif who == "ref":
            account = self._referee_of(record)
        else:
            account = rng.choice(ACCOUNTS)
        self.send(channel, account, text)

    @precondition(_any_running)
    @rule(
        channel=st.sampled_from(CHANNELS),
        account=st.sampled_from(ACCOUNTS),
        template=st.sampled_from(TEMPLATES),
        player=st.sampled_from((*SEATS, "ana", "Zoé", "@Ben")),
        n=st.integers(0, 4),
    )
    @counted
    def any_command(self, channel: str, account: Account, template: str, player: str, n: int) -> None:
        self.send(channel, account, template.format(player=player, n=n))

    @rule(channel=st.sampled_from(CHANNELS), account=st.sampled_from(ACCOUNTS), text=st.text(max_size=40))
    @counted
    def garbage(self, channel: str, account: Account, text: str) -> None:
        self.send(channel, account, "/" + text)

    @precondition(_any_playable)
    @rule(channel=st.sampled_from(CHANNELS), seat=st.sampled_from(SEATS))
    @counted
    def challenge_by_a_player(self, channel: str, seat: str) -> None:
        if not self._playable(channel):
            channel = next(c for c in CHANNELS if self._playable(c))
        record = self._running(channel, GameKind.CLASSIC)
        assert record is not None
        self.send(channel, self._account_for(record, seat), "/conteste")

    # --- rules: duplicate ---------------------------------------------------------------

    @precondition(_any_round_open)
    @rule(
        channel=st.sampled_from(CHANNELS),
        accounts=st.lists(st.sampled_from((ANA, BEN, CLEO, DAN, FAKE_BEN, BYSTANDER)), min_size=1, max_size=6),
        seed=st.integers(0, 2**16),
        valid=st.lists(st.booleans(), min_size=6, max_size=6),
        close=st.sampled_from(("clock", "referee", "no")),
    )
    @counted
    def duplicate_round(self, channel: str, accounts: list[Account], seed: int, valid: list[bool], close: str) -> None:
        """Several players submit (some twice, some invalid), then the clock or the referee may close."""
        if not self._round_open(channel):
            channel = next(c for c in CHANNELS if self._round_open(c))
        for index, account in enumerate(accounts):
            self.duplicate_play(channel, account, seed + index, valid[index])
        record = self._running(channel, GameKind.DUPLICATE)
        if record is None:
            return
        if close == "referee":
            self.send(channel, self._referee_of(record), "/cloture")
        elif close == "clock":
            self.time_passes(35.0)

    def duplicate_play(self, channel: str, account: Account, seed: int, valid: bool) -> None:
        record = self._running(channel, GameKind.DUPLICATE)
        if record is None:
            return
        game = self._duplicate(record)
        current = game.current
        if current is None or current.draw is None:
            return
        rng = random.Random(seed)
        move = f"H8 QZX{seed}"  # unreadable, unique: a secret to watch for
        if valid:
            plays = self._round_top(record, game, current.draw.letters)
            if plays:
                move = rng.choice(plays).placement.notation(game.notation)
        self.secrets.setdefault((record.id, current.number), set()).add(move)
        self.send(channel, account, f"/jouer {move}", private=True)

    def _round_top(self, record: GameRecord, game: DuplicateGame, letters: str) -> list[Play]:
        """The six best plays of a round's draw on its board (searched once for all who submit in it)."""
        tiles = tuple(sorted((r, c, t.letter, t.joker) for r, c, t in game.board.tiles()))
        key = (record.id, record.setup.lexicon, letters, tiles)
        if key not in self.tops:
            lexicon = REGISTRY.get(record.setup.lexicon)
            self.tops[key] = list(find_top(game.board, letters, lexicon, game.edition, 6).plays)
        return self.tops[key]

    @precondition(_any_running)
    @rule(channel=st.sampled_from(CHANNELS), seed=st.integers(0, 2**16))
    @counted
    def manual_draw(self, channel: str, seed: int) -> None:
        record = self._running(channel, GameKind.DUPLICATE)
        if record is None or not record.setup.manual:
            return
        game = self._duplicate(record)
        if game.current is not None and game.current.draw is not None:
            return
        try:
            outcome = draw_tiles(
                game.bag,
                game.reliquat,
                game.move_number,
                random.Random(seed),
                game.settings.draw_rule,
                game.edition,
            )
        except Exception:
            return
        self.send(channel, self._referee_of(record), f"/tirage {outcome.draws[-1]}")

    @precondition(_any_running)
    @rule(seconds=st.sampled_from((1.0, 5.0, 14.0, 31.0, 120.0)))
    @counted
    def time_passes(self, seconds: float) -> None:
        self.clock += seconds
        self.transcript.append(f"(clock +{seconds:g} s)")
        replies = self.referee.tick(self.clock)
        self._check_replies("(clock)", replies)

    @precondition(_any_running)
    @rule()
    @counted
    def restart(self) -> None:
        """The process stops and starts again on the same file."""
        self.transcript.append("(restart)")
        self.referee.clock.shutdown()
        self.storage.close()
        self.storage = SQLiteStorage(self.path)
        self.referee = self._service()
        replies = self.referee.tick(self.clock)
        self._check_replies("(restart)", replies)

    # --- invariants ---------------------------------------------------------------------

    def _fresh_state(self, record: GameRecord) -> object:
        """The state of the game rebuilt from its stored record and log, as a fresh process would (the
        same record and log always rebuild the same game: each is rebuilt once, and read again only
        after the file changed)."""
        return self.watch.cached(f"fresh {record.id} {record!r}", lambda: self._rebuild(record))

    def _rebuild(self, record: GameRecord) -> object:
        data = [e.data for e in self.storage.events(record.id)]
        key = (repr(record), json.dumps(data, sort_keys=True))
        if key not in self.rebuilt:
            if record.kind is GameKind.CLASSIC:
                self.rebuilt[key] = classic_state(build_classic(record, data))
            else:
                self.rebuilt[key] = duplicate_state(build_duplicate(record, data))
        return self.rebuilt[key]

    @invariant()
    def live_games_equal_their_logs(self) -> None:
        for record in self._all_games():
            fresh = self._fresh_state(record)
            if record.kind is GameKind.CLASSIC:
                assert classic_state(self._classic(record)) == fresh, f"game {record.id} differs\n{self._story()}"
            else:
                assert duplicate_state(self._duplicate(record)) == fresh, f"game {record.id} differs\n{self._story()}"

    @invariant()
    def sheets_add_up_and_turns_follow_the_seats(self) -> None:
        for record in self._all_games():
            if record.kind is not GameKind.CLASSIC:
                continue
            game = self._classic(record)
            sums: dict[str, int] = {p: 0 for p in game.players}
            for line in game.lines:
                sums[line.player] += line.points
                assert line.total == sums[line.player], f"line {line.number} total\n{self._story()}"
            assert game.totals() == sums
            turns = [line for line in game.lines if line.kind in TURN_KINDS]
            for index, line in enumerate(turns):
                expected = game.players[index % len(game.players)]
                assert line.player == expected, (
                    f"turn {index + 1} of game {record.id} was {line.player}, expected {expected}\n{self._story()}"
                )
            if game.to_move is not None:
                assert game.to_move == game.players[len(turns) % len(game.players)], self._story()

    @invariant()
    def one_running_game_per_channel(self) -> None:
        rows = self.watch.conn.execute(
            "select channel, count(*) from games where status = ? group by channel", [GameStatus.ACTIVE.value]
        )
        assert all(count == 1 for _, count in rows)


@pytest.fixture(autouse=True)
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITRE_MODEL_DIR", str(tmp_path))


SHARDS = 20  # a fixed-seed run is this many tests, one seed each, which parallel test processes spread
RUNS_PER_SHARD = 2  # runs of random steps in each (40 in all), after hypothesis' first, simplest one


@pytest.mark.parametrize("shard", range(SHARDS))
def test_command_layer_holds_to_its_model(shard: int) -> None:
    """A share of the fixed-seed run (two runs of 50 random steps on a seed of its own, after the run of
    simplest steps hypothesis always tries first); a long run (``ARBITRE_MODEL_STEPS``) is random and
    made by the first shard alone."""
    if STEPS and shard:
        pytest.skip("a long run is made by the first shard")
    per_run = 50
    runs = max(1, STEPS // per_run) if STEPS else 1 + RUNS_PER_SHARD
    settings_ = settings(
        max_examples=runs,
        stateful_step_count=per_run,
        deadline=None,
        database=None if not STEPS or settings.default is None else settings.default.database,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )
    machine = CommandModel if STEPS else seed(shard)(type(f"CommandModelShard{shard}", (CommandModel,), {}))
    EXECUTED[0] = 0
    run_state_machine_as_test(machine, settings=settings_)
    while STEPS and EXECUTED[0] < STEPS:  # a long run goes on until it has really made its steps
        run_state_machine_as_test(machine, settings=settings_)
    if STEPS:
        print(f"model-based test: {EXECUTED[0]} steps run")
