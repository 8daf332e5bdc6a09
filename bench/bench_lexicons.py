"""Every bundled word list compiled: words, compile peak memory, cache size, load time and lookup speed,
for this tree and (``--before PATH``) another checkout, side by side.

Each figure comes from a fresh process run with ``PYTHONPATH`` set to the tree measured, so the two
trees' engines never share a process: compiling (``Lexicon.from_words`` on the list as the loader reads
it, then ``to_bytes`` written to a scratch file) runs under ``/usr/bin/time -v`` for its maximum resident
size; loading (``Lexicon.from_bytes`` of the file's bytes, as ``bot.words.loader.load`` does, copied) and
100,000 lookups (``word in lexicon``, two thirds of them words of the list) are timed in another process,
``--repeat`` times, and their medians printed. The machine may be shared: run it several times and
compare medians, never single figures.

Usage: .venv/bin/python bench/bench_lexicons.py [--before /work/main] [--only pl,fr] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMPILE = """
import json, sys, time
from bot.words.loader import list_key, read_words, resolve, split_key
from core.lexicon import Lexicon
code, out = sys.argv[1], sys.argv[2]
spec, alphabet = split_key(list_key(code, code))
path = resolve(spec)
started = time.perf_counter()
lexicon = Lexicon.from_words(read_words(path, path.read_bytes(), alphabet), name=code, alphabet=alphabet)
built = time.perf_counter() - started
data = lexicon.to_bytes()
open(out, "wb").write(data)
print(json.dumps({"words": len(lexicon), "compile_s": built, "bytes": len(data)}))
"""

LOAD = """
import json, random, statistics, sys, time
from core.lexicon import Lexicon
path, repeat = sys.argv[1], int(sys.argv[2])
loads = []
for _ in range(repeat):
    started = time.perf_counter()
    data = open(path, "rb").read()
    lexicon = Lexicon.from_bytes(data)
    loads.append(time.perf_counter() - started)
    del data
rng = random.Random(42)
words = []
for index, word in enumerate(lexicon.words()):
    if index % 7 == 0:
        words.append(word)
queries = [rng.choice(words) for _ in range(66_667)]
queries += [w[:-1] + w[0] for w in rng.sample(words, min(len(words), 33_333))]
lookups = []
for _ in range(repeat):
    started = time.perf_counter()
    found = sum(1 for w in queries if w in lexicon)
    lookups.append(time.perf_counter() - started)
peak = next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1]
load_ms = statistics.median(loads) * 1000
lookup_us = statistics.median(lookups) / len(queries) * 1e6
print(json.dumps({"load_ms": load_ms, "lookup_us": lookup_us, "loaded_rss_mb": int(peak) / 1024}))
"""


def bundled() -> list[str]:
    return sorted(json.loads((ROOT / "lexicons" / "SOURCES.json").read_text(encoding="utf-8")))


def measure(tree: Path, code: str, repeat: int, scratch: Path) -> dict[str, float]:
    """One list compiled and loaded by the engine of ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), ARBITRE_LEXICONS=str(ROOT / "lexicons"))
    out = scratch / f"{code}.lex"
    # run from the tree measured: ``python -c`` puts the working folder first on sys.path
    timed = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, "-c", COMPILE, code, str(out)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(timed.stdout.strip().splitlines()[-1])
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", timed.stderr)
    figures["compile_peak_mb"] = int(peak.group(1)) / 1024 if peak else float("nan")
    command = [sys.executable, "-c", LOAD, str(out), str(repeat)]
    loaded = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=True)
    figures.update(json.loads(loaded.stdout.strip().splitlines()[-1]))
    out.unlink()
    return figures


def row(label: str, f: dict[str, float]) -> str:
    return (
        f"  {label:<6} {int(f['words']):>9,} words  compile {f['compile_s']:6.1f} s,"
        f" peak {f['compile_peak_mb']:7.0f} MB"
        f"  cache {f['bytes'] / 1e6:7.1f} MB  load {f['load_ms']:7.1f} ms  lookup {f['lookup_us']:5.2f} us"
        f"  loaded RSS {f['loaded_rss_mb']:6.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout to measure first (e.g. /work/main)")
    parser.add_argument("--only", help="comma-separated list codes (default: every bundled list)")
    parser.add_argument("--repeat", type=int, default=5, help="load and lookup runs per list (median printed)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--before-only", action="store_true", help="measure only the --before tree")
    args = parser.parse_args()
    codes = args.only.split(",") if args.only else bundled()
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        for code in codes:
            print(code, flush=True)
            trees = [("before", args.before)] if args.before else []
            for label, tree in [*trees] if args.before_only else [*trees, ("after", ROOT)]:
                try:
                    figures = measure(tree, code, args.repeat, scratch)
                except subprocess.CalledProcessError as error:
                    print(f"  {label:<6} failed: {error.stderr.strip().splitlines()[-1:]}", flush=True)
                    continue
                results.setdefault(code, {})[label] = figures
                print(row(label, figures), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
