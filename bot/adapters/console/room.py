"""The console room: terminal lines in as messages, replies printed with their audience, files written."""


from __future__ import annotations

import asyncio
import os
import re
from functools import partial
from pathlib import Path
from typing import TextIO

from ...chat import Incoming, Reply
from ...games.duplicate.games import load_game
from ...games.duplicate.texts import live_lines_at_close
from ...messages import say
from ...numbers import read_decimal
from ...operations.exit_codes import EXIT_BROKEN_PIPE
from ...operations.metrics import Metrics
from ...outbox import Undelivered
from ...referee import Referee
from ...storage import GameKind
from ..base import AdapterBase, Capabilities, Countdown, Post, PrivateReplies
from .clock import ConsoleClock
from .lines import REPLACEMENT, next_line
from .rooms import ACCOUNTS, RoomKey, room_of

_LINE = re.compile(r"^(?P<name>[^:>/!\s][^:>]{0,31}?)\s*(?P<sep>[:>])\s*(?P<text>.*)$")


class ConsoleRoom(AdapterBase[None]):
    """Turns terminal lines into messages and prints replies."""

    platform = "console"
    capabilities = Capabilities(
        text_limit=None,
        images=True,  # written to files, their paths printed
        documents=True,
        edits=False,  # an edit is printed again, unless its text is what the room last read
        countdowns=Countdown.PRINTED,
        private=PrivateReplies.NAMED,
    )

    def __init__(
        self,
        service_referee: Referee,
        out: TextIO,
        image_dir: Path,
        default_name: str,
        admins: tuple[str, ...] = (),
        script: bool = False,
        metrics: Metrics | None = None,
        key: RoomKey | None = None,
        clock: ConsoleClock | None = None,
    ) -> None:
        """``metrics``: where the room's commands are counted and its health read (None: metrics off);
        ``key``: which room this is (the default one unless named); ``clock``: what ``:sleep`` lets run (the
        machine's time by default; the referee's ``now`` tells the same time)."""
        self.console_clock = clock or ConsoleClock()
        super().__init__(service_referee, tick_seconds=0.2, metrics=metrics, clock=self.console_clock.now)
        self.key = key or RoomKey()
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

    def connection(self) -> str | None:
        """None while the room runs and its output has a reader (the health check); else why not."""
        if self.output_gone:
            return "the console's output was closed"
        return None if self.running else "the console is not running"

    async def post(self, post: Post, answering: None) -> Undelivered | None:
        """Print a reply; one not printed stays owed: once the output's reader went away, and another console
        room's public message (its own console shows it: a simultané's organiser is told of a room's refusal
        in its room, not here)."""
        reply = post.reply
        if self.output_gone:
            return Undelivered(reply)
        if reply.to_user is None and room_of(reply.channel or self.key.channel) not in (None, self.key):
            return Undelivered(reply, reason="another console room's message: its console shows it")
        if reply.edit_key is not None and self.shown.get(reply.edit_key) == reply.text and reply.image is None:
            return None  # an edit that changes nothing of what the room already reads
        audience = self.audience(reply)
        lines = [f"{audience} {reply.text}"]
        if reply.image is not None:
            lines.append(f"{audience} (image: {self._saved(reply.image, reply.image_name or 'board.png')})")
        if reply.document is not None:
            lines.append(f"{audience} (file: {self._saved(reply.document, reply.document_name or 'export.txt')})")
        if not self.write("\n".join(lines) + "\n\n"):
            return Undelivered(reply)
        if reply.edit_key is not None:
            self.shown[reply.edit_key] = reply.text
        return None

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
                        await self.console_clock.sleep(seconds, self.service)
                    continue
                if stripped in (":quit", ":q"):
                    break
                message = self.parse(line.text)
                if message is None:
                    continue
                if not message.text.startswith(("/", "!")):
                    if message.private:
                        await self.deliver([Reply("/aide · /help", to_user=message.user)])
                    continue
                if self.script:
                    await loop.run_in_executor(None, self.referee.lexicons.wait)
                await self.arriving(message.user, partial(self.receive, message))
                # a close's images (drawn off the command's path) are printed before the next line is read:
                # the transcript reads in the order it was typed, however busy the machine
                await self.service.drain()
        finally:
            self.running = False
            await self.service.stop(sends_seconds=None)  # a busy machine's images are printed, however late
            await self.service.flush_outbox(everything=True)
        return EXIT_BROKEN_PIPE if self.output_gone else 0
