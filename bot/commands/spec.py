"""What the command table says of one command: its name, who may use it (``Access``), where /help
shows it (``Section``), how it runs (``CommandSpec``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..catalogs import CATALOGS
from ..messages import languages, say
from .options import Form


class Access(Enum):
    """Who may use a command; the command layer checks it before running the command."""

    ANYONE = "anyone"  # views, help, word checks: changes nothing
    PLAYER = "player"  # acts for a seat: its own account, or the game's referee or a channel admin
    START = "start"  # starts a game: anyone when none runs; replacing a running one is the referee's
    REFEREE = "referee"  # the running game's referee or a channel admin
    ADMIN = "admin"  # what holds for the whole channel (settings, house words): a channel admin only
    # (a command that also shows, ``read_without_args``, calls ``Context.require_admin`` before a change)


class Section(Enum):
    """Where a command stands in /help (in this order)."""

    CLASSIC = "classic"
    DUPLICATE = "duplicate"
    VIEWS = "views"
    GENERAL = "general"


@dataclass(frozen=True)
class CommandSpec:
    """One command: its English name (its code), who may use it, how it runs."""

    name: str
    section: Section
    access: Access = Access.ANYONE
    read_without_args: bool = False  # with no argument it only shows (e.g. /settings): open to anyone
    read_only: bool = False  # never changes anything: runs outside the write transaction
    slow: bool = False  # may take a while (move generation, images, word lists): platforms show "thinking"
    private: bool = False  # answers the sender privately (an ephemeral answer on Discord)
    needs_top: bool = False  # works on a duplicate round's top: it is found before the transaction opens
    uses_list: bool = False  # judges words: its help says which word lists there are
    form: Form | None = None  # its arguments as a platform's form (``.options``); None: one free-text option

    def __str__(self) -> str:
        return f"/{self.name}"

    def name_in(self, lang: str) -> str:
        """The command's name in ``lang`` (without the slash)."""
        return say(lang, f"name_{self.name}")

    def names(self) -> dict[str, str]:
        """The command's name in each language whose catalog names it (every shipped catalog does)."""
        key = f"name_{self.name}"
        return {lang: self.name_in(lang) for lang in languages() if key in CATALOGS.catalog(lang)}

    def aliases(self) -> tuple[str, ...]:
        """Other names people type for the command, from every language whose catalog gives some
        (``aliases_<name>``, words separated by spaces: ``plateau`` for /grille); /help and the menus show only
        ``names``."""
        key = f"aliases_{self.name}"
        found = [word for lang in languages() if key in CATALOGS.catalog(lang) for word in say(lang, key).split()]
        return tuple(dict.fromkeys(found))

    def usage(self, lang: str) -> str:
        return say(lang, f"usage_{self.name}")

    def help(self, lang: str) -> str:
        return say(lang, f"help_{self.name}")

    def summary(self, lang: str) -> str:
        return say(lang, f"summary_{self.name}")

    def menu(self, lang: str) -> str:
        """The description in a platform's command menu: the summary, a whole sentence."""
        return self.summary(lang) or self.help(lang)
