"""What the clock does for simultanés at each tick: start every joined room's game of a simultané played
together at a set time, at that time; close the rounds held in the rooms of a simultané played together
(their time up before the others') once every room still playing has reached their end
(``bot.games.simultane.pacing``); and post the overall ranking to the organiser's room each time it
becomes visible for a new round (every room closed it; for a window, at its end).

Each happens exactly once across processes: a room's start re-reads the room under its channel's lock and
starts it only if no game is set yet (the game is set in the same transaction); a held round is closed
under its channel's lock while it is still the room's held round (the mark is cleared in the same
transaction, and the database refuses a second close); a post is a unique row (``simultane_posts``) written, under the
organiser's channel's lock, in the transaction that stores the message in the outbox.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from core.simultane import RoomProgress, SimultaneMode, close_wait, visible_rounds

from ...chat import Reply
from ...commands.context import UserError
from ...commands.services import Services
from ...messages import say
from ...storage import DONE_POST, GameStatus, HeldRound, SimultaneRecord, SimultaneRoom
from ...words.loader import ListPreparingError
from ..duplicate.closes import TickReplies, owing
from ..duplicate.games import game_of
from ..duplicate.rounds import CLOSES_AT_ONCE, close_round
from ..kinds import kind_of
from .launch import launch
from .pacing import rooms_at
from .ranking import definition_of, overall_of, overall_reply, progress_of

ROUND_POST = "round:"  # a post of the overall ranking after that many rounds


def simultane_tick(
    services: Services,
    now: float,
    publish: Callable[[list[Reply]], None] | None = None,
    ticked: TickReplies | None = None,
) -> list[Reply]:
    """The starts and overall posts due at ``now`` for channels this process's clock looks after, and the
    held rounds' closes; ``publish`` is given each one's stored replies as soon as they may go, a close's
    results once every close of the tick is committed (``ticked``: the tick's replies, finished by the caller;
    None: this call finishes its own); every reply of the tick so far."""
    own = ticked is None
    ticked = ticked if ticked is not None else TickReplies(services, publish)
    storage = services.storage
    starts, posts, holds = storage.simultane_work_due(now)
    for room in storage.simultane_starts_due(now, services.clock_scope) if starts else []:
        ticked.step(_start_room(services, room, now))
    if holds:
        _close_held_rounds(services, now, ticked)
    for record in storage.simultanes_to_post() if posts else []:
        if record.channel.startswith(services.clock_scope):
            ticked.after(_post_overall(services, record, now))  # after the rooms' own results
    return ticked.finish() if own else list(ticked.replies)


def _start_room(services: Services, room: SimultaneRoom, now: float) -> list[Reply]:
    """Start one room's game, unless another process has; a room whose own game is running is told the
    simultané started without it, and leaves it."""
    storage = services.storage
    with services.games.transaction(storage):
        storage.lock_channel(room.channel)
        current = next((r for r in storage.simultane_rooms(room.simultane) if r.channel == room.channel), None)
        if current is None or current.game is not None or current.due is None:
            return []  # started (or left) in another process
        record = storage.simultane_by_id(room.simultane)
        try:
            replies = launch(
                services, record, definition_of(record), room.channel, current.referee, current.referee_name, now
            )
        except UserError as error:
            lang = storage.channel(room.channel).language
            storage.leave_simultane(record.id, room.channel)
            kind = error.values.get("kind", "")
            text = say(lang, "simultane_clock_blocked", code=record.code, kind=kind)
            return services.outbox.enqueue([Reply(text, channel=room.channel)])
        return services.outbox.enqueue(replies)


def _close_held_rounds(services: Services, now: float, ticked: TickReplies) -> None:
    """Close the held rounds whose rooms no longer wait: on a store whose transactions run side by side,
    several at once (300 rooms held for the last one close together); each close's notice and next draw
    published as it commits, the results once every close of the tick is (``ticked``)."""
    storage = services.storage
    progress: dict[int, tuple[SimultaneRecord, list[RoomProgress]]] = {}  # read once per simultané per tick
    due: list[tuple[HeldRound, SimultaneRecord, list[RoomProgress]]] = []
    for held in storage.simultane_holds(services.clock_scope):
        if held.simultane not in progress:
            record = storage.simultane_by_id(held.simultane)
            services.clock.paced.pop((record.id, now), None)  # read after the tick's closes: afresh
            progress[held.simultane] = (record, rooms_at(services, record, now))
        record, rooms = progress[held.simultane]
        entries_closed = record.entries_closed is not None
        if close_wait(definition_of(record), rooms, held.channel, held.round, entries_closed) is None:
            due.append((held, record, rooms))

    def close(item: tuple[HeldRound, SimultaneRecord, list[RoomProgress]]) -> None:
        with owing() as owed:
            step = _close_held(services, *item, now)
        ticked.step(step, owed)

    if len(due) > 1 and storage.concurrent_transactions:
        with ThreadPoolExecutor(CLOSES_AT_ONCE, thread_name_prefix="arbitre-close") as pool:
            list(pool.map(close, due))
        return
    for item in due:
        close(item)


def _close_held(
    services: Services, held: HeldRound, record: SimultaneRecord, rooms: list[RoomProgress], now: float
) -> list[Reply]:
    """Close a held round once every other room still playing has reached its end (``rooms``: every room's
    progress, read at this tick: what it counts only grows): its top, results and next draw, as any close;
    nothing if another process closed it meanwhile, or if the room still waits."""
    entries_closed = record.entries_closed is not None
    if close_wait(definition_of(record), rooms, held.channel, held.round, entries_closed) is not None:
        return []
    storage = services.storage
    game_record = storage.game(held.game)
    kind_of(game_record.kind).before_clock(services, game_record)  # its top found outside the transaction
    with services.games.transaction(storage), services.lists.remembering():
        storage.lock_channel(held.channel)
        game_record = storage.game(held.game)
        if storage.simultane_held(record.id, held.channel) != held.round or game_record.status is GameStatus.ABANDONED:
            return []  # closed in another process meanwhile (or the game was abandoned)
        game = game_of(services, game_record)
        if game.current is None or game.current.number != held.round:
            storage.hold_simultane_round(record.id, held.channel, 0)
            return []
        lang = storage.channel(held.channel).language
        ended = say(lang, "dup_end_by_referee") if game_record.status is GameStatus.ENDED else None
        try:
            replies = close_round(services, storage, game_record, game, lang, now, "clock", ended)
        except ListPreparingError:  # closed at a later tick, once its list is ready
            return []
        return services.outbox.enqueue(replies)


def _post_overall(services: Services, record: SimultaneRecord, now: float) -> list[Reply]:
    """The overall ranking to the organiser's room when it counts a round more than its last post; the
    ``done`` post once nothing more can become visible."""
    storage = services.storage
    definition = definition_of(record)
    progress = progress_of(storage, record)
    rounds = visible_rounds(definition, progress, now)
    if definition.mode is SimultaneMode.WINDOW:  # nothing is visible before its end, everything after
        finished = definition.end is None or now >= definition.end
    else:
        statuses = {p.status for p in storage.simultane_progress(record.id)}
        finished = all(p.started for p in progress) and GameStatus.ACTIVE.value not in statuses
    posted = storage.simultane_posts(record.id)
    if rounds <= _last_post(posted) and not finished:
        return []
    overall = overall_of(services, record, now, rounds) if rounds > _last_post(posted) else None
    lang = storage.channel(record.channel).language
    with services.games.transaction(storage):
        storage.lock_channel(record.channel)
        posted = storage.simultane_posts(record.id)  # another process may have posted meanwhile
        replies: list[Reply] = []
        if overall is not None and rounds > _last_post(posted):
            storage.claim_simultane_post(record.id, f"{ROUND_POST}{rounds}", now)
            replies.append(overall_reply(services, lang, record, overall, record.channel, "simultane_overall_live"))
        if finished:
            storage.claim_simultane_post(record.id, DONE_POST, now)
        return services.outbox.enqueue(replies) if replies else []


def _last_post(posted: set[str]) -> int:
    """The most rounds an overall post counted (0: none yet)."""
    return max((int(p[len(ROUND_POST) :]) for p in posted if p.startswith(ROUND_POST)), default=0)
