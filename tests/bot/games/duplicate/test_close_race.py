"""Racing the duplicate clock: two services on one SQLite file (two connections, two game caches, like
two processes) tick the clock while the referee types /close, for a thousand rounds and more: eight
independent races of an eighth of them each (their own file, services and seed), which parallel test
processes run side by side.

No round may be left without a deadline, and none may be closed twice. ``ARBITRE_RACE_ROUNDS`` runs longer.
"""

from __future__ import annotations

import os
import random
import threading
from collections import Counter
from pathlib import Path

import pytest

from bot.chat import Incoming
from bot.referee import Referee
from bot.storage import GameStatus, SQLiteStorage
from tests.ready_lists import ready_registry

REGISTRY = ready_registry()
ROUNDS = int(os.environ.get("ARBITRE_RACE_ROUNDS", "1000"))
RACES = (11, 12, 13, 14, 15, 16, 17, 18)  # one seed per race; each race closes its share of ROUNDS
CHANNEL = "race"


class Clock:
    """Time shared by both services, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


def closes_per_round(storage: SQLiteStorage) -> Counter[tuple[int, int]]:
    """How many close events each (game, round) has in the logs."""
    counts: Counter[tuple[int, int]] = Counter()
    for record in storage.games(CHANNEL):
        round_number = 1
        for event in storage.events(record.id):
            if event.data["kind"] == "close":
                counts[(record.id, round_number)] += 1
                round_number += 1
    return counts


def stranded(storage: SQLiteStorage, referee: Referee) -> list[tuple[int, int]]:
    """Open rounds with a running clock whose deadline storage does not know."""
    known = {(d.game, d.round) for d in storage.deadlines()}
    lost = []
    for record in storage.games(CHANNEL):
        if record.status is not GameStatus.ACTIVE:
            continue
        game = referee.duplicate_games.load(storage, record)
        current = game.current
        if current is not None and game.deadline(current) is not None and (record.id, current.number) not in known:
            lost.append((record.id, current.number))
    return lost


@pytest.mark.long(4)
@pytest.mark.parametrize("seed", RACES)
def test_close_race_leaves_no_round_stranded_or_closed_twice(tmp_path: Path, seed: int) -> None:
    rounds = -(-ROUNDS // len(RACES))
    path = tmp_path / "race.sqlite"
    clock = Clock()
    stores = [SQLiteStorage(path), SQLiteStorage(path)]
    services = [Referee(store, REGISTRY, now=clock, images=False) for store in stores]
    errors: list[BaseException] = []
    stop = threading.Event()
    rng = random.Random(seed)

    def ticking(referee: Referee) -> None:
        while not stop.is_set():
            try:
                referee.tick(clock())
            except BaseException as error:  # noqa: BLE001 - reported by the test
                errors.append(error)
                return
            stop.wait(0.01)

    def referee_at_work() -> None:
        try:
            typing()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
            stop.set()

    def typing() -> None:
        speaker = Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 0.05", admin=True)
        while not stop.is_set():
            service = services[rng.randrange(2)]
            record = service.storage.active_game(CHANNEL)
            text = "/duplicate 0.05" if record is None else rng.choice(("/cloture", "/cloture", "/etat"))
            for reply in service.handle(Incoming(speaker.channel, speaker.user, speaker.name, text, admin=True)):
                if "quelque chose s'est mal passé" in reply.text:
                    errors.append(AssertionError(f"apology to {text}"))
            clock.advance(rng.choice((0.5, 1.0, 2.0)))
            if stores[0].db.execute("select count(*) from closes").fetchone()[0] >= rounds:
                stop.set()

    threads = [threading.Thread(target=ticking, args=(s,)) for s in services]
    threads.append(threading.Thread(target=referee_at_work))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    stop.set()
    assert not errors, errors[:3]
    counts = closes_per_round(stores[0])
    assert sum(counts.values()) >= rounds
    doubly = [key for key, n in counts.items() if n > 1]
    assert doubly == [], f"rounds closed twice: {doubly[:5]}"
    closes_table = stores[0].db.execute("select count(*) from closes").fetchone()[0]
    assert closes_table == sum(counts.values())
    assert stranded(stores[0], services[0]) == []
    # and after a restart: the file alone says when each open round ends
    for store in stores:
        store.close()
    again = SQLiteStorage(path)
    try:
        assert stranded(again, Referee(again, REGISTRY, now=clock, images=False)) == []
    finally:
        again.close()
