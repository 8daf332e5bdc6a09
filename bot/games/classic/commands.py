"""Classic game commands: /new /score /challenge /pass /exchange /penalty /undo, and the classic side
of /join and the views (sheet, board, unseen tiles, export, standings). Who records a turn for which
seat is ``turns``; /end and the undo of an end are ``ending``."""

from __future__ import annotations

from typing import Any

from core.edition import EDITIONS, edition_by_code
from core.errors import NotationError
from core.events import (
    Challenge,
    Event,
    Exchange,
    Join,
    Pass,
    Penalty,
    Play,
    TimePenalty,
    Undo,
    Withdrawn,
    event_from_dict,
    event_to_dict,
)
from core.game import TURN_KINDS, ClassicGame, LineKind, player_key
from core.notation import notation_by_name
from core.rules import RULE_SETS, box_rules, most_players, rule_set_by_code

from ... import buttons
from ...actions import Action
from ...commands.context import Context, UserError
from ...commands.registry import Access, Section, command, command_named
from ...messages import say
from ...numbers import read_int
from ...play import seats
from ...render import ClassicBoardView, PlayerScore, board_text, classic_board_png, table
from ...storage import GameKind, GameRecord, GameSetup
from ...words.game_lists import VERDICT_KEY, ListUsed, game_list, verdicts_text
from ..common.formatting import breakdown, line_cells, line_notes, line_text, split_claimed
from ..common.paging import is_page_word
from . import forms
from .clock import after_event, clock_lines, countdown
from .turns import acting_seat, require_turn, split_seat

STAMP_KEY = "at"  # stored with each event: the referee's time when it was recorded (the clock reads it)

# --- loading -----------------------------------------------------------------------------


def build_game(record: GameRecord, events: list[Event], stamps: list[float | None] | None = None) -> ClassicGame:
    """The classic game a stored set-up and events describe (a set-up without rules: the edition's box
    rules); ``stamps``: when each event was recorded, which its clock reads."""
    setup = record.setup
    return ClassicGame(
        edition_by_code(setup.edition),
        rule_set_by_code(setup.rules) if setup.rules is not None else box_rules(setup.edition),
        setup.players,
        notation_by_name(setup.notation),
        events=events,
        stamps=stamps or (),
    )


def _stamp(data: dict[str, Any]) -> float | None:
    at = data.get(STAMP_KEY)
    return float(at) if isinstance(at, (int, float)) else None


def build_from_data(record: GameRecord, events: list[dict[str, Any]]) -> ClassicGame:
    return build_game(record, [event_from_dict(data) for data in events], [_stamp(data) for data in events])


def apply_data(game: ClassicGame, data: dict[str, Any]) -> None:
    game.apply_stored(event_from_dict(data), _stamp(data))


def load_classic(ctx: Context) -> tuple[GameRecord, ClassicGame]:
    """The channel's running classic game."""
    record = ctx.storage.active_game(ctx.message.channel)
    if record is not None and record.kind is GameKind.DUPLICATE:
        raise UserError("classic_command_in_duplicate")
    if record is None or record.kind is not GameKind.CLASSIC:
        raise UserError("no_classic_game")
    return record, ctx.services.classic_games.load(ctx.storage, record)


def record_event(
    ctx: Context, record: GameRecord, game: ClassicGame, event: Event, extra: dict[str, Any] | None = None
) -> None:
    """Apply an event (validating it) and append it to the log, in the command's transaction; ``extra``
    is stored with it (what replaying does not need, such as the list a verdict used)."""
    now = ctx.services.now()
    game.apply(event, now)
    data = {**event_to_dict(event), STAMP_KEY: now, **(extra or {})}
    ctx.services.classic_games.append(ctx.storage, record, game, data, ctx.message.user)
    after_event(ctx.storage, record, game, event, now)


# --- formatting --------------------------------------------------------------------------


def alert_text(lang: str, game: ClassicGame) -> list[str]:
    return [
        say(lang, "alert_tiles", letter=game.edition.label(a.letter), count=a.count, limit=a.limit)
        for a in game.alerts
    ]


