"""Where commands are declared: ``@command`` carries a command's name, who may use it, whether it is
slow or answers privately, and registers its handler; ``@handles`` adds a handler for one kind of game.

Nothing else lists commands: the /help list, the Discord and Telegram menus and the dispatcher all
read this registry. A command's name in each language, its usage, help and summary are messages of the
catalogs (``name_<name>``, ``usage_<name>``, ``help_<name>``, ``summary_<name>``); the name of every
language works in every channel.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.edition import fold_accents

from ..messages import languages, say
from ..storage.records import GameKind
from .options import Form
from .spec import Access as Access  # the commands import the table's words from here
from .spec import CommandSpec as CommandSpec
from .spec import Section as Section

if TYPE_CHECKING:
    from .context import Context

Handler = Callable[["Context"], None]
Asked = Callable[[Sequence[str]], bool]  # whether a command's words ask for a handler (``starts``)


@dataclass
class Command:
    """A declared command: its spec, its handler, and the handlers for one kind of game (or for a
    channel where no game runs)."""

    spec: CommandSpec
    handler: Handler
    rank: int  # where /help lists it within its section, smaller first
    by_kind: dict[GameKind | None, Handler] = field(default_factory=dict)
    by_words: list[tuple[Asked, Handler]] = field(default_factory=list)

    def handler_for(self, kind: GameKind | None, words: Sequence[str] = ()) -> Handler:
        """The handler for a channel whose running game is of ``kind`` (None: no game): the one a kind declared
        for the command's ``words`` (``starts``: /new's words naming a kind of game) whatever runs, else the
        one for ``kind``, else the command's own."""
        for asked, handler in self.by_words:
            if asked(words):
                return handler
        return self.by_kind.get(kind, self.handler)


_COMMANDS: dict[str, Command] = {}
_BY_KIND: dict[str, dict[GameKind | None, Handler]] = {}  # by command name, whether declared yet or not
_BY_WORDS: dict[str, list[tuple[Asked, Handler]]] = {}  # by command name: handlers chosen by the words typed
_INDEX: dict[tuple[str, ...], dict[str, CommandSpec]] = {}  # by the languages served: every name typed


