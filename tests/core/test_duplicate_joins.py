"""``JoinsThisMove`` (``core.duplicate.joins``): who joined at the current move, read once per event, against
reading the log back to the last close at every call, under any log (joins, closes, reopenings, cuts)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.duplicate import DuplicateGame
from core.duplicate.events import DrawMade, DuplicateEvent, MoveSubmitted, PlayerJoined, RoundClosed, RoundReopened
from core.duplicate.joins import JoinsThisMove

CLOSE = RoundClosed("H8 ZOO")


def read_back(events: list[DuplicateEvent]) -> list[str]:
    """The joins since the last close or reopening, read backwards from the end of the log."""
    joined = []
    for event in reversed(events):
        if isinstance(event, (RoundClosed, RoundReopened)):
            break
        if isinstance(event, PlayerJoined):
            joined.append(event.player)
    return joined[::-1]


EVENTS = st.one_of(
    st.builds(PlayerJoined, st.sampled_from(["Ana", "Ben", "Cleo", "Dan"])),
    st.just(CLOSE),
    st.builds(RoundReopened, st.just(1.0), st.just(60.0)),
    st.builds(MoveSubmitted, st.just("Ana"), st.just("H8 ZOO")),
    st.just(DrawMade("AEEIRSU", 1.0)),
)
# a step: an event appended, or the log cut back by a number of events (refused draws taken back), and
# whether the joins are asked for then (a log cut and written again between two looks is read again)
STEPS = st.lists(st.tuples(st.one_of(EVENTS, st.integers(min_value=1, max_value=4)), st.booleans()), max_size=40)


@given(STEPS)
def test_the_joins_read_once_are_those_read_back(steps: list[tuple[DuplicateEvent | int, bool]]) -> None:
    log: list[DuplicateEvent] = []
    joins = JoinsThisMove()
    for step, look in steps:
        if isinstance(step, int):
            del log[max(0, len(log) - step) :]
        else:
            log.append(step)
        if look:
            assert joins.of(log) == read_back(log)
    assert joins.of(log) == read_back(log)


def test_a_game_lists_the_players_who_joined_since_the_last_close() -> None:
    game = DuplicateGame(players=["Ana"])
    game.join("Ben")
    game.join("Cleo")
    assert game.joined_this_move() == ["Ben", "Cleo"]
    names = game.joined_this_move()
    names.append("Eve")  # a copy: the game's list does not change
    assert game.joined_this_move() == ["Ben", "Cleo"]
