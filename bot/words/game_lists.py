"""The word lists a channel's verdicts use: its list with its house words, never waited for in a command.

Commands ask ``WordLists`` for a list and get it at once, or ``ListPreparingError``
(answered politely: the list is being prepared, about N seconds) while it is being
compiled; a list being compiled never holds up a command that uses another one.
Verdicts (challenges, /check, duplicate submissions) read a game's list with the
channel's house words for that list applied (``HouseList``); duplicate tops walk the
list with them patched in (``movegen``). What a verdict used is stored in its event (``ListUsed``), since
games replay from their log without word lists.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.adjudication import Verdict
from core.alphabet import LATIN, Alphabet
from core.game import standing_events
from core.lexicon import Lexicon

from ..messages import say
from ..storage import ChannelStore, ClockStore, GameLog, HouseWordStore, StoredEvent
from .house import HouseList, HouseWords
from .loader import (
    BUNDLED,
    EDITION_MARK,
    HOUSE_MARK,
    LexiconRegistry,
    ListPreparingError,
    bundled,
    list_key,
    split_key,
)

VERDICT_KEY = "verdict_list"  # key of the stored event data saying what a verdict used


def list_name(spec: str) -> str:
    """How a list is shown in a chat: ``fr``, ``en`` or the operator's file name without its folder."""
    base = spec.split(HOUSE_MARK, 1)[0].split(EDITION_MARK, 1)[0]
    return base if base in bundled() else Path(base).name


class Plays(Protocol):
    """What a game set-up and a channel's settings both say: the edition and the list played with."""

    @property
    def edition(self) -> str: ...
    @property
    def lexicon(self) -> str: ...


def game_list(plays: Plays) -> str:
    """The name of the list a game (or a channel) plays with, compiled in its edition's tiles (``list_key``):
    the list itself for an A-Z edition and for a bundled list in its own edition."""
    return list_key(plays.lexicon, plays.edition)


@dataclass(frozen=True)
class ListUsed:
    """The list a verdict used and the house words applied to it."""

    spec: str
    house: HouseWords = HouseWords()

    def label(self, lang: str) -> str:
        """``fr`` or ``fr + 2 mots maison``."""
        if not self.house:
            return list_name(self.spec)
        return say(lang, "list_with_house", name=list_name(self.spec), count=len(self.house))

    def to_data(self, **extra: Any) -> dict[str, Any]:
        return {"list": list_name(self.spec), "house": self.house.tokens(), **extra}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ListUsed:
        return cls(str(data.get("list", "")), HouseWords.from_tokens(data.get("house", [])))


class WordLists:
    """A channel's lists, from a registry that compiles them in the background."""

    def __init__(self, registry: LexiconRegistry, storage: HouseWordStore) -> None:
        self.registry = registry
        self.storage = storage
        self._read = threading.local()  # this thread's house words read in ``remembering``

    @contextlib.contextmanager
    def remembering(self) -> Iterator[None]:
        """Within the block (one transaction, such as a round's close), each channel's house words are read
        from storage once in this thread (a close asked seven times)."""
        self._read.houses = {}
        try:
            yield
        finally:
            self._read.houses = None

    def house(self, channel: str, spec: str) -> HouseWords:
        """The channel's house words for the list ``spec``, as its stored changes leave them."""
        houses: dict[tuple[str, str], HouseWords] | None = getattr(self._read, "houses", None)
        if houses is None:
            return HouseWords.replay(self.storage.house_word_changes(channel, spec))
        if (channel, spec) not in houses:
            houses[(channel, spec)] = HouseWords.replay(self.storage.house_word_changes(channel, spec))
        return houses[(channel, spec)]

    def verdicts(self, spec: str, channel: str) -> HouseList:
        """The list ``spec`` with ``channel``'s house words for it; ListPreparingError while it is prepared."""
        return HouseList(self.registry.ready(spec), self.house(channel, spec), spec)

    def movegen_name(self, spec: str, channel: str) -> str:
        """The registry's name of ``spec`` with the channel's house words for it (``spec`` when it has none)."""
        return self.registry.with_house(spec, self.house(channel, spec))

    def movegen(self, spec: str, channel: str) -> Lexicon:
        """The compiled list the move generator walks for ``channel``; ListPreparingError while it is prepared."""
        return self.registry.ready(self.movegen_name(spec, channel))

    def prepare_movegen(self, spec: str, channel: str) -> None:
        """Start compiling the channel's list with its house words, if it is not ready (never raises)."""
        try:
            self.movegen(spec, channel)
        except Exception:  # noqa: BLE001 - a failing list is reported by the command that needs it
            return


