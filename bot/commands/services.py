"""What command handlers may use beyond their message: storage, the word lists, the clock's state,
the game caches and the outbox; built by the referee for each command, so
that no handler reaches the referee itself."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.duplicate import DuplicateGame
from core.game import ClassicGame

from ..chat import Incoming
from ..outbox import Outbox
from ..overload import Shedder, keeps_all
from ..play.cache import GameCache, Games
from ..play.clock import DuplicateClock
from ..play.clock_lease import ClockLease
from ..play.shown_views import ShownViews
from ..storage import GameKind, Storage
from ..words.game_lists import WordLists
from ..words.loader import LexiconRegistry


@dataclass(frozen=True)
class Services:
    """The referee's services, as the command layer sees them."""

    storage: Storage
    lexicons: LexiconRegistry
    lists: WordLists  # the lists verdicts and tops use, house words applied
    images: bool  # whether views and results are also drawn as PNG images
    clock: DuplicateClock  # the duplicate clock's state in this process
    clock_scope: str  # the clock looks after channels whose id starts with this
    clock_lease: ClockLease  # and among those, the ones whose lease this process holds
    games: Games  # every kind's games in memory, and the transaction they follow
    now: Callable[[], float]
    draws: random.Random  # where duplicate draws come from, outside simultanés
    # what players are owed: replies stored in the open transaction (``enqueue``), this process's claims,
    # the replies known first in line, a channel's dead letters
    outbox: Outbox
    arriving: Callable[[], Sequence[Incoming]]  # messages this process received and has not answered yet
    web_url: str | None = None  # where the live pages are served (``bot.web``; None: not served)
    # whether to leave out items of a kind that can wait (the process is overloaded: ``bot.overload``);
    # what it says to leave out is counted as shed
    sheds: Shedder = keeps_all
    # the views this referee posted lately in each room (one answered privately if asked again unchanged)
    shown_views: ShownViews = field(default_factory=ShownViews)

    @property
    def classic_games(self) -> GameCache[ClassicGame]:
        """The classic games in memory (one of ``games``' caches)."""
        return self.games.cache(GameKind.CLASSIC)

    @property
    def duplicate_games(self) -> GameCache[DuplicateGame]:
        """The duplicate games in memory (one of ``games``' caches)."""
        return self.games.cache(GameKind.DUPLICATE)
