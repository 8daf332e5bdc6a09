"""Our top search against scrabble-solver (Kamil Mielnik) on the positions of ``bench_top.py``, per edition and class.

Issue 42 asks for the top search to be at most as slow as that solver on every class of position: the first
move (racks without a joker, on the empty board) and mid-game racks of 0, 1 and 2 jokers. The positions are
``bench_top.py``'s (its ``POSITIONS`` script: seeded greedy games in each edition's bundled list). For each
edition this script loads the list once, rebuilds every board, and times ``core.movegen.find_top`` in this
process: one search of every position to warm up, then ``--rounds`` passes over the positions, each searching
a position ``--repeat`` times; a position keeps its lowest median over the rounds (process time: the CPU the
search used, not the time other processes took). It then writes the same list as plain text
(``Lexicon.words()``, each tile's label in lowercase: the solver's characters), the boards (15 rows, jokers
marked) and the racks, and runs ``bench/solver_driver.mjs`` in Node: the solver builds its dictionary (a
GADDAG, ``Gaddag.fromArray``) from that text once, solves every position once to warm up (its JIT compiles
then), then times the same rounds and repeats, with CPU from ``process.cpuUsage()`` (user plus system, every
thread of the process, as ``time.process_time`` counts them) and wall time from ``performance.now()``;
building the board and the rack's tiles is outside the timed call. Printed per edition and class: the median
over positions of our times and of the solver's (CPU, then wall), the ratio ours / solver (CPU to CPU; Node's
CPU includes its garbage collector's helper threads, so it can exceed its wall time), the number of positions,
how many top scores agree (our best total against the solver's best points, bingo included in both), and the
median number of plays the solver lists. Each disagreement is printed with its position.

``--published`` times instead the solver's own benchmark (the positions behind the figures its README
publishes: a board per language and a base rack with 0, 1 and 2 jokers), read from its sources (``--source``)
when the script runs, never copied here; both engines search them with our lists (en for its en-US and en-GB
scenarios, pl for its Polish one), and the published figures (its lists, its machine, bun, wall time) are
printed beside ours, with the number of plays it lists here and there.

The two engines do not do the same work: the solver lists every legal play (its design: ``solve()`` returns
them all, sorted); ours lists them too with the C walk (``core.movegen_native``: racks of at most one joker,
where it is built; the first line printed says which engine ran, ``ARBITRE_NATIVE=0`` times Python alone), and
otherwise looks for the top only (branch and bound). On the empty board the solver searches both
directions, we only the horizontal plays (``first_move_horizontal_only``, as the bot does; the top scores are
the same by symmetry). The editions compared are those whose tiles are one character each and which the
solver knows: de (its de-DE Scrabble config), fr (fr-FR), en (en-US: the Scrabble tile set of the English
editions) and pl (pl-PL). The driver prints where the solver's config and ours differ (tile values, counts,
jokers, bingo, rack, premium squares).

The solver is not shipped with Arbitre and must not be: its licence (CC BY-NC-ND 4.0) forbids sharing changed
copies, so it is built outside the repository, from its sources, and only this script and the driver (our code)
live here. Built and measured with scrabble-solver at a838d1e2f10a9b01f94bbd41a1ee654ac1535efc (2.18.1) and
@kamilmielnik/gaddag (MIT) at 51ad4e493bdcbb75a97cabdab41da7d756658582 (2.0.0), with Node 20 and esbuild from npm
(the solver's own build wants bun; its packages are not needed from the registry)::

    mkdir -p /tmp/solver-bench/src && cd /tmp/solver-bench
    git -C SOLVER_REPO archive HEAD packages/solver packages/types packages/configs packages/constants \\
        tsconfig.json | tar -x -C src
    mkdir src/gaddag && git -C GADDAG_REPO archive HEAD | tar -x -C src/gaddag
    npm init -y && npm install esbuild@0.24
    cat > entry.ts <<'EOF'
    export { solve } from './src/packages/solver/src/solve';
    export { getConfig } from './src/packages/configs/src/index';
    export { Board, Tile, Game, Locale } from './src/packages/types/src/index';
    export { BLANK } from './src/packages/constants/src/index';
    export { Gaddag } from './src/gaddag/src/index';
    EOF
    npx esbuild entry.ts --bundle --platform=node --format=esm --target=node20 \\
        --alias:@scrabble-solver/types=./src/packages/types/src/index.ts \\
        --alias:@scrabble-solver/constants=./src/packages/constants/src/index.ts \\
        --alias:@scrabble-solver/configs=./src/packages/configs/src/index.ts \\
        --alias:@kamilmielnik/gaddag=./src/gaddag/src/index.ts --outfile=build/solver.mjs

(SOLVER_REPO, GADDAG_REPO: clones of github.com/kamilmielnik/scrabble-solver and github.com/kamilmielnik/gaddag
at those commits.) Without the bundle (``--bundle``, default /tmp/solver-bench/build/solver.mjs) the script
says so and exits without error, so that ``make bench`` passes on a machine without the solver.

The machine may be shared: run it several times and compare medians, never single figures. Benchmarks never
run in CI.

Usage: .venv/bin/python bench/bench_solver.py [--only de,fr] [--cases de:mid2,fr:first] [--games 2]
       [--repeat 5] [--rounds 2] [--bundle /tmp/solver-bench/build/solver.mjs] [--node node] [--json out.json]
       .venv/bin/python bench/bench_solver.py --published [--source /tmp/solver-bench/src]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_top import CLASSES, POSITIONS, run  # noqa: E402

from bot.words.loader import load  # noqa: E402
from core import movegen_native  # noqa: E402
from core.board import SIZE, Board, premium_at  # noqa: E402
from core.edition import JOKER, Edition, edition_by_code  # noqa: E402
from core.lexicon import Lexicon  # noqa: E402
from core.movegen import find_top  # noqa: E402
from core.notation import Notation, parse_move  # noqa: E402
from core.placement import apply_placement, validate_move  # noqa: E402

# our edition -> the solver's locale for the same tile set (Game.Scrabble)
LOCALES = {"de": "de-DE", "fr": "fr-FR", "en": "en-US", "pl": "pl-PL"}
DRIVER = ROOT / "bench" / "solver_driver.mjs"
BUNDLE = Path("/tmp/solver-bench/build/solver.mjs")
SOURCE = Path("/tmp/solver-bench/src")


def solver_text(edition: Edition, symbols: str) -> str:
    """Tile symbols as the solver's characters: each tile's label in lowercase, one character each."""
    text = "".join(edition.label(symbol).lower() for symbol in symbols)
    if len(text) != len(symbols):
        raise SystemExit(f"{edition.code}: a tile of several characters in {symbols!r}")
    return text


def write_words(lexicon: Lexicon, edition: Edition, path: Path) -> int:
    """The list as plain text, one word a line, in the solver's characters; how many words."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for word in lexicon.words():
            out.write(solver_text(edition, word) + "\n")
            count += 1
    return count


