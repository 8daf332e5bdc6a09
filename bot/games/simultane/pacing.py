"""A simultané's rooms paced together: in a simultané played together, a room whose time for a round is up
(its deadline passed, or every player answered and its referee closed it) closes the round (its top, its
results, the next draw) only once every other room still playing has reached the end of that round too,
and, together from now, once the entries are closed (``core.simultane.close_wait``). Until then the round
is held: its time is up (later answers are late), nothing of it is shown, and the room is told what it
waits for; the clock closes every held room of the simultané once the last one has reached the end
(``bot.games.simultane.clock``). Because the round stays open in the game, no view (board, standings,
moves, exports, the live page) can show its top early.

Also: the entries of a simultané played together from now close at the organiser's room's first round end;
a round is closed early (``/close`` before its deadline) only once every player of the room has answered;
a held round's clock no longer changes, and a closed round is never reopened (its top is out everywhere).
"""

from __future__ import annotations

from core.duplicate import DuplicateGame
from core.simultane import CloseWait, RoomProgress, WaitReason, close_wait

from ...chat import Reply
from ...commands.context import UserError
from ...commands.services import Services
from ...messages import say
from ...simultanes.names import room_labels
from ...storage import GameRecord, SimultaneRecord, Storage
from ...timefmt import clock_time
from ..duplicate.games import save
from .ranking import definition_of, progress_of

ENTRIES_WAIT_POST = "entries-wait"  # the organiser's room told once that rooms wait for the entries to close
CLOCK = "clock"  # the author of what the clock does (a close at a tick)


def simultane_of(storage: Storage, record: GameRecord) -> SimultaneRecord | None:
    """The simultané a game is played in (None: a game of the room's own)."""
    return storage.simultane(record.setup.simultane) if record.setup.simultane else None


def paced_simultane(storage: Storage, record: GameRecord) -> SimultaneRecord | None:
    """The simultané a game is played in, when its rooms are paced together (None otherwise)."""
    simultane = simultane_of(storage, record)
    return simultane if simultane is not None and definition_of(simultane).paced else None


def wait_of(
    storage: Storage,
    simultane: SimultaneRecord,
    channel: str,
    round_number: int,
    now: float,
    progress: list[RoomProgress] | None = None,
) -> CloseWait | None:
    """What the room ``channel`` waits for before closing ``round_number`` at ``now`` (None: nothing);
    ``progress``: the rooms as already read."""
    rooms = progress if progress is not None else progress_of(storage, simultane, now)
    return close_wait(definition_of(simultane), rooms, channel, round_number, simultane.entries_closed is not None)


def rooms_at(services: Services, simultane: SimultaneRecord, now: float) -> list[RoomProgress]:
    """The simultané's rooms as read at ``now``, once for every close of a clock's tick (one statement of
    every room's progress, not one per room: 300 rooms closing together read it once)."""
    cache, key = services.clock.paced, (simultane.id, now)
    found = cache.get(key)
    if found is None:
        if any(at != now for _, at in cache):
            cache.clear()
        found = cache[key] = progress_of(services.storage, simultane, now)
    return found


def before_close(
    services: Services, record: GameRecord, game: DuplicateGame, now: float, author: str
) -> list[Reply] | None:
    """Before a room of a simultané played together closes its open round: the entries closed if this is
    the organiser's room (together from now); then None if the round may close now, else the round held
    (its time called now if it was still running, its deadline no longer on the clock) and the replies
    saying so ([] when it was held already)."""
    storage = services.storage
    simultane = paced_simultane(storage, record)
    round_ = game.current
    if simultane is None or round_ is None:
        return None
    organiser = record.channel == simultane.channel
    if organiser and simultane.entries_closed is None and not definition_of(simultane).clock_start:
        storage.close_simultane_entries(simultane.id, now)
        simultane = storage.simultane_by_id(simultane.id)
    services.clock.next_due = min(services.clock.next_due, now)  # rooms held for this one: at the next tick
    progress = rooms_at(services, simultane, now) if author == CLOCK else None  # a command reads afresh
    wait = wait_of(storage, simultane, record.channel, round_.number, now, progress)
    if wait is None:
        storage.hold_simultane_round(simultane.id, record.channel, 0)
        return None
    deadline = game.deadline(round_)
    if deadline is None or deadline > now:  # every player answered, or a paused clock: time is called now
        save(services, record, game, [game.call_time(now)], author)
    first = storage.hold_simultane_round(simultane.id, record.channel, round_.number)
    storage.set_deadline(record.id, round_.number, None)  # the clock closes it with the others, not at a tick
    if not first:
        return []
    return held_replies(storage, record, game, simultane, wait, now)


