"""What a command handler receives: the message, the command line, the channel's settings, the
services it may use (``Services``); and ``UserError``, the polite refusal of a command (a catalog
message)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import buttons
from ..actions import Action
from ..chat import CommandLine, Incoming, Reply
from ..messages import say
from ..numbers import NumberError, parse_decimal, parse_whole, split_words
from ..storage import ChannelSettings, GameRecord, Storage
from ..words.game_lists import game_list
from ..words.house import HouseList
from .services import Services
from .spec import Access, CommandSpec


class UserError(Exception):
    """A known failure of a command, explained by a catalog message; ``notices``: messages to other rooms
    that go out although the command changed nothing (the organiser's room told of a refused attempt);
    ``actions``: what the refusal offers to press instead (confirm with ``!``, cancel)."""

    def __init__(
        self, message_key: str, /, *, notices: Sequence[Reply] = (), actions: Sequence[Action] = (), **values: Any
    ) -> None:
        super().__init__(message_key)
        self.key = message_key
        self.values = values
        self.notices = tuple(notices)
        self.actions = tuple(actions)


@dataclass
class Context:
    """Everything a command handler needs about the message it answers."""

    services: Services
    message: Incoming
    command: CommandLine
    spec: CommandSpec
    settings: ChannelSettings
    replies: list[Reply] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # lines added at the end of the command's public answer
    offered: tuple[Action, ...] = ()  # actions its answer offers, found by the part that made it (a page's)

    @property
    def lang(self) -> str:
        return self.settings.language

    @property
    def args(self) -> str:
        return self.command.args

    @property
    def storage(self) -> Storage:
        return self.services.storage

    def say(self, key: str, **values: Any) -> str:
        return say(self.lang, key, **values)

    def reply(self, text: str, **extra: Any) -> None:
        self.replies.append(Reply(text, channel=extra.pop("channel", self.message.channel), **extra))

    def private(self, text: str, **extra: Any) -> None:
        self.replies.append(Reply(text, to_user=self.message.user, channel=self.message.channel, **extra))

    def list_in_force(self) -> str:
        """The list words are judged with here, in its edition's tiles (``game_list``): the running game's,
        else the channel's."""
        running = self.storage.active_game(self.message.channel)
        return game_list(running.setup) if running is not None and running.setup.lexicon else game_list(self.settings)

    def edition_in_force(self) -> str:
        """The code of the edition played here: the running game's, else the channel's."""
        running = self.storage.active_game(self.message.channel)
        return running.setup.edition if running is not None else self.settings.edition

    def word_list(self, spec: str | None = None, channel: str | None = None) -> HouseList:
        """The list verdicts use (a ``game_list`` name; the channel's by default) with the channel's house
        words; at once, or ListPreparingError while it is being prepared."""
        return self.services.lists.verdicts(spec or game_list(self.settings), channel or self.message.channel)

    @property
    def tokens(self) -> list[str]:
        """The arguments as words (a comma between digits is a decimal mark), a ``!`` (confirmation) left out."""
        return [t for t in split_words(self.args) if t != "!"]

    def number(self, text: str) -> float:
        """A word of the command read as a number (``1,5`` and ``1.5`` alike); UserError otherwise."""
        try:
            return parse_decimal(text)
        except NumberError as error:
            raise UserError(error.key, text=error.text) from None

    def whole_number(self, text: str) -> int:
        """A word of the command read as a whole number; UserError otherwise (``1,5`` refused as such)."""
        try:
            return parse_whole(text)
        except NumberError as error:
            raise UserError(error.key, text=error.text) from None

    @property
    def confirmed(self) -> bool:
        """Whether the command carries a ``!`` word (replace a running game, end with tiles in the bag)."""
        return "!" in self.args.split()

    def controls(self, record: GameRecord | None) -> bool:
        """Whether the sender is the game's referee or a channel admin."""
        return self.message.admin or (record is not None and record.referee == self.message.user)

    def require_control(self, record: GameRecord | None) -> None:
        """Only the game's referee or a channel admin may go on."""
        if self.controls(record):
            return
        if record is None:
            raise UserError("not_allowed_admin", name=self.command.name)
        raise UserError("not_allowed", referee=record.setup.referee_name, name=self.command.name)

    def require_admin(self) -> None:
        """Only a channel admin may go on (what holds for the whole channel, beyond any game)."""
        if not self.message.admin:
            raise UserError("not_allowed_channel", name=self.command.name)

    def check_access(self) -> None:
        """The permission the command table declares for this command."""
        access = self.spec.access
        if access is Access.ANYONE or access is Access.PLAYER:
            return  # a player's command checks which seat the sender may act for
        running = self.storage.active_game(self.message.channel)
        if access is Access.START:
            if running is None or beside_running(self, running):
                return
            if not self.confirmed:
                raise UserError(
                    "game_running",
                    kind=self.say(f"kind_{running.kind}"),
                    referee=running.setup.referee_name,
                    name=self.command.name,
                    actions=buttons.confirmed(self.lang, "replace", self.spec.name, self.args),
                )
            self.require_control(running)
            return
        if self.spec.read_without_args and not self.args.strip():
            return
        if access is Access.ADMIN:  # the channel's own state outlives any game: not a game referee's
            if not self.spec.read_without_args:
                self.require_admin()
            return  # a command that also reads calls require_admin before it changes anything
        if running is None and not self.spec.read_without_args:
            return  # the command answers that no game is running
        self.require_control(running)


Beside = Callable[["Context", GameRecord], bool]
_BESIDE: dict[str, list[Beside]] = {}  # by command name: when it starts a game beside the running one


def starts_beside(name: str) -> Callable[[Beside], Beside]:
    """Declare when a command that starts a game (``Access.START``) starts it beside the channel's running
    one, which goes on, instead of replacing it (games by correspondence: several in a channel)."""

    def register(predicate: Beside) -> Beside:
        _BESIDE.setdefault(name, []).append(predicate)
        return predicate

    return register


def beside_running(ctx: Context, running: GameRecord) -> bool:
    """Whether the command starts its game beside ``running`` (a ``starts_beside`` predicate says so)."""
    return any(predicate(ctx, running) for predicate in _BESIDE.get(ctx.spec.name, ()))
