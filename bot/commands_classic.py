"""Classic game commands: /new /join /score /calc /challenge /pass /exchange /penalty /undo /end,
and the views /sheet /board /unseen /export (which also serve duplicate games)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

from core.adjudication import adjudicate, normalise_query
from core.board import Board
from core.duplicate import DuplicateGame
from core.edition import edition_by_code
from core.events import Challenge, End, Event, Exchange, Join, Pass, Penalty, Play, Undo, event_from_dict, event_to_dict
from core.game import ClassicGame, SheetLine
from core.gcg import write_gcg
from core.notation import notation_by_name, parse_move
from core.placement import validate_move
from core.rules import RULE_SETS, rule_set_by_code
from core.scoring import MoveScore, score_placement

from . import commands_duplicate
from .referee import Context, Handler, UserError
from .render import board_png, board_text, table
from .storage import GameRecord

# --- loading -----------------------------------------------------------------------------


def build_game(record: GameRecord, events: list[Event]) -> ClassicGame:
    """The classic game a stored set-up and events describe."""
    setup = record.setup
    return ClassicGame(
        edition_by_code(setup["edition"]),
        rule_set_by_code(setup["rules"]),
        setup.get("players", []),
        notation_by_name(setup["notation"]),
        events=events,
    )


def build_from_data(record: GameRecord, events: list[dict[str, Any]]) -> ClassicGame:
    return build_game(record, [event_from_dict(data) for data in events])


def apply_data(game: ClassicGame, data: dict[str, Any]) -> None:
    game.push(event_from_dict(data))


def load_classic(ctx: Context) -> tuple[GameRecord, ClassicGame]:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind != "classic":
        raise UserError("no_classic_game")
    return record, ctx.referee.classic_games.load(ctx.storage, record)


def record_event(ctx: Context, record: GameRecord, game: ClassicGame, event: Event) -> None:
    """Apply an event (validating it) and append it to the log, in the command's transaction."""
    game.push(event)
    ctx.referee.classic_games.append(ctx.storage, record, game, event_to_dict(event), ctx.message.user)


def or_duplicate(duplicate_view: Callable[[Context, GameRecord], None]) -> Callable[[Handler], Handler]:
    """A command that serves duplicate games too: the channel's duplicate game goes to ``duplicate_view``."""

    def wrap(classic: Handler) -> Handler:
        @functools.wraps(classic)
        def handler(ctx: Context) -> None:
            record = ctx.storage.active_game(ctx.message.channel)
            if record is not None and record.kind == "duplicate":
                duplicate_view(ctx, record)
            else:
                classic(ctx)

        return handler

    return wrap


def player_of(ctx: Context, game: ClassicGame) -> str | None:
    """The game's player named like the sender: the whole display name, else its first word (any case)."""
    full = ctx.message.name.strip().lower()
    first = full.split()[0] if full.split() else full
    for wanted in (full, first):
        found = next((p for p in game.players if p.lower() == wanted), None)
        if found is not None:
            return found
    return None


def find_player(game: ClassicGame, name: str) -> str:
    wanted = name.strip().lstrip("@").lower()
    for player in game.players:
        if player.lower() == wanted:
            return player
    return name.strip()  # the engine explains the unknown player


def require_turn(ctx: Context, record: GameRecord, game: ClassicGame) -> str:
    """The player to move, if the sender may act for them (that player, the referee, an admin)."""
    if game.ended:
        raise UserError("game_over_hint")
    to_move = game.to_move
    if to_move is None or len(game.players) < 2:
        rules = game.rules
        raise UserError("err_player_count", count=len(game.players), low=rules.min_players, high=rules.max_players)
    if player_of(ctx, game) == to_move or ctx.message.user == record.referee or ctx.message.admin:
        return to_move
    raise UserError("not_your_turn", to_move=to_move, referee=record.setup.get("referee_name", "?"))


# --- formatting --------------------------------------------------------------------------


def breakdown(score: MoveScore, lang: str) -> str:
    lines = [str(word) for word in score.words]
    if score.bonus:
        lines.append(f"{'scrabble' if lang == 'fr' else 'bingo'} +{score.bonus}")
    if len(score.words) > 1 or score.bonus:
        lines.append(f"= {score.sum_line}")
    return "\n".join(lines)


def status_lines(ctx: Context, game: ClassicGame, alerts_before: int = 0) -> list[str]:
    totals = " · ".join(f"{p} {t}" for p, t in game.totals().items())
    lines = [ctx.say("totals", totals=totals)]
    for alert in game.alerts[alerts_before:]:
        lines.append(ctx.say("alert", alert=alert))
    if game.scoreless_limit_reached:
        lines.append(ctx.say("limit_reached", streak=game.scoreless_streak()))
    if game.to_move and not game.ended:
        lines.append(ctx.say("to_move", player=game.to_move))
    return lines


