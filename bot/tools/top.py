"""``arbitre top``: the best plays for a rack on a position (moves typed or a board file)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .common import add_edition_options

if TYPE_CHECKING:  # imported when the command runs, so that other commands never depend on them
    from bot.words.house import HouseWords
    from core.board import Board
    from core.edition import Edition
    from core.lexicon import Lexicon
    from core.movegen import Play
    from core.notation import Notation


# Why the first play is the top, in words (``TopResult.tie_rule``).
TIE_RULE_WORDS = {
    "score": "1 is the top: it scores more than every other play.",
    "fewest_jokers": "1 is the top: other plays score as much, and it uses the fewest jokers.",
    "order": "1 is the top: others score as much with as few jokers; it comes first in board order "
    "(across before down, then by row and column).",
    "unique": "1 is the only play.",
}


class ToolError(Exception):
    """Bad input to a command-line tool: printed on one line, exit status ``status`` (1)."""

    status = 1


class HouseOptionError(ToolError):
    """A ``--house`` file that cannot be used: refused as an option's value is (exit status 2)."""

    status = 2


def load_lexicon(spec: str, house: HouseWords | None = None, edition: Edition | None = None) -> Lexicon:
    """The word list ``fr``, ``en`` (bundled) or at a path, in the tiles of ``edition`` (by default the
    list's own), from the compiled cache when it is there; with ``house`` words applied when there are some."""
    from bot.words.house import house_lexicon
    from bot.words.loader import WordListError, list_key, load

    try:
        lexicon = load(spec if edition is None else list_key(spec, edition.code))[0]
    except WordListError as error:
        raise ToolError(f"word list {spec!r}: {error}") from None
    return house_lexicon(lexicon, house, name=f"{lexicon.name}+{len(house)}") if house else lexicon


def load_house(path: str | None, edition: Edition | None = None) -> HouseWords:
    """House words from ``--house FILE`` (none without it), in ``edition``'s tiles: one word a line,
    ``-WORD`` removes it."""
    from bot.words.house import HouseFileError, HouseWords, read_house_file
    from core.alphabet import LATIN

    if path is None:
        return HouseWords()
    try:
        return read_house_file(Path(path), LATIN if edition is None else edition.alphabet)
    except HouseFileError as error:
        raise HouseOptionError(f"house words: {error}") from None


def house_text(house: HouseWords) -> str:
    """`` + 2 house words (+KA -NEW)``, or nothing."""
    return f" + {len(house)} house words ({' '.join(house.tokens())})" if house else ""


def add_house_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--house",
        metavar="FILE",
        help="house words: one word a line accepted beyond the list, -WORD rejected though the list has it",
    )


def board_from_moves(text: str, notation: Notation, edition: Edition | None = None) -> Board:
    """The board after the comma-separated moves (tiles of ``edition``, A-Z by default), each placed on the
    one before (scores unchecked)."""
    from core.alphabet import LATIN
    from core.board import Board
    from core.errors import ArbitreError
    from core.notation import parse_move
    from core.placement import apply_placement, validate_move

    board = Board()
    for number, move_text in enumerate((m.strip() for m in text.split(",")), start=1):
        if not move_text:
            continue
        try:
            move = parse_move(move_text, notation, alphabet=LATIN if edition is None else edition.alphabet)
            placement = validate_move(board, move, notation, rack_size=7 if edition is None else edition.rack_size)
        except ArbitreError as error:
            raise ToolError(f"move {number} {move_text!r}: {error}") from None
        apply_placement(board, placement)
    return board


def board_from_file(path: str, edition: Edition | None = None) -> Board:
    """A board from a file of fifteen lines in the tiles of ``edition`` (A-Z by default): one character a
    square, multi-letter tiles in brackets (``[CH]``), or squares separated by spaces; ``.`` empty, lowercase
    joker (``core.board_text``)."""
    from core.alphabet import LATIN
    from core.board_text import read_board
    from core.errors import BoardSyntaxError

    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ToolError(f"board file {path!r}: {error}") from None
    try:
        return read_board(lines, LATIN if edition is None else edition.alphabet)
    except BoardSyntaxError as error:
        raise ToolError(f"board file {path!r}: {error}") from None


