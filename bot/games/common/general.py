"""Commands that need no game: /help, /settings, /check."""

from __future__ import annotations

from core.adjudication import check_words
from core.edition import EDITIONS
from core.game_options import CLOCK_MINUTES, MAX_CHALLENGE_PENALTY, STOPWATCH_SECONDS
from core.notation import Notation
from core.rules import RULE_SETS

from ... import buttons
from ...actions import Action
from ...catalogs import CATALOGS
from ...commands.context import Context, UserError
from ...commands.options import Form, Label, Sub, Suggest, choice, decimal_number, integer, text
from ...commands.registry import Access, Section, command, declared, find, unknown_command_text
from ...messages import edition_name, keyword_form, keywords, language_name, languages, number, say
from ...numbers import read_decimal
from ...storage import ChannelSettings
from ...timefmt import UnknownTimeZoneError, canonical_zone
from ...words.game_lists import ListUsed, game_list, verdicts_text
from ...words.loader import chat_list_spec, list_key
from ..classic.settings import game_setting, running_classic, settings_line
from ..duplicate.commands import MAX_MINUTES, MIN_MINUTES

SETTINGS = ("language", "edition", "notation", "rules", "lexicon", "minutes", "timezone")

WORDS_CHECKED = 20  # words one /check answers (its answer stays well within a chat message)

# Settings a running game keeps from its start (a change applies to the next game).
GAME_SETTINGS = frozenset({"edition", "notation", "rules", "lexicon", "minutes"})


def setting_names(setting: str, first: str | None = None) -> list[str]:
    """The setting's name in every language whose catalog names it (``first``'s first), each once."""
    order = ([first] if first else []) + [lang for lang in languages() if lang != first]
    key = f"setting_key_{setting}"
    return list(dict.fromkeys(say(lang, key) for lang in order if lang == first or key in CATALOGS.catalog(lang)))


def setting_named(word: str) -> str | None:
    """The setting a typed word names, in any language (accents folded, any case): its own name, or a word
    of some catalog's ``setting_key_<setting>`` or ``setting_words_<setting>``."""
    typed = keyword_form(word)
    for setting in SETTINGS:
        if typed == setting or typed in keywords(f"setting_words_{setting}"):
            return setting
        if typed in (keyword_form(name) for name in setting_names(setting)):
            return setting
    return None


def setting_values() -> dict[str, tuple[str, ...]]:
    """The values a setting with a fixed choice may take (lexicon: fr, en or a path; minutes: a number)."""
    return {
        "language": languages(),
        "edition": tuple(EDITIONS),
        "notation": tuple(n.value for n in Notation),
        "rules": tuple(RULE_SETS),
    }


def section_named(word: str) -> Section | None:
    """The /help section a typed word names, in any language (``classique``, ``views``)."""
    typed = keyword_form(word)
    return next((s for s in Section if typed in keywords(f"help_section_word_{s.value}")), None)


def help_sections(lang: str, sections: tuple[Section, ...]) -> list[str]:
    """The commands of ``sections``, under each section's title."""
    lines: list[str] = []
    for section in sections:
        lines.append(say(lang, f"help_section_{section.value}"))
        lines += [f"/{spec.name_in(lang)} — {spec.summary(lang)}" for spec in declared() if spec.section is section]
    return lines


def section_buttons(lang: str, shown: tuple[Section, ...]) -> tuple[Action, ...]:
    """A button to each section not shown (``/aide classique``)."""
    found: tuple[Action, ...] = ()
    for section in Section:
        if section not in shown and f"help_section_word_{section.value}" in CATALOGS.catalog(lang):
            word = say(lang, f"help_section_word_{section.value}").split()[0]
            found += buttons.action(lang, f"help_{section.value}", "help", word)
    return found


