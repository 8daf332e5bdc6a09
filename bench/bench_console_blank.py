"""What blank lines cost the console: a whole ``arbitre console`` process fed N blank lines, beside one fed none.

Issue 20 (item 35): 200,000 empty lines took 14.4 s (about 70 µs each), each one handed from the
reading thread to the event loop. Target: a few µs a line, the process's start-up aside.
Each figure is the median CPU time (user + system) and wall time of the runs, on an in-memory
database and a private word list cache (built first); the cost per line is the difference with the
empty input divided by N.

Usage: ``python bench/bench_console_blank.py [LINES] [RUNS]`` (default 200,000 lines, 5 runs).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed_run(command: list[str], stdin: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run of ``command`` reading ``stdin``."""
    with stdin.open("rb") as source:
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdin=source, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    command = [sys.executable, "-m", "bot", "console", "--db", "memory:"]
    with tempfile.TemporaryDirectory(prefix="arbitre-bench-") as folder:
        env = dict(os.environ, PYTHONPATH=str(ROOT), ARBITRE_CACHE=str(Path(folder) / "cache"))
        env["ARBITRE_DATA"] = folder
        subprocess.run([sys.executable, "-m", "bot", "lexicon", "build", "fr"], env=env, cwd=ROOT, check=True)
        inputs = {"no line": Path(folder) / "none.txt", f"{lines:,} blank lines": Path(folder) / "blank.txt"}
        inputs["no line"].write_text("")
        inputs[f"{lines:,} blank lines"].write_text("\n" * (lines // 2) + "   \n" * (lines - lines // 2))
        walls: dict[str, list[float]] = {name: [] for name in inputs}
        cpus: dict[str, list[float]] = {name: [] for name in inputs}
        for _ in range(runs):
            for name, path in inputs.items():
                wall, cpu = timed_run(command, path, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    print(f"arbitre console, {runs} runs each, medians (Python {sys.version.split()[0]})")
    print(f"{'input':<24} {'wall s':>8} {'cpu s':>8}")
    for name in inputs:
        print(f"{name:<24} {statistics.median(walls[name]):>8.3f} {statistics.median(cpus[name]):>8.3f}")
    blank = f"{lines:,} blank lines"
    per_line = (statistics.median(cpus[blank]) - statistics.median(cpus["no line"])) / lines * 1e6
    wall_per_line = (statistics.median(walls[blank]) - statistics.median(walls["no line"])) / lines * 1e6
    print(f"per blank line: {per_line:.1f} µs of CPU, {wall_per_line:.1f} µs of wall time")


if __name__ == "__main__":
    main()
