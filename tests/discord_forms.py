"""A typed line as a Discord form's filled options, for the tests that send a command the way a user types it
(``/score`` ``H8 VAGUE 24`` -> ``score``, ``{"position": "H8", "word": "VAGUE", "claimed": 24}``).

The filling is the tests' own and simple: a subcommand by its first word (one that writes no word: the one
whose options the words fill best, ``/correct``'s), then the options in declared order, a whole number or a
choice or a flag's word taken where it fits, the last text option taking the words the options after it do
not. The bot turns the options back into the line (``Form.line``): a test
can check that both give the same answer.
"""

from __future__ import annotations

import re
from typing import Any

import bot.games.installed  # noqa: F401  (the commands declare themselves on import)
from bot.commands import find
from bot.commands.options import Kind, Option
from bot.messages import keyword_form, keywords


def _fits(option: Option, word: str) -> bool:
    if option.kind is Kind.INTEGER:
        return word.lstrip("-").isdigit()
    if option.kind is Kind.NUMBER:
        return re.fullmatch(r"-?\d+(?:[.,]\d+)?", word) is not None
    if option.kind is Kind.CHOICE:
        return word.lower() in option.choices
    if option.kind is Kind.FLAG:
        return word == option.shape
    return False


def _value(option: Option, word: str) -> Any:
    if option.kind is Kind.FLAG:
        return True
    if option.kind is Kind.NUMBER:
        return float(word.replace(",", "."))
    return int(word) if option.kind is Kind.INTEGER else word


def fill(options: tuple[Option, ...], words: list[str]) -> dict[str, Any]:
    """The options ``words`` fill, in declared order."""
    filled: dict[str, Any] = {}
    texts = [o for o in options if o.kind is Kind.TEXT]
    for index, option in enumerate(options):
        if not words:
            break
        if option.kind is Kind.MEMBER:
            continue
        if option.kind is not Kind.TEXT:
            if _fits(option, words[0]):
                filled[option.name] = _value(option, words.pop(0))
            continue
        if option.shape != "{}":  # "seed {}": its keyword first
            keyword = option.shape.split()[0]
            if keyword_form(words[0]) != keyword:
                continue
            words.pop(0)
        if option is not texts[-1]:
            filled[option.name] = words.pop(0)
            continue
        later = [o for o in options[index + 1 :] if o.kind is not Kind.TEXT]
        end = len(words)
        while end > 1 and any(_fits(o, words[end - 1]) for o in later):
            end -= 1
        filled[option.name] = " ".join(words[:end])
        del words[:end]
    return filled


def form_options(name: str, args: str | None) -> tuple[str, dict[str, Any] | None]:
    """The command (with its subcommand) and the options a user fills to say ``/name args``."""
    spec = find(name)
    assert spec is not None, name
    form = spec.form
    words = (args or "").split()
    if form is None:
        return name, ({"args": args} if args else None)
    if form.subs:
        sub = next((s for s in form.subs if words and keyword_form(words[0]) in _sub_words(spec.name, s.name)), None)
        if sub is None:  # a subcommand that writes no word: the one whose typed options the words fill best
            bare = [s for s in form.subs if s.written_word == "" and (not words or s.options)]
            sub = max(bare, key=lambda s: _typed_filled(s.options, words))
        else:
            words.pop(0)
        return f"{name} {sub.name}", fill(sub.options, words) or None
    if any(o.name == "args" for o in form.options) and args and not _all_fit(form.options, words):
        return name, {"args": args}
    return name, fill(form.options, words) or None


def _sub_words(command: str, sub: str) -> set[str]:
    """The words a subcommand is typed with: its name, and the command's keywords for it in every catalog."""
    found = {sub}
    keys = ("keywords_{}_{}", "setting_words_{}", "setting_key_{}", "game_setting_words_{}", "keywords_words_{}")
    for key in (k.format(command, sub) if k.count("{}") == 2 else k.format(sub) for k in keys):
        found |= set(keywords(key))
    return found


def _typed_filled(options: tuple[Option, ...], words: list[str]) -> int:
    """How many options other than free words (numbers, choices, a keyword's text) ``words`` fill, all
    required ones filled (-1 when one is not)."""
    filled = fill(options, list(words))
    if any(o.required and o.name not in filled for o in options if o.kind is not Kind.MEMBER):
        return -1
    return sum(1 for o in options if o.name in filled and (o.kind is not Kind.TEXT or o.shape != "{}"))


def _all_fit(options: tuple[Option, ...], words: list[str]) -> bool:
    """Every word fits a typed option other than the free text."""
    typed = [o for o in options if o.kind is not Kind.TEXT]
    return all(any(_fits(o, w) for o in typed) for w in words)
