"""The compiled word lists of a process, loaded once each, in the background when asked to.

``LexiconRegistry`` keeps the compiled lists of a process; ``prepare`` compiles
lists in a background thread and ``ready`` answers at once, raising
``ListPreparingError`` with the expected wait while a list is still being compiled.
``with_house`` names a list with a channel's house words applied (the loaded list patched
with them, ``Lexicon.patched``: milliseconds, never a compile; for the move generator; kept
in memory only, the most recent few). Lists are named as its loader takes them (``bot.words.loader``:
``fr``, a path, either with the edition whose tiles it is compiled in, ``list_key``); ``bot.words.loader``
gives ``LexiconRegistry``, this registry with its loader.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.lexicon import Lexicon

    from .house import HouseWords


@dataclass(frozen=True)
class LexiconInfo:
    """What ``arbitre lexicon info`` shows."""

    name: str
    words: int
    sha256: str
    licence: str
    path: Path
    cache: Path


Loaded = tuple["Lexicon", LexiconInfo]


def _log_warning(message: str, *args: object) -> None:
    import logging

    logging.getLogger("arbitre.lexicons").warning(message, *args)


class ListPreparingError(Exception):
    """A word list still being compiled: ``expected_seconds`` is the rough wait left."""

    def __init__(self, name: str, expected_seconds: int) -> None:
        super().__init__(f"word list {name} is being prepared, about {expected_seconds} s")
        self.name = name
        self.expected_seconds = expected_seconds


HOUSE_MARK = "#house-"
MAX_HOUSE_LISTS = 6  # lists with house words kept patched (each about as big as its list)


@dataclass
class _Preparation:
    """One list being loaded in the background."""

    started: float
    expected: float
    done: threading.Event


class ListRegistry:
    """Loads each list once per process; thread-safe.

    ``get`` waits for a list (loading it if needed); ``ready`` never waits: it returns
    a loaded list or raises ``ListPreparingError`` (starting the load in the background
    if nobody had). Loading one list never holds up a caller asking for another.
    """

    def __init__(self, loader: Callable[[str], Loaded], estimate: Callable[[str], float]) -> None:
        """``loader`` loads a list by name; ``estimate`` says roughly how many seconds that takes."""
        self._loader = loader
        self._estimate = estimate
        self._loaded: dict[str, Loaded] = {}
        self._failed: dict[str, Exception] = {}
        self._preparing: dict[str, _Preparation] = {}
        self._house: dict[str, tuple[str, HouseWords]] = {}  # name -> (list, house words)
        self._house_loaded: list[str] = []  # lists with house words loaded, oldest first
        self._lock = threading.Lock()

    def with_house(self, spec: str, house: HouseWords) -> str:
        """The name this registry gives ``spec`` with ``house`` applied (``spec`` itself when ``house`` is empty).

        ``ready``, ``get`` and ``prepare`` take that name: ``spec``'s loaded list patched with the
        additions and without the removals (at once in ``ready`` when ``spec`` is loaded).
        """
        if not house:
            return spec
        name = f"{spec}{HOUSE_MARK}{house.digest[:16]}"
        with self._lock:
            self._house.setdefault(name, (spec, house))
        return name

    def prepare(self, specs: Iterable[str]) -> threading.Thread:
        """Load ``specs`` one after the other in a background (daemon) thread; returns it.

        Each list's expected wait counts the lists queued before it.
        """
        wanted = [spec for spec in specs if self._claim(spec)]
        with self._lock:
            queued = 0.0
            for spec in wanted:
                preparation = self._preparing.get(spec)
                if preparation is not None:
                    preparation.expected += queued
                    queued = preparation.expected
        thread = threading.Thread(target=self._load_all, args=(wanted,), name="lexicon-prepare", daemon=True)
        thread.start()
        return thread

    def ready(self, spec: str) -> Lexicon:
        """The loaded list at once, or ListPreparingError while it is being prepared.

        Raises the loading error (WordListError...) if loading it failed.
        """
        with self._lock:
            if spec in self._loaded:
                return self._loaded[spec][0]
            if spec in self._failed:
                raise self._failed[spec]
            preparation = self._preparing.get(spec)
            derived = self._house.get(spec)
            patch_now = preparation is None and derived is not None and derived[0] in self._loaded
        if patch_now:  # a loaded list with house words: patched here, in milliseconds
            return self.get(spec)
        if preparation is None:
            self.prepare([spec])
            with self._lock:
                preparation = self._preparing.get(spec)
            if preparation is None:  # finished in between (asked again without the lock, which is not reentrant)
                return self.ready(spec)
        remaining = preparation.expected - (time.monotonic() - preparation.started)
        raise ListPreparingError(spec, max(1, round(remaining)))

    def get(self, spec: str) -> Lexicon:
        """The list, waiting while it is loaded (loading it here if nobody is)."""
        return self.load(spec)[0]

    def load(self, spec: str) -> Loaded:
        """The list and its description, waiting while it is loaded."""
        while True:
            with self._lock:
                if spec in self._loaded:
                    return self._loaded[spec]
                if spec in self._failed:
                    raise self._failed[spec]
                preparation = self._preparing.get(spec)
            if preparation is not None:
                preparation.done.wait()
                continue
            if self._claim(spec):
                self._load_one(spec)

    def wait(self) -> None:
        """Wait until no list is being prepared (for scripts, which must not race their lists)."""
        while True:
            with self._lock:
                pending = [preparation.done for preparation in self._preparing.values()]
            if not pending:
                return
            for done in pending:
                done.wait()

    def is_ready(self, spec: str) -> bool:
        """Whether ``spec`` is loaded."""
        with self._lock:
            return spec in self._loaded

    def _claim(self, spec: str) -> bool:
        """Mark ``spec`` as being prepared by the caller; False if loaded or already claimed."""
        with self._lock:
            if spec in self._loaded or spec in self._preparing:
                return False
            self._failed.pop(spec, None)
            self._preparing[spec] = _Preparation(time.monotonic(), self._expected(spec), threading.Event())
            return True

    def _expected(self, spec: str) -> float:
        """Seconds to load ``spec`` (call with the lock held)."""
        derived = self._house.get(spec)
        if derived is None:
            return self._estimate(spec)
        base = derived[0]
        return 1.0 if base in self._loaded else self._estimate(base)  # patching it takes milliseconds

    def _load_house(self, spec: str) -> Loaded:
        """A list with house words: its list (loaded first if needed) patched with them."""
        from .house import house_lexicon

        base, house = self._house[spec]
        lexicon, info = self.load(base)
        combined = house_lexicon(lexicon, house, name=f"{lexicon.name}+{len(house)}")
        digest = hashlib.sha256(f"{info.sha256}\n{house.digest}".encode("ascii")).hexdigest()
        return combined, replace(info, name=combined.name, words=len(combined), sha256=digest)

    def _load_all(self, specs: list[str]) -> None:
        for spec in specs:
            self._load_one(spec)

    def _load_one(self, spec: str) -> None:
        try:
            loaded = self._load_house(spec) if spec in self._house else self._loader(spec)
        except Exception as error:  # noqa: BLE001 - kept and raised to whoever asks for the list
            _log_warning("word list %s could not be loaded: %s", spec, error)
            with self._lock:
                self._failed[spec] = error
                preparation = self._preparing.pop(spec)
        else:
            with self._lock:
                self._loaded[spec] = loaded
                preparation = self._preparing.pop(spec)
                if spec in self._house:
                    self._house_loaded.append(spec)
                    while len(self._house_loaded) > MAX_HOUSE_LISTS:  # older house words give way
                        self._loaded.pop(self._house_loaded.pop(0), None)
        preparation.done.set()
