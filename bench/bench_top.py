"""The top search timed per edition and class of position, for this tree and (``--before PATH``) another checkout.

Classes: the first move (racks without a joker, on the empty board) and mid-game positions with racks of 0, 1
and 2 jokers. Positions come from seeded greedy games in each edition's bundled list (each turn plays the
top), built once by this tree and written as moves; each tree then rebuilds the boards in a process of its own
(``PYTHONPATH`` and the working folder set to it, so the two engines never share a process), loads the list
from its cache (compiled there on first use), searches every position once to warm up, then ``--repeat``
times, and prints per class the median over positions of each position's median time (process time: the
CPU the search used, not the time other processes took); with ``--before`` the trees run in turn ``--rounds``
times, each position keeps its lowest median, and the last column is the ratio after / before. A tree whose
``find_top`` reads typed text (before issue 42) is given the rack spelt, the other its tiles. ``--cases``
keeps some classes of some editions (``es:mid2,fr:mid0``; the figures of issue 42: ``--cases issue42``).

The machine may be shared: run it several times and compare medians, never single figures. Benchmarks never
run in CI.

Usage: .venv/bin/python bench/bench_top.py [--before /work/main] [--only fr,de] [--cases es:mid2,fr:mid0]
       [--games 2] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ("first", "mid0", "mid1", "mid2")
# the cases of issue 42: Spanish racks of two jokers, mid-game racks without a joker
ISSUE42 = "es:mid2,fr:mid0,en:mid0,de:mid0"

POSITIONS = """
import json, random, sys
from bot.words.loader import load
from core.board import Board
from core.edition import JOKER, edition_by_code
from core.movegen import find_top
from core.placement import apply_placement
code, games, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
edition = edition_by_code(code)
lexicon = load(code)[0]
rng = random.Random(42)
def rack_of(pool, jokers):
    letters = [t for t in pool if t != JOKER]
    rng.shuffle(letters)
    return "".join(letters[: edition.rack_size - jokers]) + JOKER * jokers
positions = [{"class": "first", "moves": [], "rack": rack_of(edition.bag(), 0)} for _ in range(8)]
for game in range(games):
    bag = edition.bag()
    shuffle = random.Random(1000 + game).shuffle
    shuffle(bag)
    board, rack, moves = Board(), [], []
    for turn in range(12):
        while len(rack) < edition.rack_size and bag:
            rack.append(bag.pop())
        if turn >= 4:
            pool = [t for t in bag + rack]
            for jokers in (0, 1, 2):
                positions.append({"class": f"mid{jokers}", "moves": list(moves), "rack": rack_of(pool, jokers)})
        top = find_top(board, "".join(rack), lexicon, edition, first_move_horizontal_only=board.is_empty()).best
        if top is None:  # an exchange of the whole rack
            bag += rack
            shuffle(bag)
            rack = []
            continue
        for tile in top.placement.new_tiles:
            rack.remove(JOKER if tile.joker else tile.letter)
        moves.append(top.placement.notation())
        apply_placement(board, top.placement)
json.dump(positions, open(out, "w"))
"""

TIMES = """
import json, statistics, sys, time
from bot.words.loader import load
from core.board import Board
from core.edition import edition_by_code
from core.movegen import find_top
from core.notation import Notation, parse_move
from core.placement import apply_placement, validate_move
try:
    from core.notation import parse_tiles  # the engine takes tiles
    spelt = False
except ImportError:  # the engine reads a rack as typed text
    spelt = True
code, path, repeat, kept = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split(",")
edition = edition_by_code(code)
lexicon = load(code)[0]
times = {}
for position in json.load(open(path)):
    if position["class"] not in kept:
        continue
    board = Board()
    for text in position["moves"]:
        move = parse_move(text, Notation.FISF, alphabet=edition.alphabet, lowercase_is_plain=False)
        apply_placement(board, validate_move(board, move, Notation.FISF, rack_size=edition.rack_size))
    rack = edition.spell(position["rack"]) if spelt else position["rack"]
    first = board.is_empty()
    best = find_top(board, rack, lexicon, edition, first_move_horizontal_only=first).best
    runs = []
    for _ in range(repeat):
        started = time.process_time()
        find_top(board, rack, lexicon, edition, first_move_horizontal_only=first)
        runs.append(time.process_time() - started)
    times.setdefault(position["class"], []).append((statistics.median(runs) * 1000, best.total if best else None))
print(json.dumps(times))
"""


def run(tree: Path, script: str, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), ARBITRE_LEXICONS=str(ROOT / "lexicons"))
    # from the tree measured: ``python -c`` puts the working folder first on sys.path
    done = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-2000:]}")
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout to time as well (e.g. /work/main)")
    parser.add_argument("--only", help="comma-separated edition codes (default: every edition with a bundled list)")
    parser.add_argument("--cases", help=f"comma-separated edition:class pairs, or issue42 ({ISSUE42})")
    parser.add_argument("--games", type=int, default=2, help="greedy games per edition (8 mid-game turns each)")
    parser.add_argument("--repeat", type=int, default=5, help="timed searches per position (median kept)")
    parser.add_argument("--rounds", type=int, default=2, help="times each tree is run in turn (lowest median kept)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    sources = json.loads((ROOT / "lexicons" / "SOURCES.json").read_text(encoding="utf-8"))
    codes = args.only.split(",") if args.only else sorted(sources)
    classes = {code: list(CLASSES) for code in codes}
    if args.cases:
        classes = {}
        for case in (ISSUE42 if args.cases == "issue42" else args.cases).split(","):
            code, name = case.split(":")
            classes.setdefault(code, []).append(name)
        codes = [code for code in sorted(sources) if code in classes]
    trees = ([("before", args.before)] if args.before else []) + [("after", ROOT)]
    results: dict[str, dict[str, dict[str, float]]] = {}
    ratio = " after/before" if args.before else ""
    print(f"{'':4} {'class':6} " + " ".join(f"{label:>11}" for label, _ in trees) + ratio + "   positions (median ms)")
    with tempfile.TemporaryDirectory() as folder:
        for code in codes:
            path = Path(folder) / f"{code}.json"
            run(ROOT, POSITIONS, code, str(args.games), str(path))
            # the trees in turn, ``--rounds`` times, each position's lowest median kept: a load that comes and
            # goes on a shared machine weighs on both alike
            found: dict[str, dict[str, list[list[float]]]] = {}
            for _ in range(args.rounds):
                for label, tree in trees:
                    times = json.loads(run(tree, TIMES, code, str(path), str(args.repeat), ",".join(classes[code])))
                    kept = found.setdefault(label, times)
                    for name, pairs in times.items():
                        kept[name] = [[min(a[0], b[0]), a[1]] for a, b in zip(kept[name], pairs)]
            for name in classes[code]:
                medians = {}
                for label, _ in trees:
                    pairs = found[label].get(name, [])
                    medians[label] = sorted(ms for ms, _ in pairs)[len(pairs) // 2] if pairs else float("nan")
                scores = {label: [score for _, score in found[label].get(name, [])] for label, _ in trees}
                same = len({tuple(s) for s in scores.values()}) == 1
                count = len(found[trees[-1][0]].get(name, []))
                line = " ".join(f"{medians[label]:11.2f}" for label, _ in trees)
                if args.before:
                    line += f" {medians['after'] / medians['before']:12.3f}"
                print(f"{code:4} {name:6} {line}   {count}{'' if same else '  TOP SCORES DIFFER'}", flush=True)
                results.setdefault(code, {})[name] = medians
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
