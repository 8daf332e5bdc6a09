"""The commands of a classic game the referee deals: ``/new online PLAYERS…`` (``/nouvelle en-ligne``, a
seat ``bot``/``robot`` for the computer, a level word for its strength), /rack in private, and the online
side of /score /pass /exchange /challenge /join /end: each move from the sender's own seat and rack."""

from __future__ import annotations

from collections.abc import Sequence

from core.adjudication import adjudicate, normalise_query
from core.edition import EDITIONS, edition_by_code
from core.errors_online import NotOnRackError
from core.game import LineKind, player_key
from core.notation import notation_by_name
from core.online import DealtGame
from core.online_events import DealtEvent, OrderDrawn, Pace, Robot
from core.online_robot import Level
from core.rules import RULE_SETS, most_players, rule_set_by_code

from ...commands.context import Context, UserError, starts_beside
from ...commands.registry import Access, Section, command, handles, starts
from ...messages import keyword_form, keywords
from ...play import seats
from ...storage import GameKind, GameRecord, GameSetup, GameStatus
from ...words.game_lists import VERDICT_KEY, ListUsed, game_list, verdicts_text
from ..classic import commands as classic
from ..common.formatting import split_claimed
from .turns import (
    after_turn,
    finish,
    game_prefix,
    load,
    own_seat,
    rack_text,
    robots_play,
    store,
    tell,
    turn_lines,
    turn_player,
    your_turn,
)

MOST_SEATS = 4
LEVEL_WORDS = {
    Level.TOP: "keywords_online_level_top",
    Level.STRONG: "keywords_online_level_strong",
    Level.MEDIUM: "keywords_online_level_medium",
    Level.WEAK: "keywords_online_level_weak",
    Level.NOVICE: "keywords_online_level_novice",
}


def asked(tokens: Sequence[str]) -> bool:
    """Whether /new's words ask for a game the referee deals (``online``, ``en-ligne``)."""
    return any(keyword_form(token) in keywords("keywords_online") for token in tokens)


def _pace(word: str) -> tuple[int, int] | None:
    """(hours a move, days a game) a word gives: ``24h`` the hours, ``7d`` (``7j``) the days; None for another word."""
    digits = len(word) - len(word.lstrip("0123456789"))
    if not 1 <= digits <= 3:
        return None
    number, unit = int(word[:digits]), word[digits:]
    if unit in keywords("keywords_online_hours"):
        return number, 0
    if unit in keywords("keywords_online_days"):
        return 0, number
    return None


def by_correspondence(tokens: list[str]) -> bool:
    """Whether /new's words ask for a game the referee deals by correspondence (hours a move or days a game)."""
    return asked(tokens) and any(_pace(keyword_form(token)) is not None for token in tokens)


@starts_beside("new")
def beside(ctx: Context, running: GameRecord) -> bool:
    """A game by correspondence starts beside the channel's running games when they are all games by
    correspondence too (each goes on, known by its number); any other /new replaces them, as it replaces a game."""
    if not by_correspondence(ctx.tokens):
        return False
    games = [g for g in ctx.storage.games(ctx.message.channel) if g.status is GameStatus.ACTIVE]
    return all(g.kind is GameKind.ONLINE and ctx.services.games.load(ctx.storage, g).pace is not None for g in games)


def _level(word: str) -> Level | None:
    return next((level for level, key in LEVEL_WORDS.items() if word in keywords(key)), None)


