"""Console adapter: a chat room in the terminal, and the embedded default of ``make run``.

Each input line is ``NAME: MESSAGE``, or just ``MESSAGE`` (sent by the last
speaker), or ``NAME> MESSAGE`` for a private message to the bot. A name is an
account: ``Ben#2: ...`` is another account whose display name is also Ben.
Speakers are ordinary players unless named with ``--admin NAME``. Lines starting
with ``#`` are comments; ``:sleep SECONDS`` lets the clock run (for scripts).
Replies are printed with their audience; board images are written to files.
Reading from a pipe runs the script to its end and exits 0; a script's commands wait for
the word lists being prepared, where a person typing is told at once that a list is.
The room is created at its first start, in ``--lang``'s language with that language's
edition; from then on its stored settings are kept at every start.

``--room NAME`` makes the process another room (``RoomKey``): several console processes on one database
are each their own room, with its own games, settings, clock and files, and the same accounts.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from core.edition import EDITIONS

from ..chat import Incoming, Reply
from ..games.duplicate.games import load_game
from ..games.duplicate.texts import live_lines_at_close
from ..messages import say
from ..numbers import read_decimal
from ..operations.metrics import Metrics
from ..outbox import Undelivered
from ..referee import Referee
from ..runtime.service import RefereeService
from ..storage import ChannelSettings, GameKind, Storage, StorageFullError
from ..tools.common import (
    EXIT_BROKEN_PIPE,
    EXIT_METRICS,
    EXIT_STORAGE,
    EXIT_USAGE,
    database_folder,
    database_url,
    open_database,
    start_metrics,
)
from ..words.game_lists import prepare_at_start
from ..words.loader import LexiconRegistry

CHANNEL = "console"  # the default room's channel, and its clock's scope (it covers the console accounts too)
ACCOUNTS = "console:"  # every console room's speakers: ``console:NAME``, the same account in every room
ROOM_PREFIX, ROOM_END = "terminal:", "/"  # a named room's channel: ``terminal:NAME/``
ROOM_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")  # matched whole (fullmatch: no newline after it either)
DEFAULT_LANGUAGE = "fr"  # of a new room started without --lang
REPLACEMENT = "\ufffd"
_LINE = re.compile(r"^(?P<name>[^:>/!\s][^:>]{0,31}?)\s*(?P<sep>[:>])\s*(?P<text>.*)$")


class ConsoleClock:
    """The time a console room runs on: the machine's. A test may hand the room one it drives instead (its
    ``now`` for the referee, its ``sleep`` for a script's ``:sleep`` lines)."""

    def now(self) -> float:
        """The time, in Unix seconds."""
        return time.time()

    async def sleep(self, seconds: float, service: RefereeService) -> None:
        """Let ``seconds`` pass while ``service``'s clock runs (on the machine's time it runs by itself)."""
        await asyncio.sleep(seconds)


@dataclass(frozen=True)
class InputLine:
    """A line of the console's input, decoded; ``had_invalid_bytes``: some bytes were not UTF-8
    (each run of them became U+FFFD)."""

    text: str
    had_invalid_bytes: bool = False


@dataclass(frozen=True)
class RoomKey:
    """Which console room a process is: the default one (``name`` empty, channel ``console``) or one named
    with ``--room`` (lower case: ``--room Vichy`` is ``vichy``).

    A clock scope is a prefix of the channels it looks after, so a named room's channel ends with a mark no
    name holds (``terminal:vichy/`` is no prefix of ``terminal:vichy2/``) and does not begin with
    ``console`` (the default room's scope); the ``_`` of a name is a ``.`` there (``_`` is a wildcard of the
    SQL ``LIKE`` through which the outbox reads its scopes)."""

    name: str = ""

    @property
    def channel(self) -> str:
        """The room's channel id in storage."""
        return f"{ROOM_PREFIX}{self.name.replace('_', '.')}{ROOM_END}" if self.name else CHANNEL

    @property
    def label(self) -> str:
        """The room as its output names it: ``[#console]``, ``[#vichy]``."""
        return self.name or CHANNEL

    @property
    def outbox_scopes(self) -> tuple[str, ...]:
        """What the room's process delivers when it waits: its channel's messages, and the private ones to
        console accounts (the default room's scope, ``console``, covers both)."""
        return (self.channel, ACCOUNTS) if self.name else (CHANNEL,)

    def image_dir(self, folder: Path) -> Path:
        """Where the room writes the images and files it is sent: ``images`` beside the database, a named
        room in its own sub-folder of it."""
        return folder / "images" / self.name if self.name else folder / "images"


