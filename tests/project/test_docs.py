"""The documentation stays true to the code and to itself.

The command reference is what the registry and the catalogs say today (``docs/commands.md`` is written by
``python -m bot.tools.command_reference docs/commands.md``). The README stays a README: short, its two
set-up commands the ones the Makefile and CI run, its chat transcript what the console answers. Every
relative link of the README, CONTRIBUTING.md and docs/ leads to a file of the repository, and to a heading
of it when it names one.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from bot.games.installed import COMMANDS
from bot.tools.command_reference import PAGE, bundled_languages, main, reference
from tests.paths import REPO_ROOT
from tests.transcripts import run_console

ROOT = REPO_ROOT
README = ROOT / "README.md"
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LINES = 150
# The set-up block, as a fresh machine reads it: one command runs the bot on its embedded default, one the tests.
SET_UP = """\
```sh
make run     # creates .venv if needed with what running needs, and starts the bot (console chat room)
make test    # adds the test tool-chain to .venv if needed, and runs the whole test suite
```
"""
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```$", re.MULTILINE | re.DOTALL)
TYPED = re.compile(r"^\w+: /")  # a line typed into the console chat room (the others are its answers)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


# --- the command reference ---------------------------------------------------------------------------


def test_the_command_reference_is_up_to_date() -> None:
    written = (ROOT / PAGE).read_text(encoding="utf-8")
    assert written == reference(), f"{PAGE} is out of date: run python -m bot.tools.command_reference {PAGE}"


def test_the_reference_names_every_command_in_every_bundled_language() -> None:
    page = reference()
    for spec in COMMANDS:
        for lang in bundled_languages():
            assert f"`/{spec.name_in(lang)}`" in page
            assert spec.summary(lang) in page
            assert " ".join(spec.usage(lang).split()) in page


def test_the_script_writes_the_page(tmp_path: Path) -> None:
    assert main([str(tmp_path / "commands.md")]) == 0
    assert (tmp_path / "commands.md").read_text(encoding="utf-8") == reference()


# --- the README ----------------------------------------------------------------------------------------


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines: move the details to docs/"


def test_the_readme_keeps_the_two_set_up_commands_and_ci_runs_its_test_command() -> None:
    text = README.read_text(encoding="utf-8")
    assert SET_UP in text
    commands = [line.split("#")[0].strip() for line in SET_UP.splitlines()[1:-1]]
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert all(re.search(rf"^{command.split()[1]}: ", makefile, re.MULTILINE) for command in commands)
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    run = [line for line in ci if line and not line.startswith("#")]
    assert run[-1] == commands[1]  # CI ends by running the README's test command


def test_the_readme_transcript_is_what_the_console_answers(tmp_path: Path) -> None:
    (transcript,) = [block for block in FENCE.findall(README.read_text(encoding="utf-8")) if "[#console]" in block]
    lines = transcript.splitlines()
    typed = [line for line in lines if TYPED.match(line)]
    answers = [line for line in lines if line.strip() and not TYPED.match(line)]
    assert len(typed) >= 3
    output = run_console("".join(f"{line}\n" for line in typed), tmp_path / "readme.sqlite")
    assert [line for line in output.splitlines() if line.strip()] == answers


# --- links ---------------------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lowercase, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (outside code blocks), repeated ones numbered."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            found.add(base if base not in counts else f"{base}-{counts[base]}")
            counts[base] = counts.get(base, 0) + 1
    return found


def test_slugs_are_githubs() -> None:
    assert slug("One `/jouer`, from the platform to the outbox") == "one-jouer-from-the-platform-to-the-outbox"
    assert slug("Duplicate (FISF)") == "duplicate-fisf"
    assert slug("Simultanés") == "simultanés"
    assert slug("The outbox's guarantees") == "the-outboxs-guarantees"


@pytest.mark.parametrize("page", PAGES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        if not path.exists() or (anchor and path.suffix == ".md" and anchor not in anchors(path)):
            broken.append(target)
    assert broken == []
