"""What a duplicate game needs from a move generator: the top of a draw (``TopFinder``), and the
round's close made of its answer."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..board import Board
from ..edition import Edition
from ..notation import Notation
from ..placement import Placement
from ..scoring import MoveScore
from ..tie import TieRule
from .events import RoundClosed
from .top_choice import Candidate, allowed, jokers_placed

if TYPE_CHECKING:
    from ..lexicon import Lexicon
    from .settings import DuplicateSettings

# --- what the game needs from the outside ---------------------------------------------


class TopPlay(Protocol):
    """A play found by a move generator (``core.movegen.Play``)."""

    @property
    def placement(self) -> Placement: ...

    @property
    def score(self) -> MoveScore: ...


class TopResultLike(Protocol):
    """A move generator's answer (``core.movegen.TopResult``): plays best first, its tie rule, and how
    many plays score the top (also those past ``plays``)."""

    @property
    def plays(self) -> Sequence[TopPlay]: ...

    @property
    def tie_rule(self) -> TieRule: ...

    @property
    def top_count(self) -> int: ...


TopFinder = Callable[[Board, str], TopResultLike]
"""Best plays for a board and a draw (``?`` jokers); it should return every play tied with the best."""


def movegen_top_finder(
    lexicon: Lexicon, edition: Edition, settings: DuplicateSettings | None = None, count: int = 10
) -> TopFinder:
    """A top finder on ``core.movegen.find_top`` for a draw's tiles (symbols, ``?`` jokers): the first move
    horizontal only if the settings say so; ``edition`` as the game's format plays it (``find_format_top``
    for the 7/8 formats)."""
    from ..movegen import find_top
    from ..movegen_formats import find_format_top, needs_parts

    horizontal_first = settings.first_move_horizontal if settings is not None else True

    def finder(board: Board, rack: str) -> TopResultLike:
        if needs_parts(edition):  # a 7/8 format (3.8.2): eight tiles drawn
            first = horizontal_first and board.is_empty()
            return find_format_top(board, rack, lexicon, edition, count, first_move_horizontal_only=first)
        return find_top(
            board, rack, lexicon, edition, count, first_move_horizontal_only=horizontal_first and board.is_empty()
        )

    return finder


def close_of(
    result: TopResultLike,
    invalid: Iterable[str],
    runners_up: int,
    ends: Callable[[Placement], bool] | None = None,
) -> RoundClosed:
    """A round's close from the move generator's answer and the submitted words the word list rejected:
    the top, the plays tied with it, at most ``runners_up`` best plays under it, how many score it.
    ``ends``: whether a play ends the game; among the tied plays 3.4 allows, one that does is the top."""
    plays = list(result.plays)
    if not plays:
        return RoundClosed(None, TieRule.NONE, (), tuple(sorted(invalid)), (), 0)
    best = plays[0]
    rule = result.tie_rule
    level = [p for p in plays if p.score.total == best.score.total]
    if ends is not None and len(level) > 1:
        candidates = [
            Candidate(p.placement.notation(Notation.FISF), jokers_placed(p.placement), ends(p.placement)) for p in level
        ]
        first = allowed(candidates)[0]
        chosen = level[candidates.index(first)]
        if chosen is not best:
            best, rule = chosen, TieRule.ENDS_GAME if first.ends_game else TieRule.FEWEST_JOKERS
    top = best.placement.notation(Notation.FISF)
    tied = tuple(
        p.placement.notation(Notation.FISF) for p in plays if p is not best and p.score.total == best.score.total
    )
    under = [
        (p.placement.notation(Notation.FISF), p.score.total) for p in plays[1:] if p.score.total < best.score.total
    ][:runners_up]
    shared = max(result.top_count, len(tied) + 1)
    return RoundClosed(top, rule, tied, tuple(sorted(invalid)), tuple(under), shared)
