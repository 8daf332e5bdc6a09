"""The actions replies offer (``bot.actions``), written in the room's language: each runs the command line
its user would type, with the command's name in that language. A catalog that lacks a label or a command's
name (a language being translated) offers no button for it: the reply's text still says what to type."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .actions import Action, ActionError, ActionStyle, Form, FormField
from .catalogs import CATALOGS
from .messages import languages, say

Offer = tuple[Action, ...]


def _known(lang: str, *keys: str) -> bool:
    catalog = CATALOGS.catalog(lang)
    return all(key in catalog for key in keys)


def command_line(lang: str, command: str, args: str = "") -> str:
    """``/rejoindre``, ``/feuille p2``: a command (by its English name) as typed in ``lang``."""
    return f"/{say(lang, f'name_{command}')} {args}".rstrip()


def action(
    lang: str,
    label: str,
    command: str,
    args: str = "",
    *,
    style: ActionStyle = ActionStyle.SECONDARY,
    confirm: bool = False,
) -> Offer:
    """The button ``action_<label>`` that runs ``command`` with ``args`` (none when the catalog cannot
    name it, or its line is too long to come back from a platform)."""
    if not _known(lang, f"action_{label}", f"name_{command}"):
        return ()
    try:
        return (Action(say(lang, f"action_{label}"), command_line(lang, command, args), style, confirm),)
    except ActionError:
        return ()


def dangerous(lang: str, label: str, command: str, args: str = "") -> Offer:
    """A button for what cannot be undone: red, and confirmed first."""
    return action(lang, label, command, args, style=ActionStyle.DANGER, confirm=True)


def join_action(lang: str) -> Offer:
    return action(lang, "join", "join", style=ActionStyle.PRIMARY)


FORM_KEYS = ("action_play", "form_play_title", "form_field_ref", "form_field_word", "form_field_score", "name_play")


def play_form(lang: str) -> Form:
    """The duplicate answer's form: reference, word, the score claimed (if any)."""
    fields = (
        FormField("ref", say(lang, "form_field_ref"), max_length=3),
        FormField("word", say(lang, "form_field_word"), max_length=20),
        FormField("score", say(lang, "form_field_score"), required=False, max_length=4),
    )
    return Form(say(lang, "form_play_title"), command_line(lang, "play"), fields)


def form_for(lang: str, command: str) -> Form | None:
    """The form whose answer runs ``command`` (``/jouer``, ``/play``: the duplicate answer's), in ``lang``."""
    names = {f"/{say(other, 'name_play')}" for other in languages() if _known(other, "name_play")}
    return play_form(lang) if command in names and _known(lang, *FORM_KEYS) else None


def play_action(lang: str) -> Offer:
    """*Play*: opens the duplicate answer's form, whose answer only the player sees and which makes the
    typed ``/jouer`` line."""
    if not _known(lang, *FORM_KEYS):
        return ()
    form = play_form(lang)
    return (Action(say(lang, "action_play"), form.command, ActionStyle.PRIMARY, form=form),)


def challenge_action(lang: str, costs_a_turn: bool) -> Offer:
    """*Challenge* the last move; confirmed first when a lost challenge costs the challenger a turn."""
    if costs_a_turn:
        return dangerous(lang, "challenge", "challenge")
    return action(lang, "challenge", "challenge")


def confirmed(lang: str, label: str, command: str, args: str) -> Offer:
    """*Confirm* (``command args !``, asked "sure?" first) and *Cancel*, under a refusal that asks for ``!``."""
    words = [word for word in args.split() if word != "!"]
    confirm = dangerous(lang, label, command, " ".join([*words, "!"]))
    if not confirm or not _known(lang, "action_cancel"):
        return ()
    return (*confirm, Action(say(lang, "action_cancel")))


def page_actions(lang: str, command: str, page: int, pages: int, args: Iterable[str] = ()) -> Offer:
    """*Previous* and *Next* page of a paged view (``pN`` words)."""
    rest = " ".join(args)
    found: Offer = ()
    if page > 1:
        found += action(lang, "page_previous", command, f"{rest} p{page - 1}".strip())
    if page < pages:
        found += action(lang, "page_next", command, f"{rest} p{page + 1}".strip())
    return found


def menu(
    lang: str, name: str, command: str, key: str, values: Iterable[str], current: str, shown: Callable[[str], str] = str
) -> Offer:
    """A select menu named ``name`` whose choices run ``command key VALUE`` (the current value left out), each
    labelled ``shown(VALUE)`` (the value itself by default)."""
    if not _known(lang, f"name_{command}"):
        return ()
    return tuple(
        Action(shown(value), command_line(lang, command, f"{key} {value}"), menu=name)
        for value in values
        if value != current
    )
