"""``arbitre score``: score moves played one after the other on an empty board."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .common import add_edition_options

_BARE_REF = re.compile(r"^(?:[A-Za-z][0-9]{1,2}|[0-9]{1,2}[A-Za-z])$")


def moves_from(args_moves: Sequence[str], stdin: TextIO) -> list[str]:
    """Moves from the arguments (``H8 VAGUE`` quoted or as two words) or one per line of stdin."""
    if not args_moves:
        return [line.strip() for line in stdin if line.strip()]
    moves: list[str] = []
    tokens = list(args_moves)
    while tokens:
        token = tokens.pop(0)
        if _BARE_REF.match(token.strip()) and tokens:
            token = f"{token} {tokens.pop(0)}"
        moves.append(token)
    return moves


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json

    from core.board import Board
    from core.errors import ArbitreError
    from core.notation import parse_move
    from core.placement import apply_placement, validate_move
    from core.scoring import score_placement

    from .common import edition_and_notation

    edition, notation = edition_and_notation(args)
    board = Board()
    results: list[dict[str, Any]] = []
    status = 0
    for number, text in enumerate(moves_from(args.moves, sys.stdin), start=1):
        try:
            move = parse_move(text, notation, alphabet=edition.alphabet)
            placement = validate_move(board, move, notation, rack_size=edition.rack_size)
        except ArbitreError as error:
            print(f"arbitre score: move {number} {text!r}: {error}", file=err)
            status = 1
            break
        score = score_placement(placement, edition)
        apply_placement(board, placement)
        if args.json:
            results.append(
                {
                    "move": text,
                    "score": score.total,
                    "bingo": score.bingo,
                    "words": [{"word": w.word, "score": w.score, "breakdown": w.breakdown} for w in score.words],
                }
            )
            continue
        print(placement.notation(notation), file=out)
        for word in score.words:
            print(f"  {word}", file=out)
        if score.bonus:
            print(f"  bonus {score.bonus}", file=out)
        print(f"  total {score.sum_line}", file=out)
    if args.json:
        print(json.dumps(results, ensure_ascii=False), file=out)
    return status


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "score",
        help="score moves played one after the other on an empty board",
        description="Score moves played one after the other from an empty board, each with its arithmetic; "
        "a move that cannot be played stops the list with a one-line error (exit status 1).",
    )
    add_edition_options(parser)
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    parser.add_argument("moves", nargs="*", metavar="MOVE", help='e.g. "H8 VAGUE" (stdin if none)')
    parser.set_defaults(handler=run)