def reply_status(ctx: Context, game: ClassicGame, lines: list[str], actions: tuple[Action, ...] = ()) -> None:
    """Reply ``lines`` and where the game stands, with the clock's countdown when it runs, and ``actions``."""
    now = ctx.services.now()
    text = "\n".join(lines + status_lines_in(ctx.lang, game, now))
    ctx.reply(text, deadline=countdown(game, now), actions=actions)


def status_lines(ctx: Context, game: ClassicGame) -> list[str]:
    return status_lines_in(ctx.lang, game, ctx.services.now())


def status_lines_in(lang: str, game: ClassicGame, now: float) -> list[str]:
    """The totals, the alerts, the scoreless limit, whose turn it is and the clock."""
    totals = " · ".join(f"{p} {t}" for p, t in game.totals().items())
    lines = [say(lang, "totals", totals=totals)]
    lines += alert_text(lang, game)
    if game.scoreless_limit_reached:
        key = "limit_reached_ends" if game.rules.scoreless_ends else "limit_reached"  # the zeros option
        lines.append(say(lang, key, streak=game.scoreless_streak()))
    if game.to_move and not game.ended:
        lines.append(say(lang, "to_move", player=game.to_move))
        lines += clock_lines(lang, game, now)
    return lines


def rules_text(ctx: Context, game: ClassicGame) -> str:
    """The rule set in force, saying so when the chosen one does not apply to this many players."""
    used = game.rules
    if used.code == game.base_rules.code:
        return used.code
    return ctx.say("rules_fallback", used=used.code, chosen=game.base_rules.code, count=len(game.players))


def event_text(ctx: Context, event: Event, game: ClassicGame) -> str:
    """What an event was, for /undo."""
    if isinstance(event, Play):
        return ctx.say("undo_play", player=event.player, move=event.move)
    if isinstance(event, Pass):
        return ctx.say("undo_pass", player=event.player)
    if isinstance(event, Exchange):
        return ctx.say("undo_exchange", player=event.player)
    if isinstance(event, Challenge):
        verdict = ctx.say("undo_challenge_won" if event.invalid else "undo_challenge_lost")
        return ctx.say("undo_challenge", challenger=event.challenger, verdict=verdict)
    if isinstance(event, (Penalty, TimePenalty)):
        return ctx.say("undo_penalty", player=event.player, points=event.points)
    if isinstance(event, Withdrawn):
        return ctx.say("undo_withdrawn", player=event.player)
    return ctx.say("undo_other")


# --- commands ----------------------------------------------------------------------------


@command("new", section=Section.CLASSIC, rank=10, access=Access.START, form=forms.NEW)
def cmd_new(ctx: Context) -> None:
    settings = ctx.settings
    chosen_rules: str | None = None
    players: list[str] = []
    for token in ctx.tokens:
        lowered = token.lower()
        if lowered in EDITIONS:
            settings = settings.with_edition(lowered)
        elif lowered in RULE_SETS:
            chosen_rules = lowered
        else:
            name = seats.clean_name(token)
            if not name:
                continue
            if any(player_key(name) == player_key(p) for p in players):
                raise UserError("err_duplicate_player", player=name)
            players.append(name)
    edition, notation, lexicon = settings.edition, settings.notation, settings.lexicon
    rules = rule_set_by_code(chosen_rules or settings.rules)
    if len(players) > most_players(rules):
        raise UserError("err_too_many_players", count=len(players), low=rules.min_players, high=most_players(rules))
    setup = GameSetup(
        edition=edition,
        rules=rules.code,
        notation=notation,
        lexicon=lexicon,
        players=tuple(players),
        referee_name=seats.display_name(ctx.message),
    )
    game = ClassicGame(edition_by_code(edition), rules, players, notation_by_name(notation))
    record = ctx.storage.create_game(
        ctx.message.channel, GameKind.CLASSIC, ctx.message.user, setup, abandon_running=ctx.confirmed
    )
    own_seat = seats.named_like(ctx.message, players)
    if own_seat is not None:
        seats.bind(ctx.storage, record, ctx.message.user, own_seat)
    if len(players) >= 2:
        text = ctx.say(
            "new_game",
            edition=edition,
            notation=notation,
            rules=rules_text(ctx, game),
            players=", ".join(players),
            to_move=players[0],
        )
    else:
        text = ctx.say("new_game_waiting", edition=edition, rules=rules.code, max=most_players(rules))
        if players:
            text += "\n" + ctx.say("joined", player=players[0], players=players[0])
    ctx.reply(text, actions=buttons.join_action(ctx.lang))


