"""Commands that serve both kinds of game: /join /end /calc and the views /sheet /board /unseen
/export /standings /moves, which also show finished games (the last one, or game N of /games)."""

from __future__ import annotations

from core.board import Board
from core.duplicate import DuplicateGame
from core.edition import edition_by_code
from core.game import ClassicGame
from core.notation import notation_by_name, parse_move
from core.placement import validate_move
from core.scoring import score_placement

from ..numbers import read_int
from ..render.record import standings_text
from ..storage import GameKind, GameRecord
from ..word_lists import verdict_lines
from . import classic as classic
from . import duplicate as duplicate
from . import duplicate_games, duplicate_texts, duplicate_views, ending, turns
from .context import Context, UserError
from .formatting import breakdown, split_claimed
from .history import TargetGame, target_game, with_heading
from .registry import Access, Section, command, handles


@command("join", section=Section.CLASSIC, access=Access.PLAYER)
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


@command("seat", section=Section.CLASSIC, access=Access.REFEREE)
def cmd_seat(ctx: Context) -> None:
    raise UserError("no_classic_game")  # a classic game's seats: the handler below


@handles("seat", GameKind.CLASSIC)
def classic_seat(ctx: Context) -> None:
    turns.free_seat(ctx, running(ctx))


@handles("seat", GameKind.DUPLICATE)
def duplicate_seat(ctx: Context) -> None:
    raise UserError("seat_classic_only")  # a second Ana plays as "Ana (2)": nobody is locked out


@command("end", section=Section.CLASSIC, access=Access.REFEREE)
def cmd_end(ctx: Context) -> None:
    raise UserError("no_game")


@handles("end", GameKind.CLASSIC)
def classic_end(ctx: Context) -> None:
    ending.end(ctx, running(ctx))


@handles("end", GameKind.DUPLICATE)
def duplicate_end(ctx: Context) -> None:
    duplicate.end(ctx, running(ctx))


@command("calc", section=Section.VIEWS, read_only=True)
def cmd_calc(ctx: Context) -> None:
    if not ctx.args:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    record = ctx.storage.active_game(ctx.message.channel)
    move_text, _ = split_claimed(ctx.args)
    game: ClassicGame | DuplicateGame | None = None
    if record is not None:
        game = (
            ctx.services.classic_games.load(ctx.storage, record)
            if record.kind is GameKind.CLASSIC
            else duplicate_games.game_of(ctx.services, record)
        )
    board = game.board if game else Board()  # no game: a move on an empty board
    edition = game.edition if game else edition_by_code(ctx.settings.edition)
    notation = game.notation if game else notation_by_name(ctx.settings.notation)
    placement = validate_move(board, parse_move(move_text, notation), notation, rack_size=edition.rack_size)
    score = score_placement(placement, edition)
    ctx.reply(ctx.say("calc", move=placement.notation(notation), breakdown=breakdown(score, ctx.lang)))


def _game(ctx: Context, target: TargetGame) -> ClassicGame | DuplicateGame:
    if target.record.kind is GameKind.CLASSIC:
        return ctx.services.classic_games.load(ctx.storage, target.record)
    return duplicate_games.game_of(ctx.services, target.record)


def _with_verdict_lists(ctx: Context, target: TargetGame, text: str) -> str:
    """The text, then the lines saying which list and house words the game's verdicts used."""
    lines = verdict_lines(ctx.lang, target.record.kind, ctx.storage.events(target.record.id))
    return "\n".join([text, *lines])


@command("sheet", section=Section.VIEWS, read_only=True)
def cmd_sheet(ctx: Context) -> None:
    target = target_game(ctx, words=[t for t in ctx.tokens if not classic.is_page_word(t)])
    game = _game(ctx, target)
    text = classic.sheet_text(ctx, game) if isinstance(game, ClassicGame) else duplicate_views.sheet(ctx, game)
    ctx.reply(with_heading(ctx, target, _with_verdict_lists(ctx, target, text)))


