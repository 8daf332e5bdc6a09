"""/words (/mots): a channel's house words, listed by anyone, changed by a channel admin only.

``/words add KA OM`` accepts words the list lacks, ``/words remove NEW`` rejects
words it has, and removing an added word (or adding a rejected one) undoes that
change; the sub-words of every catalog (``ajoute``, ``retire``) work everywhere. House words
belong to a list: without a list named first (``/words en add ZA``) a change is
for the list of the running game, else the channel's. Only what changes a verdict
is stored, with who made it and when; challenges, /check, duplicate submissions
and tops on that list use them from then on.
"""

from __future__ import annotations

from core.errors_lexicon import InvalidWordError
from core.lexicon import normalise_word

from ...commands.context import Context, UserError
from ...commands.options import Form, Sub, Suggest
from ...commands.options import text as text_option
from ...commands.registry import Access, Section, command
from ...messages import keyword_form, keywords
from ...play import seats
from ...storage import GameKind
from ...timefmt import date_time
from ...words.game_lists import game_list, list_name
from ...words.house import ADD, CLEAR, REMOVE, HouseWordChange, HouseWords
from ...words.loader import UnknownListError, chat_list_spec, list_key, split_key

SYMBOLS = {"+": ADD, "-": REMOVE}  # typed in any language; the words are the catalogs' (ACTION_WORDS)
ACTION_WORDS = {"keywords_words_add": ADD, "keywords_words_remove": REMOVE}


def action_named(word: str) -> str | None:
    """The change a sub-word names (``add``, ``ajoute``, ``+``...: the words of every catalog), if any."""
    if word in SYMBOLS:
        return SYMBOLS[word]
    typed = keyword_form(word)
    for key, action in ACTION_WORDS.items():
        if typed in keywords(key):
            return action
    return None


WORDS_PER_COMMAND = 20
MOST_HOUSE_WORDS = 1000
CHANGES_SHOWN = 5


@command(
    "words",
    section=Section.GENERAL,
    rank=40,
    access=Access.ADMIN,
    read_without_args=True,
    slow=True,
    uses_list=True,
    form=Form(
        subs=(
            Sub("show", (text_option("list", suggest=Suggest.LISTS),), word=""),
            Sub("add", (text_option("words", required=True),)),
            Sub("remove", (text_option("words", required=True, suggest=Suggest.HOUSE_WORDS),)),
        ),
        admin=True,
    ),
)
def cmd_words(ctx: Context) -> None:
    tokens = ctx.args.replace(",", " ").split()
    spec = ctx.list_in_force()
    if tokens and action_named(tokens[0]) is None:  # a list named first
        try:
            spec = list_key(chat_list_spec(tokens[0]), ctx.edition_in_force())
        except UnknownListError:
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang)) from None
        tokens = tokens[1:]
    if not tokens:
        show(ctx, spec)
        return
    ctx.require_admin()
    action = action_named(tokens[0])
    typed = tokens[1:]
    if action is None or not typed:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if len(typed) > WORDS_PER_COMMAND:
        raise UserError("words_too_many", limit=WORDS_PER_COMMAND)
    words: list[str] = []
    alphabet = split_key(spec)[1]  # the words are the tiles of the list's edition
    for text in typed:
        try:
            word = normalise_word(text, alphabet)
        except InvalidWordError:
            raise UserError("words_not_a_word", word=text[:40]) from None
        if word not in words:
            words.append(word)
    channel = ctx.message.channel
    word_list = ctx.services.lexicons.ready(spec)  # what the list says decides what must be stored
    house = ctx.services.lists.house(channel, spec)
    changes: list[tuple[str, str]] = []
    for word in words:
        change = house.change_for(word, valid=action == ADD, in_list=word in word_list)
        if change is not None:
            house = house.changed(change, word)
            changes.append((change, word))
    if len(house) > MOST_HOUSE_WORDS:
        raise UserError("words_full", limit=MOST_HOUSE_WORDS)
    author, name, now = ctx.message.user, seats.display_name(ctx.message), ctx.services.now()
    for change, word in changes:
        ctx.storage.add_house_word_change(HouseWordChange(channel, change, word, author, name, now, spec))
    changed = {word for _, word in changes}
    unchanged = [(word, word in word_list) for word in words if word not in changed]
    ctx.reply("\n".join(_change_lines(ctx, spec, action, changes, unchanged, house)))
    running = ctx.storage.active_game(channel)
    if changes and running is not None and running.kind is GameKind.DUPLICATE and game_list(running.setup) == spec:
        ctx.services.lists.prepare_movegen(spec, channel)  # its next top walks the list with them


def _change_lines(
    ctx: Context,
    spec: str,
    action: str,
    changes: list[tuple[str, str]],
    unchanged: list[tuple[str, bool]],
    house: HouseWords,
) -> list[str]:
    """What a change did: the words now accepted or rejected, those left to the list again, those
    already settled the wanted way (by the list, ``True``, or by the house words); then the count."""
    name = list_name(spec)
    spell = split_key(spec)[1].spell
    cleared = "words_unremoved" if action == ADD else "words_unadded"
    if action == ADD:
        already = ("words_already_in", "words_already_added")
    else:
        already = ("words_already_rejected", "words_not_in")
    groups = [
        ("words_added", [word for change, word in changes if change == ADD]),
        ("words_removed", [word for change, word in changes if change == REMOVE]),
        (cleared, [word for change, word in changes if change == CLEAR]),
        (already[0], [word for word, in_list in unchanged if in_list]),
        (already[1], [word for word, in_list in unchanged if not in_list]),
    ]
    lines = [
        ctx.say(key, words=", ".join(map(spell, done)), count=len(done), list=name) for key, done in groups if done
    ]
    lines.append(ctx.say("words_total", count=len(house), list=name))
    return lines


def show(ctx: Context, spec: str) -> None:
    """The channel's house words for the list ``spec``, and the latest changes with who made them and when."""
    changes = ctx.storage.house_word_changes(ctx.message.channel, spec)
    house = HouseWords.replay(changes)
    name = list_name(spec)
    spell = split_key(spec)[1].spell
    if not house:
        ctx.reply(ctx.say("words_none", list=name))
        return
    lines = []
    if house.added:
        lines.append(ctx.say("words_accepted", count=len(house.added), words=" ".join(map(spell, sorted(house.added)))))
    if house.removed:
        removed = " ".join(map(spell, sorted(house.removed)))
        lines.append(ctx.say("words_rejected", count=len(house.removed), words=removed))
    zone = ctx.settings.zone
    latest = [
        ctx.say("words_change", sign=sign, word=spell(change.word), name=change.name, when=date_time(change.at, zone))
        for change, sign in reversed(_signed(changes)[-CHANGES_SHOWN:])
    ]
    ctx.reply(ctx.say("words_list", list=name, lines="\n".join(lines), changes="\n".join(latest)))


def _signed(changes: list[HouseWordChange]) -> list[tuple[HouseWordChange, str]]:
    """Each change with the sign of what was asked: ``+`` accepted, ``-`` rejected (a cleared word
    was asked the other way from the entry it drops)."""
    house = HouseWords()
    signed = []
    for change in changes:
        if change.action == CLEAR:
            sign = "-" if change.word in house.added else "+"
        else:
            sign = "+" if change.action == ADD else "-"
        signed.append((change, sign))
        house = house.changed(change.action, change.word)
    return signed