def rebuild(edition: Edition, moves: list[str]) -> Board:
    """The board after a position's moves (FISF notation), as ``bench_top.py`` rebuilds it."""
    board = Board()
    for text in moves:
        move = parse_move(text, Notation.FISF, alphabet=edition.alphabet, lowercase_is_plain=False)
        apply_placement(board, validate_move(board, move, Notation.FISF, rack_size=edition.rack_size))
    return board


def top_of(board: Board, rack: str, lexicon: Lexicon, edition: Edition) -> tuple[int | None, str]:
    """Our top's total and notation (None and ``(no play)`` when there is no play)."""
    best = find_top(board, rack, lexicon, edition, first_move_horizontal_only=board.is_empty()).best
    return (None, "(no play)") if best is None else (best.total, best.placement.notation())


def time_ours(board: Board, rack: str, lexicon: Lexicon, edition: Edition, repeat: int) -> float:
    """The median process time (ms) of ``repeat`` searches of the top."""
    first = board.is_empty()
    runs = []
    for _ in range(repeat):
        started = time.process_time()
        find_top(board, rack, lexicon, edition, first_move_horizontal_only=first)
        runs.append(time.process_time() - started)
    return statistics.median(runs) * 1000


def solver_position(board: Board, rack: str, edition: Edition) -> dict[str, Any]:
    """A position as the driver reads it: 15 rows (space for empty), the jokers' squares, the rack."""
    rows = []
    for row in range(SIZE):
        line = ""
        for col in range(SIZE):
            tile = board.get(row, col)
            line += " " if tile is None else solver_text(edition, tile.letter)
        rows.append(line)
    blanks = [[row, col] for row, col, tile in board.tiles() if tile.joker]
    tiles = [JOKER if symbol == JOKER else solver_text(edition, symbol) for symbol in rack]
    return {"rows": rows, "blanks": blanks, "rack": tiles}


def ours_config(edition: Edition) -> dict[str, Any]:
    """Our tile set and board, for the driver to compare with the solver's config."""
    return {
        "tiles": [
            [solver_text(edition, symbol), edition.values[symbol], edition.counts[symbol]]
            for symbol in edition.alphabet.symbols
        ],
        "jokers": edition.jokers,
        "bingo": edition.bingo_bonus,
        "rack_size": edition.rack_size,
        "premiums": [
            [[premium_at(row, col).letter_multiplier, premium_at(row, col).word_multiplier] for col in range(SIZE)]
            for row in range(SIZE)
        ],
    }


