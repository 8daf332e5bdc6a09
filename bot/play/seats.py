"""Players are accounts: seats of a game bound to the platform accounts that play them.

A name the referee types (``/new Ana Ben``) is a seat that the referee records
for until an account claims it: with ``/join Ana``, or by acting under a display
name that is the seat's, exactly (``exact``: no look-alike), while nobody holds it. Once bound, only that account
(or the game's referee, or a channel admin) acts for the seat; another account
with the same display name is someone else. Bindings live in storage's
``players`` table, written in the command's transaction.

The referee frees a seat an account holds (``/seat Ben free``: a same-name
account took it first): that account keeps its row with no seat name
(``RELEASED``), so it holds no seat and never again claims one by its display
name in this game; it may still take one with an explicit /join.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

from core.game import find_player, player_key
from core.names import mixes_scripts, without_format_characters

from ..chat import Incoming
from ..storage import GameLog, GameRecord

NAME_LIMIT = 32
RELEASED = ""  # the seat name of an account the referee took off its seat


def clean_name(text: str) -> str:
    """A player name as typed, as it is shown: composed (NFC), without invisible format characters (a
    zero-width space), ``@`` and extra spaces removed, at most 32 characters."""
    visible = without_format_characters(unicodedata.normalize("NFC", text))
    return " ".join(visible.replace("@", " ").split())[:NAME_LIMIT].strip()


def display_name(message: Incoming) -> str:
    """The sender's name for a new seat (their account id when the display name is empty)."""
    return clean_name(message.name) or message.user.split(":")[-1][:NAME_LIMIT]


def bindings(storage: GameLog, record: GameRecord) -> dict[str, str]:
    """Seat name (as keyed by ``player_key``) -> the account bound to it."""
    return {player_key(name): user for user, name in storage.players(record.id)}


def seat_of(storage: GameLog, record: GameRecord, user: str, seats: Sequence[str]) -> str | None:
    """The seat bound to this account, if any (one of ``seats``)."""
    for bound_user, name in storage.players(record.id):
        if bound_user == user:
            return find_player(seats, name)
    return None


def owner_of(storage: GameLog, record: GameRecord, seat: str) -> str | None:
    """The account bound to a seat, if any."""
    return bindings(storage, record).get(player_key(seat))


def bind(storage: GameLog, record: GameRecord, user: str, seat: str) -> None:
    """Bind a seat to an account (the caller checked both are free)."""
    storage.add_player(record.id, user, seat)


@lru_cache(maxsize=65536)  # a newcomer's name is compared with every seat of its game: each seat's read once
def exact(name: str) -> str:
    """A name as it is compared to claim a free seat: composed (NFC), its outer spaces off, nothing else
    folded: case, accents, look-alike letters of other scripts, invisible or fullwidth characters all
    count (``Аna`` in Cyrillic, ``ana`` or ``Ana`` with a zero-width space never take Ana's seat)."""
    return unicodedata.normalize("NFC", name).strip()


def claimable(seats: Sequence[str], typed: str) -> str | None:
    """The seat whose name is exactly ``typed`` (``exact``), if any."""
    wanted = exact(typed)
    return next((seat for seat in seats if exact(seat) == wanted), None) if wanted else None


def claimed_names(message: Incoming) -> tuple[str, str]:
    """The names under which the sender claims a free seat: their whole display name, and its first word
    (``exact``; the first word empty when the name is)."""
    full = exact(message.name)
    words = full.split()
    return full, words[0] if words else ""


def named_like(message: Incoming, seats: Sequence[str]) -> str | None:
    """The seat whose name is exactly the sender's whole display name, or its first word (``exact``: a
    look-alike of a seat's name never claims it)."""
    for wanted in claimed_names(message):
        found = claimable(seats, wanted)
        if found is not None:
            return found
    return None


def acting_seat(
    storage: GameLog, record: GameRecord, message: Incoming, seats: Sequence[str]
) -> tuple[str | None, bool]:
    """The seat this account acts for, and whether it claimed it just now.

    The seat bound to the account; else a free seat named like the account's display name, which the
    account claims; else None (a seat held by another account is never taken by a name).
    """
    bound = seat_of(storage, record, message.user, seats)
    if bound is not None:
        return bound, False
    if released(storage, record, message.user):
        return None, False
    candidate = named_like(message, seats)
    if candidate is None or owner_of(storage, record, candidate) is not None:
        return None, False
    bind(storage, record, message.user, candidate)
    return candidate, True


def free_name(wanted: str, taken: Sequence[str]) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)``... the first that no one in ``taken`` has."""
    keys = {player_key(t) for t in taken}
    return free_name_among(wanted, lambda name: player_key(name) in keys)


def newcomer_name(wanted: str, has_player_like: Callable[[str], bool]) -> str:
    """A newcomer's seat name: ``free_name_among`` the game's names (``has_player_like``: whether a player's
    name folds like it), numbered also when it mixes Latin and Cyrillic or Greek letters (``Аna (2)`` never
    passes for Ana)."""
    mixed = mixes_scripts(wanted)
    return free_name_among(wanted, lambda name: has_player_like(name) or (mixed and name == wanted))


def free_name_among(wanted: str, taken: Callable[[str], bool]) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)``... the first name ``taken`` says no one has."""
    if not taken(wanted):
        return wanted
    number = 2
    while taken(f"{wanted[: NAME_LIMIT - 5]} ({number})"):
        number += 1
    return f"{wanted[: NAME_LIMIT - 5]} ({number})"


def released(storage: GameLog, record: GameRecord, user: str) -> bool:
    """Whether the referee took this account off its seat (it claims no seat by its name any more)."""
    return any(bound_user == user and name == RELEASED for bound_user, name in storage.players(record.id))


def free(storage: GameLog, record: GameRecord, seat: str) -> None:
    """The account bound to ``seat`` lets it go and is marked released (the caller checked one is bound)."""
    for user, name in storage.players(record.id):
        if name != RELEASED and player_key(name) == player_key(seat):
            storage.add_player(record.id, user, RELEASED)


def by_first_words(name: str, seats: Sequence[str]) -> str | None:
    """The one seat whose name begins with the words typed (``Élodie`` for ``Élodie Lefèvre``), if only one."""
    typed = player_key(clean_name(name))
    if not typed:
        return None
    found = [p for p in seats if player_key(p) == typed or player_key(p).startswith(typed + " ")]
    return found[0] if len(found) == 1 else None
