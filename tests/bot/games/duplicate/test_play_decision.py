"""A private /jouer is answered alike the quick way and the usual way (issue 38, item 2): both decide it with
``bot.games.duplicate.play_decision.decide_play``, and the quick way gives way only on a declared ``HandOver``.

The property: two referees on two real SQLite files brought to the same state by the same commands (a
duplicate game in manual mode, FISF sanctions or not, a topping game now and then; seats added by the
referee and claimed by name, players seated by /rejoindre, answers already given, an answer's deadline
passed, round 1 just closed, round 2 just drawn or drawn a while ago); then the same private /jouer (a
seated player, a newcomer, a look-alike name, an empty display name; valid moves, moves out of the draw,
off the board or unreadable, claimed scores; sent from the room or a private chat, received in time for
the closed round or not) handled by one referee's batched path (``Referee.handle_plays``, what
``RefereeService`` batches, then each answer it leaves to the usual way or to itself, as the service does)
and by the other's usual way (``Referee.handle`` with ``quick=False``), in the order the batch answered
them. Both give the same replies (every field but the outbox number), store the same events and bind
the same seats, and the games in memory hold the same events.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.chat import Incoming, Reply, read_command
from bot.games.duplicate.games import game_of
from bot.games.duplicate.play_decision import HandOver
from bot.games.duplicate.submissions import USUAL_WAY, quick_play_in_transaction, quick_plays
from tests.club import APOLOGY, START, Club

ROOM = "club"
DEADLINE = START + 60  # round 1's end: /duplicate 1, drawn at START


@dataclass(frozen=True)
class Account:
    user: str
    name: str


ANA = Account("u:ana", "Ana")
ANA_TWIN = Account("u:ana2", "Ana")  # another person named Ana
BEN = Account("u:ben", "Ben")
CY = Account("u:cy", "Cy Lou")  # claims a free seat "Cy" by the first word of their name
CYRILLIC = Account("u:zed", "Аna")  # a Cyrillic А: never Ana's seat
NAMELESS = Account("telegram:42", "")  # seated under its account's number
ACCOUNTS = (ANA, ANA_TWIN, BEN, CY, CYRILLIC, NAMELESS)

# ACEHNTZ on an empty board: H6 CHANTEZ 112, H4 CHANTEZ 98, H8 CHANT 22 (RULES.md 2.1, 2.3)
MOVES = (
    "H8 CHAT",
    "H8 CHANT",
    "H4 CHANTEZ",
    "H6 CHANTEZ 112",
    "H6 CHANTEZ 100",
    "8H CHANT 22",
    "H8 ZOO",
    "A1 CHAT",
    "H8 TZ",
    "CHAT",
    "H8 CHAT 0",
    "H8 NACHTEZ",
    "8D CHANTEZ",
    "G7 RIEUSE",
    "7G ESTIVE 40",
)
SECOND_DRAW = "EEIRSTU"


@dataclass(frozen=True)
class Answer:
    account: Account
    move: str
    from_room: bool  # else from the player's private chat
    received: float | None  # seconds before now it was received (None: not stamped)
    private: bool = True

    def message(self, now: float) -> Incoming:
        channel = ROOM if self.from_room else f"dm-{self.account.user}"
        at = None if self.received is None else now - self.received
        return Incoming(channel, self.account.user, self.account.name, f"/jouer {self.move}", self.private, received=at)


@dataclass(frozen=True)
class Scenario:
    options: str  # what /duplicate takes beyond its minutes
    free_seats: tuple[str, ...]  # added by the referee: claimed by name
    joined: tuple[Account, ...]  # seated by /rejoindre
    before: tuple[Answer, ...]  # answers to round 1 before the state compared
    phase: str  # open, late (its deadline passed), closed (no round 2 yet), drawn (round 2 drawn)
    after_draw: float  # drawn: seconds since round 2's draw
    compared: tuple[Answer, ...]


answers = st.builds(
    Answer,
    st.sampled_from(ACCOUNTS),
    st.sampled_from(MOVES),
    st.booleans(),
    st.sampled_from([None, None, None, 0.0, 1.0, 5.0, 30.0, 70.0, 200.0]),
    st.sampled_from([True] * 9 + [False]),
)
scenarios = st.builds(
    Scenario,
    st.sampled_from(["", "", "", "sanctions", "sanctions", "topping"]),
    st.lists(st.sampled_from(["Ana", "Cy", "Ben"]), unique=True, max_size=1).map(tuple),
    st.lists(st.sampled_from(ACCOUNTS), unique=True, max_size=3).map(tuple),
    st.lists(answers, max_size=4).map(tuple),
    st.sampled_from(["open", "open", "open", "late", "closed", "drawn", "drawn"]),
    st.sampled_from([1.0, 10.0, 20.0, 40.0]),
    st.lists(answers, min_size=1, max_size=4).map(tuple),
)


def setup(club: Club, scenario: Scenario) -> None:
    """The state before the compared answers, on one referee (the same commands on the other)."""
    club.ok("Ref", f"/duplicate 1 manuel {scenario.options}".strip(), admin=True)
    club.ok("Ref", "/tirage ACEHNTZ", admin=True)
    for name in scenario.free_seats:
        club.send("Ref", f"/rejoindre {name}", admin=True)
    for account in scenario.joined:
        club.send(account.name, "/rejoindre", user=account.user)
    for answer in scenario.before:
        club.now += 1
        replies = club.referee.handle(answer.message(club.now))
        assert not any(APOLOGY in r.text for r in replies), replies
    if scenario.phase == "late":
        club.now = DEADLINE + 5  # the clock has not closed it yet
    elif scenario.phase in {"closed", "drawn"}:
        club.tick(DEADLINE + 1 - club.now)  # the clock closes round 1 (manual draws: no round 2 yet)
        if scenario.phase == "drawn":
            club.send("Ref", f"/tirage {SECOND_DRAW}", admin=True)
            club.now += scenario.after_draw


def unnumbered(replies: list[Reply]) -> list[Reply]:
    return [replace(r, outbox_id=None) for r in replies]


def stored(club: Club) -> tuple[list[tuple[int, dict[str, object], str]], list[tuple[str, str]]]:
    """The game's events (number, data, author) and its seats, as stored."""
    game = club.storage.games(ROOM)[-1]
    return [(e.seq, e.data, e.author) for e in club.storage.events(game.id)], club.storage.players(game.id)