def join(ctx: Context, record: GameRecord) -> None:
    """/join for a classic game: take a free seat named like you (or NAME), or add your seat."""
    game = ctx.services.classic_games.load(ctx.storage, record)
    mine = seats.seat_of(ctx.storage, record, ctx.message.user, game.players)
    if mine is not None:
        raise UserError("already_seated", player=mine)
    wanted = seats.clean_name(" ".join(ctx.tokens)) or seats.display_name(ctx.message)
    existing = game.find_player(wanted)
    if existing is not None:
        if seats.owner_of(ctx.storage, record, existing) is not None:
            raise UserError("seat_taken", player=existing)
        typed = " ".join(ctx.tokens) or ctx.message.name
        if seats.claimable([existing], typed) is None and seats.named_like(ctx.message, [existing]) is None:
            raise UserError("seat_exact_name", player=existing)  # a look-alike never takes a free seat
        seats.bind(ctx.storage, record, ctx.message.user, existing)
        ctx.reply(ctx.say("seat_claimed", player=existing))
        return
    most = most_players(game.base_rules)
    if len(game.players) >= most:
        raise UserError("game_full", high=most, players=", ".join(game.players))
    record_event(ctx, record, game, Join(wanted))
    seats.bind(ctx.storage, record, ctx.message.user, wanted)
    text = ctx.say("joined", player=wanted, players=", ".join(game.players))
    if len(game.players) >= 2:
        text += "\n" + ctx.say("rules_now", rules=rules_text(ctx, game), to_move=game.to_move or "")
    ctx.reply(text)


def read_move(game: ClassicGame, args: str) -> tuple[str, int | None]:
    """The move and the score announced after it (``H8 VAGUE 26``); a last word where the announced score
    goes that is not a whole number is refused as such (``8H VOGUE dix``), not as an unreadable move."""
    move_text, claimed = split_claimed(args)
    words = move_text.split()
    if claimed is None and len(words) >= 3 and not _readable(game, move_text) and _readable(game, " ".join(words[:-1])):
        raise UserError("claimed_not_a_number", text=words[-1][:20], move=" ".join(words[:-1]))
    return move_text, claimed


def _readable(game: ClassicGame, move_text: str) -> bool:
    try:
        game.canonical_move(move_text)
    except NotationError:
        return False
    return True


@command("score", section=Section.CLASSIC, rank=20, access=Access.PLAYER, form=forms.SCORE)
def cmd_score(ctx: Context) -> None:
    record, game = load_classic(ctx)
    plain_move = _readable(game, split_claimed(ctx.args)[0])
    named, args = split_seat(game, ctx.args, first_word=not plain_move)  # /coup @Ben 9H AS, /coup Ben 9H AS
    if not args:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    turn = require_turn(ctx, record, game, named)
    player = turn.player
    move_text, claimed = read_move(game, args)
    alerts_before = set(game.alerts)
    lines_before = len(game.lines)
    record_event(ctx, record, game, Play(player, game.canonical_move(move_text), claimed))
    line = game.lines[lines_before]  # the play; lines after it are turns lost by the next players
    assert line.kind is LineKind.PLAY
    assert line.score is not None
    lines = turn.heading(ctx)
    lines.append(ctx.say("scored", player=player, move=line.move, breakdown=breakdown(line.score, ctx.lang)))
    if claimed is not None and claimed != line.points:
        lines.append(ctx.say("claimed_differs", claimed=claimed, counted=line.points))
    for skipped in game.lines[lines_before + 1 :]:
        if skipped.kind is LineKind.LOST_TURN:
            lines.append(ctx.say("turn_skipped", player=skipped.player))
    new_alerts = [a for a in game.alerts if a not in alerts_before]
    if new_alerts:
        lines.append(ctx.say("alert_new"))
    reply_status(ctx, game, lines, buttons.challenge_action(ctx.lang, game.rules.challenge_lost_turn))


