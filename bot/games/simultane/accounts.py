"""One account, one room per simultané: an account that plays in one room of a simultané (its seat bound
there, by its first answer or ``/join``) is refused in every other room, with a reply naming its room, and
the organiser's room is told of the attempt. Without it, a player could play a room weakly, then another
knowing the draws, and the ranking would keep whichever counted first. An account's seat in a simultané is
decided under a lock of its own in that simultané (``account_lock``), on the usual way as on the quick way
of ``bot.games.duplicate.submissions``."""

from __future__ import annotations

from ...chat import Incoming, Reply
from ...commands.context import UserError
from ...messages import say
from ...simultanes.names import room_labels
from ...storage import GameRecord, Storage


def account_lock(code: str, user: str) -> str:
    """The lock under which an account is seated in a simultané (taken like a channel's)."""
    return f"simultane:{code}:{user}"


def seated_elsewhere(storage: Storage, code: str, user: str, channel: str) -> bool:
    """Whether ``user`` plays the simultané ``code`` in another room than ``channel`` (read under
    ``account_lock``)."""
    return any(c != channel for c in storage.simultane_rooms_of_account(code, user))


def check_one_room(storage: Storage, record: GameRecord, message: Incoming) -> None:
    """Refuse (UserError) the sender a seat in ``record``'s room when its account plays in another room of
    the same simultané; nothing for a game of the room's own."""
    if not record.setup.simultane:
        return
    simultane = storage.simultane(record.setup.simultane)
    if simultane is None:
        return
    # one account's first answers one at a time, in every process: two sent to two rooms at the same
    # instant cannot both find it seated nowhere
    storage.lock_channel(account_lock(simultane.code, message.user))
    elsewhere = [c for c in storage.simultane_rooms_of_account(simultane.code, message.user) if c != record.channel]
    if not elsewhere:
        return
    rooms = storage.simultane_rooms(simultane.id)
    lang = storage.channel(record.channel).language
    room = room_labels(lang, rooms).get(elsewhere[0], elsewhere[0])
    organiser_lang = storage.channel(simultane.channel).language
    organiser_labels = room_labels(organiser_lang, rooms)
    notice = say(
        organiser_lang,
        "simultane_two_rooms_notice",
        code=simultane.code,
        player=message.name[:40],
        room=organiser_labels.get(elsewhere[0], elsewhere[0]),
        other=organiser_labels.get(record.channel, record.channel),
    )
    raise UserError(
        "simultane_two_rooms", code=simultane.code, room=room, notices=[Reply(notice, channel=simultane.channel)]
    )
