"""Word lists on disk: a whole `arbitre check` process (cold and warm cache), its memory, compile and load times.

Targets (issue 3, 2-core machine): `arbitre check --lexicon fr VAGUE` from start to
answer with a warm cache under 0.5 s; the whole process with the French list loaded
under 100 MB resident.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.words.loader import iter_words, resolve  # noqa: E402
from core.lexicon import Lexicon  # noqa: E402


def process_check(cache: str) -> tuple[float, int]:
    """Wall time and peak RSS (kB) of one `arbitre check --lexicon fr VAGUE` process."""
    script = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "r = subprocess.run([sys.executable, '-m', 'bot', 'check', '--lexicon', 'fr', 'VAGUE'],"
        " capture_output=True, text=True)\n"
        "e = time.perf_counter() - t\n"
        "assert r.stdout.strip() == 'VAGUE valable', r\n"
        "print(e, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    env = dict(os.environ, ARBITRE_CACHE=cache)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    seconds, rss = out.stdout.split()
    return float(seconds), int(rss)


def main() -> None:
    for spec in ("fr", "en"):
        path = resolve(spec)
        raw = path.read_bytes()
        start = time.perf_counter()
        words = list(iter_words(path, raw))
        read = time.perf_counter() - start
        start = time.perf_counter()
        lexicon = Lexicon.from_words(words, name=spec)
        build = time.perf_counter() - start
        data = lexicon.to_bytes()
        start = time.perf_counter()
        for _ in range(20):
            Lexicon.from_bytes(data, name=spec)
        load_ms = (time.perf_counter() - start) / 20 * 1000
        sample = random.Random(1).sample(words, 50_000)
        misses = [w[::-1] + "Q" for w in sample[:25_000]]
        queries = sample + misses
        start = time.perf_counter()
        found = sum(1 for w in queries if w in lexicon)
        lookups = len(queries) / (time.perf_counter() - start)
        print(
            f"{spec}: {len(lexicon):,} words; read+normalise {read:.2f} s, compile {build:.2f} s, "
            f"compiled {len(data) / 1e6:.1f} MB, load from cache {load_ms:.1f} ms, "
            f"{lookups:,.0f} lookups/s ({found:,} of {len(queries):,} found)"
        )
    with tempfile.TemporaryDirectory() as cache:
        cold, cold_rss = process_check(cache)
        runs = [process_check(cache) for _ in range(7)]
    warm = statistics.median(t for t, _ in runs)
    rss = max(r for _, r in runs)
    print(
        f"arbitre check --lexicon fr VAGUE: cold cache {cold:.2f} s (builds and caches the list, "
        f"peak {cold_rss / 1024:.0f} MB); warm cache median {warm:.3f} s over 7 runs "
        f"(target 0.5 s, ratio {warm / 0.5:.2f}); peak RSS {rss / 1024:.0f} MB (target 100 MB, ratio "
        f"{rss / 1024 / 100:.2f})"
    )


if __name__ == "__main__":
    main()