def challenger_of(ctx: Context, record: GameRecord, game: ClassicGame) -> str:
    """Who challenges: the sender's seat; the referee names anyone with @NAME (default: the player to move)."""
    named = [t for t in ctx.args.split() if t.startswith("@") and len(t) > 1]
    controls = ctx.controls(record)
    if named:
        if not controls:
            raise UserError("challenge_named_by_referee")
        found = game.find_player(named[0])
        if found is None:
            raise UserError("err_unknown_player", player=named[0].lstrip("@"), players=", ".join(game.players))
        return found
    seat = acting_seat(ctx, record, game)
    if seat is not None:
        return seat
    if controls:
        return game.to_move or game.players[0]
    raise UserError("not_a_player", players=", ".join(game.players))


@command(
    "challenge", section=Section.CLASSIC, rank=30, access=Access.PLAYER, slow=True, uses_list=True, form=forms.CHALLENGE
)
def cmd_challenge(ctx: Context) -> None:
    from core.adjudication import adjudicate, normalise_query

    record, game = load_classic(ctx)
    if game.ended:
        raise UserError("game_over_hint")
    line = game.last_play_line()
    if line is None or line.placement is None:
        raise UserError("err_nothing_to_challenge")
    challenger = challenger_of(ctx, record, game)
    alphabet = game.edition.alphabet
    named = [normalise_query(w, alphabet) for w in ctx.args.replace(",", " ").split() if not w.startswith("@")]
    word_list = ctx.word_list(game_list(record.setup), record.channel)
    used = ListUsed(word_list.spec, word_list.house)
    verdicts = adjudicate(line.placement, word_list)
    if named:
        formed = {v.word for v in verdicts}
        missing = [w for w in named if w not in formed]
        if missing:
            formed_text = ", ".join(alphabet.spell(word) for word in sorted(formed))
            raise UserError("err_word_not_in_move", word=alphabet.spell(missing[0]), formed=formed_text)
        verdicts = tuple(v for v in verdicts if v.word in named)
    invalid = tuple(v.word for v in verdicts if not v.valid)
    words = tuple(v.word for v in verdicts) if named else ()
    lines_before = len(game.lines)
    record_event(ctx, record, game, Challenge(challenger, words, invalid), {VERDICT_KEY: used.to_data()})
    text = verdicts_text(ctx.lang, verdicts, word_list.house, alphabet)
    if invalid:
        out = [ctx.say("challenge_invalid", verdicts=text, player=line.player)]
    else:
        out = [ctx.say("challenge_valid", verdicts=text, player=line.player)]
        for added in game.lines[lines_before:]:
            if added.kind is LineKind.LOST_TURN:
                out.append(ctx.say("challenge_consequence_turn_now", challenger=added.player))
            elif added.kind is LineKind.CHALLENGE_PENALTY:
                out.append(ctx.say("challenge_consequence_penalty", challenger=added.player, points=-added.points))
            elif added.kind is LineKind.CHALLENGE_BONUS:
                out.append(ctx.say("challenge_consequence_bonus", player=added.player, points=added.points))
        if game.rules.challenge_lost_turn and not any(
            sheet_line.kind is LineKind.LOST_TURN for sheet_line in game.lines[lines_before:]
        ):
            out.append(ctx.say("challenge_consequence_turn", challenger=challenger))
    out.append(ctx.say("challenge_list", lists=used.label(ctx.lang)))
    reply_status(ctx, game, out)


