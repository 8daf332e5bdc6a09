"""The ``arbitre`` command line: chat adapters and offline referee tools."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Callable, Sequence, TextIO

from core.board import Board
from core.edition import Edition, edition_by_code
from core.errors import ArbitreError
from core.notation import Notation, notation_by_name, parse_move
from core.placement import apply_placement, validate_move
from core.scoring import score_placement


def default_notation(edition: Edition) -> Notation:
    """FISF for French, GCG for every other edition."""
    return Notation.FISF if edition.code == "fr" else Notation.GCG


def _edition_and_notation(args: argparse.Namespace) -> tuple[Edition, Notation]:
    edition = edition_by_code(args.edition)
    notation = notation_by_name(args.notation) if args.notation else default_notation(edition)
    return edition, notation


_BARE_REF = re.compile(r"^(?:[A-Za-z]\d{1,2}|\d{1,2}[A-Za-z])$")


def _moves_from(args_moves: Sequence[str], stdin: TextIO) -> list[str]:
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


def cmd_score(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Play moves one after the other on an empty board and print their scores."""
    edition, notation = _edition_and_notation(args)
    board = Board()
    results: list[dict[str, object]] = []
    status = 0
    for number, text in enumerate(_moves_from(args.moves, sys.stdin), start=1):
        try:
            placement = validate_move(board, parse_move(text, notation), notation)
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
                    "words": [
                        {"word": w.word, "score": w.score, "breakdown": w.breakdown}
                        for w in score.words
                    ],
                }
            )
        else:
            print(placement.notation(notation), file=out)
            for word in score.words:
                print(f"  {word}", file=out)
            if score.bonus:
                print(f"  bonus {score.bonus}", file=out)
            print(f"  total {score.sum_line}", file=out)
    if args.json:
        print(json.dumps(results, ensure_ascii=False), file=out)
    return status


def _add_edition_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", default="fr", choices=["fr", "en"], help="tile set (default fr)")
    parser.add_argument(
        "--notation", choices=["fisf", "gcg"], help="fisf (default for fr) or gcg (default for en)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arbitre", description="Scrabble referee and scorekeeper.")
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="score moves played one after the other on an empty board")
    _add_edition_options(score)
    score.add_argument("--json", action="store_true", help="print a JSON array")
    score.add_argument("moves", nargs="*", metavar="MOVE", help='e.g. "H8 VAGUE" (stdin if none)')
    score.set_defaults(handler=cmd_score)

    console = sub.add_parser("console", help="a chat room in the terminal (the embedded default)")
    console.add_argument("--db", help="SQLite file")
    console.add_argument("--lang", choices=["fr", "en"], default="fr")
    console.set_defaults(handler=_console)
    return parser


def _console(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .console import run_console

    return run_console(args, sys.stdin, out)


Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arbitre`` command."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    return handler(args, sys.stdout, sys.stderr)