class CommandDeclarationError(Exception):
    """A command declared twice, or a handler for a command that is not declared."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"/{name}: {problem}")
        self.name = name
        self.problem = problem


def command(
    name: str,
    *,
    section: Section,
    rank: int,
    access: Access = Access.ANYONE,
    read_without_args: bool = False,
    read_only: bool = False,
    slow: bool = False,
    private: bool = False,
    needs_top: bool = False,
    uses_list: bool = False,
    form: Form | None = None,
) -> Callable[[Handler], Handler]:
    """Declare a command and its handler (returned unchanged); ``rank`` places it within its section of
    /help (smaller first, one command a rank), whatever the order the modules are imported in; ``form``: its
    arguments as typed options or subcommands (``.options``), for the platforms that show forms."""
    spec = CommandSpec(
        name, section, access, read_without_args, read_only, slow, private, needs_top, uses_list, form=form
    )

    def register(handler: Handler) -> Handler:
        if name in _COMMANDS:
            raise CommandDeclarationError(name, "declared twice")
        for other in _COMMANDS.values():
            if other.spec.section is section and other.rank == rank:
                raise CommandDeclarationError(name, f"its rank {rank} in /help is also /{other.spec.name}'s")
        _COMMANDS[name] = Command(spec, handler, rank, _BY_KIND.setdefault(name, {}), _BY_WORDS.setdefault(name, []))
        _INDEX.clear()
        return handler

    return register


def withdraw(name: str) -> None:
    """Remove a declared command and its handlers by kind (a test's throwaway one)."""
    _COMMANDS.pop(name, None)
    _BY_KIND.pop(name, None)
    _BY_WORDS.pop(name, None)
    _INDEX.clear()


def handles(name: str, kind: GameKind | None) -> Callable[[Handler], Handler]:
    """Declare the handler of a command when the channel's running game is of ``kind`` (None: when no
    game runs there). The command may be declared before or after (``check_handlers``)."""

    def register(handler: Handler) -> Handler:
        _BY_KIND.setdefault(name, {})[kind] = handler
        return handler

    return register


def starts(name: str, asked: Asked) -> Callable[[Handler], Handler]:
    """Declare the handler of a command when its words ask for it (``asked(words)``), whatever game runs in the
    channel: a kind of game's start (``/new online ...``, ``/new no-board ...``), tried in the order declared,
    before the command's own handler (a classic game's /new)."""

    def register(handler: Handler) -> Handler:
        _BY_WORDS.setdefault(name, []).append((asked, handler))
        return handler

    return register


def check_handlers() -> None:
    """Raise if a handler was given for a command that no module declares."""
    for name in sorted((set(_BY_KIND) | {n for n, found in _BY_WORDS.items() if found}) - set(_COMMANDS)):
        raise CommandDeclarationError(name, "a handler for a command not declared")


def declared() -> tuple[CommandSpec, ...]:
    """Every command, in /help order: by section, then by rank."""
    order = list(Section)
    found = sorted(_COMMANDS.values(), key=lambda c: (order.index(c.spec.section), c.rank))
    return tuple(c.spec for c in found)


def command_named(name: str) -> Command:
    """The declared command of an English name."""
    return _COMMANDS[name]


def typed_form(name: str) -> str:
    """How a command name is compared: no slash, accents folded, lowercase."""
    return fold_accents(name.strip().lstrip("/")).lower()


def name_index() -> dict[str, CommandSpec]:
    """Every name of every command in every language, and every alias (typed form), to its command."""
    served = languages()
    index = _INDEX.get(served)
    if index is None:
        index = {}
        for item in _COMMANDS.values():
            spec = item.spec
            for typed in (spec.name, *spec.names().values(), *spec.aliases()):
                other = index.setdefault(typed_form(typed), spec)
                if other is not spec:
                    raise CommandDeclarationError(spec.name, f"its name {typed!r} is also /{other.name}'s")
        _INDEX.clear()
        _INDEX[served] = index
    return index


def find(name: str) -> CommandSpec | None:
    """The command called ``name`` in any language (accents folded, any case)."""
    return name_index().get(typed_form(name))


SUGGESTIONS = 3  # nearest commands offered for an unknown name
SUGGESTION_CUTOFF = 0.6  # difflib similarity below which a name is not offered


def suggest(name: str) -> list[CommandSpec]:
    """The known commands whose name in some language is nearest to ``name``, best first."""
    typed = typed_form(name)
    index = name_index()
    found: list[CommandSpec] = []
    for match in difflib.get_close_matches(typed, index, n=2 * SUGGESTIONS, cutoff=SUGGESTION_CUTOFF):
        spec = index[match]
        if spec not in found:
            found.append(spec)
    return found[:SUGGESTIONS]


def command_names(lang: str, spec: CommandSpec) -> str:
    """``/coup (/score)`` in French, ``/score (/coup)`` in English: the channel's name first, then the other
    languages' names; one name when they are all the same."""
    first = spec.name_in(lang)
    others = list(dict.fromkeys(name for name in spec.names().values() if name != first))
    return f"/{first}" + (f" ({', '.join('/' + name for name in others)})" if others else "")


def unknown_command_text(lang: str, name: str) -> str:
    """The answer to an unknown command: the nearest known commands, if any, under both names."""
    shown = name.lstrip("/")[:40]
    nearest = suggest(shown)
    if not nearest:
        return say(lang, "unknown_command", name=shown)
    choices = say(lang, "suggestion_or").join(command_names(lang, spec) for spec in nearest)
    return say(lang, "unknown_command_suggest", name=shown, suggestions=choices)
