"""House words at start: how long until a channel's list with its house words is ready for the tops.

Issue 20 (item 29): in a channel with house words, the list was compiled again at every start (4-5 s on
a 2-core machine), holding up a duplicate /fin and a close after a restart. Prints, for the French list
from its cache, the time to load it, then to get it with a few house words applied, and one top on it.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.words.house import HouseWords  # noqa: E402
from bot.words.loader import LexiconRegistry  # noqa: E402
from core.board import Board  # noqa: E402
from core.edition import edition_by_code  # noqa: E402
from core.movegen import find_top  # noqa: E402

HOUSE = HouseWords(frozenset({"ZOUKQX", "KAOSQ", "UKVASIE"}), frozenset({"VAGUE", "KVAS"}))


def once() -> tuple[float, float, float]:
    registry = LexiconRegistry()
    started = time.perf_counter()
    registry.get("fr")
    loaded = time.perf_counter()
    lexicon = registry.get(registry.with_house("fr", HOUSE))
    house = time.perf_counter()
    top = find_top(Board(), "KVASEIU", lexicon, edition_by_code("fr"), 10)
    assert top.plays, "no play found"
    assert top.plays[0].placement.main_word.text == "UKVASIE", top.plays[0]
    return loaded - started, house - loaded, time.perf_counter() - house


def main() -> None:
    runs = [once() for _ in range(3)]
    for label, values in zip(("load fr", "fr with 5 house words", "a top on it"), zip(*runs)):
        print(f"{label}: {statistics.median(values):.3f} s (runs {', '.join(f'{v:.3f}' for v in values)})")


if __name__ == "__main__":
    main()
