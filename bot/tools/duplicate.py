"""``arbitre duplicate``: a whole solo duplicate game with the computer's tops, printed as a record.

Draws follow the FISF rule (rejected draws are shown ``-KEPT+NEW`` before the
draw that replaced them). The game ends when the bag and the letters kept can
no longer give a valid draw, or when no play is possible with a draw (that
last draw is shown with no top).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from core.formats import FORMATS, format_names

from .common import add_edition_options
from .top import add_house_option

if TYPE_CHECKING:  # imported when the command runs
    import random

    from core.duplicate import DuplicateGame


def play_game(game: DuplicateGame, rng: random.Random, finder: Any, lexicon: Any) -> None:
    """Draw and close rounds with the computer's tops until the game is over."""
    while not game.finished:
        game.draw(rng)
        game.close_round(finder, lexicon)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json
    import random

    from core.draw import counts_by_name
    from core.duplicate import DuplicateFormat, DuplicateGame, DuplicateSettings, movegen_top_finder

    from ..messages import say
    from ..render.record import end_reason_text, record_table, standings_text
    from .common import edition_and_notation
    from .top import ToolError, house_text, load_house, load_lexicon

    edition, notation = edition_and_notation(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    try:
        house = load_house(args.house, edition)
        lexicon = load_lexicon(args.lexicon or edition.code, house, edition)
    except ToolError as error:
        print(f"arbitre duplicate: {error}", file=err)
        return error.status
    settings = DuplicateSettings(
        notation=notation,
        y=counts_by_name(args.y),
        joker=counts_by_name(args.joker),
        format=DuplicateFormat(args.format),
    )
    game = DuplicateGame(edition, (), settings, lexicon_name=lexicon.name)
    play_game(game, random.Random(seed), movegen_top_finder(lexicon, game.edition, settings), lexicon)
    if args.json:
        moves = [
            {
                "n": line.number,
                "draw": line.draw,
                "ref": line.ref,
                "word": line.word,
                "score": line.score,
                "cumulative": line.cumulative,
                "rejected": list(line.rejected),
            }
            for line in game.record()
            if line.ref
        ]
        data = {
            "moves": moves,
            "total": game.tops_total,
            "seed": seed,
            "end": game.end_reason.value if game.end_reason is not None else "",
            "left": edition.spell(game.bag.unseen(game.reliquat)),
        }
        if settings.format is not DuplicateFormat.CLASSIC:
            data["format"] = str(settings.format)
        if args.house is not None:
            data["house"] = house.tokens()
        print(json.dumps(data, ensure_ascii=False), file=out)
        return 0
    played = "" if settings.format is DuplicateFormat.CLASSIC else f", format {settings.format}"
    print(f"seed {seed}, {edition.code}, word list {args.lexicon or edition.code}{house_text(house)}{played}", file=out)
    print(record_table("en", game), file=out)
    if game.finished:
        print(say("en", "dup_over", reason=end_reason_text("en", game)), file=out)
    if game.players:
        print(standings_text("en", game).replace("```\n", "").replace("\n```", ""), file=out)
    else:  # the computer played alone: its tops are the result
        print(say("en", "dup_tops_only", n=len(game.closed_rounds), tops=game.tops_total), file=out)
    print(f"total {game.tops_total}", file=out)
    return 0


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "duplicate",
        help="play a whole solo duplicate game with computer tops",
        description="A whole duplicate game played alone: random draws under the vowel/consonant rule, the "
        "computer's top placed each move, the record printed at the end.",
    )
    add_edition_options(parser)
    parser.add_argument(
        "--lexicon", help="a bundled list (fr, en...) or a path to a word list (default: the edition's)"
    )
    add_house_option(parser)
    parser.add_argument("--seed", type=int, help="random seed of the draws (default: a random one, printed)")
    parser.add_argument(
        "--y",
        default="either",
        choices=["vowel", "consonant", "either"],
        help="how Y counts in the draw rule (default either)",
    )
    parser.add_argument(
        "--joker",
        default="either",
        choices=["vowel", "consonant", "either"],
        help="how the joker counts in the draw rule (default either)",
    )
    parser.add_argument(
        "--format",
        default="classic",
        choices=format_names(),
        help="the formula of the FISF rule book's section 3.8: "
        + ", ".join(f"{spec.name} ({spec.section})" for spec in FORMATS)
        + " (default classic)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)
