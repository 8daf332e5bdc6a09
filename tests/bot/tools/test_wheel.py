"""An install outside a clone: the wheel built from the sources, installed in a fresh virtual environment, works.

The sources are copied out of the checkout and built there as pip's isolated build does (PEP 517: the
backend that ``pyproject.toml`` names, fetched from the package index into a folder of its own, kept a day
in the user's cache, run without site-packages); the wheel is installed (``--no-deps``) into a new virtual environment
(``--without-pip``: this interpreter's pip installs into it) that sees its declared dependencies and
theirs, extras followed, and nothing else: each linked from this test environment at a version its
requirement allows (``pip check`` in the new environment agrees), not downloaded and unpacked again
(that took 30 s). Then the installed ``arbitre`` runs with its working directory, ``HOME`` and the zone
database all outside the checkout (``PYTHONTZPATH`` names an empty folder, as on a system without one, so
the declared ``tzdata`` must serve the zones), on the lists that the wheel carries; the user's cache holds
the compiled lists of this test environment, named by their lists' sha256 (the wheel's lists find them
only if they are the same bytes; compiling is tested elsewhere). The environment is made once per run,
by whichever test process asks first (a file lock), about 5 s of real work.
"""

from __future__ import annotations

import email
import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.words.loader import BUNDLED, cache_dir, load
from core import movegen_native
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
SOURCES = ["pyproject.toml", "setup.py", "README.md", "LICENSE", "bot", "core", "lexicons"]
GAME = """\
Ana: /reglages fuseau Europe/Paris
Ana: /nouvelle Ana Ben
Ana: /coup H8 VAGUE
Ben: /coup 8H VOGUE 12
Ana: /conteste
Ana: /verif VAGUE KAOS
Ana: /fin Ben=EAU !
"""

pytestmark = pytest.mark.wheel
# What would let the checkout in: its folder on the path (where a development install leaves
# arbitre.egg-info, which pip would take for the package installed) or another environment.
LEAKS = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV", "PIP_TARGET", "PIP_PREFIX")


