"""/tally: ``/tally Ana Ben`` starts a tally, ``/tally 12`` scores points for the one who types it."""

from __future__ import annotations

from bot.commands.context import Context, UserError
from bot.commands.registry import Access, Section, command
from bot.play import seats
from bot.storage import GameSetup

from .game import Scored, Tally
from .kind import KIND


@command("tally", section=Section.CLASSIC, rank=1000, access=Access.ANYONE)
def cmd_tally(ctx: Context) -> None:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind is not KIND.kind:
        players = tuple(seats.clean_name(token) for token in ctx.tokens)
        if len(players) < 2:
            raise UserError("tally_players")
        setup = GameSetup(edition="fr", notation="fisf", lexicon="fr", players=players)
        ctx.storage.create_game(ctx.message.channel, KIND.kind, ctx.message.user, setup, abandon_running=True)
        ctx.reply(ctx.say("tally_started", players=", ".join(players)))
        return
    points = ctx.whole_number(ctx.tokens[0]) if ctx.tokens else 0
    game: Tally = ctx.services.games.load(ctx.storage, record)
    player = seats.display_name(ctx.message)
    if player not in game.players:
        raise UserError("tally_not_playing", player=player)
    game.apply(Scored(player, points))
    data = {"kind": "scored", "player": player, "points": points}
    ctx.services.games.cache(record.kind).append(ctx.storage, record, game, data, ctx.message.user)
    ctx.reply(ctx.say("tally_scored", player=player, points=points, total=game.total(player)))