# --- commands ----------------------------------------------------------------------------


def cmd_new(ctx: Context) -> None:
    settings = ctx.settings
    chosen_rules: str | None = None
    players: list[str] = []
    for token in ctx.args.replace(",", " ").split():
        lowered = token.lower()
        if lowered in ("fr", "en"):
            settings = settings.with_edition(lowered)
        elif lowered in RULE_SETS:
            chosen_rules = lowered
        elif token not in players:
            players.append(token[:32])
    edition, notation, lexicon = settings.edition, settings.notation, settings.lexicon
    rules = chosen_rules or settings.rules
    setup = {
        "edition": edition,
        "rules": rules,
        "notation": notation,
        "lexicon": lexicon,
        "players": players,
        "referee_name": ctx.message.name,
    }
    game = ClassicGame(edition_by_code(edition), rule_set_by_code(rules), players, notation_by_name(notation))
    ctx.storage.create_game(ctx.message.channel, "classic", ctx.message.user, setup)
    values = dict(edition=edition, rules=rules, notation=notation, max=game.rules.max_players)
    if len(players) >= 2:
        ctx.reply(ctx.say("new_game", players=", ".join(players), to_move=players[0], **values))
    else:
        text = ctx.say("new_game_waiting", **values)
        if players:
            text += "\n" + ctx.say("joined", player=players[0], players=players[0])
        ctx.reply(text)


@or_duplicate(commands_duplicate.join)
def cmd_join(ctx: Context) -> None:
    record, game = load_classic(ctx)
    record_event(ctx, record, game, Join(ctx.message.name[:32]))
    ctx.reply(ctx.say("joined", player=ctx.message.name, players=", ".join(game.players)))


def split_claimed(args: str) -> tuple[str, int | None]:
    """``H8 VAGUE 26`` -> (``H8 VAGUE``, 26)."""
    words = args.split()
    if len(words) >= 3 and words[-1].lstrip("+").isdigit():
        return " ".join(words[:-1]), int(words[-1].lstrip("+"))
    return args, None


def cmd_score(ctx: Context) -> None:
    record, game = load_classic(ctx)
    if not ctx.args:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    player = require_turn(ctx, record, game)
    move_text, claimed = split_claimed(ctx.args)
    alerts_before = len(game.alerts)
    record_event(ctx, record, game, Play(player, game.canonical_move(move_text), claimed))
    line = game.lines[-1]
    assert line.score is not None
    lines = [ctx.say("scored", player=player, move=line.text, breakdown=breakdown(line.score, ctx.lang))]
    if claimed is not None and claimed != line.points:
        lines.append(ctx.say("claimed_differs", claimed=claimed, counted=line.points))
    ctx.reply("\n".join(lines + status_lines(ctx, game, alerts_before)))


def cmd_calc(ctx: Context) -> None:
    if not ctx.args:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    record = ctx.storage.active_game(ctx.message.channel)
    move_text, _ = split_claimed(ctx.args)
    game: ClassicGame | DuplicateGame | None = None
    if record is not None:
        game = load_classic(ctx)[1] if record.kind == "classic" else commands_duplicate.game_of(ctx.referee, record)
    board = game.board if game else Board()  # no game: a move on an empty board
    edition = game.edition if game else edition_by_code(ctx.settings.edition)
    notation = game.notation if game else notation_by_name(ctx.settings.notation)
    placement = validate_move(board, parse_move(move_text, notation), notation, rack_size=edition.rack_size)
    score = score_placement(placement, edition)
    ctx.reply(ctx.say("calc", move=placement.notation(notation), breakdown=breakdown(score, ctx.lang)))


