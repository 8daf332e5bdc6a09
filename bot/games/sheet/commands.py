"""The commands of a sheet without a board: /new with ``no-board`` starts one; /score takes points, a
word and its points or a word taken back, /pass and /exchange a turn worth nothing, /undo the last line
(or the sheet's end just typed), /end the racks left, /join and /challenge say what a sheet does instead."""

from __future__ import annotations

from core.boardless import (
    BoardlessGame,
    Finished,
    Turn,
    TurnKind,
    Undone,
    sheet_event_to_dict,
)
from core.edition import EDITIONS
from core.errors import NotationError
from core.errors_boardless import MOST_POINTS
from core.game import player_key
from core.rules import RULE_SETS, rule_set_by_code

from ...commands.context import Context, UserError
from ...commands.registry import handles, starts
from ...messages import keyword_form, keywords
from ...numbers import read_int
from ...play import seats
from ...storage import GameKind, GameRecord, GameSetup, GameStatus
from ..classic.ending import reopen_ended
from ..kinds import kind_of
from .kind import LEAST_PLAYERS, MOST_PLAYERS, asked, standings_text, status_lines, turn_text


def start(ctx: Context) -> None:
    """/new ... no-board: a sheet for two to four players named in the command, in turn order; an edition
    code or a rule set code as in a classic game's /new."""
    settings = ctx.settings
    rules = settings.rules
    players: list[str] = []
    for token in ctx.tokens:
        lowered = token.lower()
        if asked([token]):
            continue
        if lowered in EDITIONS:
            settings = settings.with_edition(lowered)
            continue
        if lowered in RULE_SETS:
            rules = lowered
            continue
        name = seats.clean_name(token)
        if not name:
            continue
        if any(player_key(name) == player_key(p) for p in players):
            raise UserError("err_duplicate_player", player=name)
        players.append(name)
    if not LEAST_PLAYERS <= len(players) <= MOST_PLAYERS:
        raise UserError("sheet_err_players", count=len(players), low=LEAST_PLAYERS, high=MOST_PLAYERS)
    setup = GameSetup(
        edition=settings.edition,
        notation=settings.notation,
        lexicon=settings.lexicon,
        rules=rule_set_by_code(rules).code,
        players=tuple(players),
        referee_name=seats.display_name(ctx.message),
    )
    record = ctx.storage.create_game(
        ctx.message.channel, GameKind.BOARDLESS, ctx.message.user, setup, abandon_running=ctx.confirmed
    )
    own_seat = seats.named_like(ctx.message, players)
    if own_seat is not None:
        seats.bind(ctx.storage, record, ctx.message.user, own_seat)
    ctx.reply(ctx.say("sheet_new", edition=settings.edition, players=", ".join(players), to_move=players[0]))


starts("new", asked)(start)  # /new ... no-board, whatever runs in the channel (replacing it takes the referee's !)


def running(ctx: Context) -> tuple[GameRecord, BoardlessGame]:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind is not GameKind.BOARDLESS:
        raise UserError("no_game")
    return record, ctx.services.games.load(ctx.storage, record)


def record_event(ctx: Context, record: GameRecord, game: BoardlessGame, event: Turn | Undone | Finished) -> None:
    """Apply the event (checked) and append it to the log, in the command's transaction."""
    game.apply(event)  # a SheetError raised here is explained by bot.messages, nothing stored
    cache = ctx.services.games.cache(kind_of(record.kind).kind)
    cache.append(ctx.storage, record, game, sheet_event_to_dict(event), ctx.message.user)


def named_player(game: BoardlessGame, words: list[str]) -> tuple[str | None, list[str]]:
    """The player named first (``Ben 26``, ``@Ben 26``), and the other words."""
    if words:
        first = words[0].removeprefix("@")
        found = game.find_player(first)
        if found is not None:
            return found, words[1:]
        if words[0].startswith("@"):
            raise UserError("err_unknown_player", player=seats.clean_name(first), players=", ".join(game.players))
    return None, words


