"""The top search's results on fixed positions of the bundled French and English lists, against a golden file.

``tests/data/golden/tops.json`` holds, per edition, the positions of ``bench/bench_top.py`` (its seeded greedy
games: first moves, mid-game racks of 0, 1 and 2 jokers), each as a game's first moves and a rack, with the
top, its score, tie rule and count of plays scoring it, and the five best plays with theirs, as the search
found them before issue 42's speed work (item 7). A change of the search that moves any of them fails here, under
each engine (``tests/core/engines.py``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.board import Board
from core.edition import edition_by_code
from core.movegen import find_top
from core.notation import Notation, parse_move
from core.placement import apply_placement, validate_move
from tests.core.engines import ENGINES, engine
from tests.paths import TEST_DATA
from tests.ready_lists import ready_registry

GOLDEN: dict[str, Any] = json.loads((TEST_DATA / "golden" / "tops.json").read_text(encoding="utf-8"))


def _board(code: str, moves: list[str]) -> Board:
    edition = edition_by_code(code)
    board = Board()
    for text in moves:
        move = parse_move(text, Notation.FISF, alphabet=edition.alphabet, lowercase_is_plain=False)
        apply_placement(board, validate_move(board, move, Notation.FISF, rack_size=edition.rack_size))
    return board


def golden_rows(code: str) -> list[Any]:
    """The golden file's rows of ``code`` as the search finds them now (``tests/project/test_compiled.py`` runs it
    on the compiled modules too)."""
    edition = edition_by_code(code)
    lexicon = ready_registry().get(code)
    games, positions = GOLDEN[code]["games"], GOLDEN[code]["positions"]
    found: list[Any] = []
    for game, moves, rack, *_ in positions:
        board = _board(code, games[game][:moves])
        first = board.is_empty()
        top = find_top(board, rack, lexicon, edition, first_move_horizontal_only=first)
        five = find_top(board, rack, lexicon, edition, 5, first_move_horizontal_only=first)
        found.append(
            [
                game,
                moves,
                rack,
                str(top.best) if top.best else None,
                top.best.total if top.best else None,
                str(top.tie_rule),
                top.top_count,
                [[str(play), play.total] for play in five.plays],
                str(five.tie_rule),
                five.top_count,
            ]
        )
    return found


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("code", sorted(GOLDEN))
def test_tops_match_the_golden_file(code: str, name: str) -> None:
    assert len(GOLDEN[code]["positions"]) == 56
    with engine(name):
        assert golden_rows(code) == GOLDEN[code]["positions"]