def held_replies(
    storage: Storage, record: GameRecord, game: DuplicateGame, simultane: SimultaneRecord, wait: CloseWait, now: float
) -> list[Reply]:
    """What a room is told when its round is held: the draw's message stops counting down, and what the
    round waits for (the organiser's room told once, when rooms wait for it to close the entries)."""
    round_ = game.current
    assert round_ is not None
    settings = storage.channel(record.channel)
    lang = settings.language
    draw = round_.draw.spelled(game.edition) if round_.draw is not None else ""
    replies = [
        Reply(
            say(lang, "simultane_time_up", n=round_.number, draw=draw),
            channel=record.channel,
            edit_key=f"dup-{record.id}-{round_.number}",
        ),
        Reply(waiting_text(storage, lang, settings.zone, simultane, wait, round_.number), channel=record.channel),
    ]
    if wait.reason is WaitReason.ENTRIES_OPEN:
        replies += _tell_organiser(storage, simultane, record.channel, now)
    return replies


def waiting_text(
    storage: Storage, lang: str, zone: str, simultane: SimultaneRecord, wait: CloseWait, round_number: int
) -> str:
    """What a room whose time for ``round_number`` is up waits for: the entries, or the rooms still playing
    it (and the latest of their deadlines, in the room's ``zone``)."""
    if wait.reason is WaitReason.ENTRIES_OPEN:
        return say(lang, "simultane_wait_entries", n=round_number, code=simultane.code)
    labels = room_labels(lang, storage.simultane_rooms(simultane.id))
    rooms = ", ".join(labels.get(channel, channel) for channel in wait.rooms)
    deadlines = {d.channel: d.at for d in storage.deadlines() if d.channel in wait.rooms}
    if deadlines and set(deadlines) == set(wait.rooms):
        latest = clock_time(max(deadlines.values()), zone)
        return say(lang, "simultane_wait_rooms_until", n=round_number, rooms=rooms, time=latest)
    return say(lang, "simultane_wait_rooms", n=round_number, rooms=rooms)


def _tell_organiser(storage: Storage, simultane: SimultaneRecord, channel: str, now: float) -> list[Reply]:
    """The word to the organiser's room, once, that rooms wait for it to close the entries (it plays no
    game of the simultané: its own first round's end would have closed them)."""
    if not storage.claim_simultane_post(simultane.id, ENTRIES_WAIT_POST, now):
        return []
    lang = storage.channel(simultane.channel).language
    label = room_labels(lang, storage.simultane_rooms(simultane.id)).get(channel, channel)
    text = say(lang, "simultane_organiser_close_entries", code=simultane.code, room=label)
    return [Reply(text, channel=simultane.channel)]


def held_round(storage: Storage, record: GameRecord) -> tuple[SimultaneRecord, int] | None:
    """The simultané and the round of a room whose round waits for the other rooms (None: none waits)."""
    simultane = paced_simultane(storage, record)
    if simultane is None:
        return None
    mine = next((p for p in storage.simultane_progress(simultane.id) if p.channel == record.channel), None)
    return (simultane, mine.held) if mine is not None and mine.held else None


def held_text(storage: Storage, record: GameRecord, lang: str, zone: str, now: float) -> str | None:
    """What a room whose round is held waits for, said again (None: no round of it is held)."""
    held = held_round(storage, record)
    if held is None:
        return None
    simultane, number = held
    wait = wait_of(storage, simultane, record.channel, number, now)
    if wait is None:  # the clock closes it at its next tick
        return say(lang, "simultane_closing_now", n=number)
    return waiting_text(storage, lang, zone, simultane, wait, number)


def check_close(storage: Storage, record: GameRecord, game: DuplicateGame, now: float, lang: str, zone: str) -> None:
    """A round of a simultané played together closes before its deadline only once every player of the
    room has answered it, and a held round waits for the others (UserError, saying what it waits for)."""
    simultane = paced_simultane(storage, record)
    round_ = game.current
    if simultane is None or round_ is None:
        return
    waiting = held_text(storage, record, lang, zone, now)
    if waiting is not None:
        raise UserError("simultane_still_waiting", text=waiting)
    deadline = game.deadline(round_)
    if deadline is not None and now >= deadline:
        return
    answered = {s.player for s in round_.submissions}
    if any(p not in answered for p in game.players):
        raise UserError("simultane_close_early", code=simultane.code, played=len(answered), players=len(game.players))


def check_clock_change(
    storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, zone: str, now: float
) -> None:
    """In a simultané played together, a round's clock no longer changes once its time is up (held, or its
    deadline passed: the other rooms may already close the round): UserError, saying so."""
    waiting = held_text(storage, record, lang, zone, now)
    if waiting is not None:
        raise UserError("simultane_still_waiting", text=waiting)
    simultane = paced_simultane(storage, record)
    deadline = game.deadline(game.current) if game.current is not None else None
    if simultane is not None and deadline is not None and deadline <= now:
        raise UserError("simultane_time_is_up", code=simultane.code)


def check_reopen(storage: Storage, record: GameRecord) -> None:
    """A round of a simultané played together is never reopened: its top is out in every room."""
    simultane = paced_simultane(storage, record)
    if simultane is not None:
        raise UserError("simultane_no_reopen", code=simultane.code)