@command("pass", section=Section.CLASSIC, rank=40, access=Access.PLAYER, form=forms.PASS)
def cmd_pass(ctx: Context) -> None:
    record, game = load_classic(ctx)
    named, rest = split_seat(game, ctx.args, first_word=True)  # /passe @Ben, /passe Ben
    if any(word != "!" for word in rest.split()):
        raise UserError("err_unknown_player", player=seats.clean_name(rest), players=", ".join(game.players))
    turn = require_turn(ctx, record, game, named)
    record_event(ctx, record, game, Pass(turn.player))
    reply_status(ctx, game, [*turn.heading(ctx), ctx.say("passed", player=turn.player)])


@command("exchange", section=Section.CLASSIC, rank=50, access=Access.PLAYER, form=forms.EXCHANGE)
def cmd_exchange(ctx: Context) -> None:
    record, game = load_classic(ctx)
    named, args = split_seat(game, ctx.args)  # /change @Ben ABC: a plain first word is letters
    turn = require_turn(ctx, record, game, named)
    player = turn.player
    tiles = "".join(args.split()).upper()
    record_event(ctx, record, game, Exchange(player, tiles))
    if not tiles:
        said = ctx.say("exchanged_unknown", player=player)
    elif tiles.isascii() and tiles.isdigit():
        said = ctx.say("exchanged_count", player=player, count=int(tiles))
    else:
        said = ctx.say("exchanged", player=player, tiles=tiles)
    reply_status(ctx, game, [*turn.heading(ctx), said])


@command("penalty", section=Section.CLASSIC, rank=60, access=Access.REFEREE, form=forms.PENALTY)
def cmd_penalty(ctx: Context) -> None:
    record, game = load_classic(ctx)
    words = ctx.args.split()
    if len(words) < 2:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    points = ctx.whole_number(words[-1])
    name = " ".join(words[:-1])
    player = game.find_player(name)
    if player is None:
        raise UserError("err_unknown_player", player=seats.clean_name(name), players=", ".join(game.players))
    record_event(ctx, record, game, Penalty(player, points))
    reply_status(ctx, game, [ctx.say("penalty", player=player, points=points)])


@command("undo", section=Section.CLASSIC, rank=70, access=Access.REFEREE)
def cmd_undo(ctx: Context) -> None:
    if ctx.storage.active_game(ctx.message.channel) is None:  # it ended since the command came in
        command_named("undo").handler_for(None)(ctx)  # ending.reopen_ended, which builds on this module
        return
    record, game = load_classic(ctx)
    last = game.last_undoable()
    if last is None:
        raise UserError("err_nothing_to_undo")
    what = event_text(ctx, last, game)
    record_event(ctx, record, game, Undo())
    reply_status(ctx, game, [ctx.say("undone", what=what)])


# --- views ---------------------------------------------------------------------------------


def standings_text(ctx: Context, game: ClassicGame) -> str:
    return standings_text_in(ctx.lang, game)


def standings_text_in(lang: str, game: ClassicGame) -> str:
    return "\n".join(
        say(lang, "standing_line", place=s.place, player=s.player, final=s.final, before=s.before, adjustment=a)
        for s, a in ((s, s.adjustment) for s in game.standings())
    )


SHEET_PAGE = 40  # lines of a sheet shown at once; a long game's sheet is read page by page