def run(
    command: list[str], input: str = "", env: dict[str, str] | None = None, cwd: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``command``'s result, its output as text: run outside the checkout, without its path."""
    if env is None:
        env = {name: value for name, value in os.environ.items() if name not in LEAKS}
    cwd = cwd or "/"
    return subprocess.run(command, input=input, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the test processes of this run share (pytest-xdist's workers have one base each)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed (made once per run, whichever test process
    asks first); its folder."""
    root = shared_folder(tmp_path_factory)
    with (root / "wheel.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        folder = root / "wheel"
        if not (folder / "ready").is_file():
            shutil.rmtree(folder, ignore_errors=True)  # what a process that failed left
            folder.mkdir()
            install_the_wheel(folder)
            (folder / "ready").touch()
    return folder / "venv"


def install_the_wheel(folder: Path) -> None:
    """The wheel built from a copy of the sources in ``folder``, installed in ``folder / "venv"``."""
    source = folder / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
        else:
            shutil.copy2(ROOT / name, source / name)
    system = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    backend = build_backend(system["requires"])
    env = {name: value for name, value in os.environ.items() if name not in LEAKS}
    env["PYTHONPATH"] = str(backend)  # -S: no site-packages, the backend's folder and the standard library only
    build = [sys.executable, "-S", "-c", BUILD, system["build-backend"], str(folder / "dist")]
    built = run(build, env=env, cwd=str(source))
    assert built.returncode == 0, built.stdout + built.stderr
    assert "needs []" in built.stdout, built.stdout + built.stderr
    build_log = built.stdout + built.stderr
    assert "deprecat" not in build_log.lower(), build_log  # setuptools' warnings (the TOML licence table)
    (wheel,) = (folder / "dist").glob("arbitre-*.whl")
    venv = folder / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=str(folder))
    assert made.returncode == 0, made.stderr
    site = Path(run([str(venv / "bin" / "python"), "-c", SITE]).stdout.strip())
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = (name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        declared = email.message_from_bytes(archive.read(metadata)).get_all("Requires-Dist") or []
    for distribution in dependencies(declared):
        link_into(site, distribution)
    install = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "--disable-pip-version-check"]
    done = run([*install, "install", "--no-deps", "--no-compile", str(wheel)], cwd=str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (venv / "bin" / "arbitre").is_file(), done.stdout + done.stderr
    checked = run([*install, "check"], cwd=str(folder))  # every requirement of what the venv holds is met
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for name in ("home", "no-zones"):
        (folder / name).mkdir()
    caches = folder / "home" / ".cache" / "arbitre" / "lexicons"
    caches.mkdir(parents=True)
    for spec in BUNDLED:  # named by its list's sha256: the wheel's lists find them only if they are the same bytes
        cache = load(spec, copy=False)[1].cache
        shutil.copyfile(cache, caches / cache.name)


BACKEND_DAYS = 1.0  # how long a fetched build backend is used again before it is fetched anew


def build_backend(requires: list[str]) -> Path:
    """A folder holding what ``requires`` names, fetched from the package index (``pip install --target``) into
    the user's cache, kept there a day for the runs that follow, by the requirements and the interpreter
    (1.4 s of fetching, and its modules compiled again at each build, saved; a newer release is taken the
    next day, as pip's isolated build would take it)."""
    key = hashlib.sha256(repr((sorted(requires), sys.version)).encode()).hexdigest()[:16]
    root = cache_dir().parent / "tests-build-backends"
    root.mkdir(parents=True, exist_ok=True)
    folder, ready = root / key, root / f"{key}.ready"
    with (root / "fetch.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if ready.is_file() and time.time() - ready.stat().st_mtime < BACKEND_DAYS * 86400:
            return folder
        ready.unlink(missing_ok=True)
        shutil.rmtree(folder, ignore_errors=True)  # an older fetch, or what a failed one left
        fetch = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-compile"]
        fetched = run([*fetch, "--target", str(folder), *requires], cwd=str(root))
        assert fetched.returncode == 0, fetched.stdout + fetched.stderr
        ready.touch()
    return folder


# PEP 517, as pip's isolated build: what else the backend needs for a wheel (nothing, for setuptools), then the wheel
BUILD = (
    "import importlib, sys; name, out = sys.argv[1:]; backend = importlib.import_module(name);"
    " print('needs', backend.get_requires_for_build_wheel()); print(backend.build_wheel(out))"
)
SITE = "import sysconfig; print(sysconfig.get_path('purelib'))"


def dependencies(declared: list[str]) -> list[importlib.metadata.Distribution]:
    """The distributions of this test environment that the wheel's ``declared`` requirements need, with
    the ones these need in turn (extras followed), each at a version its requirement allows."""
    found: dict[str, importlib.metadata.Distribution] = {}
    seen: set[tuple[str, str]] = set()
    todo = [(Requirement(line), "") for line in declared]  # the wheel's own: no extra (``test`` is not one)
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        distribution = importlib.metadata.distribution(name)
        assert requirement.specifier.contains(distribution.version, prereleases=True), (requirement, distribution)
        found[name] = distribution
        for wanted in ("", *sorted(requirement.extras)):
            if (name, wanted) not in seen:
                seen.add((name, wanted))
                todo += [(Requirement(line), wanted) for line in distribution.requires or []]
    return list(found.values())


def link_into(site: Path, distribution: importlib.metadata.Distribution) -> None:
    """``distribution``'s top-level files and folders (its packages, libraries, metadata) linked into ``site``."""
    assert distribution.files is not None, distribution.metadata["Name"]
    tops = {file.parts[0] for file in distribution.files if file.parts[0] not in ("..", "__pycache__")}
    for top in sorted(tops):
        link = site / top
        assert not link.exists(), f"{top} of {distribution.metadata['Name']} is another's too"
        link.symlink_to(Path(str(distribution.locate_file(top))))


@pytest.fixture(scope="module")
def user_env(installed: Path) -> dict[str, str]:
    """A user's environment outside the checkout: a new home (its cache shared by the tests, holding the
    compiled lists), no zone database, no PYTHONPATH."""
    return {
        "PATH": f"{installed / 'bin'}:/usr/bin:/bin",
        "HOME": str(installed.parent / "home"),
        "LANG": "C.UTF-8",
        "PYTHONTZPATH": str(installed.parent / "no-zones"),
    }


def arbitre(installed: Path, env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The installed ``arbitre ARGS``, run in the user's home; no traceback."""
    result = run([str(installed / "bin" / "arbitre"), *args], input=stdin, env=env, cwd=env["HOME"])
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.mark.long(4)
def test_the_installed_code_and_lists_are_the_wheels(installed: Path, user_env: dict[str, str]) -> None:
    script = (
        "import bot, core, lexicons; from core import movegen_native;"
        "print(bot.__file__, core.__file__, lexicons.__file__, movegen_native.available())"
    )
    result = run([str(installed / "bin" / "python"), "-c", script], env=user_env, cwd=user_env["HOME"])
    assert result.returncode == 0, result.stderr
    *files, native = result.stdout.split()
    assert native == str(movegen_native.available())  # the C walk built into the wheel where it is in the checkout
    paths = [Path(path) for path in files]
    assert all(path.is_relative_to(installed) for path in paths), paths
    lists = paths[2].parent
    for name in ("SOURCES.json", "fr.txt.gz", "en.txt.gz", "fr.LICENSE", "en.LICENSE", "README.md"):
        assert (lists / name).is_file(), name


@pytest.mark.long(3)
def test_check_score_and_a_console_game_on_the_bundled_lists(installed: Path, user_env: dict[str, str]) -> None:
    check = arbitre(installed, user_env, "check", "VAGUE", "AVIONS")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "VAGUE valable" in check.stdout, check.stdout + check.stderr
    english = arbitre(installed, user_env, "check", "--lexicon", "en", "ZA", "QI")
    assert english.returncode == 0, english.stdout + english.stderr
    assert "ZA valid" in english.stdout, english.stdout + english.stderr
    score = arbitre(installed, user_env, "score", "H8 VAGUE")
    assert score.returncode == 0, score.stderr
    assert "VAGUE (4+1+2+1+1x2)x2 = 20" in score.stdout, score.stdout + score.stderr
    game = arbitre(installed, user_env, "console", "--admin", "Ana", stdin=GAME)
    assert game.returncode == 0, game.stderr
    out = game.stdout
    assert "fuseau Europe/Paris" in out  # the zone is known without a system zone database
    assert "VAGUE (4+1+2+1+1x2)x2 = 20" in out
    assert "vous annoncez 12, le coup vaut 10" in out
    assert "VOGUE valable" in out
    assert "VAGUE valable, KAOS non valable" in out
    assert "Fin de partie." in out
    # the same first start as `make run`: the room's database in the user's data folder
    assert (Path(user_env["HOME"]) / ".local" / "share" / "arbitre" / "arbitre.sqlite").is_file()