def room_of(channel: str) -> RoomKey | None:
    """The console room whose channel ``channel`` is (None: another platform's channel)."""
    if channel == CHANNEL:
        return RoomKey()
    if channel.startswith(ROOM_PREFIX) and channel.endswith(ROOM_END):
        return RoomKey(channel.removeprefix(ROOM_PREFIX).removesuffix(ROOM_END).replace(".", "_"))
    return None


def room_key(name: str | None) -> RoomKey | None:
    """The room ``--room NAME`` names (no name, or ``console``: the default room); None for a name that
    is not 1 to 32 letters, digits, ``-`` or ``_``."""
    if name is None:
        return RoomKey()
    if not ROOM_NAME.fullmatch(name):
        return None
    lowered = name.lower()
    return RoomKey() if lowered == CHANNEL else RoomKey(lowered)


def decode_line(raw: bytes) -> InputLine:
    """``raw`` as UTF-8, invalid bytes replaced by U+FFFD (and said so)."""
    try:
        return InputLine(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return InputLine(raw.decode("utf-8", errors="replace"), had_invalid_bytes=True)


def read_line(stdin: TextIO) -> InputLine | None:
    """The next line of ``stdin`` (None at its end), read as bytes when it has them so that an
    invalid byte is replaced instead of stopping the console."""
    buffer: BinaryIO | None = getattr(stdin, "buffer", None)
    if buffer is None:
        text = stdin.readline()
        return InputLine(text) if text else None
    raw = buffer.readline()
    return decode_line(raw) if raw else None


def is_silent(text: str) -> bool:
    """Whether a line says nothing to the room: blank, or a ``#`` comment."""
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def next_line(stdin: TextIO) -> tuple[InputLine | None, int]:
    """The next line of ``stdin`` that says something (None at its end), and how many silent lines came
    before it: a run of blank lines or comments costs one call, not one hand-over each."""
    skipped = 0
    while True:
        line = read_line(stdin)
        if line is None or line.had_invalid_bytes or not is_silent(line.text):
            return line, skipped
        skipped += 1


class ConsoleRoom:
    """Turns terminal lines into messages and prints replies."""

    def __init__(
        self,
        service_referee: Referee,
        out: TextIO,
        image_dir: Path,
        default_name: str,
        admins: tuple[str, ...] = (),
        script: bool = False,
        metrics: Metrics | None = None,
        key: RoomKey = RoomKey(),
        clock: ConsoleClock | None = None,
    ) -> None:
        """``metrics``: where the room's commands are counted and its health read (None: metrics off);
        ``key``: which room this is (the default one unless named); ``clock``: what ``:sleep`` lets run (the
        machine's time by default; the referee's ``now`` tells the same time)."""
        self.clock = clock or ConsoleClock()
        self.referee = service_referee
        self.key = key
        self.script = script  # lines piped in: each command waits for the lists being prepared
        self.admins = {a.strip().lower() for a in admins}
        self.out = out
        self.image_dir = image_dir
        self.speaker = default_name
        self.images_written = 0
        self.lines_read = 0
        self.reads = 0  # hand-overs from the reading thread to the event loop
        self.output_gone = False  # the reader of the output went away (`arbitre console < game.txt | head`)
        self.running = False  # between the start of ``run`` and its stop
        self.shown: dict[str, str] = {}  # an editable message's key -> the text last printed for it
        self.service = RefereeService(service_referee, self.print_replies, tick_seconds=0.2, metrics=metrics)
        if metrics is not None:
            metrics.watch(service_referee, self.connection)

    def connection(self) -> str | None:
        """None while the room runs and its output has a reader (the health check); else why not."""
        if self.output_gone:
            return "the console's output was closed"
        return None if self.running else "the console is not running"

    async def print_replies(self, replies: list[Reply]) -> list[Reply | Undelivered]:
        """Print ``replies``; those not printed stay owed: another console room's public messages (its own
        console shows them: a simultané's organiser is told of a room's refusal in its room, not here), and
        all from the first the output's reader went away."""
        owed: list[Reply | Undelivered] = []
        for done, reply in enumerate(replies):
            if reply.to_user is None and room_of(reply.channel or self.key.channel) not in (None, self.key):
                owed.append(Undelivered(reply, reason="another console room's message: its console shows it"))
                continue
            if reply.edit_key is not None and self.shown.get(reply.edit_key) == reply.text and reply.image is None:
                continue  # an edit that changes nothing of what the room already reads
            audience = self.audience(reply)
            lines = [f"{audience} {reply.text}"]
            if reply.image is not None:
                lines.append(f"{audience} (image: {self._saved(reply.image, reply.image_name or 'board.png')})")
            if reply.document is not None:
                lines.append(f"{audience} (file: {self._saved(reply.document, reply.document_name or 'export.txt')})")
            if not self.write("\n".join(lines) + "\n\n"):
                return [*owed, *replies[done:]]
            if reply.edit_key is not None:
                self.shown[reply.edit_key] = reply.text
        return owed

    def remember_live_lines(self) -> None:
        """At start, the open duplicate round's live lines (how many have played, who joined) as the room
        reads them already: an earlier session printed each as it changed (or the flush of what it owed just
        did), so the close's update of them, the same text, is not printed again (issue 37: after a restart,
        a round closed by the clock printed its counter and join line a second time)."""
        storage = self.referee.storage
        record = storage.active_game(self.key.channel)
        if record is None or record.kind is not GameKind.DUPLICATE:
            return
        lang = storage.channel(self.key.channel).language
        for reply in live_lines_at_close(lang, record, load_game(storage, record)):
            if reply.edit_key is not None:
                self.shown.setdefault(reply.edit_key, reply.text)

    def audience(self, reply: Reply) -> str:
        """Whom a reply is for: ``[#vichy]`` (a room), ``[-> ben]`` (a player of this room, privately); a private
        reply from another console room (owed since its output closed) names it: ``[#sete -> ben]``."""
        channel = reply.channel or self.key.channel
        room = room_of(channel)
        where = channel if room is None else room.label
        if reply.to_user is None:
            return f"[#{where}]"
        user = reply.to_user.split(":", 1)[-1]
        return f"[-> {user}]" if channel == self.key.channel else f"[#{where} -> {user}]"

    def write(self, text: str) -> bool:
        """Write ``text`` to the output at once; False (and nothing written from then on) once its reader is gone."""
        if self.output_gone:
            return False
        try:
            self.out.write(text)
            self.out.flush()
        except BrokenPipeError:
            self.output_gone = True
        return not self.output_gone

    def _saved(self, data: bytes, name: str) -> str:
        """Where an image or a file the bot sent was written, or why it was not (a full disk: the room goes on)."""
        try:
            return str(self._save(data, name))
        except OSError as error:
            lang = self.referee.storage.channel(self.key.channel).language
            return say(lang, "console_not_written", reason=error.strerror or type(error).__name__)

    def _save(self, data: bytes, name: str) -> Path:
        """Write an image or a file the bot sent beside the database; its path."""
        self.images_written += 1
        self.image_dir.mkdir(parents=True, exist_ok=True)
        stem, _, suffix = Path(name).name.rpartition(".")
        path = self.image_dir / f"{stem or 'file'}-{os.getpid()}-{self.images_written}.{suffix or 'bin'}"
        path.write_bytes(data)
        return path

    def parse(self, line: str) -> Incoming | None:
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        private = False
        match = _LINE.match(text)
        if match:
            self.speaker = match.group("name").strip()
            private = match.group("sep") == ">"
            text = match.group("text").strip()
        account = self.speaker.lower()
        name = self.speaker.split("#", 1)[0].strip() or self.speaker
        admin = account in self.admins
        return Incoming(self.key.channel, f"{ACCOUNTS}{account}", name, text, private=private, admin=admin)

    def _invalid_bytes_note(self) -> str:
        """Says which line had bytes that are not UTF-8 (they were replaced by U+FFFD)."""
        lang = self.referee.storage.channel(self.key.channel).language
        return say(lang, "console_invalid_bytes", line=self.lines_read, replacement=REPLACEMENT) + "\n\n"

    async def run(self, stdin: TextIO) -> int:
        loop = asyncio.get_running_loop()
        self.running = True
        await self.service.flush_outbox(everything=True)  # what an earlier session owed and did not print
        await loop.run_in_executor(None, self.remember_live_lines)
        if self.script:
            await loop.run_in_executor(None, self.referee.lexicons.wait)
        await self.service.tick()  # after a restart: close the rounds whose time ran out meanwhile
        await self.service.drain()  # their images too, before the first line typed is answered
        self.service.start()
        try:
            while True:
                line, skipped = await loop.run_in_executor(None, next_line, stdin)
                self.reads += 1
                self.lines_read += skipped
                if line is None or self.output_gone:
                    break
                self.lines_read += 1
                if line.had_invalid_bytes:
                    self.write(self._invalid_bytes_note())
                stripped = line.text.strip()
                if stripped.startswith(":sleep"):
                    words = stripped.split()
                    seconds = read_decimal(words[1]) if len(words) == 2 else None
                    if seconds is None or seconds < 0:
                        self.write(":sleep SECONDS\n")
                    else:
                        await self.clock.sleep(seconds, self.service)
                    continue
                if stripped in (":quit", ":q"):
                    break
                message = self.parse(line.text)
                if message is None:
                    continue
                if not message.text.startswith(("/", "!")):
                    if message.private:
                        await self.print_replies([Reply("/aide · /help", to_user=message.user)])
                    continue
                if self.script:
                    await loop.run_in_executor(None, self.referee.lexicons.wait)
                await self.service.handle(message)
                # a close's images (drawn off the command's path) are printed before the next line is read:
                # the transcript reads in the order it was typed, however busy the machine
                await self.service.drain()
        finally:
            self.running = False
            await self.service.stop(sends_seconds=None)  # a busy machine's images are printed, however late
            await self.service.flush_outbox(everything=True)
        return EXIT_BROKEN_PIPE if self.output_gone else 0


def new_room_settings(language: str, channel: str = CHANNEL) -> ChannelSettings:
    """A new room's settings in ``language``: that language's edition, with its notation, list, box rules
    and usual time zone."""
    settings = ChannelSettings(channel, language=language)
    return settings.with_edition(language) if language in EDITIONS else settings


def start_room(storage: Storage, language: str | None, err: TextIO, channel: str = CHANNEL) -> None:
    """Create the room of ``channel`` in ``language`` (French by default) the first time; a room already
    stored (its settings or a game) keeps its settings, and a ``language`` other than its own is answered
    with a note on ``err``."""
    if not storage.has_channel(channel) and not storage.games(channel):
        storage.save_channel(new_room_settings(language or DEFAULT_LANGUAGE, channel))
        return
    kept = storage.channel(channel).language
    if language and language != kept:
        err.write(say(kept, "console_lang_kept", lang=kept, wanted=language) + "\n")


def run_console(
    args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO, clock: ConsoleClock | None = None
) -> int:
    """``arbitre console``: the chat room on a SQLite file and the bundled word lists; ``clock``: the time it
    runs on (the machine's by default)."""
    clock = clock or ConsoleClock()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    key = room_key(getattr(args, "room", None))
    if key is None:
        print(f"arbitre console: --room {args.room[:40]!r}: a room's name is 1 to 32 letters, digits, - or _", file=err)
        return EXIT_USAGE
    db_url = database_url(args)
    storage = open_database(db_url, "console", err)
    if storage is None:
        return EXIT_STORAGE
    try:
        start_room(storage, args.lang, err, key.channel)
    except StorageFullError as error:  # a new room on a full disk: said in one line, like a database that cannot open
        print(f"arbitre console: {error}", file=err)
        storage.close()
        return EXIT_STORAGE
    metrics = start_metrics(args, "console", err)
    if metrics is None:
        storage.close()
        return EXIT_METRICS
    registry = LexiconRegistry()
    prepare_at_start(registry, storage)  # compiled in the background; commands say so until it is done
    referee = Referee(storage, registry, now=clock.now, clock_scope=key.channel, outbox_scopes=key.outbox_scopes)
    admins = tuple(args.admin or ())
    lang = storage.channel(key.channel).language
    default_name = say(lang, "console_default_name")
    room = ConsoleRoom(
        referee,
        out,
        key.image_dir(database_folder(db_url)),
        default_name,
        admins,
        script=not stdin.isatty(),
        metrics=metrics.metrics,
        key=key,
        clock=clock,
    )
    if stdin.isatty():
        shown = ", ".join(admins) or say(lang, "console_no_admin")
        lines = [say(lang, "console_banner"), say(lang, "console_admins", admins=shown)]
        if key.name:
            lines.append(say(lang, "console_room", room=key.name))
        out.write("\n".join([*lines, say(lang, "console_database", url=db_url)]) + "\n\n")
    try:
        return asyncio.run(_run_served(room, stdin, args, err))
    finally:
        metrics.close()
        storage.close()


async def _run_served(room: ConsoleRoom, stdin: TextIO, args: argparse.Namespace, err: TextIO) -> int:
    """The room, and its live page when the web options ask for it (``bot.web``)."""
    from ..web.run import WebOptionsError, address_of, serving

    try:
        address = address_of(args, "console")
        async with serving(room.referee, address, "console", err):
            return await room.run(stdin)
    except WebOptionsError as error:
        print(error.text, file=err)
        return EXIT_METRICS
