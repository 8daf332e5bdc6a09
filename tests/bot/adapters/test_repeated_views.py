"""A view asked again in a room, unchanged, within a minute (``bot.games.common.views.once_in_public``), through the
Referee on a clock the test moves, images on.

Twenty /classement in a room within a minute make one public post (the standings and their image); the nineteen
others are answered privately, as text, under the line saying the room's copy is current and how old it is.
After a change to the standings, or once the referee's clock is 60 s past the last public post, the view is
posted publicly again; another room keeps its own count. (Before, every one was posted: twenty identical
standings photos in a Telegram group spent its budget and held the round's close behind them.)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.chat import Incoming, Reply
from bot.messages import say
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.ready_lists import ready_registry

REGISTRY = ready_registry()
ROOM, OTHER_ROOM = "salle-a", "salle-b"


class Clock:
    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def referee(storage: SQLiteStorage, clock: Clock) -> Iterator[Referee]:
    made = Referee(storage, REGISTRY, now=clock, images=True)
    yield made
    made.clock.shutdown()


def send(referee: Referee, room: str, user: str, text: str) -> list[Reply]:
    return referee.handle(Incoming(room, f"u:{user.lower()}", user, text))


def duplicate(referee: Referee, room: str) -> None:
    """A duplicate game in ``room``, manual draws, Ana and Ben joined, round 1 drawn."""
    send(referee, room, "Ref", "/duplicate 1 manuel")
    send(referee, room, "Ana", "/rejoindre")
    send(referee, room, "Ben", "/rejoindre")
    send(referee, room, "Ref", "/tirage ACEHNTZ")


def public(replies: list[Reply], room: str) -> Reply:
    """The one reply, posted in the room, with its image."""
    (reply,) = replies
    assert reply.channel == room, reply
    assert not reply.private, reply
    assert reply.image is not None, reply
    return reply


def private(replies: list[Reply], room: str, user: str, shown: Reply, seconds: int) -> None:
    """The one reply is the room's copy, privately to ``user``, as text, under the line saying how old it is."""
    (reply,) = replies
    assert reply.to_user == f"u:{user.lower()}", reply
    assert reply.channel == room, reply
    assert reply.image is None  # never a second image
    assert reply.text == say("fr", "view_shown_above", seconds=seconds) + "\n" + shown.text


def test_twenty_standings_in_a_minute_make_one_post(referee: Referee, clock: Clock) -> None:
    duplicate(referee, ROOM)
    start = clock.t
    shown = public(send(referee, ROOM, "Asker00", "/classement"), ROOM)
    assert shown.text.startswith("Classement")
    for n in range(1, 20):  # nineteen more in the same minute, each by someone else
        clock.t = start + 3 * n
        private(send(referee, ROOM, f"Asker{n:02d}", "/classement"), ROOM, f"Asker{n:02d}", shown, 3 * n)
    clock.t = start + 59.9
    private(send(referee, ROOM, "Asker00", "/classement"), ROOM, "Asker00", shown, 60)  # its own ask too
    # a minute after the public post (the private answers never count as one): posted again, then held again
    clock.t = start + 60
    again = public(send(referee, ROOM, "Asker01", "/classement"), ROOM)
    assert again.text == shown.text
    assert again.image == shown.image
    clock.t = start + 61
    private(send(referee, ROOM, "Asker02", "/classement"), ROOM, "Asker02", again, 1)


def test_a_change_to_the_standings_is_posted_again(referee: Referee, clock: Clock) -> None:
    duplicate(referee, ROOM)
    shown = public(send(referee, ROOM, "Ana", "/classement"), ROOM)
    clock.t += 5
    private(send(referee, ROOM, "Ben", "/classement"), ROOM, "Ben", shown, 5)
    clock.t += 1
    send(referee, ROOM, "Cy", "/rejoindre")  # a new row
    joined = public(send(referee, ROOM, "Ben", "/classement"), ROOM)
    assert joined.text != shown.text
    assert "Cy" in joined.text
    clock.t += 1
    private(send(referee, ROOM, "Ana", "/classement"), ROOM, "Ana", joined, 1)
    send(referee, ROOM, "Ref", "/cloture")  # round 1 closes: the standings after it
    clock.t += 1
    closed = public(send(referee, ROOM, "Ana", "/classement"), ROOM)
    assert "Classement après 1 coup" in closed.text
    assert closed.text != joined.text
    clock.t += 1
    private(send(referee, ROOM, "Ben", "/classement"), ROOM, "Ben", closed, 1)


def test_another_room_is_independent(referee: Referee, clock: Clock) -> None:
    duplicate(referee, ROOM)
    duplicate(referee, OTHER_ROOM)  # the same game: the same standings, text and image
    here = public(send(referee, ROOM, "Ana", "/classement"), ROOM)
    clock.t += 1
    there = public(send(referee, OTHER_ROOM, "Ana", "/classement"), OTHER_ROOM)
    assert there.text == here.text  # only the room differs
    assert there.image == here.image
    clock.t += 1
    private(send(referee, ROOM, "Ben", "/classement"), ROOM, "Ben", here, 2)
    private(send(referee, OTHER_ROOM, "Ben", "/classement"), OTHER_ROOM, "Ben", there, 1)
    send(referee, OTHER_ROOM, "Ref", "/cloture")  # a change in the other room only
    clock.t += 1
    public(send(referee, OTHER_ROOM, "Ben", "/classement"), OTHER_ROOM)
    private(send(referee, ROOM, "Cy", "/classement"), ROOM, "Cy", here, 3)
