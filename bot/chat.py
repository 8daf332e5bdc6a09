"""Platform-neutral chat values: an incoming message, a reply, and reading a command line."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

from core.edition import fold_accents

from .actions import Action

MAX_COMMAND_CHARS = 6000  # the longest a platform sends (a Discord slash option); longer is refused
LOGGED_CHARS = 300  # how much of a message a log line shows


def for_log(text: str) -> str:
    """``text`` as a log line shows it: cut at :data:`LOGGED_CHARS`, with its length when cut."""
    if len(text) <= LOGGED_CHARS:
        return text
    return f"{text[:LOGGED_CHARS]}… ({len(text)} characters)"


@dataclass(frozen=True)
class Incoming:
    """A message for the bot, as every adapter translates it."""

    channel: str  # platform-qualified channel id, e.g. "discord:1234" or "console"
    user: str  # platform-qualified user id
    name: str  # display name
    text: str
    private: bool = False  # sent privately (DM, ephemeral-capable slash command)
    admin: bool = False  # the platform says this user administers the channel
    # when this process received it (the service stamps it): a move is timed by its arrival, not by when
    # its turn came behind other commands
    received: float | None = None
    locale: str | None = None  # the language the platform says the sender uses (``en``, ``fr-FR``...)
    # the language the platform says the room's people use (a Discord guild's preferred locale; a Telegram
    # group's, its speaker's): a new room (no settings stored) starts in it
    room_locale: str | None = None
    # where the platform answers this very command, its private replies shown there to its asker alone (a
    # Discord interaction: ``discord:interaction:ID``); None where they go to the player's private chat
    asked: str | None = None

    @cached_property
    def command(self) -> CommandLine | None:
        """The command the message holds, read once however many layers ask (None: not a command)."""
        return read_command(self.text)

    def arrived(self, now: float) -> float:
        """When the message arrived: ``received``, never later than ``now``; ``now`` when not stamped."""
        return now if self.received is None else min(now, self.received)

    def __str__(self) -> str:
        """For logs: the text cut at :data:`LOGGED_CHARS` (a 100 kB message is never logged whole); of a
        private message (an open duplicate submission) only its command's name and its length."""
        if self.private:
            command = self.command
            shown = f"/{command.name} … " if command is not None else ""
            return f"{self.name}@{self.channel} (private): {shown}({len(self.text)} characters)"
        return f"{self.name}@{self.channel}: {for_log(self.text)}"


@dataclass(frozen=True)
class Reply:
    """What the bot says: text, an optional PNG, to the channel or privately to one user.

    ``edit_key``: replies sharing a key edit the earlier message (the duplicate clock).
    ``channel`` defaults to the channel of the incoming message.
    ``live``: an edit of a live line (the "N of M have played" counter, the join notice) that adapters
    apply at most once per their live interval, the latest text winning; a later non-live edit of the
    same key (the count at the close) is applied at once. A live line never holds up what players must
    see first: the outbox hands it over in order, and the adapter keeps its edit back while draws,
    warnings and results go out; only the latest text of a line is ever sent.
    ``actions``: buttons under it (``bot.actions``); pressing one is its user typing the action's command.
    """

    text: str
    image: bytes | None = None
    image_name: str = "board.png"
    to_user: str | None = None
    channel: str | None = None
    edit_key: str | None = None
    deadline: float | None = None  # absolute time a countdown runs to (adapters may show it natively)
    error: bool = False  # the answer to a refused command (nothing was recorded)
    expires: float | None = None  # after this time the message is no longer worth sending (a warning)
    outbox_id: int | None = None  # its number in the outbox once stored
    document: bytes | None = None  # a file to attach (an export), sent as a file, never as a photo
    document_name: str = ""
    live: bool = False  # a live line (a counter, a join notice): edits coalesced, see above
    actions: tuple[Action, ...] = ()  # what it offers to press (buttons), each a command line or a form
    # the command it answers in place (its ``Incoming.asked``), for a reply private to that command's asker:
    # shown there, it goes with that command's answers, not behind the player's other private messages
    answers: str | None = None

    @property
    def private(self) -> bool:
        return self.to_user is not None

    def numbered(self, outbox_id: int | None) -> Reply:
        """This reply under its outbox number (a copy, as ``dataclasses.replace`` makes, at a sixth of its cost:
        a burst numbers every answer's replies)."""
        numbered = object.__new__(type(self))
        numbered.__dict__.update(self.__dict__, outbox_id=outbox_id)
        return numbered

    def __str__(self) -> str:
        """For logs: its outbox number, and its text cut at :data:`LOGGED_CHARS`; never the text of a private
        reply (it may acknowledge an open duplicate submission), only its length."""
        number = f" #{self.outbox_id}" if self.outbox_id is not None else ""
        if self.to_user:
            return f"(private{number} to {self.to_user}) {len(self.text)} characters"
        return f"(channel{number}) {for_log(self.text)}"


def in_place(message: Incoming, replies: list[Reply]) -> list[Reply]:
    """The replies to ``message``, those private to its asker marked as answering it where the platform
    answers it (``Reply.answers``: its interaction), when it does; the others as they are."""
    if message.asked is None:
        return replies
    return [
        replace(reply, answers=message.asked) if reply.to_user == message.user and reply.answers is None else reply
        for reply in replies
    ]


@dataclass(frozen=True)
class CommandLine:
    """A command read from a message: name (lowercase, accents folded) and the rest of the text."""

    name: str
    args: str
    addressed_to: str | None = None  # the @BotName of "/score@BotName"

    def __str__(self) -> str:
        return f"/{self.name} {self.args}".rstrip()


_COMMAND = re.compile(r"^\s*[/!](?P<name>[^\s@]+)(?:@(?P<bot>\S+))?(?:\s+(?P<args>.*))?$", re.DOTALL)


def read_command(text: str) -> CommandLine | None:
    """``/score H8 VAGUE``, ``!coup h8 vague``, ``/score@Arbitre_bot ...``; None if not a command."""
    match = _COMMAND.match(text)
    if not match:
        return None
    name = fold_accents(match.group("name")).lower()
    return CommandLine(name, (match.group("args") or "").strip(), match.group("bot"))
