"""The top's choice among plays that score as much (FISF 3.4): a play without the joker(s) when one
exists; among those, one that ends the game (3.7) when one does; then the order the move generator
gives, which stands for the arbiter's "le plus apte à ouvrir le jeu" (the arbiter may place another
allowed tie)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Board
from ..draw import Bag, can_draw, remove_tiles
from ..edition import Edition
from ..errors_duplicate import TopClause, TopClauseError
from ..notation import Notation, parse_move
from ..placement import Placement, validate_move
from .closing import place_top
from .judging import tiles_played
from .rounds import Round
from .settings import DuplicateSettings


@dataclass(frozen=True)
class Candidate:
    """A play sharing the top score: its FISF notation, the jokers it places, whether it ends the game."""

    move: str
    jokers: int
    ends_game: bool


def jokers_placed(placement: Placement) -> int:
    """How many jokers the play puts on the board."""
    return sum(1 for cell in placement.new_tiles if cell.joker)


def ends_game(
    board: Board,
    bag: Bag,
    letters: str,
    placement: Placement,
    settings: DuplicateSettings,
    edition: Edition,
    next_move: int,
) -> bool:
    """Whether placing the play on ``board`` (left unchanged) with the draw ``letters`` leaves letters that
    cannot give the next move's draw (3.7); in the joker format a replaced joker goes back to the bag."""
    after = place_top(board.copy(), bag, placement, settings.format.replaces_joker)
    reliquat = remove_tiles(letters, tiles_played(placement))
    return not can_draw(after, reliquat, next_move, settings.draw_rule, edition)


def allowed(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The tied plays 3.4 lets the arbiter place, in the given order."""
    kept = [c for c in candidates if c.jokers == 0] or list(candidates)
    return [c for c in kept if c.ends_game] or kept


def refusal(move: str, candidates: Sequence[Candidate]) -> TopClause | None:
    """The clause that forbids placing ``move`` among the candidates (None when 3.4 allows it)."""
    if any(c.move == move for c in allowed(candidates)):
        return None
    chosen = next((c for c in candidates if c.move == move), None)
    if chosen is not None and chosen.jokers > 0 and any(c.jokers == 0 for c in candidates):
        return TopClause.JOKER
    return TopClause.ENDS_GAME


def candidates_of(round_: Round, settings: DuplicateSettings, edition: Edition) -> list[Candidate]:
    """The closed round's placed top and tied plays, as 3.4 weighs them (on the round's board and bag)."""
    board, bag, draw = round_.board_before, round_.bag_before, round_.draw
    if board is None or bag is None or draw is None or round_.top is None:
        return []
    result = []
    for move in (round_.top.notation(Notation.FISF), *round_.tied):
        placement = validate_move(
            board,
            parse_move(move, Notation.FISF, alphabet=edition.alphabet),
            Notation.FISF,
            rack_size=edition.rack_size,
        )
        ending = ends_game(board, bag, draw.letters, placement, settings, edition, round_.number + 1)
        result.append(Candidate(move, jokers_placed(placement), ending))
    return result


def check_choice(round_: Round, move: str, settings: DuplicateSettings, edition: Edition) -> None:
    """Raise TopClauseError when 3.4 forbids the arbiter to place ``move`` among the round's tied plays
    (a move that is not one of them is left to the tied-top check)."""
    candidates = candidates_of(round_, settings, edition)
    if not any(c.move == move for c in candidates):
        return
    clause = refusal(move, candidates)
    if clause is not None:
        raise TopClauseError(move, clause, tuple(c.move for c in allowed(candidates)))
