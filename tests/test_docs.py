"""The documentation stays true to the code: the command reference is what the registry and the catalogs
say today (``docs/commands.md`` is written by ``python -m bot.tools.command_reference docs/commands.md``)."""

from __future__ import annotations

from pathlib import Path

from bot.commands import COMMANDS
from bot.tools.command_reference import PAGE, bundled_languages, main, reference

ROOT = Path(__file__).resolve().parent.parent


def test_the_command_reference_is_up_to_date() -> None:
    written = (ROOT / PAGE).read_text(encoding="utf-8")
    assert written == reference(), f"{PAGE} is out of date: run python -m bot.tools.command_reference {PAGE}"


def test_the_reference_names_every_command_in_every_bundled_language() -> None:
    page = reference()
    for spec in COMMANDS:
        for lang in bundled_languages():
            assert f"`/{spec.name_in(lang)}`" in page and spec.summary(lang) in page
            assert " ".join(spec.usage(lang).split()) in page


def test_the_script_writes_the_page(tmp_path: Path) -> None:
    assert main([str(tmp_path / "commands.md")]) == 0
    assert (tmp_path / "commands.md").read_text(encoding="utf-8") == reference()