def verdicts_text(lang: str, verdicts: Iterable[Verdict], house: HouseWords, alphabet: Alphabet = LATIN) -> str:
    """``KA valable (mot maison), ZZZ non valable``: a house word's verdict says so; words in the alphabet's labels."""
    return ", ".join(
        f"{alphabet.spell(v.word)} {say(lang, 'valid' if v.valid else 'invalid')}"
        + (say(lang, "house_mark") if house.decides(v.word) else "")
        for v in verdicts
    )


def preparing_name(lang: str, error: ListPreparingError) -> str:
    """The list being prepared, as a chat shows it (``fr``, ``fr with the channel's house words``)."""
    name = list_name(error.name)
    return say(lang, "list_with_house_short", name=name) if HOUSE_MARK in error.name else name


def preparing_text(lang: str, error: ListPreparingError) -> str:
    """The polite answer to a command that needs a list still being prepared."""
    return say(lang, "list_preparing", name=preparing_name(lang, error), seconds=error.expected_seconds)


class ListsInUse(ChannelStore, ClockStore, GameLog, HouseWordStore, Protocol):
    """What finding the lists to compile at start reads: the channels' and running games' lists, the open
    rounds, their games and their house words."""


def prepare_at_start(registry: LexiconRegistry, storage: ListsInUse) -> threading.Thread:
    """Compile in the background, in this order: the lists the stored games and channels use, those lists
    with the house words of the duplicate rounds that are open (their tops need them), the bundled lists."""
    specs = storage.lists_in_use()
    lists = WordLists(registry, storage)
    for deadline in storage.deadlines():
        record = storage.game(deadline.game)
        if record.setup.lexicon:
            house_channel = "" if record.setup.simultane else record.channel  # a simultané's: none
            specs.append(lists.movegen_name(game_list(record.setup), house_channel))
    return registry.prepare(dict.fromkeys([*specs, *BUNDLED]))


def lists_used(events: list[StoredEvent]) -> list[tuple[ListUsed, list[int]]]:
    """Each distinct list a game's verdicts used, in order of first use, with where: the rounds of a
    duplicate game's closes, or the numbers (from 1) of a classic game's challenges that stand."""
    kinds = [str(event.data.get("kind", "")) for event in events]
    kept = [events[i].data for i in standing_events(kinds)]  # an undo takes back a line, as in the game
    found: dict[ListUsed, list[int]] = {}
    challenges = 0
    by_round: dict[int, ListUsed] = {}
    for data in kept:
        used_data = data.get(VERDICT_KEY)
        if not isinstance(used_data, dict):
            continue
        used = ListUsed.from_data(used_data)
        if "round" in used_data:
            by_round[int(used_data["round"])] = used  # a round closed again (reopened) keeps its last verdict
        else:
            challenges += 1
            found.setdefault(used, []).append(challenges)
    for number in sorted(by_round):
        found.setdefault(by_round[number], []).append(number)
    return list(found.items())


def numbers_text(numbers: list[int]) -> str:
    """``1-3, 5``."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def verdict_lines(lang: str, key: str, events: list[StoredEvent]) -> list[str]:
    """The sheet's lines saying which list (and house words) the game's verdicts used, each the message
    ``key`` (the game's kind says which: where its verdicts are given)."""
    lines = []
    for used, numbers in lists_used(events):
        words = " ".join(used.house.shown(split_key(used.spec)[1]))
        lines.append(
            say(
                lang,
                key,
                lists=used.label(lang),
                words=f" ({words})" if words else "",
                where=numbers_text(numbers),
                count=len(numbers),
            )
        )
    return lines