def turn_player(ctx: Context, record: GameRecord, game: BoardlessGame, named: str | None) -> str:
    """The player to move, if the sender may write their turn: that player's own account, or the sheet's
    referee or a channel admin; a player named must be the one to move."""
    to_move = game.to_move
    if to_move is None:
        raise UserError("game_over_hint")
    if named is not None and named != to_move:
        raise UserError("not_their_turn", player=named, to_move=to_move)
    seat, claimed = seats.acting_seat(ctx.storage, record, ctx.message, game.players)
    if claimed:
        ctx.notes.append(ctx.say("seat_claimed", player=seat))
    if seat == to_move or ctx.controls(record):
        return to_move
    raise UserError("not_your_turn", to_move=to_move, referee=record.setup.referee_name)


def _points(ctx: Context, text: str) -> int:
    value = ctx.whole_number(text)
    if not 0 <= value <= MOST_POINTS:
        raise UserError("sheet_err_points", points=value, most=MOST_POINTS)
    return value


ZERO_WORDS = {
    TurnKind.TAKEN_BACK: "keywords_taken_back",
    TurnKind.PASS: "keywords_sheet_pass",
    TurnKind.EXCHANGE: "keywords_sheet_exchange",
}


def read_turn(ctx: Context, game: BoardlessGame, player: str, words: list[str]) -> Turn:
    """``26``, ``VAGUE 26``, ``H4 VAGUE 26``, or a word for a turn worth nothing (``repris``)."""
    if not words:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if len(words) == 1:
        for kind, key in ZERO_WORDS.items():
            if keyword_form(words[0]) in keywords(key):
                return Turn(player, kind)
        if read_int(words[0]) is None and not any(c.isdigit() for c in words[0]):
            raise UserError("sheet_points_needed", word=words[0][:20], name=ctx.spec.name_in(ctx.lang))
        return Turn(player, TurnKind.POINTS, _points(ctx, words[0]))
    if len(words) > 3:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if read_int(words[-1]) is None and read_int(words[0]) is not None:
        words = [*words[1:], words[0]]  # the points first: /coup 26 VAGUE
    points = _points(ctx, words[-1])
    rest = words[:-1]
    square = ""
    if len(rest) == 2:  # the square before the word (H4 VAGUE), or after it (VAGUE H4)
        at = 0 if _square(game, rest[0]) or not _square(game, rest[1]) else 1
        square = _square(game, rest[at])
        if not square:
            raise UserError("sheet_err_square", text=rest[0][:20])
        rest = [rest[1 - at]]
    return Turn(player, TurnKind.WORD, points, game.word_tiles(rest[0]), square)


def _square(game: BoardlessGame, text: str) -> str:
    """The square ``text`` names in the game's notation, "" when it names none."""
    try:
        return game.square(text)
    except NotationError:
        return ""


def said_turn(ctx: Context, game: BoardlessGame, turn: Turn) -> str:
    if turn.move in (TurnKind.POINTS, TurnKind.WORD):
        return ctx.say("sheet_scored", player=turn.player, move=turn_text(ctx, game, turn), points=turn.points)
    return ctx.say(f"sheet_said_{turn.move.value}", player=turn.player)


def _record_turn(ctx: Context, record: GameRecord, game: BoardlessGame, turn: Turn) -> None:
    record_event(ctx, record, game, turn)
    ctx.reply("\n".join([said_turn(ctx, game, turn), *status_lines(ctx, game)]))


@handles("score", GameKind.BOARDLESS)
def sheet_score(ctx: Context) -> None:
    record, game = running(ctx)
    named, words = named_player(game, ctx.tokens)
    player = turn_player(ctx, record, game, named)
    _record_turn(ctx, record, game, read_turn(ctx, game, player, words))


def _zero_turn(ctx: Context, kind: TurnKind) -> None:
    record, game = running(ctx)
    named, words = named_player(game, ctx.tokens)
    if kind is TurnKind.PASS and words:
        raise UserError("err_unknown_player", player=seats.clean_name(" ".join(words)), players=", ".join(game.players))
    player = turn_player(ctx, record, game, named)
    _record_turn(ctx, record, game, Turn(player, kind))


@handles("pass", GameKind.BOARDLESS)
def sheet_pass(ctx: Context) -> None:
    _zero_turn(ctx, TurnKind.PASS)


