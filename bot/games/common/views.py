"""Commands that serve both kinds of game: /join /end /calc and the views /sheet /board /unseen
/export /standings /moves, which also show finished games (the last one, or game N of /games).

A view asked again in a room, unchanged since it was last posted there less than ``REPEAT_SECONDS`` ago
(the same command, the same text and image), is not posted again: the asker gets it privately, as text,
with a word that the room's copy above is current (``once_in_public``). Twenty /standings in a group
before a close make one standings message, and no draw or result waits behind nineteen copies of it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from core.board import Board
from core.edition import edition_by_code
from core.notation import notation_by_name, parse_move
from core.placement import validate_move
from core.scoring import score_placement

from ...chat import Reply
from ...commands.context import Context, UserError
from ...commands.options import GAME_FORM, Form, Suggest, Where, flag, text
from ...commands.registry import Access, Section, command, handles
from ...messages import keyword_form, keywords
from ...numbers import read_int
from ...storage import GameKind, GameRecord
from ...words.game_lists import verdict_lines
from ..classic import commands as classic
from ..classic import ending, turns
from ..duplicate import commands as duplicate
from ..kinds import kind_of
from ..simultane import ranking as simultane_ranking
from .formatting import breakdown, split_claimed
from .history import TargetGame, target_game, with_heading
from .paging import is_page_word, without_pages


@command("join", section=Section.CLASSIC, rank=80, access=Access.PLAYER, form=Form((text("name"),)))
def cmd_join(ctx: Context) -> None:
    raise UserError("no_game")  # no game runs: the handlers below serve each kind of game


def running(ctx: Context) -> GameRecord:
    """The channel's running game (the dispatcher chose the handler by its kind)."""
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None:
        raise UserError("no_game")
    return record


@handles("join", GameKind.CLASSIC)
def classic_join(ctx: Context) -> None:
    classic.join(ctx, running(ctx))


@handles("join", GameKind.DUPLICATE)
def duplicate_join(ctx: Context) -> None:
    duplicate.join(ctx, running(ctx))


@command(
    "seat",
    section=Section.CLASSIC,
    rank=90,
    access=Access.REFEREE,
    form=Form((text("player", required=True, suggest=Suggest.PLAYERS, shape="{} free"),), where=Where.GROUP),
)
def cmd_seat(ctx: Context) -> None:
    raise UserError("no_classic_game")  # a classic game's seats: the handler below


@handles("seat", GameKind.CLASSIC)
def classic_seat(ctx: Context) -> None:
    turns.free_seat(ctx, running(ctx))


@handles("seat", GameKind.DUPLICATE)
def duplicate_seat(ctx: Context) -> None:
    raise UserError("seat_classic_only")  # a second Ana plays as "Ana (2)": nobody is locked out


@command(
    "end", section=Section.CLASSIC, rank=100, access=Access.REFEREE, form=Form((text("racks"), flag("confirm", "!")))
)
def cmd_end(ctx: Context) -> None:
    raise UserError("no_game")


@handles("end", GameKind.CLASSIC)
def classic_end(ctx: Context) -> None:
    ending.end(ctx, running(ctx))


@handles("end", GameKind.DUPLICATE)
def duplicate_end(ctx: Context) -> None:
    duplicate.end(ctx, running(ctx))


@command(
    "calc",
    section=Section.VIEWS,
    rank=20,
    read_only=True,
    form=Form((text("position", required=True), text("word", required=True))),
)
def cmd_calc(ctx: Context) -> None:
    if not ctx.args:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    record = ctx.storage.active_game(ctx.message.channel)
    move_text, _ = split_claimed(ctx.args)
    game = ctx.services.games.load(ctx.storage, record) if record is not None else None
    board = game.board if game else Board()  # no game: a move on an empty board
    edition = game.edition if game else edition_by_code(ctx.settings.edition)
    notation = game.notation if game else notation_by_name(ctx.settings.notation)
    move = parse_move(move_text, notation, alphabet=edition.alphabet)
    placement = validate_move(board, move, notation, rack_size=edition.rack_size)
    score = score_placement(placement, edition)
    ctx.reply(ctx.say("calc", move=placement.notation(notation), breakdown=breakdown(score, ctx.lang)))


def _game(ctx: Context, target: TargetGame) -> Any:
    return ctx.services.games.load(ctx.storage, target.record)


def _with_verdict_lists(ctx: Context, target: TargetGame, text: str) -> str:
    """The text, then the lines saying which list and house words the game's verdicts used."""
    key = kind_of(target.record.kind).verdicts_key
    lines = verdict_lines(ctx.lang, key, ctx.storage.events(target.record.id))
    return "\n".join([text, *lines])


@command("sheet", section=Section.VIEWS, rank=30, read_only=True, form=GAME_FORM)
def cmd_sheet(ctx: Context) -> None:
    target = target_game(ctx, words=[t for t in ctx.tokens if not is_page_word(t)])
    text = kind_of(target.record.kind).sheet(ctx, _game(ctx, target))
    ctx.reply(with_heading(ctx, target, _with_verdict_lists(ctx, target, text)), actions=ctx.offered)
    once_in_public(ctx)


@command("board", section=Section.VIEWS, rank=40, read_only=True, slow=True, form=GAME_FORM)
def cmd_board(ctx: Context) -> None:
    target = target_game(ctx)
    text, image = kind_of(target.record.kind).board(ctx, _game(ctx, target), not target.running)
    ctx.reply(with_heading(ctx, target, text), image=image, image_name="board.png")
    once_in_public(ctx)