def cmd_challenge(ctx: Context) -> None:
    record, game = load_classic(ctx)
    line = game.last_play_line()
    if line is None or line.placement is None:
        last = game.lines[-1].text if game.lines else "-"
        raise UserError("err_nothing_to_challenge", last=last)
    challenger = player_of(ctx, game)
    if challenger is None:
        if not (ctx.message.user == record.referee or ctx.message.admin):
            raise UserError("err_unknown_player", player=ctx.message.name, players=", ".join(game.players))
        challenger = game.to_move or game.players[0]
    named = [normalise_query(w) for w in ctx.args.replace(",", " ").split()]
    verdicts = adjudicate(line.placement, ctx.word_list(record.setup.get("lexicon")))
    if named:
        formed = {v.word for v in verdicts}
        missing = [w for w in named if w not in formed]
        if missing:
            raise UserError("err_word_not_in_move", word=missing[0], formed=", ".join(sorted(formed)))
        verdicts = tuple(v for v in verdicts if v.word in named)
    invalid = tuple(v.word for v in verdicts if not v.valid)
    words = tuple(v.word for v in verdicts) if named else ()
    lines_before = len(game.lines)
    record_event(ctx, record, game, Challenge(challenger, words, invalid))
    text = ", ".join(f"{v.word} {ctx.say('valid' if v.valid else 'invalid')}" for v in verdicts)
    if invalid:
        out = [ctx.say("challenge_invalid", verdicts=text, player=line.player)]
    else:
        out = [ctx.say("challenge_valid", verdicts=text, player=line.player)]
        for added in game.lines[lines_before:]:
            if added.kind == "lost_turn":
                out.append(ctx.say("challenge_consequence_turn", challenger=added.player))
            elif added.kind == "challenge_penalty":
                out.append(ctx.say("challenge_consequence_penalty", challenger=added.player, points=-added.points))
            elif added.kind == "challenge_bonus":
                out.append(ctx.say("challenge_consequence_bonus", player=added.player, points=added.points))
        if game.rules.challenge_lost_turn and not any(
            sheet_line.kind == "lost_turn" for sheet_line in game.lines[lines_before:]
        ):
            out.append(ctx.say("challenge_consequence_turn", challenger=challenger))
    ctx.reply("\n".join(out + status_lines(ctx, game)))


def cmd_pass(ctx: Context) -> None:
    record, game = load_classic(ctx)
    player = require_turn(ctx, record, game)
    record_event(ctx, record, game, Pass(player))
    ctx.reply("\n".join([ctx.say("passed", player=player)] + status_lines(ctx, game)))


def cmd_exchange(ctx: Context) -> None:
    record, game = load_classic(ctx)
    player = require_turn(ctx, record, game)
    tiles = ctx.args.replace(" ", "").upper()
    record_event(ctx, record, game, Exchange(player, tiles))
    shown = tiles if tiles else "?"
    ctx.reply("\n".join([ctx.say("exchanged", player=player, tiles=shown)] + status_lines(ctx, game)))


def cmd_penalty(ctx: Context) -> None:
    record, game = load_classic(ctx)
    ctx.require_control(record)
    words = ctx.args.split()
    if len(words) < 2:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    try:
        points = abs(int(words[-1]))
    except ValueError:
        raise UserError("bad_number", text=words[-1]) from None
    player = find_player(game, " ".join(words[:-1]))
    record_event(ctx, record, game, Penalty(player, points))
    ctx.reply("\n".join([ctx.say("penalty", player=player, points=points)] + status_lines(ctx, game)))


def cmd_undo(ctx: Context) -> None:
    record, game = load_classic(ctx)
    ctx.require_control(record)
    last = ""
    if game.lines:
        line = game.lines[-1]
        last = f"{line.number}. {line.player} {line_text(line, ctx.lang)} {line.points:+d}"
    record_event(ctx, record, game, Undo())
    ctx.reply("\n".join([ctx.say("undone", line=last)] + status_lines(ctx, game)))


def parse_racks(args: str, game: ClassicGame) -> tuple[tuple[str, str], ...]:
    """``Ben=EAU Ana=`` or, in a two-player game, just the letters of the one who did not go out."""
    racks: dict[str, str] = {}
    loose: list[str] = []
    for token in args.replace(",", " ").split():
        if "=" in token or ":" in token:
            name, _, rack = token.replace(":", "=").partition("=")
            racks[find_player(game, name)] = rack.upper()
        else:
            loose.append(token.upper())
    if loose:
        last_player = next(
            (sheet_line.player for sheet_line in reversed(game.lines) if sheet_line.kind == "play"), None
        )
        others = [p for p in game.players if p != last_player and p not in racks]
        if len(others) != 1 or len(loose) != 1:
            raise UserError("usage", usage="/end PLAYER=LETTERS PLAYER=LETTERS (? = joker)")
        racks[others[0]] = loose[0]
    return tuple(racks.items())


@or_duplicate(commands_duplicate.end)
def cmd_end(ctx: Context) -> None:
    record, game = load_classic(ctx)
    ctx.require_control(record)
    record_event(ctx, record, game, End(parse_racks(ctx.args, game)))
    ctx.storage.set_game_status(record.id, "ended")
    standings = "\n".join(
        ctx.say(
            "standing_line", place=s.place, player=s.player, final=s.final, before=s.before, adjustment=s.adjustment
        )
        for s in game.standings()
    )
    ctx.reply(ctx.say("ended", standings=standings))