def start(ctx: Context) -> None:
    """/new online ...: two to four seats (the computer's among them), the order drawn, the racks dealt."""
    settings, rules, level = ctx.settings, ctx.settings.rules, Level.TOP
    players: list[str] = []
    robots: list[str] = []
    hours = days = 0
    for token in ctx.tokens:
        form, lowered = keyword_form(token), token.lower()
        if form in keywords("keywords_online"):
            continue
        if lowered in EDITIONS:
            settings = settings.with_edition(lowered)
        elif lowered in RULE_SETS:
            rules = lowered
        elif form in keywords("keywords_online_bot"):
            robots.append(seats.free_name(ctx.say("online_robot_name"), players))
            players.append(robots[-1])
        elif _level(form) is not None:
            level = _level(form) or level
        elif _pace(form) is not None:
            pace = _pace(form) or (0, 0)
            hours, days = pace[0] or hours, pace[1] or days
        else:
            name = seats.clean_name(token)
            if any(player_key(name) == player_key(p) for p in players):
                raise UserError("err_duplicate_player", player=name)
            if name:
                players.append(name)
    rule_set = rule_set_by_code(rules)
    high = min(MOST_SEATS, most_players(rule_set))
    if not 2 <= len(players) <= high:
        raise UserError("online_players", count=len(players), low=2, high=high)
    setup = GameSetup(
        edition=settings.edition,
        notation=settings.notation,
        lexicon=settings.lexicon,
        rules=rule_set.code,
        players=tuple(players),
        referee_name=seats.display_name(ctx.message),
    )
    game = DealtGame(edition_by_code(settings.edition), rule_set, players, notation_by_name(settings.notation))
    running = ctx.storage.active_game(ctx.message.channel)
    alongside = running is not None and beside(ctx, running)
    record = ctx.storage.create_game(
        ctx.message.channel, GameKind.ONLINE, ctx.message.user, setup, abandon_running=ctx.confirmed, beside=alongside
    )
    own = seats.named_like(ctx.message, [p for p in players if p not in robots])
    if own is not None:
        seats.bind(ctx.storage, record, ctx.message.user, own)
    events: list[DealtEvent] = [game.apply(Robot(name, str(level))) for name in robots]
    if hours or days:
        events.append(game.apply(Pace(hours, days)))
    turn = game.start(ctx.services.draws, ctx.services.now())
    store(ctx, record, game, [*events, *turn.events])
    draws = " / ".join(", ".join(f"{p} {game.edition.label(t)}" for p, t in one) for one in game_order(game))
    lines = [
        ctx.say(
            "online_new",
            edition=settings.edition,
            rules=classic.rules_text(ctx, game.classic),
            players=", ".join(players),
            draws=draws,
            to_move=game.to_move or "-",
        )
    ]
    if hours or days:
        lines.append(ctx.say("online_pace", hours=hours or "-", days=days or "-"))
    if robots:
        lines.append(ctx.say("online_robot_level", players=", ".join(robots), level=ctx.say(f"online_level_{level}")))
    robots_play(ctx, record, game, lines)
    for player in game.players:
        if player != game.to_move and player not in game.robots:
            tell(ctx, record, player, ctx.say("online_rack", player=player, rack=rack_text(ctx, game, player)))
    finish(ctx, record, game, lines)


