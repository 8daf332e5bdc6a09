"""The worked examples of the README and the docs are what the scorer says, so that they cannot drift from the bot.

Three kinds of examples are read from README.md and every page of docs/: a move in backquotes followed by its
arithmetic in backquotes (`` `/score H8 VAGUE` ... `VAGUE (...) = 20` ``); an ``arbitre score`` line of a shell
block whose comment starts with the totals (``# 56, 96, 20, 59``); and the moves of a chat-room block, played in
order (each page's on a board of their own), where a claimed score is pointed out when the comment says it
differs and must be right otherwise.
"""

from __future__ import annotations

import json
import re
import shlex

import pytest

from bot.cli import main
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
PAGES = {
    str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
}
EVERY_PAGE = "\n".join(PAGES.values())  # the inline and shell examples stand alone
MOVE = r"(?P<ref>[A-O]\d{1,2}|\d{1,2}[A-O]) (?P<word>[A-Za-z().]+)"
INLINE = re.compile(rf"`/(?:score|coup) {MOVE}`[^`]{{0,200}}`(?P<breakdown>(?P=word) [^`]*= \d+)`")
SHELL = re.compile(r"^(?:\.venv/bin/)?arbitre (?P<args>score [^#]+?)\s+# (?P<totals>\d+(?:, \d+)*)", re.MULTILINE)
CHAT = re.compile(rf"^\w+: /(?:score|coup) {MOVE}(?: (?P<claimed>\d+))?\s+# (?P<comment>.*)$", re.MULTILINE)


def scored(args: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    """What ``arbitre score --json ARGS`` answers, one entry per move."""
    assert main(["score", "--json", *args]) == 0
    data: list[dict[str, object]] = json.loads(capsys.readouterr().out)
    return data


def test_the_readme_and_the_docs_have_worked_examples() -> None:
    assert len(INLINE.findall(EVERY_PAGE)) >= 1
    assert len(SHELL.findall(EVERY_PAGE)) >= 2
    assert len(CHAT.findall(EVERY_PAGE)) >= 2


@pytest.mark.parametrize("example", [m.groupdict() for m in INLINE.finditer(EVERY_PAGE)], ids=lambda e: e["breakdown"])
def test_an_inline_move_has_the_arithmetic_the_bot_answers(
    example: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    (move,) = scored([f"{example['ref']} {example['word']}"], capsys)
    words = move["words"]
    assert isinstance(words, list)
    assert f"{words[0]['word']} {words[0]['breakdown']}" == example["breakdown"]


@pytest.mark.parametrize("example", [m.groupdict() for m in SHELL.finditer(EVERY_PAGE)], ids=lambda e: e["args"])
def test_a_shell_example_prints_the_totals_its_comment_gives(
    example: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = shlex.split(example["args"])[1:]
    totals = [int(total) for total in example["totals"].split(", ")]
    assert [move["score"] for move in scored(args, capsys)] == totals


@pytest.mark.parametrize("page", [name for name, text in PAGES.items() if CHAT.search(text)])
def test_the_chat_room_moves_score_as_their_comments_say(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    examples = [m.groupdict() for m in CHAT.finditer(PAGES[page])]
    moves = scored([f"{e['ref']} {e['word']}" for e in examples], capsys)
    for example, move in zip(examples, moves):
        if example["claimed"] is not None:
            differs = "differs" in example["comment"]
            assert (move["score"] != int(example["claimed"])) == differs, example