_LINE_TEXT = {
    "pass": ("passe", "pass"),
    "exchange": ("change", "exchange"),
    "lost_turn": ("tour perdu (contestation)", "turn lost (challenge)"),
    "challenge_penalty": ("contestation perdue", "challenge lost"),
    "challenge_bonus": ("bonus de contestation", "challenge bonus"),
    "penalty": ("pénalité", "penalty"),
    "time_penalty": ("dépassement de temps", "time penalty"),
}


def line_text(line: SheetLine, lang: str) -> str:
    """A sheet line's move column in the channel's language."""
    french = lang == "fr"
    if line.kind == "play":
        return line.text
    if line.kind == "exchange":
        return line.text.replace("exchange", "change" if french else "exchange")
    if line.kind == "end":
        if line.text == "went out":
            return "a fini" if french else "went out"
        return "lettres restantes" if french else "rack left"
    fr, en = _LINE_TEXT.get(line.kind, (line.text, line.text))
    return fr if french else en


def line_notes(line: SheetLine, lang: str) -> str:
    french = lang == "fr"
    notes = []
    if line.claimed is not None:
        notes.append(f"{'annoncé' if french else 'claimed'} {line.claimed}")
    if line.removed_reason == "challenge":
        words = ", ".join(line.invalid)
        notes.append(f"contesté : {words} non valable" if french else f"challenged: {words} invalid")
    elif line.removed_reason == "withdrawn":
        notes.append("retiré" if french else "withdrawn")
    return "; ".join(notes)


def sheet_text(ctx: Context, game: ClassicGame) -> str:
    if not game.lines:
        return ctx.say("sheet_empty")
    header = [
        "#",
        "joueur" if ctx.lang == "fr" else "player",
        "coup" if ctx.lang == "fr" else "move",
        "pts",
        "total",
        "",
    ]
    rows = [
        [
            sheet_line.number,
            sheet_line.player,
            line_text(sheet_line, ctx.lang),
            sheet_line.points,
            sheet_line.total,
            line_notes(sheet_line, ctx.lang),
        ]
        for sheet_line in game.lines
    ]
    return "\n".join([table(rows, header)] + status_lines(ctx, game))


def last_squares(line: SheetLine | None) -> list[tuple[int, int]]:
    if line is None or line.placement is None or line.removed:
        return []
    return [(c.row, c.col) for c in line.placement.new_tiles]


@or_duplicate(commands_duplicate.sheet)
def cmd_sheet(ctx: Context) -> None:
    _, game = load_classic(ctx)
    ctx.reply(sheet_text(ctx, game))


@or_duplicate(commands_duplicate.board)
def cmd_board(ctx: Context) -> None:
    _, game = load_classic(ctx)
    last = last_squares(next((sheet_line for sheet_line in reversed(game.lines) if sheet_line.kind == "play"), None))
    send_board(ctx, game.board, game.edition.code, game.notation.value, last)


def send_board(ctx: Context, board: Board, edition: str, notation: str, last: list[tuple[int, int]]) -> None:
    text = "```\n" + board_text(board, notation_by_name(notation), last) + "\n```"
    image = (
        board_png(board, edition_by_code(edition), notation_by_name(notation), last, ctx.lang)
        if ctx.referee.images
        else None
    )
    ctx.reply(text, image=image)


@or_duplicate(commands_duplicate.unseen)
def cmd_unseen(ctx: Context) -> None:
    _, game = load_classic(ctx)
    unseen = game.unseen()
    ctx.reply(ctx.say("unseen", count=sum(unseen.values()), letters=tiles_text(unseen), bag=game.bag_count()))


def tiles_text(tiles: Counter[str]) -> str:
    """``?x2 Ax6 B ...``: each tile with its count."""
    return " ".join(f"{tile}{'x' + str(n) if n > 1 else ''}" for tile, n in sorted(tiles.items()))


@or_duplicate(commands_duplicate.export)
def cmd_export(ctx: Context) -> None:
    _, game = load_classic(ctx)
    ctx.reply("```\n" + write_gcg(game) + "```")


HANDLERS = {
    "new": cmd_new,
    "join": cmd_join,
    "score": cmd_score,
    "calc": cmd_calc,
    "challenge": cmd_challenge,
    "pass": cmd_pass,
    "exchange": cmd_exchange,
    "penalty": cmd_penalty,
    "undo": cmd_undo,
    "end": cmd_end,
    "sheet": cmd_sheet,
    "board": cmd_board,
    "unseen": cmd_unseen,
    "export": cmd_export,
}