def run_solver(node: str, bundle: Path, job: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Run the Node driver on a job; its JSON answer."""
    path = folder / "job.json"
    path.write_text(json.dumps(job), encoding="utf-8")
    return driver(node, bundle, str(path))


def driver(node: str, bundle: Path, *args: str) -> dict[str, Any]:
    """Run the Node driver; its JSON answer (its last line)."""
    done = subprocess.run(
        [node, "--max-old-space-size=8192", str(DRIVER), str(bundle), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"solver driver: {done.stderr.strip()[-2000:]}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def engine_line() -> str:
    """Which engine ours is: the C walk for racks of few jokers (``core.movegen_native``), or Python alone."""
    if not movegen_native.available():
        return "ours: Python alone (the C walk is not built)"
    if os.environ.get("ARBITRE_NATIVE", "1") == "0":
        return "ours: Python alone (ARBITRE_NATIVE=0)"
    return f"ours: the C walk for racks of at most {movegen_native.NATIVE_JOKERS} joker(s), Python for the others"


def published(args: argparse.Namespace, folder: Path) -> None:
    """The solver's own benchmark (its boards and base racks, read from its sources) on our lists, timed for both
    engines, beside the figures its README publishes (its lists, its machine, wall time)."""
    found = driver(args.node, args.bundle, "--published", str(args.source))
    print(f"the solver's benchmark, its boards and racks with our lists; published: {found['method']}")
    print(
        f"{'scenario':14} {'jokers':>6} {'ours ms':>9} {'solver ms':>10} {'wall ms':>8} {'published':>10} "
        f"{'ours/solver':>12} {'plays':>7} {'published':>10} {'tops':>9}"
    )
    written: set[str] = set()
    for scenario in found["scenarios"]:
        code = scenario["locale"].split("-")[0]
        if code not in LOCALES:
            print(f"{scenario['label']}: no list of ours for {scenario['locale']} (skipped)")
            continue
        edition = edition_by_code(code)
        lexicon = load(code)[0]
        words = folder / f"{code}.txt"
        if code not in written:
            write_words(lexicon, edition, words)
            written.add(code)
        rows = ["".join("." if char == " " else edition.tiles(char) for char in row) for row in scenario["rows"]]
        board = Board.from_rows(rows, edition.alphabet)
        base = "".join(edition.tiles(char) for char in scenario["rack"])
        racks = [base[: len(base) - jokers] + JOKER * jokers for jokers in range(edition.jokers + 1)]
        tops = [top_of(board, rack, lexicon, edition) for rack in racks]
        ours = [
            min(time_ours(board, rack, lexicon, edition, args.repeat) for _ in range(args.rounds)) for rack in racks
        ]
        job = {
            "locale": scenario["locale"],
            "words": str(words),
            "repeat": args.repeat,
            "rounds": args.rounds,
            "ours": ours_config(edition),
            "positions": [solver_position(board, rack, edition) for rack in racks],
        }
        answer = run_solver(args.node, args.bundle, job, folder)
        for difference in answer["differences"]:
            print(f"{scenario['label']}: config differs: {difference}")
        for jokers, (mine, top, theirs) in enumerate(zip(ours, tops, answer["results"])):
            figures = found["published"].get(scenario["label"], {}).get(str(jokers), {})
            agree = "agree" if (theirs["best"] or {}).get("points") == top[0] else "DIFFER"
            print(
                f"{scenario['label']:14} {jokers:6} {mine:9.2f} {theirs['cpu_ms']:10.2f} {theirs['wall_ms']:8.2f} "
                f"{figures.get('ms', float('nan')):10.0f} {mine / theirs['cpu_ms']:12.3f} {theirs['plays']:7} "
                f"{figures.get('plays', 0):10} {agree:>9}",
                flush=True,
            )
            if agree != "agree":
                print(f"    ours {top[1]} = {top[0]}, the solver's {json.dumps(theirs['best'], ensure_ascii=False)}")


def median_of(values: list[float]) -> float:
    """The median as ``bench_top.py`` takes it (the upper middle of an even count)."""
    return sorted(values)[len(values) // 2] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", help=f"comma-separated edition codes (default: {','.join(LOCALES)})")
    parser.add_argument("--cases", help="comma-separated edition:class pairs (de:mid2,fr:first)")
    parser.add_argument("--games", type=int, default=2, help="greedy games per edition (8 mid-game turns each)")
    parser.add_argument("--repeat", type=int, default=5, help="timed searches per position (median kept)")
    parser.add_argument("--rounds", type=int, default=2, help="passes over the positions (lowest median kept)")
    parser.add_argument("--bundle", type=Path, default=BUNDLE, help="the solver built as one ES module")
    parser.add_argument("--node", default="node", help="the Node executable")
    parser.add_argument(
        "--published",
        action="store_true",
        help="instead: the solver's own benchmark positions (read from --source) on our lists",
    )
    parser.add_argument("--source", type=Path, default=SOURCE, help="the solver's sources (the folder of packages/)")
    parser.add_argument("--json", type=Path, help="also write every position's figures to this file")
    args = parser.parse_args()
    if not args.bundle.is_file():
        print(f"{args.bundle}: no solver bundle; see this script's docstring to build it (skipped)")
        return
    print(engine_line())
    if args.published:
        with tempfile.TemporaryDirectory() as name:
            published(args, Path(name))
        return
    codes = args.only.split(",") if args.only else list(LOCALES)
    classes = {code: list(CLASSES) for code in codes}
    if args.cases:
        classes = {}
        for case in args.cases.split(","):
            code, name = case.split(":")
            classes.setdefault(code, []).append(name)
        codes = [code for code in LOCALES if code in classes]
    for code in codes:
        if code not in LOCALES:
            raise SystemExit(f"{code}: not compared (the editions compared: {', '.join(LOCALES)})")
    report: dict[str, Any] = {}
    print(
        f"{'':4} {'class':6} {'ours ms':>9} {'solver ms':>10} {'wall ms':>8} {'ours/solver':>12} {'positions':>10} "
        f"{'tops agree':>11} {'solver plays':>13}"
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for code in codes:
            edition = edition_by_code(code)
            path = folder / f"{code}.json"
            run(ROOT, POSITIONS, code, str(args.games), str(path))
            positions = [p for p in json.loads(path.read_text(encoding="utf-8")) if p["class"] in classes[code]]
            lexicon = load(code)[0]
            boards = [rebuild(edition, position["moves"]) for position in positions]
            # one search of every position first (the warm-up, and our tops), then --rounds passes timing each
            # position --repeat times, each position's lowest median over the rounds kept (as the driver does)
            tops = [top_of(board, p["rack"], lexicon, edition) for board, p in zip(boards, positions)]
            ours = [float("inf")] * len(positions)
            for _ in range(args.rounds):
                for i, (board, position) in enumerate(zip(boards, positions)):
                    ours[i] = min(ours[i], time_ours(board, position["rack"], lexicon, edition, args.repeat))
            job_positions = [solver_position(board, p["rack"], edition) for board, p in zip(boards, positions)]
            words = folder / f"{code}.txt"
            count = write_words(lexicon, edition, words)
            job = {
                "locale": LOCALES[code],
                "words": str(words),
                "repeat": args.repeat,
                "rounds": args.rounds,
                "ours": ours_config(edition),
                "positions": job_positions,
            }
            answer = run_solver(args.node, args.bundle, job, folder)
            words.unlink()
            print(
                f"{code}: {count} words (the solver read {answer['words']}, its GADDAG built in "
                f"{answer['build_ms'] / 1000:.1f} s wall)",
                flush=True,
            )
            for difference in answer["differences"]:
                print(f"{code}: config differs: {difference}")
            disagreements = []
            for name_ in classes[code]:
                indices = [i for i, p in enumerate(positions) if p["class"] == name_]
                our_ms = median_of([ours[i] for i in indices])
                their_ms = median_of([answer["results"][i]["cpu_ms"] for i in indices])
                their_wall = median_of([answer["results"][i]["wall_ms"] for i in indices])
                plays = median_of([answer["results"][i]["plays"] for i in indices])
                agree = 0
                for i in indices:
                    theirs = answer["results"][i]["best"]
                    their_points = None if theirs is None else theirs["points"]
                    if their_points == tops[i][0]:
                        agree += 1
                    else:
                        disagreements.append((name_, i))
                print(
                    f"{code:4} {name_:6} {our_ms:9.2f} {their_ms:10.2f} {their_wall:8.2f} {our_ms / their_ms:12.3f} "
                    f"{len(indices):10} {agree:>6}/{len(indices):<4} {plays:13.0f}",
                    flush=True,
                )
            for name_, i in disagreements:
                position = positions[i]
                print(
                    f"{code}: {name_} position {i}: rack {edition.spell(position['rack'])}, moves "
                    f"{' '.join(position['moves']) or '(none)'}; ours {tops[i][1]} = {tops[i][0]}, "
                    f"the solver's {json.dumps(answer['results'][i]['best'], ensure_ascii=False)}"
                )
                print("    " + "\n    ".join(boards[i].rows()))
            report[code] = {
                "differences": answer["differences"],
                "positions": [
                    {**position, "ours_ms": ms, "ours_total": top[0], "ours_top": top[1], "solver": theirs}
                    for position, ms, top, theirs in zip(positions, ours, tops, answer["results"])
                ],
            }
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    # the lists from this tree, as bench_top.py's processes read them
    os.environ.setdefault("ARBITRE_LEXICONS", str(ROOT / "lexicons"))
    main()
