"""One word list registry for the test modules, with the bundled lists loaded before any command.

The referee never waits for a list (a command answers that it is being prepared); tests that are
not about that start with the lists ready, as a bot does once its start-up preparation is over.
"""

from __future__ import annotations

import fcntl

from bot.lexicons import BUNDLED, LexiconRegistry, cache_dir

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