def game_order(game: DealtGame) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The draws for the order, round by round."""
    drawn = next(e for e in game.events if isinstance(e, OrderDrawn))
    return drawn.rounds


starts("new", asked)(start)  # /new online ..., whatever runs in the channel (replacing it takes the referee's !)


@command("rack", section=Section.CLASSIC, rank=110, access=Access.PLAYER, private=True)
def cmd_rack(ctx: Context) -> None:
    """/rack where no online game runs: in a private chat, the sender's racks in every online game they play
    (each named by its number in its channel when there are several); elsewhere, no game."""
    shown: list[str] = []
    if ctx.message.private:
        records = [r for r in ctx.storage.active_games_of(ctx.message.user) if r.kind is GameKind.ONLINE]
        for record in reversed(records):  # oldest first
            game: DealtGame = ctx.services.games.load(ctx.storage, record)
            seat = seats.seat_of(ctx.storage, record, ctx.message.user, game.players)
            if seat is not None:
                text = ctx.say("online_rack", player=seat, rack=rack_text(ctx, game, seat))
                shown.append((game_prefix(ctx, record) if len(records) > 1 else "") + text)
    if not shown:
        raise UserError("online_no_game")  # racks are the dealt game's: the handler below
    ctx.private("\n".join(shown))


@handles("rack", GameKind.ONLINE)
def online_rack(ctx: Context) -> None:
    record, game = load(ctx)
    player = own_seat(ctx, record, game)
    ctx.private(ctx.say("online_rack", player=player, rack=rack_text(ctx, game, player)))


@handles("score", GameKind.ONLINE)
def online_score(ctx: Context) -> None:
    record, game = load(ctx)
    player = turn_player(ctx, record, game)
    move_text, _ = split_claimed(ctx.args)  # an announced score is not needed: the referee counts
    if not move_text:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    before = len(game.lines)
    try:
        turn = game.play(player, move_text, ctx.services.draws, ctx.services.now())
    except NotOnRackError as refused:  # the rack goes to its player only; the channel is told nothing of it
        ctx.reply(ctx.say("online_not_on_rack_public", player=player), error=True)
        missing = game.edition.spell_tiles(refused.missing)
        ctx.private(ctx.say("online_not_on_rack", missing=missing, rack=rack_text(ctx, game, player)), error=True)
        return

    after_turn(ctx, record, game, player, turn, turn_lines(ctx, game, player, turn, before))


@handles("pass", GameKind.ONLINE)
def online_pass(ctx: Context) -> None:
    record, game = load(ctx)
    player = turn_player(ctx, record, game)
    accepting = game.awaiting_end is not None
    turn = game.pass_turn(player, ctx.services.now())
    lines = [ctx.say("online_accepted", player=player)] if accepting else [ctx.say("passed", player=player)]
    after_turn(ctx, record, game, player, turn, lines)


@handles("exchange", GameKind.ONLINE)
def online_exchange(ctx: Context) -> None:
    record, game = load(ctx)
    player = turn_player(ctx, record, game)
    tiles = "".join(ctx.args.split())
    if not tiles:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    try:
        turn = game.exchange(player, tiles, ctx.services.draws, ctx.services.now())
    except NotOnRackError as refused:
        ctx.reply(ctx.say("online_not_on_rack_public", player=player), error=True)
        missing = game.edition.spell_tiles(refused.missing)
        ctx.private(ctx.say("online_not_on_rack", missing=missing, rack=rack_text(ctx, game, player)), error=True)
        return
    lines = [ctx.say("exchanged_count", player=player, count=len(game.edition.tiles(tiles)))]
    after_turn(ctx, record, game, player, turn, lines)


@handles("challenge", GameKind.ONLINE)
def online_challenge(ctx: Context) -> None:
    record, game = load(ctx)
    if game.ended:
        raise UserError("game_over_hint")
    line = game.classic.last_play_line()
    if line is None or line.placement is None:
        raise UserError("err_nothing_to_challenge")
    challenger = own_seat(ctx, record, game)
    alphabet = game.edition.alphabet
    named = [normalise_query(w, alphabet) for w in ctx.args.replace(",", " ").split()]
    word_list = ctx.word_list(game_list(record.setup), record.channel)
    used = ListUsed(word_list.spec, word_list.house)
    verdicts = adjudicate(line.placement, word_list)
    if named:
        verdicts = tuple(v for v in verdicts if v.word in named) or verdicts
    invalid = tuple(v.word for v in verdicts if not v.valid)
    words = tuple(v.word for v in verdicts) if named else ()
    before = len(game.lines)
    turn = game.challenge(challenger, words, invalid, ctx.services.now())
    store(ctx, record, game, turn.events, **{VERDICT_KEY: used.to_data()})
    text = verdicts_text(ctx.lang, verdicts, word_list.house, alphabet)
    lines = [ctx.say("challenge_invalid" if invalid else "challenge_valid", verdicts=text, player=line.player)]
    for added in game.lines[before:]:
        if added.kind is LineKind.LOST_TURN:
            lines.append(ctx.say("challenge_consequence_turn_now", challenger=added.player))
        elif added.kind is LineKind.CHALLENGE_PENALTY:
            lines.append(ctx.say("challenge_consequence_penalty", challenger=added.player, points=-added.points))
        elif added.kind is LineKind.CHALLENGE_BONUS:
            lines.append(ctx.say("challenge_consequence_bonus", player=added.player, points=added.points))
    if invalid:  # the phony's tiles are back on its player's rack
        tell(
            ctx, record, line.player, ctx.say("online_rack", player=line.player, rack=rack_text(ctx, game, line.player))
        )
    robots_play(ctx, record, game, lines)
    finish(ctx, record, game, lines)


@handles("join", GameKind.ONLINE)
def online_join(ctx: Context) -> None:
    """/join [NAME]: take a free seat of the game (the racks are dealt: nobody is added)."""
    record, game = load(ctx)
    mine = seats.seat_of(ctx.storage, record, ctx.message.user, game.players)
    if mine is not None:
        raise UserError("already_seated", player=mine)
    wanted = seats.clean_name(" ".join(ctx.tokens)) or seats.display_name(ctx.message)
    free = [p for p in game.players if p not in game.robots and seats.owner_of(ctx.storage, record, p) is None]
    seat = next((p for p in free if player_key(p) == player_key(wanted)), None)
    if seat is None:
        raise UserError("online_no_free_seat", player=wanted, players=", ".join(free) or "-")
    seats.bind(ctx.storage, record, ctx.message.user, seat)
    ctx.reply(ctx.say("seat_claimed", player=seat))
    text = your_turn(ctx, record, game, seat) if game.to_move == seat else None
    ctx.private(text or ctx.say("online_rack", player=seat, rack=rack_text(ctx, game, seat)))


@handles("end", GameKind.ONLINE)
def online_end(ctx: Context) -> None:
    """/end: the referee stops the game; each player loses what is left on the rack."""
    record, game = load(ctx)
    ctx.require_control(record)  # game N's referee (or an admin), whichever game runs last
    if game.ended:
        raise UserError("game_over_hint")
    turn = game.stop(ctx.services.now())
    store(ctx, record, game, turn.events)
    finish(ctx, record, game, [])