def batched(club: Club, messages: list[Incoming]) -> list[tuple[Incoming, list[Reply]]]:
    """The batched path, as ``RefereeService`` takes it: the batch first, then each answer it left, on its
    own (the usual way at once for ``USUAL_WAY``); the answers in the order they were answered."""
    results = club.referee.handle_plays(messages)
    done = [(m, r) for m, r in zip(messages, results) if isinstance(r, list)]
    for message, result in zip(messages, results):
        if isinstance(result, list):
            event("decided the quick way")
            continue
        event("handed over" if result is USUAL_WAY else "left to itself")
        done.append((message, club.referee.handle(message, quick=result is not USUAL_WAY)))
    return done


@pytest.mark.long(9)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios)
def test_the_quick_way_and_the_usual_way_answer_a_private_play_alike(scenario: Scenario) -> None:
    with tempfile.TemporaryDirectory() as folder:
        quick, usual = Club(Path(folder) / "quick.sqlite"), Club(Path(folder) / "usual.sqlite")
        try:
            for club in (quick, usual):
                setup(club, scenario)
            assert quick.now == usual.now
            assert stored(quick) == stored(usual)  # the same state on both files
            messages = [a.message(quick.now) for a in scenario.compared]
            answered = batched(quick, messages)
            for message, replies in answered:
                assert not any(APOLOGY in r.text for r in replies), replies
                assert unnumbered(usual.referee.handle(message, quick=False)) == unnumbered(replies), message.text
            assert stored(quick) == stored(usual)
            record = quick.storage.games(ROOM)[-1]
            in_memory = [game_of(club.referee.services(), record).events for club in (quick, usual)]
            assert in_memory[0] == in_memory[1]
        finally:
            quick.close()
            usual.close()


def test_the_common_cases_are_decided_the_quick_way(club: Club) -> None:
    """Not a vacuous property: a seated player's answer and a newcomer's are decided by the batch, and a
    seat claimed by name is handed over with its reason."""
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ref", "/tirage ACEHNTZ", admin=True)
    club.send("Ref", "/rejoindre Cy", admin=True)
    club.send("Ben", "/rejoindre")
    plays = [
        Answer(BEN, "H8 CHAT", from_room=False, received=None).message(club.now),
        Answer(ANA, "H8 ZOO 12", from_room=True, received=None).message(club.now),
        Answer(CY, "H4 CHANTEZ", from_room=True, received=None).message(club.now),
    ]
    commands = [c for c in (read_command(m.text) for m in plays) if c is not None]
    services = club.referee.services()
    with services.games.transaction(services.storage):
        assert quick_play_in_transaction(services, plays[2], commands[2]) is HandOver.SEAT_BY_NAME
    results = quick_plays(services, list(zip(plays, commands)))
    assert isinstance(results[0], list)
    assert isinstance(results[1], list)
    assert results[2] is USUAL_WAY


def test_a_bug_in_the_quick_way_is_logged_as_an_error_and_the_usual_way_answers(
    club: Club, monkeypatch: pytest.MonkeyPatch, quick_play_failures: list[logging.LogRecord]
) -> None:
    """An exception the quick way does not declare is a bug: logged as an error (which fails any test,
    ``tests/conftest.py``), never at debug level; the player is answered the usual way all the same."""
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ref", "/tirage ACEHNTZ", admin=True)

    def broken(*args: object, **values: object) -> None:
        raise RuntimeError("a bug in the quick way")

    monkeypatch.setattr("bot.games.duplicate.submissions.decide_play", broken)
    replies = club.referee.handle(Answer(BEN, "H8 CHAT", from_room=True, received=None).message(club.now))
    assert [r.text for r in replies if r.to_user == BEN.user][0].startswith("Reçu pour le coup 1 : H8 CHAT")
    assert [(r.levelno, str(r.exc_info[1]) if r.exc_info else "") for r in quick_play_failures] == [
        (logging.ERROR, "a bug in the quick way")
    ]
    quick_play_failures.clear()  # the failure this test made on purpose
