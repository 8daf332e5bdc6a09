"""``arbitre check`` and ``arbitre lexicon``: look words up, describe or compile lists (``build fr en``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from .common import edition_codes
from .top import add_house_option

_VERDICT = {"fr": ("valable", "non valable"), "en": ("valid", "not valid")}
_HOUSE_MARK = {"fr": " (mot maison)", "en": " (house word)"}


def run_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.words.house import HouseFileError, HouseList, HouseWords, read_house_file
    from bot.words.loader import WordListError, list_key, load
    from core.adjudication import check_words

    spec = args.lexicon if args.edition is None else list_key(args.lexicon, args.edition)
    try:
        lexicon, info = load(spec, copy=False)  # a few lookups: the cache file stays mapped, uncopied
        house = HouseWords() if args.house is None else read_house_file(Path(args.house), lexicon.alphabet)
    except HouseFileError as error:
        print(f"arbitre check: house words: {error}", file=err)
        return 2
    except WordListError as error:
        print(f"arbitre check: {error}", file=err)
        return 2
    alphabet = lexicon.alphabet  # words are read as the tiles the list is compiled in
    verdicts = check_words(args.words, HouseList(lexicon, house, args.lexicon), alphabet)
    if args.json:
        import json

        words = {alphabet.spell(v.word): v.valid for v in verdicts}
        data: dict[str, object] = {"lexicon": info.name, "words": words}
        if args.house is not None:
            data["house"] = house.tokens()
        print(json.dumps(data), file=out)
    else:
        lang = args.lang or (args.lexicon if args.lexicon in _VERDICT else "fr")  # an English list: English
        yes, no = _VERDICT[lang]
        for verdict in verdicts:
            mark = _HOUSE_MARK[lang] if house.decides(verdict.word) else ""
            print(f"{alphabet.spell(verdict.word)} {yes if verdict.valid else no}{mark}", file=out)
    return 0 if all(v.valid for v in verdicts) else 1


def run_lexicon(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json

    from bot.words.loader import WordListError, load

    status = 0
    for spec in args.lists or ["fr"]:
        if args.action == "build":
            announce_build(spec, err)
        try:
            lexicon, info = load(spec, copy=False)
        except WordListError as error:
            print(f"arbitre lexicon: {error}", file=err)
            status = 2
            continue
        if args.action == "build":
            print(f"{info.name}: {info.words} words compiled to {info.cache}", file=out)
            continue
        data = {"name": info.name, "words": info.words, "sha256": info.sha256, "licence": info.licence}
        if args.json:
            print(json.dumps(data), file=out)
        else:
            for key, value in data.items():
                print(f"{key}: {value}", file=out)
    return status


WORDS_A_SECOND = 40_000  # a list's compilation, on one core of a 2-core machine kept busy by other work


def announce_build(spec: str, err: TextIO) -> None:
    """Say on ``err`` which list is about to be compiled and for how long, when it is not in the cache yet (the
    standard output says what was compiled)."""
    from bot.words.loader import bundled_words, needs_compiling

    if not needs_compiling(spec):
        return
    words = bundled_words(spec)
    size = f"{words:,} words, about {max(1, round(words / WORDS_A_SECOND))} s" if words else "a list of yours"
    print(f"compiling the word list {spec} ({size})...", file=err, flush=True)


def register(sub: Any) -> None:
    check = sub.add_parser(
        "check",
        help="look words up in a word list",
        description="Look words up in a word list: one verdict per word; exit status 0 when every word is "
        "valid, 1 otherwise, 2 when the list or the house words file cannot be read.",
    )
    check.add_argument(
        "--lexicon",
        default="fr",
        help="a bundled list (fr, en...: see lexicons/SOURCES.json) or a path to a word list, text or .gz (default fr)",
    )
    check.add_argument(
        "--lang", choices=["fr", "en"], help="language of the verdicts (default: en for the en list, else fr)"
    )
    check.add_argument(
        "--edition",
        choices=edition_codes(),
        help="read the words as this edition's tiles (default: a bundled list's own edition, else A-Z)",
    )
    add_house_option(check)
    check.add_argument("--json", action="store_true", help='print {"lexicon": NAME, "words": {WORD: true|false}}')
    check.add_argument("words", nargs="+", metavar="WORD", help="a word to look up (case and accents ignored)")
    check.set_defaults(handler=run_check)

    lexicon = sub.add_parser(
        "lexicon",
        help="describe a word list, or compile it into the cache",
        description="info: a word list's name, word count, sha256 and licence. build: compile lists into the "
        "cache (~/.cache/arbitre, or ARBITRE_CACHE) so that the bot and the tools load them at once; make does "
        "it for the bundled lists when it installs.",
    )
    lexicon.add_argument(
        "action", choices=["info", "build"], help="info: describe the lists; build: compile them into the cache"
    )
    lexicon.add_argument(
        "lists",
        nargs="*",
        metavar="LIST",
        help="a bundled list (fr, en...: see lexicons/SOURCES.json) or a path to a word list, text or .gz (default fr)",
    )
    lexicon.add_argument("--json", action="store_true", help="info as one JSON object per list")
    lexicon.set_defaults(handler=run_lexicon)
