"""A duplicate round's close handed over in the order players need it, and its images drawn afterwards.

A close (``rounds.close_round``) stores, in its transaction, first what the players need at once
(the draw's message edited to say the round is closed, and the next draw), then the results as text: the
exact count of players who answered, the top, every answer and the standings, complete information for the
console and screen readers. The round's two images (its result and the standings: ``bot.render``) are not
drawn there: the close leaves them owed (``ResultImages``), and they are drawn once the draws and results
are handed over, outside any transaction, then stored in a short transaction of their own as replies of
their own, each with a short text saying what it shows (``draw_images``). A crash between the two
transactions loses at most the images: the results are stored as text with the close.

At a tick of the clock (``TickReplies``), the first part of each close is published as soon as its
transaction commits, the results of every room once all the closes of the tick are committed, then the
images: a room's next draw never waits for another room's results or images.

Who owes images: ``owing()`` collects what the closes made under it owe (the clock's tick around each
close's transaction; the service around a command, /cloture); a close with no collector draws its images
at once, after its other replies (a caller without a service, as the tests' clubs).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field

from core.duplicate import DuplicateGame, Round

from ...chat import Reply
from ...commands.services import Services
from ...messages import say
from ...render import RoundResultView, StandingsView, round_result_png, standings_png
from ...storage import GameKind
from .games import game_of
from .texts import result_view, standings_view

IMAGES_AT_ONCE = 4  # images drawn side by side (Pillow lets go of the interpreter's lock while it paints)


@dataclass(frozen=True)
class ResultImages:
    """The images a close owes its room: the round's result and the standings after it (None while nobody
    plays), as views taken at the close (drawing them needs nothing else); ``closed``: how many rounds the
    game had closed with this one (the images are dropped if that close no longer stands as it was)."""

    game: int
    closed: int
    number: int
    channel: str
    lang: str
    result: RoundResultView
    standings: StandingsView | None
    owed_at: float = field(default_factory=time.monotonic, compare=False)


@dataclass
class Owed:
    """What the closes made under one ``owing()`` leave for later: their images; and, for the clock, how many
    of a close's replies go at once (the close notice and the next draw; None: all of them)."""

    images: list[ResultImages] = field(default_factory=list)
    first: int | None = None


_OWED: ContextVar[Owed | None] = ContextVar("arbitre_owed", default=None)


@contextlib.contextmanager
def owing() -> Iterator[Owed]:
    """Collect what the closes made in this block (this thread, this context) owe for later."""
    owed = Owed()
    token = _OWED.set(owed)
    try:
        yield owed
    finally:
        _OWED.reset(token)


def result_images(lang: str, channel: str, record_id: int, game: DuplicateGame, closed: Round) -> ResultImages:
    """What a close owes as images: the views of its result and of the standings, as they are now."""
    standings = standings_view(lang, game) if game.players else None
    view = result_view(lang, game, closed)
    return ResultImages(record_id, len(game.closed_rounds), closed.number, channel, lang, view, standings)


def handed_over(first: list[Reply], rest: list[Reply], images: ResultImages | None) -> list[Reply]:
    """A close's replies, what players need at once (``first``) before the rest; its images owed to the
    collector of ``owing()``, or, with none, drawn now and put last."""
    owed = _OWED.get()
    if owed is None:
        return [*first, *rest, *(image_replies(images) if images is not None else [])]
    owed.first = len(first)
    if images is not None:
        owed.images.append(images)
    return [*first, *rest]


def image_replies(images: ResultImages) -> list[Reply]:
    """The owed images drawn, each as a reply of its own with a short text saying what it shows (the same
    in full as text in the results above it)."""
    lang, channel = images.lang, images.channel
    replies = [
        Reply(
            say(lang, "dup_result_image", n=images.number),
            channel=channel,
            image=round_result_png(images.result),
            image_name="result.png",
        )
    ]
    if images.standings is not None:
        text = say(lang, "dup_standings_image", n=images.standings.rounds)
        replies.append(Reply(text, channel=channel, image=standings_png(images.standings), image_name="standings.png"))
    return replies


def still_shown(services: Services, images: ResultImages) -> bool:
    """Whether the close the images belong to stands as it was (committed, not reopened, its result not
    changed since: a change posts its own image)."""
    record = services.storage.game(images.game)
    if record.kind is not GameKind.DUPLICATE:
        return False
    game = game_of(services, record)
    rounds = game.closed_rounds
    if len(rounds) < images.closed or rounds[images.closed - 1].number != images.number:
        return False
    return result_view(images.lang, game, rounds[images.closed - 1]) == images.result


def draw_images(services: Services, owed: list[ResultImages]) -> list[Reply]:
    """Draw the owed images (several at once), and store them in one short transaction; the stored replies,
    in the order they were owed. Those whose close no longer stands as it was are left out."""
    standing = [images for images in owed if still_shown(services, images)]
    if not standing:
        return []
    if len(standing) == 1:
        drawn = [image_replies(standing[0])]
    else:
        with ThreadPoolExecutor(min(IMAGES_AT_ONCE, len(standing)), thread_name_prefix="arbitre-images") as pool:
            drawn = list(pool.map(image_replies, standing))
    with services.games.transaction(services.storage):
        return services.outbox.enqueue([reply for replies in drawn for reply in replies])


class TickReplies:
    """The replies of one tick of the clock, published in the order players need them: each close's first
    part (its notice and the next draw) as soon as its transaction commits, every other reply (warnings,
    starts, notes) likewise, and the results of all the tick's closes once every close is committed
    (``finish``), then what comes after them (``after``), then their images. Steps may come from several
    threads at once."""

    def __init__(self, services: Services, publish: Callable[[list[Reply]], None] | None) -> None:
        self.services = services
        self.publish = publish
        self.replies: list[Reply] = []  # everything, in the order it was published
        self._later: list[Reply] = []
        self._images: list[ResultImages] = []
        self._lock = threading.Lock()

    def step(self, replies: list[Reply], owed: Owed | None = None) -> list[Reply]:
        """One stored step (``owed``: what its transaction's close left for later): its first part published
        now, its results kept for ``finish``; its replies."""
        split = len(replies) if owed is None or owed.first is None else owed.first
        now, later = replies[:split], replies[split:]
        with self._lock:
            self.replies += now
            self._later += later
            self._images += owed.images if owed is not None else []
        if now and self.publish is not None:
            self.publish(now)
        return replies

    def after(self, replies: list[Reply]) -> list[Reply]:
        """A stored step that comes after the results of the tick's closes (a simultané's overall ranking,
        posted once rooms closed a round: never before a room's own results)."""
        with self._lock:
            self._later += replies
        return replies

    def finish(self, images: Callable[[list[ResultImages]], None] | None = None) -> list[Reply]:
        """Publish the results kept back, then the images: handed to ``images`` (drawn off the clock) or,
        with none, drawn and stored now; every reply of the tick."""
        with self._lock:
            later, owed = self._later, self._images
            self._later, self._images = [], []
            self.replies += later
        if later and self.publish is not None:
            self.publish(later)
        if owed and images is not None:
            images(owed)
        elif owed:
            drawn = draw_images(self.services, owed)
            with self._lock:
                self.replies += drawn
            if drawn and self.publish is not None:
                self.publish(drawn)
        return self.replies