@command("unseen", section=Section.VIEWS, rank=50, read_only=True, form=GAME_FORM)
def cmd_unseen(ctx: Context) -> None:
    target = target_game(ctx)
    ctx.reply(with_heading(ctx, target, kind_of(target.record.kind).unseen(ctx, _game(ctx, target))))
    once_in_public(ctx)


@command(
    "export",
    section=Section.VIEWS,
    rank=60,
    read_only=True,
    slow=True,
    form=Form((flag("sigles", "sigles"), *GAME_FORM.options)),
)
def cmd_export(ctx: Context) -> None:
    """``/export [sigles] [N]``: the game's record, or with ``sigles`` the federation's results file of a
    duplicate game."""
    words = list(ctx.tokens)
    federation = bool(words) and keyword_form(words[0]) in keywords("keywords_sigles")
    target = target_game(ctx, words=words[1:] if federation else words)
    kind = kind_of(target.record.kind)
    export = kind.results_file if federation else kind.export
    text, data, name = export(ctx, target.record, _game(ctx, target))
    text = _with_verdict_lists(ctx, target, text)
    ctx.reply(with_heading(ctx, target, text), document=data, document_name=f"game-{target.number}-{name}")


@command("standings", section=Section.VIEWS, rank=70, read_only=True, slow=True, form=GAME_FORM)
def cmd_standings(ctx: Context) -> None:
    target = target_game(ctx, words=without_pages(ctx.tokens))
    text, image = kind_of(target.record.kind).standings(ctx, _game(ctx, target))
    ctx.reply(with_heading(ctx, target, text), image=image, image_name="standings.png", actions=ctx.offered)
    if target.record.setup.simultane:  # a simultané's room: the ranking of every room too, once visible
        ctx.replies.append(simultane_ranking.standings_addition(ctx, target.record.setup.simultane))
    once_in_public(ctx)


@command(
    "moves",
    section=Section.VIEWS,
    rank=80,
    read_only=True,
    form=Form((text("player", suggest=Suggest.PLAYERS), *GAME_FORM.options)),
)
def cmd_moves(ctx: Context) -> None:
    """``/moves [PLAYER] [N]``: a final number picks game N of /games, the words before it name the player."""
    words = without_pages(ctx.tokens)
    number = [words.pop()] if words and read_int(words[-1]) is not None else []
    target = target_game(ctx, words=number)
    text = kind_of(target.record.kind).moves(ctx, target.record, _game(ctx, target), " ".join(words))
    ctx.reply(with_heading(ctx, target, text), actions=ctx.offered)
    once_in_public(ctx)


@command("status", section=Section.VIEWS, rank=90, read_only=True)
def cmd_status(ctx: Context) -> None:
    """Where the running game stands, as its kind says, then the dead letters (alone when no game runs)."""
    record = ctx.storage.active_game(ctx.message.channel)
    lines = dead_letter_lines(ctx)
    if record is None:
        if not lines:
            raise UserError("no_game")
        ctx.reply("\n".join([ctx.say("no_game"), *lines]))
        return
    kind_of(record.kind).status(ctx, record, ctx.services.games.load(ctx.storage, record))
    ctx.notes.extend(lines)


SHOWN_DEAD_LETTERS = 5  # the latest ones /status lists (it counts them all)


def dead_letter_lines(ctx: Context) -> list[str]:
    """The messages about this channel that could never be delivered, for /status: how many, then the
    latest ones, each by its first line (a private one by its length only) and the platform's answer."""
    letters = ctx.services.outbox.dead_letters(ctx.message.channel)
    if not letters:
        return []
    lines = [ctx.say("dead_letters", n=len(letters))]
    for letter in letters[-SHOWN_DEAD_LETTERS:]:
        reply = letter.reply
        if reply.private:
            what = ctx.say("dead_letter_private", length=len(reply.text))
        else:
            first = (reply.text.strip().split("\n")[0] or reply.image_name or reply.document_name)[:60]
            what = ctx.say("dead_letter_public", start=first)
        lines.append(ctx.say("dead_letter", what=what, reason=letter.reason[:160], tries=letter.attempts))
    return lines


def once_in_public(ctx: Context) -> None:
    """A view's public answer, posted unless the same view (this command, this room, the same text and
    image) was posted in the room less than ``REPEAT_SECONDS`` ago; then the asker is answered privately
    (Discord: only they see it; Telegram: in their private chat with the bot, or a link to open it; the
    console: a private line), as text, saying the room's copy is current: never a second image in the room."""
    message = ctx.message
    public = [r for r in ctx.replies if not r.private and r.channel == message.channel]
    if message.private or not public or any(r.document is not None for r in public):
        return
    digest = hashlib.sha256()
    for reply in public:
        digest.update(reply.text.encode("utf-8") + b"\0" + (reply.image or b"") + b"\0")
    now = ctx.services.now()
    posted = ctx.services.shown_views.posted_lately((message.channel, ctx.spec.name, digest.hexdigest()), now)
    if posted is None:
        return
    above = ctx.say("view_shown_above", seconds=max(1, round(now - posted)))
    text = "\n".join([above, *(r.text for r in public)])
    private = Reply(text, to_user=message.user, channel=message.channel)
    ctx.replies = [r for r in ctx.replies if r not in public] + [private]
