"""How fast the ``arbitre`` command starts: warm processes side by side with a bare interpreter.

Target (issue 13): a warm ``arbitre check --lexicon fr VAGUE`` process takes at most 3
times as long as a bare ``python -c pass``.

"Warm" means what a second run on an installed machine sees: the word list compiled
into the cache (a private one, built first), the files in the page cache, and the
bytecode of every module compiled (into a private ``PYTHONPYCACHEPREFIX``, so that
nothing is written beside the sources even where ``PYTHONDONTWRITEBYTECODE`` is set).
The commands run in turns, so that a burst of load on a shared machine hits them all
alike; each line gives the median wall time and the median CPU time (user + system)
of its runs, and their ratios to the bare interpreter's. CPU time is the steadier
figure on a busy machine.

Usage: ``python bench/bench_cli_start.py [RUNS]`` (default 30 runs of each command).
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
TARGET = 3.0


def arbitre_command() -> list[str]:
    """The installed ``arbitre`` script beside the interpreter, else ``python -m bot``."""
    script = Path(sys.executable).parent / "arbitre"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "bot"]


def timed_run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run of ``command``, which must succeed."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.stderr is not None
    errors = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {errors}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    arbitre = arbitre_command()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "arbitre check --lexicon fr VAGUE": [*arbitre, "check", "--lexicon", "fr", "VAGUE"],
        'arbitre score "H8 VAGUE"': [*arbitre, "score", "H8 VAGUE"],
        "arbitre --help": [*arbitre, "--help"],
    }
    with tempfile.TemporaryDirectory(prefix="arbitre-bench-") as folder:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        env["ARBITRE_CACHE"] = str(Path(folder) / "cache")
        timed_run([*arbitre, "lexicon", "build", "fr"], env)
        for command in commands.values():  # warm up: bytecode written, files read once
            for _ in range(3):
                timed_run(command, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                wall, cpu = timed_run(command, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    base_wall = statistics.median(walls["python -c pass"])
    base_cpu = statistics.median(cpus["python -c pass"])
    print(f"{runs} warm runs each, medians ({sys.executable}, Python {sys.version.split()[0]})")
    print(f"{'command':<36} {'wall ms':>8} {'x bare':>7} {'cpu ms':>8} {'x bare':>7}")
    for name in commands:
        wall = statistics.median(walls[name])
        cpu = statistics.median(cpus[name])
        print(f"{name:<36} {wall * 1000:8.1f} {wall / base_wall:7.2f} {cpu * 1000:8.1f} {cpu / base_cpu:7.2f}")
    check = "arbitre check --lexicon fr VAGUE"
    ratio = statistics.median(walls[check]) / base_wall
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"target: {check} at most {TARGET:g} x a bare start (wall): {ratio:.2f} x, {verdict}")


if __name__ == "__main__":
    main()
