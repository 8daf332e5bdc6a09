"""/words (/mots): a channel's house words, listed by anyone, changed by the referee or a channel admin.

``/words add KA OM`` accepts words the channel's list lacks, ``/words remove NEW``
rejects words it has; French sub-words (``ajoute``, ``retire``) work everywhere.
Each change is stored with who made it and when; challenges, /check, duplicate
submissions and tops use the channel's list with its house words from then on.
"""

from __future__ import annotations

from core.edition import fold_accents
from core.errors import InvalidWordError
from core.lexicon import normalise_word

from ..house_words import ADD, REMOVE, HouseWordChange, HouseWords
from ..lexicons import ListPreparingError, UnknownListError, WordListError
from ..storage import GameKind
from ..timefmt import date_time
from ..word_lists import list_name
from . import seats
from .context import Context, UserError
from .registry import Access, Section, command

ACTIONS = {
    "add": ADD,
    "ajoute": ADD,
    "ajouter": ADD,
    "ajout": ADD,
    "+": ADD,
    "remove": REMOVE,
    "retire": REMOVE,
    "retirer": REMOVE,
    "enleve": REMOVE,
    "supprime": REMOVE,
    "-": REMOVE,
}
WORDS_PER_COMMAND = 20
MOST_HOUSE_WORDS = 1000
CHANGES_SHOWN = 5


@command("words", section=Section.GENERAL, access=Access.REFEREE, read_without_args=True, slow=True, uses_list=True)
def cmd_words(ctx: Context) -> None:
    tokens = ctx.args.replace(",", " ").split()
    if not tokens:
        show(ctx)
        return
    action = ACTIONS.get(fold_accents(tokens[0]).lower())
    typed = tokens[1:]
    if action is None or not typed:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if len(typed) > WORDS_PER_COMMAND:
        raise UserError("words_too_many", limit=WORDS_PER_COMMAND)
    words: list[str] = []
    for text in typed:
        try:
            word = normalise_word(text)
        except InvalidWordError:
            raise UserError("words_not_a_word", word=text[:40]) from None
        if word not in words:
            words.append(word)
    channel = ctx.message.channel
    house = ctx.referee.lists.house(channel)
    for word in words:
        house = house.changed(action, word)
    if len(house) > MOST_HOUSE_WORDS:
        raise UserError("words_full", limit=MOST_HOUSE_WORDS)
    author, name, now = ctx.message.user, seats.display_name(ctx.message), ctx.referee.now()
    for word in words:
        ctx.storage.add_house_word_change(
            HouseWordChange(channel, action, word, author, name, now, ctx.settings.lexicon)
        )
    lines = [ctx.say("words_added" if action == ADD else "words_removed", words=", ".join(words), count=len(words))]
    lines += _list_agrees(ctx, action, words)
    lines.append(ctx.say("words_total", count=len(house), list=list_name(ctx.settings.lexicon)))
    ctx.reply("\n".join(lines))
    running = ctx.storage.active_game(channel)
    if running is not None and running.kind is GameKind.DUPLICATE:  # its next top needs the list compiled again
        ctx.referee.lists.prepare_movegen(running.setup.lexicon, channel)


def _list_agrees(ctx: Context, action: str, words: list[str]) -> list[str]:
    """A line naming the words the list already settles the same way (when the list is ready)."""
    try:
        word_list = ctx.referee.lexicons.ready(ctx.settings.lexicon)
    except (ListPreparingError, WordListError, UnknownListError):
        return []
    name = list_name(ctx.settings.lexicon)
    if action == ADD:
        agreeing = [w for w in words if w in word_list]
        return [ctx.say("words_already_in", list=name, words=", ".join(agreeing))] if agreeing else []
    agreeing = [w for w in words if w not in word_list]
    return [ctx.say("words_not_in", list=name, words=", ".join(agreeing), count=len(agreeing))] if agreeing else []


def show(ctx: Context) -> None:
    """The channel's house words, and the latest changes with who made them and when."""
    changes = ctx.storage.house_word_changes(ctx.message.channel)
    house = HouseWords.replay(changes)
    name = list_name(ctx.settings.lexicon)
    if not house:
        ctx.reply(ctx.say("words_none", list=name))
        return
    lines = []
    if house.added:
        lines.append(ctx.say("words_accepted", count=len(house.added), words=" ".join(sorted(house.added))))
    if house.removed:
        lines.append(ctx.say("words_rejected", count=len(house.removed), words=" ".join(sorted(house.removed))))
    latest = [
        ctx.say(
            "words_change",
            sign="+" if change.action == ADD else "-",
            word=change.word,
            name=change.name,
            when=date_time(change.at, ctx.settings.zone),
        )
        for change in reversed(changes[-CHANGES_SHOWN:])
    ]
    ctx.reply(ctx.say("words_list", list=name, lines="\n".join(lines), changes="\n".join(latest)))
