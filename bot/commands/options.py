"""A command's arguments as a form: typed options (text, whole numbers with a range, a choice among the
grammar's words, a yes/no that writes a word, a member), subcommands, who the platform should show the
command to and where it belongs. Declared with the command (``@command(..., form=Form(...))``).

The typed grammar stays the one language: a form's filled options are written back into the argument text
the command reads (``Form.line``), so a platform's form and a typed line reach the same decision. A
command without a form keeps one free-text option. An option's name and description in each language are
the catalogs' ``option_<name>`` and ``option_<name>_about``; a choice is shown by its label (``Label``): the
catalogs' ``choice_<word>`` (else the word: a proper name such as ``fisf``), a language's or an edition's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """What an option holds."""

    TEXT = "text"  # free words (a move's reference, words, a name)
    INTEGER = "integer"  # a whole number, within ``low``..``high`` when given
    NUMBER = "number"  # a number that may have decimals (``0.5``), within ``low``..``high`` when given
    CHOICE = "choice"  # one of ``choices`` (words of the grammar: fr, fisf, blitz...), shown by ``label``
    FLAG = "flag"  # yes or no: yes writes ``shape`` (e.g. "!" or "manual")
    MEMBER = "member"  # a member of the chat, written as their name through ``shape`` ("@{}")


class Suggest(Enum):
    """Where the suggestions of an option come from while it is typed (a platform's autocomplete)."""

    NONE = ""
    PLAYERS = "players"  # the running game's players
    GAMES = "games"  # the channel's games, by their /games number
    CODES = "codes"  # the simultanés the channel takes part in
    TOPICS = "topics"  # /help's commands and sections
    LISTS = "lists"  # the shipped word lists
    ZONES = "zones"  # time zones
    HOUSE_WORDS = "house_words"  # the channel's house words


class Label(Enum):
    """How a choice is shown in a form (its value stays the grammar's word, written into the line)."""

    WORD = "word"  # the catalog's ``choice_<word>``, else the word itself (fisf, naspa: proper names)
    LANGUAGE = "language"  # a language, by the name its own catalog gives it (Français, English)
    EDITION = "edition"  # an edition, by its name (Français (FISF), Català (FISC))


class Where(Enum):
    """Where a command belongs."""

    ANYWHERE = "anywhere"
    GROUP = "group"  # a server's or a group's channel (a room): not a private chat with the bot


@dataclass(frozen=True)
class Option:
    """One option; ``shape`` writes its value into the argument text (``{}`` is the value)."""

    name: str
    kind: Kind = Kind.TEXT
    required: bool = False
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    suggest: Suggest = Suggest.NONE
    shape: str = "{}"
    label: Label = Label.WORD  # how its choices are shown

    def written(self, value: object) -> str:
        """The option's part of the argument text ("" when not given, or a flag left at no)."""
        if value is None or value is False or value == "":
            return ""
        if self.kind is Kind.FLAG:
            return self.shape
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # a number given as 2.0 is written 2, as typed
        return self.shape.format(str(value).strip())


@dataclass(frozen=True)
class Sub:
    """A subcommand: the word it writes first (``word``; "" writes none, e.g. a bare "show"), its options."""

    name: str
    options: tuple[Option, ...] = ()
    word: str | None = None

    @property
    def written_word(self) -> str:
        return self.name if self.word is None else self.word


@dataclass(frozen=True)
class Form:
    """A command's arguments as options, or as subcommands each with its options (not both).

    ``admin``: platforms show the command to the chat's administrators only (others can be allowed by the
    chat's own settings); ``where``: where it belongs."""

    options: tuple[Option, ...] = ()
    subs: tuple[Sub, ...] = ()
    admin: bool = False
    where: Where = Where.ANYWHERE

    def __post_init__(self) -> None:
        if self.options and self.subs:
            raise ValueError("a form has options or subcommands, not both")

    def sub(self, name: str) -> Sub | None:
        return next((s for s in self.subs if s.name == name), None)

    def line(self, values: Mapping[str, object], sub: str | None = None) -> str:
        """The argument text of a filled form (``values`` by option name; ``sub``: the subcommand used)."""
        options = self.options
        words: list[str] = []
        if sub is not None:
            chosen = self.sub(sub)
            if chosen is None:
                raise ValueError(f"no subcommand {sub!r}")
            options = chosen.options
            words.append(chosen.written_word)
        words += [option.written(values.get(option.name)) for option in options]
        return " ".join(word for word in words if word)


def text(name: str, *, required: bool = False, suggest: Suggest = Suggest.NONE, shape: str = "{}") -> Option:
    """Free words."""
    return Option(name, Kind.TEXT, required, suggest=suggest, shape=shape)


def integer(
    name: str,
    low: int | None = None,
    high: int | None = None,
    *,
    required: bool = False,
    suggest: Suggest = Suggest.NONE,
    shape: str = "{}",
) -> Option:
    """A whole number within ``low``..``high``."""
    return Option(name, Kind.INTEGER, required, low, high, suggest=suggest, shape=shape)


def decimal_number(name: str, low: float, high: float, *, required: bool = False, shape: str = "{}") -> Option:
    """A number within ``low``..``high`` that may have decimals."""
    return Option(name, Kind.NUMBER, required, low, high, shape=shape)


def choice(name: str, *choices: str, required: bool = False, shape: str = "{}", label: Label = Label.WORD) -> Option:
    """One of the grammar's words, each shown as ``label`` says."""
    return Option(name, Kind.CHOICE, required, choices=choices, shape=shape, label=label)


def flag(name: str, word: str) -> Option:
    """Yes or no; yes writes ``word``."""
    return Option(name, Kind.FLAG, shape=word)


def member(name: str, *, required: bool = False, shape: str = "@{}") -> Option:
    """A member of the chat, written as their name (``@Name`` by default: the grammar's way to name a seat)."""
    return Option(name, Kind.MEMBER, required, shape=shape)


MOST_POINTS = 2000  # a move's or a penalty's points a form takes (the best known move scores under 1,800)
MOST_SECONDS = 3600  # seconds a round is reopened or extended by through a form
MOST_MOVES = 100  # a move number a form takes (a duplicate game has about 20)

GAME_FORM = Form((integer("game", 1, suggest=Suggest.GAMES),))  # a game of /games, the running one by default