@command("help", section=Section.GENERAL, rank=10, read_only=True, form=Form((text("topic", suggest=Suggest.TOPICS),)))
def cmd_help(ctx: Context) -> None:
    """The commands by section, one section, or one command; answered to the asker alone where it was asked
    privately (a Discord slash command: ephemeral, through its own interaction; a private chat), to the chat
    otherwise: a Telegram group sees it, as a private answer there would need the asker's private chat with
    the bot, opened or not, and a link to it in the group; the console's shared room too."""
    answer = ctx.private if ctx.message.private else ctx.reply
    topic = ctx.args.split()[0] if ctx.args.split() else ""
    section = section_named(topic) if topic else None
    spec = find(topic) if topic else None
    if topic and spec is None and section is None:
        raise UserError("unknown_help_topic", text=unknown_command_text(ctx.lang, topic))
    lines: list[str] = []
    if spec is not None:  # a command (/aide duplicate: the command, then its section's commands)
        own = spec.name_in(ctx.lang)
        others = list(dict.fromkeys(f"/{name}" for name in spec.names().values() if name != own))
        alias = f" ({', '.join(others)})" if others else ""
        lines += [f"{spec.usage(ctx.lang)}{alias}", spec.help(ctx.lang)]
        if spec.uses_list:
            lines.append(ctx.say("lexicon_note"))
    if section is not None:
        lines += [*help_sections(ctx.lang, (section,)), ctx.say("help_more")]
    if topic:
        answer("\n".join(lines), actions=section_buttons(ctx.lang, (section,)) if section else ())
        return
    lines = [ctx.say("help_title"), *help_sections(ctx.lang, tuple(Section)), ctx.say("help_more")]
    answer("\n".join([*lines, ctx.say("lexicon_note")]), actions=section_buttons(ctx.lang, ()))


MOST_CLOCK = max(CLOCK_MINUTES[1], STOPWATCH_SECONDS[1])  # a chess clock's minutes or a stopwatch's seconds


def _settings_form() -> Form:
    """/settings as a subcommand per setting, its value typed for it: a choice, a number within its range, or
    words offered while typed; each writes the typed line (``/settings clock on 25``). ``show``: the settings.
    The channel's settings first, then those of a running classic game (its referee's, before its first move)."""
    values = setting_values()
    channel: list[Sub] = [Sub("show", word="")]
    labels = {"language": Label.LANGUAGE, "edition": Label.EDITION}  # shown by their names, not their codes
    channel += [
        Sub(key, (choice("value", *values[key], required=True, label=labels.get(key, Label.WORD)),)) for key in values
    ]
    channel += [
        Sub("lexicon", (text("value", required=True, suggest=Suggest.LISTS),)),
        Sub("minutes", (decimal_number("value", MIN_MINUTES, MAX_MINUTES, required=True),)),
        Sub("timezone", (text("value", required=True, suggest=Suggest.ZONES),)),
    ]
    game = [
        Sub("penalty", (integer("value", 0, MAX_CHALLENGE_PENALTY, required=True),)),
        *(Sub(name, (choice("value", "yes", "no", required=True),)) for name in ("double", "void", "zeros")),
        Sub("clock", (choice("clock", "on", "stopwatch", "off", required=True), integer("time", 1, MOST_CLOCK))),
    ]
    return Form(subs=(*channel, *game))


SETTINGS_FORM = _settings_form()


