"""A private /play in a running duplicate round, with the least work a durable acknowledgement needs.

The common case, a seated player or a newcomer whose first answer seats them, is read in one statement
(``Storage.play_state``: the game, its channel's settings, its seats, its last event, whether messages
wait for the player or the channel) and written in one transaction of one insert per table
(``Storage.record_plays``: its events, the new seat, its replies), with the game taken from the cache
(a game not in memory, or behind the log, is brought up to date first). The move is decided by
``bot.games.duplicate.play_decision.decide_play``, as the command's usual way decides it; every other case (a
seat claimed by name, a player taken off their seat, an answer just after a close...) is a declared
``HandOver`` and goes the command's usual way, which decides it. The acknowledgement is committed before
it is delivered, as any reply. Answers that arrive together (``quick_plays``) share one transaction; on
PostgreSQL their states are read in one statement (``Storage.play_states``), and their writes are sent
together (``Storage.record_plays``: PostgreSQL one statement, SQLite two).

A transaction that fails and keeps nothing (a full disk, a lost connection) hands its answers over too
(``HandOver.NOT_KEPT``); any other exception is a bug, logged as an error (``QUICK_FAILURE``; the tests
fail on it) before the usual way answers.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from typing import TYPE_CHECKING

from core.duplicate import event_to_dict
from core.game import find_player

from ...chat import MAX_COMMAND_CHARS, CommandLine, Incoming, Reply
from ...commands.services import Services
from ...outbox import GRACE_SECONDS
from ...play import seats
from ...storage import ChannelLock, ConnectionLostError, GameKind, PlayState, PlayWrite, Storage, StorageFullError
from ...storage.outbox_records import destination
from ..simultane.accounts import account_lock, seated_elsewhere
from .play_decision import HandOver, decide_play, hand_over

if TYPE_CHECKING:
    from core.duplicate import DuplicateGame


log = logging.getLogger("arbitre")


@dataclasses.dataclass(frozen=True)
class Pending:
    """A private /play decided, its game in memory changed, its writes not sent yet."""

    write: PlayWrite
    game: DuplicateGame


@dataclasses.dataclass(frozen=True)
class QuickPlay:
    """A private /play recorded the quick way: its stored replies, those nothing older waits before, and
    those left to the outbox worker (behind older ones)."""

    replies: list[Reply]
    first: list[int]
    left: list[int]


class UsualWay:
    """What ``quick_plays`` gives a private /play the quick way read and left to the command's usual way
    (one of the ``HandOver`` reasons the usual way decides: an answer received before a closed round's end,
    a seat claimed by name, a topping round...): its caller runs the usual way at once, without trying the
    quick way again alone (under a backlog of late answers, that second try cost each of them a transaction
    and its reads for nothing)."""


USUAL_WAY = UsualWay()
QUICK_FAILURE = "the quick /play failed (a bug), the usual way answers"  # logged as an error
FAILURE_MARK = {"quick_play_failure": True}  # on that error's record: the tests fail on it (tests/conftest.py)
ON_ITS_OWN = frozenset({HandOver.ROOM_BUSY, HandOver.NOT_KEPT})  # tried again alone, the quick way first


def takes_quick_way(message: Incoming, command: CommandLine) -> bool:
    """Whether a message may be a private /play of the common case (else it goes the command's usual way)."""
    return message.private and bool(command.args.strip()) and len(message.text) <= MAX_COMMAND_CHARS


def quick_play(services: Services, message: Incoming, command: CommandLine) -> list[Reply] | None:
    """The stored replies to a private /play in the common case; None for the command's usual way (a
    ``HandOver``: nothing was kept)."""
    if not takes_quick_way(message, command):
        return None
    try:
        with services.games.transaction(services.storage):
            stored = quick_play_in_transaction(services, message, command)
    except (StorageFullError, ConnectionLostError):  # HandOver.NOT_KEPT: rolled back; the usual way says it
        log.debug("quick /play not kept", exc_info=True)
        return None
    except Exception:  # rolled back, with the games it changed in memory
        log.exception("%s: %s", QUICK_FAILURE, message, extra=FAILURE_MARK)
        return None
    if not isinstance(stored, QuickPlay):
        return None
    services.outbox.first_in_line_known(stored.first, stored.left)  # committed: these numbers are theirs for good
    return stored.replies


def quick_plays(services: Services, plays: list[tuple[Incoming, CommandLine]]) -> list[list[Reply] | UsualWay | None]:
    """Several private /play recorded in one write transaction (one commit for all: what a burst of
    answers costs least), each the quick way; ``USUAL_WAY`` for those the quick way read and handed over
    (``HandOver``: no quick try alone is worth making), None for those handled on their own, the quick way
    first (not a quick way's message, ``HandOver.ROOM_BUSY``): both wrote nothing. If the transaction fails
    (``HandOver.NOT_KEPT``, or a bug: logged as an error), none is kept and all are handled on their own."""
    stored: list[QuickPlay | HandOver | None] = [None] * len(plays)
    try:
        with services.games.transaction(services.storage):
            # PostgreSQL: every room's lock tried at once; a room another transaction holds goes on its own
            rooms = [m.channel for m, c in plays if takes_quick_way(m, c)]
            locks = services.storage.try_lock_channels(rooms) if rooms else {}
            chosen = [
                n for n, (m, c) in enumerate(plays)
                if takes_quick_way(m, c) and locks.get(m.channel, ChannelLock.BUSY) is not ChannelLock.BUSY
            ]
            # every state read at once (PostgreSQL: one statement); a game a second move goes to is read again
            states = services.storage.play_states([(plays[n][0].channel, plays[n][0].user) for n in chosen])
            games: set[int] = set()
            pending: list[Pending] = []  # the moves' writes, sent together (PostgreSQL: one statement)
            which: list[int] = []
            for n, state in zip(chosen, states):
                if state is not None:
                    again = state.game.id in games or state.game.channel != plays[n][0].channel
                    games.add(state.game.id)
                    if again:  # read again in the move's own way (after its game's channel's lock)
                        state = None
                if state is None:  # what it reads must follow the writes before it
                    stored = _flush(services, pending, which, stored)
                    stored[n] = quick_play_in_transaction(services, *plays[n], wait=False)
                    continue
                before = len(pending)
                left = quick_play_in_transaction(services, *plays[n], wait=False, state=state, pending=pending)
                which += [n] * (len(pending) - before)
                stored[n] = left
            stored = _flush(services, pending, which, stored)
    except (StorageFullError, ConnectionLostError):  # HandOver.NOT_KEPT: rolled back, games in memory too
        log.debug("a batch of quick /play not kept", exc_info=True)
        return [None] * len(plays)
    except Exception:  # rolled back, with the games it changed in memory
        log.exception("%s: a batch of %d", QUICK_FAILURE, len(plays), extra=FAILURE_MARK)
        return [None] * len(plays)
    for done in stored:
        if isinstance(done, QuickPlay):
            services.outbox.first_in_line_known(done.first, done.left)  # committed: these numbers are theirs for good
    return [_given(done) for done in stored]


def _given(done: QuickPlay | HandOver | None) -> list[Reply] | UsualWay | None:
    """What ``quick_plays`` says of one play: its replies, or who decides it."""
    if isinstance(done, QuickPlay):
        return done.replies
    if done is None or done in ON_ITS_OWN:
        return None
    return USUAL_WAY


def _flush(
    services: Services, pending: list[Pending], which: list[int], stored: list[QuickPlay | HandOver | None]
) -> list[QuickPlay | HandOver | None]:
    """``stored`` with the pending moves (those of the plays numbered ``which``) written; both lists emptied."""
    if pending:
        for n, done in zip(which, recorded(services, pending)):
            stored[n] = done
        pending.clear()
        which.clear()
    return stored


def quick_play_in_transaction(
    services: Services,
    message: Incoming,
    command: CommandLine,
    wait: bool = True,
    state: PlayState | None = None,
    pending: list[Pending] | None = None,
) -> QuickPlay | HandOver | None:
    """A private /play recorded in the open transaction, or why the usual way decides it (``HandOver``:
    nothing written; without ``wait``, ``HandOver.ROOM_BUSY`` when another transaction holds the game's
    channel: the caller took the lock of the channel it was sent from; ``state``: what it read for the move
    after that lock, if it did). With ``pending``, its writes are added there instead (None returned: the
    caller sends them, ``recorded``). Raises when it fails (the transaction must then be rolled back)."""
    storage = services.storage
    # PostgreSQL: the channel's commands, one at a time, and its game's channel's (sent from a private chat)
    held = storage.lock_play(message.channel, message.user) if wait else None
    if state is None:
        state = storage.play_state(message.channel, message.user)
    if state is not None and state.game.channel != message.channel:  # sent from a private chat
        if wait:  # read after both locks; the game found may have changed before they were held
            changed = held is not None and state.game.channel not in held and storage.lock_channel(state.game.channel)
        else:
            taken = storage.try_lock_channels([state.game.channel])[state.game.channel]
            if taken is ChannelLock.BUSY:
                return HandOver.ROOM_BUSY
            changed = taken is ChannelLock.TAKEN
        if changed:  # it may have changed meanwhile: read again
            state = storage.play_state(message.channel, message.user)
    if state is None or state.game.kind is not GameKind.DUPLICATE:
        return HandOver.NO_GAME
    if state.seat is None and state.game.setup.simultane:
        refused = _first_seat(storage, state, message, wait, pending)
        if refused is not None:
            return refused  # a simultané's newcomer seated in another room, or whose lock is busy
    game = services.duplicate_games.cached(state.game.id, state.stamp)
    if game is None:  # not in memory, or behind the log: read (once) what it misses
        game = services.duplicate_games.load(storage, state.game)
    played = _play(services, message, command, state, game)
    if isinstance(played, HandOver):
        return played
    if pending is not None:  # written with the batch's others
        pending.append(played)
        return None
    return recorded(services, [played])[0]


def recorded(services: Services, pending: list[Pending]) -> list[QuickPlay]:
    """The moves' writes sent (each of another game; PostgreSQL: in one statement), their games in memory
    brought up to them, their replies numbered."""
    numbers = services.storage.record_plays([p.write for p in pending])
    done = []
    for move, ids in zip(pending, numbers):
        write = move.write
        services.duplicate_games.stored(write.game_id, move.game, (write.after + len(write.events), write.at))
        replies = [r.numbered(i) for r, i in zip(write.replies, ids)]
        first = [i for i, due in zip(ids, write.dues) if due > write.created]
        done.append(QuickPlay(replies, first, [i for i in ids if i not in first]))
    return done


def _first_seat(
    storage: Storage, state: PlayState, message: Incoming, wait: bool, pending: list[Pending] | None
) -> HandOver | None:
    """Why a simultané's newcomer may not be seated the quick way (None: they may): under its account's lock
    in the simultané (``ROOM_BUSY`` without ``wait`` when another transaction holds it), seated in no other
    room (``bot.games.simultane.accounts``: one account, one room), nor by a move of this batch not
    written yet (``OTHER_ROOM``)."""
    code, user = state.game.setup.simultane, message.user
    lock = account_lock(code, user)
    if wait:
        storage.lock_channel(lock)
    elif storage.try_lock_channels([lock])[lock] is ChannelLock.BUSY:
        return HandOver.ROOM_BUSY
    if pending and any(p.write.seat is not None and p.write.seat[0] == user for p in pending):
        return HandOver.OTHER_ROOM
    return HandOver.OTHER_ROOM if seated_elsewhere(storage, code, user, state.game.channel) else None


def _seat(message: Incoming, state: PlayState, game: DuplicateGame) -> str | HandOver | None:
    """The player's seat; None: a newcomer; ``SEAT_BY_NAME``: the usual way seats them."""
    if state.seat is not None:
        name = state.seat
        if name in game.players:  # as it was bound (no accent folding over every seat)
            return name
        seat = find_player(game.players, name) if name != seats.RELEASED else None
        return HandOver.SEAT_BY_NAME if seat is None else seat
    # a free seat claimed by name (or one another account holds: the usual way says so), or a newcomer; a
    # name that folds like no seat's (``player_key``; names equal as ``exact`` fold alike) claims none
    if not any(name and game.has_player_like(name) for name in seats.claimed_names(message)):
        return None
    return HandOver.SEAT_BY_NAME if seats.named_like(message, game.players) is not None else None


def _play(
    services: Services, message: Incoming, command: CommandLine, state: PlayState, game: DuplicateGame
) -> Pending | HandOver:
    """The move decided (``decide_play``) and made in the game in memory, its writes and replies to store;
    or why the usual way decides it."""
    now = services.now()
    at = message.arrived(now)  # a move that waited behind others is timed by its arrival
    reason = hand_over(game, at)
    if reason is not None:
        return reason
    player = _seat(message, state, game)
    if isinstance(player, HandOver):
        return player
    record, lang = state.game, state.settings.language
    decided = decide_play(lang, record, game, message, command.args, at, player, services.sheds)
    waiting = {message.user: state.player_waiting, record.channel: state.channel_waiting}
    if message.asked is not None:  # the command's own place (its interaction): nothing waits there before it
        waiting[message.asked] = False
    # a reply behind older ones goes with the outbox worker, after them; the others are the sender's first
    dues = [now if waiting.get(destination(r), True) else now + GRACE_SECONDS for r in decided.replies]
    stamp = time.time()
    data = [(event_to_dict(event), message.user) for event in decided.events]
    seat = None if decided.seat is None else (message.user, decided.seat)
    owner = services.outbox.claimer(now)  # what it sends itself is claimed by it (see Outbox.enqueue)
    return Pending(PlayWrite(record.id, data, state.stamp[0], stamp, seat, decided.replies, dues, now, owner), game)
