"""Commands' names as platforms take them: lowercase ASCII words of at most 32 characters, in every language."""

from __future__ import annotations

from core.edition import fold_accents

from ..commands.registry import CommandSpec
from ..messages import languages

DEFAULT_LANGUAGE = "en"  # the language of the platforms' default command names and descriptions


def platform_word(text: str, fallback: str) -> str:
    """A word as a platform command or option name: lowercase ASCII letters, digits and ``_``, 1-32
    characters (``fallback`` when nothing is left)."""
    folded = fold_accents(text).lower().replace(" ", "_")
    return "".join(c for c in folded if c.isascii() and (c.isalnum() or c == "_"))[:32] or fallback


def platform_name(spec: CommandSpec, lang: str) -> str:
    """The command's name in ``lang`` as a platform command name (its English name when none is left)."""
    return platform_word(spec.name_in(lang), spec.name)


def platform_names(spec: CommandSpec) -> list[str]:
    """The command's names in every language and its aliases, as platform command names, each once (what a
    platform takes typed; its menus list only ``platform_name``)."""
    aliases = (platform_word(alias, spec.name) for alias in spec.aliases())
    return sorted({spec.name, *(platform_name(spec, lang) for lang in languages()), *aliases})