def read_rack(text: str, edition: Edition) -> str:
    """A rack typed as text: 1 to 7 tiles of the edition (``CH`` one tile where the edition has it,
    ``[C][H]`` two), ``?`` for a joker; accents the edition's tiles do not have and case ignored. The
    tiles (symbols, ``core.notation.parse_tiles``) that the engine takes."""
    from core.edition import JOKER
    from core.errors import RackSyntaxError
    from core.notation import parse_tiles

    try:
        rack = parse_tiles(text, edition.alphabet)
    except RackSyntaxError as error:
        if not error.detail:
            raise ToolError("rack: empty") from None
        raise ToolError(f"rack {text!r}: {error.detail!r} is not a letter or a joker ?") from None
    if len(rack) > edition.rack_size:
        raise ToolError(f"rack {text!r}: {len(rack)} tiles, a rack holds {edition.rack_size}")
    if rack.count(JOKER) > edition.jokers:
        raise ToolError(f"rack {text!r}: {rack.count(JOKER)} jokers, the game has {edition.jokers}")
    return rack


def play_parts(play: Play, notation: Notation) -> tuple[str, str]:
    """A play's reference in the notation and its main word, jokers in lowercase."""
    from core.notation import format_ref

    return format_ref(play.placement.ref, notation), play.placement.notation().split(" ", 1)[1]


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json
    import time

    from core.movegen import find_top

    from .common import edition_and_notation

    edition, notation = edition_and_notation(args)
    try:
        if args.board:
            board = board_from_file(args.board, edition)
        else:
            board = board_from_moves(args.moves or "", notation, edition)
        rack = read_rack(args.rack, edition)
        house = load_house(args.house, edition)
        lexicon = load_lexicon(args.lexicon or edition.code, house, edition)
    except ToolError as error:
        print(f"arbitre top: {error}", file=err)
        return error.status
    started = time.perf_counter()
    result = find_top(board, rack, lexicon, edition, args.count, first_move_horizontal_only=board.is_empty())
    searched_ms = (time.perf_counter() - started) * 1000
    if args.json:
        plays: list[dict[str, Any]] = []
        for play in result.plays:
            ref, word = play_parts(play, notation)
            plays.append({"ref": ref, "word": word, "score": play.score.total, "jokers": play.jokers})
        data: dict[str, Any] = {"plays": plays, "searched_ms": round(searched_ms, 3)}
        if args.house is not None:
            data["house"] = house.tokens()
        print(json.dumps(data, ensure_ascii=False), file=out)
        return 0
    if house:
        print(f"word list {args.lexicon or edition.code}{house_text(house)}", file=out)
    if not result.plays:
        print(f"no play for {edition.spell(rack)}", file=out)
        return 0
    width = max(len(" ".join(play_parts(p, notation))) for p in result.plays)
    for rank, play in enumerate(result.plays, start=1):
        text = " ".join(play_parts(play, notation))
        print(f"{rank:2d}. {text.ljust(width)}  {play.score.total}", file=out)
        for word_score in play.score.words:
            print(f"      {word_score}", file=out)
        if play.score.bonus:
            print(f"      bonus {play.score.bonus}", file=out)
        if len(play.score.words) > 1 or play.score.bonus:
            print(f"      total {play.score.sum_line}", file=out)
    print(TIE_RULE_WORDS.get(result.tie_rule, result.tie_rule), file=out)
    print(f"Search took {searched_ms:.0f} ms.", file=out)
    return 0


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: at least 1")
    return value


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "top",
        help="the best plays for a rack on a position",
        description="The best plays for a rack on a position (moves typed, or a board file), best first, "
        "each with its score worked out, and why the first is ahead of the second.",
    )
    add_edition_options(parser)
    parser.add_argument(
        "--lexicon", help="a bundled list (fr, en...) or a path to a word list (default: the edition's)"
    )
    add_house_option(parser)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--moves", help='moves played so far, "H8 VAGUE,4G AVIONS" (default: empty board)')
    where.add_argument(
        "--board",
        metavar="FILE",
        help="a board file: 15 lines of 15 squares, . empty, a lowercase tile a joker; one character a square "
        "with a multi-letter tile in brackets (....[CH]ICO.......), or squares separated by spaces "
        "(. . . . CH I C O . . . . . . .); see docs/commands.md",
    )
    parser.add_argument("--rack", required=True, help="the letters, ? for a joker")
    parser.add_argument("--count", type=_count, default=10, help="how many plays (default 10)")
    parser.add_argument("--json", action="store_true", help="print JSON: the plays and the search time")
    parser.set_defaults(handler=run)
