"""A round is not closed while the process still holds answers sent in time for it (issue 21: under a burst,
answers queue in the process; each must count for the round it was sent in time for), and waits for them at
most ``ANSWERS_AWAITED_SECONDS``. Through the real service on a real SQLite file, the clock driven by the test."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.chat import Incoming, Reply
from bot.games.duplicate.games import game_of
from bot.games.duplicate.rounds import ANSWERS_AWAITED_SECONDS
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage import SQLiteStorage
from tests.ready_lists import ready_registry
from tests.storage_backends import active_game

CHANNEL = "discord:100"
START = 1_800_000_000.0


@pytest.mark.asyncio
async def test_the_clock_waits_for_an_answer_sent_in_time_and_still_queued(tmp_path: Path) -> None:
    """Ana answers 10 s before the deadline, behind Ben's answer in the process (the room's commands go one at
    a time); the clock ticks past the deadline meanwhile: the round stays open until Ana's answer is recorded,
    then closes with both."""
    clock = [START]
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    referee = Referee(storage, ready_registry(), now=lambda: clock[0], images=False)
    ticked: list[list[Reply]] = []

    async def deliver(replies: list[Reply]) -> None:
        if any(r.to_user == "u:ben" and "coup 1" in r.text for r in replies) and not ticked:
            clock[0] = START + 61  # the deadline passes while Ana's answer waits
            ticked.append(await asyncio.to_thread(referee.tick))

    service = RefereeService(referee, deliver)
    try:
        await service.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
        await service.handle(Incoming(CHANNEL, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        await service.handle(Incoming(CHANNEL, "u:ana", "Ana", "/jouer H8 CHAT", private=True))  # seated
        clock[0] = START + 50
        ben = Incoming(CHANNEL, "u:ben", "Ben", "/jouer H8 CHAT", private=True)
        ana = Incoming(CHANNEL, "u:ana", "Ana", "/jouer H8 CHANT", private=True)
        answers = await asyncio.gather(service.handle(ben), service.handle(ana))  # Ana's behind Ben's
        assert ticked, ticked
        assert not any("Top :" in r.text for r in ticked[0]), ticked  # not closed while Ana waited
        to_ana = [r.text for r in answers[1]]
        assert any(t.startswith("Reçu pour le coup 1 : H8 CHANT") for t in to_ana), to_ana
        closing = await service.tick()
        assert any("Top :" in r.text for r in closing)
        results = game_of(referee.services(), storage.game(active_game(storage, CHANNEL).id)).closed_rounds[0].results
        assert results["Ana"].valid, results
        assert results["Ben"].valid, results
        assert results["Ana"].score > results["Ben"].score  # her last answer, CHANT, counted
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()


@pytest.mark.parametrize(
    ("held", "waits"),
    [
        (Incoming(CHANNEL, "u:cy", "Cy", "/jouer H8 CHAT", private=True, received=START + 50), True),
        (Incoming("discord:dm-ana", "u:ana", "Ana", "/jouer H8 CHAT", private=True, received=START + 50), True),
        (Incoming("discord:dm-zoe", "u:zoe", "Zoé", "/jouer H8 CHAT", private=True, received=START + 50), False),
        (Incoming(CHANNEL, "u:cy", "Cy", "/jouer H8 CHAT", private=True, received=START + 60.5), False),
    ],
    ids=["in-the-room", "a-player-s-private-chat", "someone-else-s-chat", "sent-after-the-deadline"],
)
def test_which_answers_held_in_the_process_the_round_waits_for(tmp_path: Path, held: Incoming, waits: bool) -> None:
    """Sent in the round's channel or privately by one of its seated players, before the deadline: waited for,
    at most ``ANSWERS_AWAITED_SECONDS``; a private message of someone not seated, or sent too late: not."""
    clock = [START]
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    referee = Referee(storage, ready_registry(), now=lambda: clock[0], images=False)
    try:
        referee.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
        referee.handle(Incoming(CHANNEL, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        referee.handle(Incoming(CHANNEL, "u:ana", "Ana", "/jouer H8 CHAT", private=True))  # Ana is seated
        referee.arriving = lambda: (held,)  # what a service says of a message it still holds
        clock[0] = START + 61
        if not waits:
            assert any("Top :" in r.text for r in referee.tick())
            return
        clock[0] = START + 61
        assert not any("Top :" in r.text for r in referee.tick())
        clock[0] = START + 60 + ANSWERS_AWAITED_SECONDS + 1
        assert any("Top :" in r.text for r in referee.tick())
    finally:
        referee.clock.shutdown()
        storage.close()
