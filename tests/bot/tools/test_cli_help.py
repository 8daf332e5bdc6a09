"""``arbitre ... --help``: every subcommand and every argument says what it is, in one line."""

from __future__ import annotations

import argparse

import pytest

from bot.cli import TOOLS, build_parser, main


def subcommands() -> dict[str, tuple[argparse.ArgumentParser, str]]:
    """Each subcommand's parser and the line ``arbitre --help`` shows for it."""
    parser = build_parser()
    group = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lines = {choice.dest: choice.help or "" for choice in group._choices_actions}
    return {name: (sub, lines.get(name, "")) for name, sub in group.choices.items()}


SUBCOMMANDS = subcommands()


def test_every_tool_is_listed() -> None:
    assert set(TOOLS) | {"lexicon"} == set(SUBCOMMANDS)


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_subcommand_and_argument_has_a_one_line_description(name: str) -> None:
    parser, line = SUBCOMMANDS[name]
    assert line
    assert "\n" not in line
    assert parser.description
    assert parser.description.endswith(".")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        shown = "/".join(action.option_strings) or action.metavar or action.dest
        assert action.help, f"arbitre {name}: {shown} has no description"
        assert action.help.strip(), f"arbitre {name}: {shown} has a blank description"
        assert "\n" not in action.help


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["check", "--help"], ["WORD", "a word to look up (case and accents ignored)", "exit status 0"]),
        (["lexicon", "--help"], ["build: compile them into the cache", "sha256", "LIST"]),
        (["top", "--help"], ["why the first is ahead of the second", "--rack"]),
        (["console", "--help"], ["language of a new room", "a room already in the database keeps its settings"]),
        (["duplicate", "--help"], ["how the joker counts in the draw rule"]),
    ],
)
def test_the_help_texts_describe_words_and_actions(
    capsys: pytest.CaptureFixture[str], args: list[str], expected: list[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    for text in expected:
        assert text in out, text
