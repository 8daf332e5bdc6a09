"""The command layer: one chat message in, replies out; the one place where errors become messages.

``Referee.handle`` reads the command, loads the channel's game from storage by
replaying its events, runs the command inside one storage transaction, and turns
every known failure into a polite message in the channel's language. It knows
nothing of Discord or Telegram.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence

from core.duplicate import DuplicateGame
from core.errors import ArbitreError
from core.game import ClassicGame

from .chat import MAX_COMMAND_CHARS, CommandLine, Incoming, Reply, in_place
from .commands import (
    CommandSpec,
    Context,
    Services,
    UserError,
    command_named,
    find,
    unknown_command_text,
)
from .games.duplicate.closes import ResultImages, TickReplies, draw_images
from .games.duplicate.rounds import clock_tick
from .games.duplicate.submissions import UsualWay, quick_play, quick_plays, takes_quick_way
from .games.duplicate.texts import live_line_kind
from .games.installed import COMMANDS  # noqa: F401  # importing it declares every command and registers every kind
from .games.kinds import kind_of
from .games.simultane.clock import simultane_tick
from .messages import explain, say
from .outbox import GRACE_SECONDS, Outbox, StoredOutbox
from .overload import Shedder, keeps_all
from .play.cache import GameCache, Games
from .play.clock import DuplicateClock
from .play.clock_lease import ClockLease
from .play.shown_views import ShownViews
from .rooms import settings_of
from .storage import (
    ChannelSettings,
    ConnectionLostError,
    GameKind,
    GameRunningError,
    RoundClosedTwiceError,
    Storage,
    StorageFullError,
    log_failure,
)
from .web.notify import notifier_for
from .words.game_lists import WordLists, preparing_text
from .words.loader import LexiconRegistry, ListPreparingError, UnknownListError, WordListError

log = logging.getLogger("arbitre")
LIST_WAIT_SECONDS = 120.0  # a command that needs a list being prepared waits this long at most, then is refused


LINK_COMMANDS = frozenset({"view", "simultane"})  # what may change the rooms a live page shows


def _nobody(channel: str) -> None:
    """No one to tell of a change."""


class Referee:
    """Platform-neutral command layer over a storage and word lists.

    Word lists come from ``lexicons`` without waiting: a command that needs a list still being
    prepared is answered at once that it is (``ListPreparingError``), and nothing is recorded.
    """

    def __init__(
        self,
        storage: Storage,
        lexicons: LexiconRegistry,
        *,
        now: Callable[[], float] = time.time,
        bot_name: str | None = None,
        images: bool = True,
        clock_scope: str = "",
        outbox_scopes: Sequence[str] | None = None,
        clock_lease: ClockLease | None = None,
        rng: random.Random | None = None,
        draws: random.Random | None = None,
        outbox_grace: float = GRACE_SECONDS,
    ) -> None:
        """``draws``: where duplicate draws come from (a test seeds it; a simultané's are its own).
        ``outbox_scopes``: the destinations (prefixes) whose waiting messages this process delivers, by
        default the clock's scope (a console room: its channel, and the private messages to console accounts).
        ``outbox_grace``: how long a reply its sender could not hand over waits before the outbox
        worker tries it again (when no live process claims it)."""
        self.storage = storage
        self.lexicons = lexicons
        self.lists = WordLists(lexicons, storage)
        self.now = now
        self.draws = draws or random.Random()
        self.bot_name = bot_name
        self.rooms_stored: set[str] = set()  # rooms known to have settings stored (``_new_room``)
        self.images = images
        # The clock only looks after channels whose id starts with this (one process per platform
        # may share a database file: each closes its own rounds, where it can post the results).
        self.clock_scope = clock_scope
        # Among those, only channels whose clock lease this process holds (several processes, one database).
        self.clock_lease = clock_lease or ClockLease.for_this_process()
        # every message owed, kept until delivered; its claims are this process's (the service beats for it)
        scopes = (clock_scope,) if outbox_scopes is None else tuple(outbox_scopes)
        self.outbox: Outbox = StoredOutbox(storage, now, scopes=scopes, grace=outbox_grace, rng=rng, sheds=self._sheds)
        self.clock = DuplicateClock(self.now)  # the duplicate clock's state: tops searched ahead, warnings given
        self.shown_views = ShownViews()  # the views posted lately in each room (bot.games.common.views)
        self.games = Games(kind_of)  # the games in memory, one cache per kind
        self.classic_games: GameCache[ClassicGame] = self.games.cache(GameKind.CLASSIC)
        self.duplicate_games: GameCache[DuplicateGame] = self.games.cache(GameKind.DUPLICATE)
        # what this process received and has not answered yet (the service says; none without one)
        self.arriving: Callable[[], Sequence[Incoming]] = tuple
        self.shedding: Shedder = keeps_all  # whether to leave out what can wait (the service's ``Overload``)
        # told each room whose state may have changed, once the change is committed (the live pages' hub)
        self.changed: Callable[[str], None] = _nobody
        # the same rooms told to the other processes on the database (PostgreSQL: their live pages)
        self.notifier = notifier_for(storage)
        self.web_url: str | None = None  # the live pages' address, when they are served (``bot.web``)

    def services(self) -> Services:
        """What the command handlers may use, as the referee stands now."""
        return Services(
            storage=self.storage,
            lexicons=self.lexicons,
            lists=self.lists,
            images=self.images,
            clock=self.clock,
            clock_scope=self.clock_scope,
            clock_lease=self.clock_lease,
            games=self.games,
            now=self.now,
            draws=self.draws,
            outbox=self.outbox,
            arriving=self.arriving,
            web_url=self.web_url,
            sheds=self.shedding,
            shown_views=self.shown_views,
        )

    def handle(self, message: Incoming, *, quick: bool = True) -> list[Reply]:
        """Every reply to one message, stored in the outbox (numbered); never raises. ``quick=False``: a
        private /play that ``handle_plays`` left to the usual way (``USUAL_WAY``) goes there at once."""
        replies = self._handle(message, quick=quick)
        if replies and all(r.outbox_id is None for r in replies):
            replies = self.outbox.enqueue_apart(replies)
        # a private /play: its room too
        links = self.notifier is not None and self._about_links(message)
        self._tell_changed({message.channel} | {r.channel for r in replies}, links=links)
        return replies

    @staticmethod
    def _about_links(message: Incoming) -> bool:
        """Whether the message is a command that may change the live links or a simultané's rooms."""
        command = message.command
        named = None if command is None else find(command.name)
        return named is not None and named.name in LINK_COMMANDS

    def _tell_changed(self, channels: Iterable[str | None], links: bool = False) -> None:
        """Tell ``changed`` of each room (after the commit), and the other processes (``links``: the live
        links or a simultané's rooms may have changed); never raises."""
        told = {channel for channel in channels if channel}
        for channel in told:
            try:
                self.changed(channel)
            except Exception:
                log.exception("could not tell that %s changed", channel)
        if self.notifier is not None and (told or links):
            try:
                self.notifier.tell(told, views=links)
            except Exception:
                log.exception("could not tell the other processes of %s", sorted(told))

    def batches(self, message: Incoming) -> bool:
        """Whether ``handle_plays`` takes this message with others: a private /play (``handle``'s quick way)."""
        command = message.command
        return command is not None and self._quick_play(command) and takes_quick_way(message, command)

    def handle_plays(self, messages: list[Incoming]) -> list[list[Reply] | UsualWay | None]:
        """The replies to several private /play recorded in one write transaction (one commit for the lot,
        what a burst of answers costs least), stored in the outbox; None for each that must be handled on
        its own (``handle``): not the common case, its room held by another transaction, or the batch failed;
        ``USUAL_WAY`` for each the quick way read and left to the command's usual way (``handle`` with
        ``quick=False``: an answer received before a closed round's end...)."""
        commands = [m.command for m in messages]
        chosen = [n for n, c in enumerate(commands) if c is not None and self._quick_play(c)]
        plays = [(messages[n], c) for n in chosen if (c := commands[n]) is not None]
        quick = dict(zip(chosen, quick_plays(self.services(), plays)))
        done = [(messages[n], replies) for n, replies in quick.items() if isinstance(replies, list)]
        self._tell_changed({m.channel for m, _ in done} | {r.channel for _, replies in done for r in replies})
        return [quick.get(n) for n in range(len(messages))]

    def _quick_play(self, command: CommandLine) -> bool:
        """Whether a command is a /play for this bot (``handle`` tries the quick way first)."""
        named = find(command.name)
        return named is not None and named.name == "play" and not self._addressed_elsewhere(command)

    def _addressed_elsewhere(self, command: CommandLine) -> bool:
        return bool(command.addressed_to and self.bot_name and command.addressed_to.lower() != self.bot_name.lower())

    def _handle(self, message: Incoming, quick: bool = True) -> list[Reply]:
        """The replies to one message; a command refused while a word list it needs was being prepared
        (the first one after a start, or after the channel's edition changed) waits for the list, at most
        ``LIST_WAIT_SECONDS``, and runs again: the player never has to type it twice."""
        return self._handle_once(message, wait=True, quick=quick)

    def _settings_of(self, message: Incoming) -> ChannelSettings:
        """The settings a message is answered under (``bot.rooms``)."""
        return settings_of(self.storage, message, self.rooms_stored)

    def _wait_for_list(self, name: str) -> bool:
        """Wait for the list ``name`` to be ready (True), at most ``LIST_WAIT_SECONDS``."""
        waiter = threading.Thread(target=self._load_quietly, args=(name,), daemon=True)
        waiter.start()
        waiter.join(LIST_WAIT_SECONDS)
        return self.lexicons.is_ready(name)

    def _load_quietly(self, name: str) -> None:
        try:
            self.lexicons.get(name)
        except Exception:  # noqa: BLE001 - the command runs again and explains the list's failure
            pass

    def _handle_once(self, message: Incoming, wait: bool, again: bool = False, quick: bool = True) -> list[Reply]:
        """The replies to one message (``wait``: a command refused while a list was being prepared waits
        for it and runs again; ``again``: its first run lost its database connection before the commit,
        nothing of it was kept, and this is the one more it gets; ``quick=False``: a private /play the
        quick way already left to the usual way is not tried the quick way again)."""
        command = message.command
        if command is None:
            return []
        if self._addressed_elsewhere(command):
            return []  # "/score@OtherBot"
        services = self.services()
        if quick and self._quick_play(command):  # a private move: the least work (see submissions)
            played = quick_play(services, message, command)
            if played is not None:
                return played
        settings = self._settings_of(message)
        if len(message.text) > MAX_COMMAND_CHARS:
            return [
                Reply(
                    say(settings.language, "command_too_long", length=len(message.text), most=MAX_COMMAND_CHARS),
                    channel=message.channel,
                    to_user=message.user if message.private else None,
                    answers=message.asked if message.private else None,
                    error=True,
                )
            ]
        spec = find(command.name)
        if spec is None:
            return [
                Reply(
                    unknown_command_text(settings.language, command.name),
                    channel=message.channel,
                    to_user=message.user if message.private else None,
                    answers=message.asked if message.private else None,
                    error=True,
                )
            ]
        context = Context(services, message, command, spec, settings)
        try:
            kind = self._prepare(services, message.channel, spec)
            handler = command_named(spec.name).handler_for(kind, context.tokens)
            if spec.read_only:  # views: no write lock held while a long sheet, board or export is made
                context.check_access()
                handler(context)
                return self._with_notes(context)
            with self.games.transaction(self.storage):
                self.storage.lock_channel(message.channel)  # the channel's commands, one at a time, in any process
                context.check_access()
                handler(context)
                # what the players are owed is stored with the change that produced it
                return self.outbox.enqueue(self._with_notes(context))
        except Exception as error:
            # the transaction rolled back; the games it changed in memory are rebuilt from the log
            if wait and isinstance(error, ListPreparingError) and self._wait_for_list(error.name):
                return self._handle_once(message, wait=False, again=again)  # the list is ready: once more
            if isinstance(error, ConnectionLostError) and not again:  # a server restarted: once more, whole
                log.warning("%s; running %s again", error, spec.name)
                return self._handle_once(message, wait=wait, again=True)
            refused = self._error_reply(context, self._explain(error, context.settings, message))
            notices, offered = (error.notices, error.actions) if isinstance(error, UserError) else ((), ())
            notices = tuple(dataclasses.replace(n, error=True) for n in notices)
            return [dataclasses.replace(refused, actions=offered), *notices]

    def _sheds(self, reply: Reply) -> bool:
        """Whether a due message can wait while the process is overloaded (a live line: dropped as shed)."""
        return reply.live and self.shedding(live_line_kind(reply))

    @staticmethod
    def _with_notes(context: Context) -> list[Reply]:
        """The replies, the notes added to the last public one (or in a reply of their own); those private to
        the asker answer the command in place where the platform does (``in_place``)."""
        if not context.notes:
            return in_place(context.message, context.replies)
        replies = list(context.replies)
        note = "\n".join(context.notes)
        for index in range(len(replies) - 1, -1, -1):
            if not replies[index].private and replies[index].channel == context.message.channel:
                replies[index] = dataclasses.replace(replies[index], text=replies[index].text + "\n" + note)
                return in_place(context.message, replies)
        return in_place(context.message, [*replies, Reply(note, channel=context.message.channel)])

    def _prepare(self, services: Services, channel: str, spec: CommandSpec) -> GameKind | None:
        """Long work before the write transaction opens: bring the channel's game up to date in memory
        (a cold rebuild reads the log without the store's lock), and finish the duplicate top a close needs.
        The kind of the channel's running game (None: no game runs)."""
        record = self.storage.active_game(channel)
        if record is None:
            return None
        kind_of(record.kind).prepare(services, record, self.games.load(self.storage, record), spec)
        return record.kind

    @staticmethod
    def _explain(error: Exception, settings: ChannelSettings, message: Incoming) -> str:
        """The polite message for a failed command; unexpected errors are logged once."""
        if isinstance(error, UserError):
            return say(settings.language, error.key, **error.values)
        if isinstance(error, ArbitreError):
            return explain(error, settings.language, settings.notation)
        if isinstance(error, WordListError):  # the file's name and line, never its content
            return say(settings.language, "bad_list", name=error.path.name, line=error.line or "-")
        if isinstance(error, ListPreparingError):
            return preparing_text(settings.language, error)
        if isinstance(error, UnknownListError):
            return say(settings.language, "unknown_list", name=error.name[:40], known=", ".join(error.known))
        if isinstance(error, GameRunningError):
            return say(settings.language, "game_running_race")
        if isinstance(error, RoundClosedTwiceError):
            return say(settings.language, "dup_late", n=error.round_number)
        if isinstance(error, StorageFullError):  # the operator's one line; the players are told to wait
            log.error("%s: %s", error, message)
            return say(settings.language, "disk_full")
        log.error("command failed: %s", message, exc_info=error)
        return say(settings.language, "apology")

    def forget_games(self, channel: str | None = None) -> None:
        """Drop the in-memory games of a channel, or all (they are rebuilt from storage when needed)."""
        self.games.clear(channel)

    @staticmethod
    def _error_reply(context: Context, text: str) -> Reply:
        message = context.message
        private = message.private
        return Reply(
            text,
            channel=message.channel,
            to_user=message.user if private else None,
            answers=message.asked if private else None,
            error=True,
        )

    def release_clocks(self) -> None:
        """Give up this process's clock leases (a clean stop: another process takes over at once)."""
        self.clock.forget_claims()
        if not self.clock.held:
            return
        try:
            self.storage.release_clocks(self.clock_lease.owner)
            self.clock.held = set()
        except Exception as error:
            log_failure(log, "could not release the clock leases", error)

    def next_clock_work(self) -> float:
        """When the clock next has work, as its last tick saw the rounds (infinity: none known)."""
        return self.clock.next_due

    def tick(
        self,
        now: float | None = None,
        publish: Callable[[list[Reply]], None] | None = None,
        images: Callable[[list[ResultImages]], None] | None = None,
    ) -> list[Reply]:
        """Clock work due at ``now`` (duplicate warnings and deadlines, simultanés' starts, held rounds and
        posts), its stored replies given to ``publish`` in the order players need them: each close's notice
        and next draw as soon as it is stored, the results of all the tick's closes once every one is, then
        their images (``bot.games.duplicate.closes``). ``images``: given the images the closes owe, to draw
        them off the clock (``draw_images``); None: drawn and stored at the end of the tick. Every reply of
        the tick; never raises."""

        def published(replies: list[Reply]) -> None:
            if publish is not None:
                publish(replies)
            self._tell_changed({r.channel for r in replies})

        services, moment = self.services(), self.now() if now is None else now
        ticked = TickReplies(services, published)
        try:
            clock_tick(services, moment, ticked=ticked)
            simultane_tick(services, moment, ticked=ticked)
        except StorageFullError as error:  # the deadline stays: the round closes once there is room
            self.forget_games()
            log.error("clock tick failed: %s", error)
        except Exception:
            self.forget_games()
            log.exception("clock tick failed")
        try:  # what was stored before a failure goes too
            return ticked.finish(images)
        except Exception:
            log.exception("clock tick failed while drawing the results' images")
            return list(ticked.replies)

    def draw_images(self, owed: list[ResultImages]) -> list[Reply]:
        """Draw and store the images closes owe (``tick``'s ``images``, a command's ``owing``), outside any
        close's transaction; the stored replies. Never raises: what fails is logged (the results were
        stored as text with their close)."""
        try:
            return draw_images(self.services(), owed)
        except Exception:
            log.exception("could not draw the images of %d closes", len(owed))
            return []