@command("board", section=Section.VIEWS, read_only=True, slow=True)
def cmd_board(ctx: Context) -> None:
    target = target_game(ctx)
    game = _game(ctx, target)
    if isinstance(game, ClassicGame):
        text, image = classic.board(ctx, game)
    else:
        text, image = duplicate_views.board(ctx, game, ended=not target.running)
    ctx.reply(with_heading(ctx, target, text), image=image, image_name="board.png")


@command("unseen", section=Section.VIEWS, read_only=True)
def cmd_unseen(ctx: Context) -> None:
    target = target_game(ctx)
    game = _game(ctx, target)
    if isinstance(game, ClassicGame):
        from .formatting import tiles_text

        unseen = game.unseen()
        text = ctx.say("unseen", count=sum(unseen.values()), letters=tiles_text(unseen), bag=game.bag_count())
    else:
        text = duplicate_views.unseen(ctx, game)
    ctx.reply(with_heading(ctx, target, text))


@command("export", section=Section.VIEWS, read_only=True, slow=True)
def cmd_export(ctx: Context) -> None:
    target = target_game(ctx)
    game = _game(ctx, target)
    if isinstance(game, ClassicGame):
        text, data, name = classic.export(ctx, game, target.record)
    else:
        text, data, name = duplicate_views.export(ctx, game)
    text = _with_verdict_lists(ctx, target, text)
    ctx.reply(with_heading(ctx, target, text), document=data, document_name=f"game-{target.number}-{name}")


@command("standings", section=Section.VIEWS, read_only=True, slow=True)
def cmd_standings(ctx: Context) -> None:
    target = target_game(ctx)
    game = _game(ctx, target)
    image: bytes | None = None
    if isinstance(game, ClassicGame):
        text = classic.standings_text(ctx, game) if game.players else ctx.say("sheet_empty")
    else:
        text = standings_text(ctx.lang, game)
        if ctx.services.images:
            image = duplicate_texts.standings_image(ctx.lang, game)
    ctx.reply(with_heading(ctx, target, text), image=image, image_name="standings.png")


@command("moves", section=Section.VIEWS, read_only=True)
def cmd_moves(ctx: Context) -> None:
    """``/moves [PLAYER] [N]``: a final number picks game N of /games, the words before it name the player."""
    words = ctx.tokens
    number = [words.pop()] if words and read_int(words[-1]) is not None else []
    target = target_game(ctx, words=number)
    game = _game(ctx, target)
    name = " ".join(words)
    if isinstance(game, ClassicGame):
        text = classic.moves_text(ctx, target.record, game, name)
    else:
        text = duplicate_views.moves_text(ctx, target.record, game, name)
    ctx.reply(with_heading(ctx, target, text))


@command("status", section=Section.VIEWS, read_only=True)
def cmd_status(ctx: Context) -> None:
    lines = dead_letter_lines(ctx)
    if not lines:
        raise UserError("no_game")
    ctx.reply("\n".join([ctx.say("no_game"), *lines]))


@handles("status", GameKind.CLASSIC)
def classic_status(ctx: Context) -> None:
    game = ctx.services.classic_games.load(ctx.storage, running(ctx))
    ctx.reply("\n".join(classic.status_lines(ctx, game)))
    ctx.notes.extend(dead_letter_lines(ctx))


@handles("status", GameKind.DUPLICATE)
def duplicate_status(ctx: Context) -> None:
    record = running(ctx)
    duplicate.status(ctx, record, duplicate_games.game_of(ctx.services, record))
    ctx.notes.extend(dead_letter_lines(ctx))


SHOWN_DEAD_LETTERS = 5  # the latest ones /status lists (it counts them all)


def dead_letter_lines(ctx: Context) -> list[str]:
    """The messages about this channel that could never be delivered, for /status: how many, then the
    latest ones, each by its first line (a private one by its length only) and the platform's answer."""
    letters = ctx.services.dead_letters(ctx.message.channel)
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
