"""The command reference, ``docs/commands.md``, written from the command registry and the catalogs.

Every command the registry declares (``bot.commands.registry``), in /help's order and sections, with its
name, one-line summary and usage in each bundled catalog's language (``name_<command>``,
``summary_<command>``, ``usage_<command>``). Nothing here is written by hand but the page's introduction and
headings, so the page cannot drift from the bot: ``tests/project/test_docs.py`` writes it again and compares.

    python -m bot.tools.command_reference docs/commands.md    # writes the page
    python -m bot.tools.command_reference                      # prints it
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..catalogs import DOMAIN, LOCALE_DIR
from ..commands import CommandSpec, Section
from ..games.installed import COMMANDS
from ..messages import languages

PAGE = "docs/commands.md"  # where the page lives in the repository
DESCRIPTION = "Write the command reference from the command registry and the catalogs."
TITLES = {
    Section.CLASSIC: "Classic games",
    Section.DUPLICATE: "Duplicate games",
    Section.VIEWS: "Views, series, simultanés and the live page",
    Section.GENERAL: "General",
}
INTRO = f"""\
# Command reference

<!-- Written by `python -m bot.tools.command_reference {PAGE}` from the command registry
(bot/commands/registry.py) and the catalogs (bot/locale/): do not edit it by hand, run that command;
tests/project/test_docs.py fails when this page is out of date. -->

Every command of the bot, in the order and the sections of `/help`, with its name, what it does and how it
is typed in each language of the bundled catalogs. Every command has a name in each language, and every
name works in every channel whatever its language; `/help COMMAND` (`/aide COMMANDE`) explains one in the
chat. Who may use each command: the tables of [Playing](playing.md#in-the-chat-room) and
[Who may do what](playing.md#who-may-do-what).
"""


def bundled_languages() -> tuple[str, ...]:
    """The languages of the catalogs the package ships (``bot/locale``), not those ``ARBITRE_LOCALES`` adds."""
    return tuple(lang for lang in languages() if (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").is_file())


def cell(text: str) -> str:
    """Text for a Markdown table's cell: its bars escaped, on one line."""
    return " ".join(text.split()).replace("|", "\\|")


def section_page(section: Section, specs: Sequence[CommandSpec], langs: Sequence[str]) -> list[str]:
    """One section: a table of the names and summaries in each language, then the usages."""
    lines = [f"## {TITLES.get(section, section.value.capitalize())}", ""]
    header = [*(f"`{lang}`" for lang in langs), *(f"summary (`{lang}`)" for lang in langs)]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * (2 * len(langs)))
    for spec in specs:
        names = [f"`/{spec.name_in(lang)}`" for lang in langs]
        summaries = [cell(spec.summary(lang)) for lang in langs]
        lines.append("| " + " | ".join([*names, *summaries]) + " |")
    lines += ["", "How each is typed, in " + ", ".join(f"`{lang}`" for lang in langs) + ":", "", "```text"]
    for number, spec in enumerate(specs):
        if number:
            lines.append("")
        lines += [" ".join(spec.usage(lang).split()) for lang in langs]
    lines += ["```", ""]
    return lines


def aliases_page(specs: Sequence[CommandSpec]) -> list[str]:
    """The other names people type for some commands (``CommandSpec.aliases``), when any has some."""
    aliased = [spec for spec in specs if spec.aliases()]
    if not aliased:
        return []
    lines = [
        "## Other names",
        "",
        "Names people often type for a command, understood wherever commands are typed (the console, Telegram),",
        "in every channel; `/help` and the menus show only the names above.",
        "",
        "| command | also typed |",
        "|---|---|",
    ]
    for spec in aliased:
        lines.append(f"| `/{spec.name}` | " + ", ".join(f"`/{alias}`" for alias in spec.aliases()) + " |")
    return [*lines, ""]


def reference(langs: Sequence[str] | None = None) -> str:
    """The page: every declared command, by section, in /help's order."""
    langs = bundled_languages() if langs is None else tuple(langs)
    lines = [INTRO]
    for section in Section:
        specs = [spec for spec in COMMANDS if spec.section is section]
        if specs:
            lines += section_page(section, specs, langs)
    lines += aliases_page(COMMANDS)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.command_reference", description=DESCRIPTION)
    parser.add_argument("output", nargs="?", type=Path, help=f"the file to write ({PAGE}); without it, printed")
    args = parser.parse_args(argv)
    page = reference()
    if args.output is None:
        sys.stdout.write(page)
    else:
        args.output.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
