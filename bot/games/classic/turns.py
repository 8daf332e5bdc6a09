"""Who acts for which seat of a classic game: the seat a turn command (/score /pass /exchange) records
for, and the referee's /seat (declared with /join), which frees a seat an account holds.

A seated player, the referee included, records their own turns only: out of turn they are told whose
turn it is. Recording for another seat is explicit: the referee names it (``/score 9H AS @Ben``,
``/pass @Ben``, ``/exchange ABC @Ben``) and the reply says who recorded it for whom. A referee who
plays no seat records for the player to move without naming them, as a club referee types every move.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.game import ClassicGame
from core.rules import most_players

from ...commands.context import Context, UserError
from ...messages import keyword_form, keywords
from ...play import seats
from ...storage import GameRecord


@dataclass(frozen=True)
class Turn:
    """The player a turn command records for, and who recorded it when that is someone else."""

    player: str
    recorded_by: str | None = None  # the sender's name when they named another player's seat

    def heading(self, ctx: Context) -> list[str]:
        """The line saying who recorded the turn for whom (none when the player recorded it)."""
        if self.recorded_by is None:
            return []
        return [ctx.say("recorded_for", by=self.recorded_by, player=self.player)]


def acting_seat(ctx: Context, record: GameRecord, game: ClassicGame) -> str | None:
    """The seat the sender plays (claiming a free seat named like them, which is announced)."""
    seat, claimed = seats.acting_seat(ctx.storage, record, ctx.message, game.players)
    if claimed:
        ctx.notes.append(ctx.say("seat_claimed", player=seat))
    return seat


def split_seat(game: ClassicGame, args: str, *, first_word: bool = False) -> tuple[str | None, str]:
    """The seat named among the arguments, and the arguments without it.

    ``@NAME`` anywhere names a seat (the longest run of words from there that is a player's name, or
    the first words of one player's name); with ``first_word``, so does a first word that is a player's
    name without the ``@`` (a Discord mention arrives as the plain name). An ``@`` word that names
    nobody in the game is refused.
    """
    words = args.split()
    for index, word in enumerate(words):
        if word.startswith("@") and len(word) > 1:
            found = _seat_at(game, words, index)
            if found is None:
                raise UserError("err_unknown_player", player=seats.clean_name(word), players=", ".join(game.players))
            return found
    if first_word and words:
        found = _seat_at(game, words, 0, whole_names_only=True)
        if found is not None:
            return found
    return None, args


def _seat_at(
    game: ClassicGame, words: list[str], index: int, *, whole_names_only: bool = False
) -> tuple[str, str] | None:
    """The seat whose name starts at ``words[index]`` (the longest run of words that is a player's name,
    else the first word of one player's name), and the other words."""
    for end in range(len(words), index, -1):
        found = game.find_player(" ".join(words[index:end]))
        if found is not None:
            return found, " ".join(words[:index] + words[end:])
    found = None if whole_names_only else seats.by_first_words(words[index], game.players)
    return (found, " ".join(words[:index] + words[index + 1 :])) if found is not None else None


def require_turn(ctx: Context, record: GameRecord, game: ClassicGame, named: str | None = None) -> Turn:
    """The player to move, if the sender may record for them, with ``named`` the seat the sender named.

    The player's own account records their turn; the referee (or a channel admin) records for the
    player to move: by naming the seat when the referee plays a seat, without naming it otherwise.
    """
    if game.ended:
        raise UserError("game_over_hint")
    to_move = game.to_move
    if to_move is None or len(game.players) < 2:
        rules = game.rules
        raise UserError(
            "err_player_count", count=len(game.players), low=rules.min_players, high=most_players(game.base_rules)
        )
    controls = ctx.controls(record)
    seat = acting_seat(ctx, record, game)
    if named is not None and named != seat:
        if not controls:
            raise UserError("record_for_other", player=named, referee=record.setup.referee_name)
        if named != to_move:
            raise UserError("not_their_turn", player=named, to_move=to_move)
        return Turn(to_move, recorded_by=seats.display_name(ctx.message))
    if seat == to_move:
        return Turn(to_move)
    if seat is not None:
        if controls:
            raise UserError("not_your_turn_seated", seat=seat, to_move=to_move, name=ctx.spec.name_in(ctx.lang))
        if seats.owner_of(ctx.storage, record, to_move) == record.referee:
            raise UserError("not_your_turn_referee", to_move=to_move)
        raise UserError("not_your_turn", to_move=to_move, referee=record.setup.referee_name)
    if controls:
        return Turn(to_move)
    owner = seats.owner_of(ctx.storage, record, to_move)
    if owner is not None and seats.named_like(ctx.message, [to_move]) == to_move:
        raise UserError("seat_held", player=to_move)
    if owner is not None and owner == record.referee:  # "only Ana or the referee (Ana)"
        raise UserError("not_your_turn_referee", to_move=to_move)
    raise UserError("not_your_turn", to_move=to_move, referee=record.setup.referee_name)


# --- /seat ---------------------------------------------------------------------------------


def free_seat(ctx: Context, record: GameRecord) -> None:
    """``/seat NAME free``: the account that holds the seat lets it go (a same-name account took it);
    the seat's player then takes it with /join NAME or by playing under that name."""
    game = ctx.services.classic_games.load(ctx.storage, record)
    words = ctx.tokens
    if len(words) < 2 or keyword_form(words[-1]) not in keywords("keywords_free"):  # "free", "libre"...
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    name = " ".join(words[:-1])
    seat = game.find_player(name) or seats.by_first_words(name, game.players)
    if seat is None:
        raise UserError("err_unknown_player", player=seats.clean_name(name), players=", ".join(game.players))
    if seats.owner_of(ctx.storage, record, seat) is None:
        raise UserError("seat_already_free", player=seat)
    seats.free(ctx.storage, record, seat)
    ctx.reply(ctx.say("seat_freed", player=seat, by=seats.display_name(ctx.message)))