@handles("exchange", GameKind.BOARDLESS)
def sheet_exchange(ctx: Context) -> None:
    _zero_turn(ctx, TurnKind.EXCHANGE)  # the letters, if typed, are not kept: nobody can check them


@handles("challenge", GameKind.BOARDLESS)
def sheet_challenge(ctx: Context) -> None:
    raise UserError("sheet_no_challenge", name=ctx.spec.name_in(ctx.lang))


@handles("undo", GameKind.BOARDLESS)
def sheet_undo(ctx: Context) -> None:
    record, game = running(ctx)
    last = game.rows()[-1] if game.turns else None
    record_event(ctx, record, game, Undone())
    assert last is not None
    assert last.turn is not None
    what = ctx.say("sheet_undone_line", player=last.player, move=turn_text(ctx, game, last.turn), points=last.points)
    ctx.reply("\n".join([ctx.say("undone", what=what), *status_lines(ctx, game)]))


@handles("undo", None)
def sheet_reopen(ctx: Context) -> None:
    """/undo right after a sheet's /end (a rack mistyped): the end is taken back and the sheet goes on;
    after any other game's end, that game's own /undo."""
    games = ctx.storage.games(ctx.message.channel)
    record = games[-1] if games else None
    if record is None or record.kind is not GameKind.BOARDLESS or record.status is not GameStatus.ENDED:
        reopen_ended(ctx)  # a classic game's end taken back
        return
    ctx.require_control(record)
    game = ctx.services.games.load(ctx.storage, record)
    record_event(ctx, record, game, Undone())
    ctx.storage.set_game_status(record.id, GameStatus.ACTIVE)
    ctx.reply("\n".join([ctx.say("undone_end", by=seats.display_name(ctx.message)), *status_lines(ctx, game)]))


@handles("end", GameKind.BOARDLESS)
def sheet_end(ctx: Context) -> None:
    """/end NAME=RACK ...: every player's rack by value or letters; a player left out has none."""
    record, game = running(ctx)
    racks: dict[str, str] = {}
    for token in ctx.tokens:
        name, sep, rack = token.replace(":", "=").partition("=")
        if not sep:
            raise UserError("sheet_end_usage", name=ctx.spec.name_in(ctx.lang))
        player = game.find_player(name)
        if player is None:
            raise UserError("err_unknown_player", player=seats.clean_name(name), players=", ".join(game.players))
        racks[player] = rack
    if not racks:
        raise UserError("sheet_end_usage", name=ctx.spec.name_in(ctx.lang))
    event = Finished(tuple(game.rack(player, racks.get(player, "")) for player in game.players))
    record_event(ctx, record, game, event)
    ctx.storage.set_game_status(record.id, GameStatus.ENDED)
    ctx.services.games.cache(GameKind.BOARDLESS).forget(record.id)
    ctx.reply(ctx.say("ended", standings=standings_text(ctx, game)))


def _not_on_a_sheet(ctx: Context) -> None:
    raise UserError("sheet_not_here", name=ctx.spec.name_in(ctx.lang))


for _name in ("penalty", "seat"):
    handles(_name, GameKind.BOARDLESS)(_not_on_a_sheet)


@handles("join", GameKind.BOARDLESS)
def sheet_join(ctx: Context) -> None:
    """/join NAME: take a seat of the sheet (its players were named at the start)."""
    record, game = running(ctx)
    mine = seats.seat_of(ctx.storage, record, ctx.message.user, game.players)
    if mine is not None:
        raise UserError("already_seated", player=mine)
    wanted = seats.clean_name(" ".join(ctx.tokens)) or seats.display_name(ctx.message)
    seat = game.find_player(wanted)
    if seat is None:
        raise UserError("err_unknown_player", player=wanted, players=", ".join(game.players))
    if seats.owner_of(ctx.storage, record, seat) is not None:
        raise UserError("seat_taken", player=seat)
    typed = " ".join(ctx.tokens) or ctx.message.name
    if seats.claimable([seat], typed) is None and seats.named_like(ctx.message, [seat]) is None:
        raise UserError("seat_exact_name", player=seat)  # a look-alike never takes a free seat
    seats.bind(ctx.storage, record, ctx.message.user, seat)
    ctx.reply(ctx.say("seat_claimed", player=seat))
