"""One word list registry for the test modules, with the bundled lists loaded before any command.

The referee never waits for a list (a command answers that it is being prepared); tests that are
not about that start with the lists ready, as a bot does once its start-up preparation is over.
"""

from __future__ import annotations

from bot.lexicons import BUNDLED, LexiconRegistry

_SHARED: list[LexiconRegistry] = []


def ready_registry() -> LexiconRegistry:
    """The shared registry, ``fr`` and ``en`` loaded."""
    if not _SHARED:
        registry = LexiconRegistry()
        for spec in BUNDLED:
            registry.get(spec)
        _SHARED.append(registry)
    return _SHARED[0]