@command(
    "settings",
    section=Section.GENERAL,
    rank=20,
    access=Access.ADMIN,
    read_without_args=True,
    slow=True,
    uses_list=True,
    form=SETTINGS_FORM,
)
def cmd_settings(ctx: Context) -> None:
    words = ctx.args.split(maxsplit=1)
    settings = ctx.settings
    if not words:
        ctx.reply(settings_text(ctx, settings), actions=settings_menus(ctx.lang, settings))
        return
    if game_setting(ctx, ctx.args.split()):  # a setting of the running classic game (its referee's)
        return
    ctx.require_admin()
    key = setting_named(words[0])
    value = words[1].strip() if len(words) > 1 else ""
    allowed = setting_values()
    keys = ", ".join("/".join(setting_names(setting, ctx.lang)) for setting in SETTINGS)
    if key is None or not value:
        raise UserError("bad_setting", key=words[0], value=value, keys=keys)
    if key in allowed:
        value = value.lower()
        if value not in allowed[key]:
            choices = ctx.say("setting_choices", name=setting_names(key, ctx.lang)[0], values=", ".join(allowed[key]))
            raise UserError("bad_setting", key=words[0], value=value, keys=choices)
        changes: dict[str, object] = {key: value}
        if key == "edition":  # an edition brings its usual notation, list and rules
            changes = vars(settings.with_edition(value))
    elif key == "minutes":
        minutes = read_decimal(value)
        if minutes is None:
            span = f"{number(ctx.lang, MIN_MINUTES)}-{number(ctx.lang, MAX_MINUTES)}"
            choices = ctx.say("setting_choices", name=setting_names(key, ctx.lang)[0], values=span)
            raise UserError("bad_setting", key=words[0], value=value[:20], keys=choices)
        if not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise UserError("bad_minutes", value=value[:20])
        changes = {"minutes": minutes}
    elif key == "timezone":
        try:
            changes = {"timezone": canonical_zone(value)}
        except UnknownTimeZoneError:
            raise UserError("bad_timezone", value=value[:40]) from None
    else:  # lexicon: a bundled list or one of the operator's lists, by name; checked ready before it is kept
        spec = chat_list_spec(value)
        ctx.services.lexicons.ready(list_key(spec, settings.edition))  # "being prepared" until it is compiled
        changes = {"lexicon": spec}
    updated = settings.with_changes(**changes)
    ctx.storage.save_channel(updated)
    ctx.settings = updated
    if "edition" in changes:  # the edition's list is compiled while the players get ready, not at the first move
        ctx.services.lists.prepare_movegen(game_list(updated), updated.channel)
    text = settings_text(ctx, updated)
    running = ctx.storage.active_game(ctx.message.channel)
    if running is not None and GAME_SETTINGS & set(changes):
        text += "\n" + ctx.say("settings_next_game", kind=ctx.say(f"kind_{running.kind}"))
    ctx.reply(text, actions=settings_menus(ctx.lang, updated))


def settings_menus(lang: str, settings: ChannelSettings) -> tuple[Action, ...]:
    """A select menu per setting with a fixed choice (language, edition, notation, rules), less the value in force:
    a language or an edition shown by its name, a notation or rule set by its own (``fisf``)."""
    found: list[Action] = []
    shown = {"language": language_name, "edition": edition_name}
    for key, values in setting_values().items():
        name = setting_names(key, lang)[0]
        current = str(getattr(settings, key))
        found += buttons.menu(lang, name, "settings", name, values, current, shown.get(key, str))
    return tuple(found)


def settings_text(ctx: Context, settings: ChannelSettings) -> str:
    """The settings; the list with the count of the channel's house words for it (``fr + 2 mots maison``)."""
    house = ctx.services.lists.house(settings.channel, game_list(settings))
    lexicon = ListUsed(settings.lexicon, house).label(ctx.lang)
    minutes = number(ctx.lang, settings.minutes)
    text = ctx.say("settings", **{**vars(settings), "lexicon": lexicon, "timezone": settings.zone, "minutes": minutes})
    running = running_classic(ctx)
    return text if running is None else text + "\n" + settings_line(ctx.lang, running[1])


@command(
    "check",
    section=Section.GENERAL,
    rank=30,
    read_only=True,
    slow=True,
    uses_list=True,
    form=Form((text("words", required=True),)),
)
def cmd_check(ctx: Context) -> None:
    words = ctx.args.replace(",", " ").split()
    spec = ctx.list_in_force()
    if words and words[0].endswith(":") and len(words[0]) > 1:  # a list named first: /check en: ZA
        spec = list_key(chat_list_spec(words.pop(0)[:-1]), ctx.edition_in_force())
    if not words:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    word_list = ctx.word_list(spec)
    alphabet = word_list.alphabet
    verdicts = check_words(words[:WORDS_CHECKED], word_list, alphabet)
    text = verdicts_text(ctx.lang, verdicts, word_list.house, alphabet)
    answer = ctx.say("check", verdicts=text, lexicon=ListUsed(word_list.spec, word_list.house).label(ctx.lang))
    if len(words) > WORDS_CHECKED:
        answer += "\n" + ctx.say("check_first_only", count=WORDS_CHECKED, given=len(words))
    ctx.reply(answer)