def sheet_page(ctx: Context, count: int) -> int:
    """The page asked for with ``pN`` (``/feuille p2``), else the last one (the latest lines)."""
    pages = max(1, -(-count // SHEET_PAGE))
    for token in ctx.tokens:
        number = read_int(token[1:]) if is_page_word(token) else None
        if number is not None:
            if not 1 <= number <= pages:
                raise UserError("no_such_page", page=number, pages=pages)
            return number
    return pages


def sheet_text(ctx: Context, game: ClassicGame) -> str:
    if not game.lines:
        return ctx.say("sheet_empty")
    page = sheet_page(ctx, len(game.lines))
    shown = game.lines[(page - 1) * SHEET_PAGE : page * SHEET_PAGE]
    header = ["#", ctx.say("col_player"), ctx.say("col_move"), "pts", "total", ""]
    rows = [[line.number, line.player, *line_cells(line, ctx.lang, game.edition.alphabet)] for line in shown]
    parts = [table(rows, header)]
    if len(shown) < len(game.lines):
        pages = -(-len(game.lines) // SHEET_PAGE)
        words = [t for t in ctx.tokens if not is_page_word(t)]
        ctx.offered = buttons.page_actions(ctx.lang, "sheet", page, pages, words)
        parts.append(
            ctx.say(
                "sheet_paged",
                first=shown[0].number,
                last=shown[-1].number,
                count=len(game.lines),
                page=page,
                pages=pages,
            )
        )
    return "\n".join(parts + status_lines(ctx, game))


def last_squares(game: ClassicGame) -> list[tuple[int, int]]:
    line = next((sheet_line for sheet_line in reversed(game.lines) if sheet_line.kind is LineKind.PLAY), None)
    if line is None or line.placement is None or line.removed:
        return []
    return [(c.row, c.col) for c in line.placement.new_tiles]


def turns_played(game: ClassicGame) -> int:
    """Turns on the sheet so far: plays (challenged off or not), passes, exchanges, lost turns."""
    return sum(1 for line in game.lines if line.kind in TURN_KINDS)


def last_move_text(lang: str, game: ClassicGame) -> str:
    """The last turn in a few words (``F10 JOuET (Ben), 59 pts``), "" before the first."""
    from ...messages import say

    line = next((sheet_line for sheet_line in reversed(game.lines) if sheet_line.kind in TURN_KINDS), None)
    if line is None:
        return ""
    notes = line_notes(line, lang, game.edition.alphabet)
    if line.kind is not LineKind.PLAY:  # Ben : passe, Cleo : tour perdu (contestation)
        return say(lang, "board_last_turn", move=line_text(line, lang), player=line.player)
    return say(
        lang,
        "board_last_move",
        move=line_text(line, lang),
        player=line.player,
        points=line.points,
        notes=f" — {notes}" if notes else "",
    )


def board_view(lang: str, game: ClassicGame, now: float | None = None) -> ClassicBoardView:
    """What the board image shows: players and scores, whose turn, the move number, the bag, the last move,
    and the clock when the game has one (read at ``now``)."""
    totals = game.totals()
    turns = turns_played(game)
    over = game.ended
    return ClassicBoardView(
        board=game.board,
        edition=game.edition,
        notation=game.notation,
        language=lang,
        players=tuple(PlayerScore(player, totals[player]) for player in game.players),
        to_move=None if over else game.to_move,
        move_number=max(1, turns) if over else turns + 1,
        bag_count=game.bag_count(),
        last_squares=tuple(last_squares(game)),
        last_move=last_move_text(lang, game),
        clock=tuple(clock_lines(lang, game, now)) if now is not None and not over else (),
    )


def board_header(ctx: Context, view: ClassicBoardView) -> list[str]:
    """The image's header as text lines (console, screen readers)."""
    turn = ctx.say("board_over") if view.to_move is None else ctx.say("board_to_move", player=view.to_move)
    scores = "".join(f" · {p.name} {p.score}" for p in view.players)
    lines = [ctx.say("board_status", n=view.move_number, turn=turn, bag=view.bag_count) + scores]
    lines += view.clock
    if view.last_move:
        lines.append(ctx.say("board_last", move=view.last_move))
    return lines


def board(ctx: Context, game: ClassicGame) -> tuple[str, bytes | None]:
    """The board as text (header and monospace grid) and, when the referee draws images, as a PNG."""
    view = board_view(ctx.lang, game, ctx.services.now())
    grid = "```\n" + board_text(game.board, game.notation, view.last_squares, ctx.lang, game.edition) + "\n```"
    text = "\n".join([*board_header(ctx, view), grid])
    return text, classic_board_png(view) if ctx.services.images else None
