"""The in-process hub between the command layer and the live pages: the referee tells it which room
changed once the change is committed (``Referee.changed``), the hub builds that room's public state once
and pushes it to every page watching the room. No viewer ever reads the database: a page gets one
snapshot when it connects, then what the hub pushes.

Each viewer keeps only the newest state it has not sent yet (a slow connection skips states, never
queues them), and states carry the game's event count so that a page never goes back to an older one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..storage import GameKind, ViewRecord
from .state import State, classic_state, duplicate_state, gone_state

if TYPE_CHECKING:
    from ..referee import Referee

log = logging.getLogger("arbitre")

REVOKED = ""  # the payload that ends a viewer's stream (its link was revoked)


@dataclass(frozen=True)
class Payload:
    """One state as sent: its JSON and the game's event count it was built at."""

    version: int
    text: str

    @property
    def event(self) -> bytes:
        """The server-sent event that carries it."""
        return f"event: state\ndata: {self.text}\n\n".encode()


@dataclass(eq=False)
class Viewer:
    """One page's connection: the newest state not sent yet, and an event set when there is one."""

    view: ViewRecord
    pending: Payload | None = None
    sent_version: int = -1
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    revoked: bool = False
    idle: bool = False  # a keep-alive is owed (nothing was sent for a while)

    def offer(self, payload: Payload) -> bool:
        """Keep ``payload`` to send unless the page has that version or a newer one, sent or waiting (the
        same event count is the same state); whether it was kept."""
        if payload.text == REVOKED:
            self.revoked = True
        elif payload.version <= self.sent_version or (self.pending and payload.version <= self.pending.version):
            return False
        else:
            self.pending = payload
        self.ready.set()
        return True

    def take(self) -> Payload | None:
        """The state to send now (None: nothing new); what it returns counts as sent."""
        payload, self.pending = self.pending, None
        self.ready.clear()
        self.idle = False
        if payload is not None:
            self.sent_version = payload.version
        return payload


class Hub:
    """Who watches which room, and the push of each committed change to them."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.loop: asyncio.AbstractEventLoop | None = None
        self._viewers: dict[str, set[Viewer]] = {}  # by room
        self._lock = threading.Lock()
        self.states_built = 0  # how many states were built for pushes (a benchmark and tests count them)
        self.pushes = 0  # states a page took to send (one a viewer has already, a chat line's, is not sent again)
        referee.changed = self.changed

    def watched(self, channel: str) -> bool:
        return bool(self._viewers.get(channel))

    def viewers(self, channel: str | None = None) -> int:
        """How many pages are connected (to ``channel``, or in all)."""
        with self._lock:
            if channel is not None:
                return len(self._viewers.get(channel, ()))
            return sum(len(v) for v in self._viewers.values())

    def subscribe(self, view: ViewRecord) -> Viewer:
        """A new page of ``view``'s room (in the event loop)."""
        self.loop = asyncio.get_running_loop()
        viewer = Viewer(view)
        with self._lock:
            self._viewers.setdefault(view.channel, set()).add(viewer)
        return viewer

    def keep_alive(self) -> None:
        """Owe every page a keep-alive line (in the event loop; the server does it every few seconds)."""
        with self._lock:
            viewers = [v for room in self._viewers.values() for v in room]
        for viewer in viewers:
            viewer.idle = True
            viewer.ready.set()

    def unsubscribe(self, viewer: Viewer) -> None:
        with self._lock:
            room = self._viewers.get(viewer.view.channel)
            if room is not None:
                room.discard(viewer)
                if not room:
                    del self._viewers[viewer.view.channel]

    def changed(self, channel: str) -> None:
        """A committed change of ``channel`` (any thread): its state pushed to its pages, if it has any.
        Never raises."""
        if not self._viewers.get(channel) or self.loop is None:
            return
        try:
            with self._lock:
                viewers = list(self._viewers.get(channel, ()))
            live = {view.token for view in self.referee.storage.channel_views(channel)}
            payloads: dict[int, Payload] = {}
            offers: list[tuple[Viewer, Payload]] = []
            for viewer in viewers:
                game = viewer.view.game
                if viewer.view.token not in live:
                    offers.append((viewer, Payload(0, REVOKED)))
                    continue
                if game not in payloads:
                    payloads[game] = self.payload(viewer.view)
                    self.states_built += 1
                offers.append((viewer, payloads[game]))
            self.loop.call_soon_threadsafe(self._offer_all, offers)  # one wake-up of the loop for the room
        except RuntimeError:  # the loop is closed: the server stopped
            return
        except Exception:
            log.exception("web: could not push the state of %s", channel)

    def _offer_all(self, offers: list[tuple[Viewer, Payload]]) -> None:
        self.pushes += sum(viewer.offer(payload) for viewer, payload in offers)

    def payload(self, view: ViewRecord) -> Payload:
        """The state of ``view``'s game as it stands, in JSON."""
        version, state = self.state(view)
        text = json.dumps({"version": version, "state": state}, ensure_ascii=False, separators=(",", ":"))
        return Payload(version, text)

    def state(self, view: ViewRecord) -> tuple[int, State]:
        """The game's event count and its public state (``bot.web.state``)."""
        referee = self.referee
        storage = referee.storage
        language = storage.channel(view.channel).language
        now = referee.now()
        record = storage.game(view.game)
        if record.kind not in (GameKind.DUPLICATE, GameKind.CLASSIC):
            return 0, gone_state(view.game, language, now)
        game = referee.games.load(storage, record)
        version = len(game.events)
        if record.kind is GameKind.DUPLICATE:
            return version, duplicate_state(game, game_id=record.id, language=language, now=now)
        return version, classic_state(game, game_id=record.id, language=language, now=now)
