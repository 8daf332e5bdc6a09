"""One word list registry for the test modules, with the bundled lists loaded before any command.

The referee never waits for a list (a command answers that it is being prepared); tests that are
not about that start with the lists ready, as a bot does once its start-up preparation is over.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

import core
from bot.words.loader import BUNDLED, LexiconRegistry, cache_dir, load
from core.alphabet import LATIN, Alphabet
from core.lexicon import Lexicon

_SHARED: list[LexiconRegistry] = []


def ready_registry() -> LexiconRegistry:
    """The shared registry, ``fr`` and ``en`` loaded."""
    if not _SHARED:
        registry = LexiconRegistry()
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        # one test process compiles a list missing from the cache, the others wait and read its file
        # (four workers compiling the French list at once on two cores cost each of them a minute)
        with open(folder / "tests-compile.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            for spec in BUNDLED:
                registry.get(spec)
        _SHARED.append(registry)
    return _SHARED[0]


def _compiler_digest() -> bytes:
    """The sha256 of the sources a compiled list depends on (``core/alphabet.py``, ``core/lexicon*.py``)."""
    folder = Path(core.__file__).parent
    digest = hashlib.sha256()
    for source in sorted([folder / "alphabet.py", *folder.glob("lexicon*.py")]):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.digest()


def compiled_once(
    source: bytes, words: Callable[[], Iterable[str]], name: str = "", alphabet: Alphabet = LATIN
) -> Lexicon:
    """``Lexicon.from_words(words(), name)`` compiled once for every test process and run: its binary form is
    kept in the cache folder under the sha256 of ``source`` (bytes the words are a function of), the name,
    the alphabet and the compiler's sources (a change to any of them compiles again), one process compiling
    while the others wait on a file lock; ``words`` is called only to compile."""
    digest = hashlib.sha256(_compiler_digest())
    digest.update(repr((name, alphabet.labels, sorted(alphabet.folds.items()))).encode("utf-8"))
    digest.update(source)
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"tests-{digest.hexdigest()[:32]}.lexicon"
    with open(folder / "tests-compile.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return Lexicon.from_bytes(path.read_bytes(), name=name)
        lexicon = Lexicon.from_words(words(), name, alphabet=alphabet)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(lexicon.to_bytes())
        partial.replace(path)
        return lexicon


# The test environment's cache folder, as it is when the test modules are collected (before a test points
# ARBITRE_CACHE at a folder of its own).
ENVIRONMENT_CACHE = cache_dir().parent


def link_compiled_lists(folder: Path) -> Path:
    """``folder`` (a cache folder of lists, made) holding the bundled lists' compiled files and their
    verified-stamps as links to the test environment's (compiled there once: the English list alone takes 3
    to 15 s), for tests that read a bundled list through a cache folder of their own; a file the code under
    test replaces replaces the link, never the environment's file."""
    folder.mkdir(parents=True, exist_ok=True)
    own = os.environ.get("ARBITRE_CACHE")
    os.environ["ARBITRE_CACHE"] = str(ENVIRONMENT_CACHE)
    try:
        made = [load(spec, copy=False)[1].cache for spec in BUNDLED]
    finally:
        if own is None:
            del os.environ["ARBITRE_CACHE"]
        else:
            os.environ["ARBITRE_CACHE"] = own
    for cache in made:
        for file in (cache, cache.with_name(cache.name + ".verified")):
            if file.is_file():
                (folder / file.name).symlink_to(file)
    return folder
