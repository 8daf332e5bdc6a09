"""An install outside a clone: the wheel built from the sources, installed in a fresh virtual environment, works.

The sources are copied out of the checkout and built there (``pip wheel``, with build isolation: the
build backend comes from the package index, as for a release); the wheel is installed with its declared
dependencies into a new virtual environment (``--without-pip``: this interpreter's pip installs into it);
then the installed ``arbitre`` runs with its working directory, ``HOME`` and the zone database all
outside the checkout (``PYTHONTZPATH`` names an empty folder, as on a system without one, so the
declared ``tzdata`` must serve the zones), on the lists that the wheel carries. About a minute, most of
it installing the dependencies (pip's cache helps): real work, no clock to drive, done once per test
process for both tests (the module's fixture).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["pyproject.toml", "README.md", "LICENSE", "bot", "core", "lexicons"]
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


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; its folder."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, source / name)
    build = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(folder / "dist"), str(source)]
    built = run(build, cwd=str(folder))
    assert built.returncode == 0, built.stdout + built.stderr
    build_log = built.stdout + built.stderr
    assert "deprecat" not in build_log.lower(), build_log  # setuptools' warnings (the TOML licence table)
    (wheel,) = (folder / "dist").glob("arbitre-*.whl")
    venv = folder / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=str(folder))
    assert made.returncode == 0, made.stderr
    install = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install"]
    done = run([*install, "--disable-pip-version-check", str(wheel)], cwd=str(folder))
    assert done.returncode == 0 and (venv / "bin" / "arbitre").is_file(), done.stdout + done.stderr
    return venv


@pytest.fixture(scope="module")
def user_env(installed: Path) -> dict[str, str]:
    """A user's environment outside the checkout: a new home (its cache shared by the tests, so that each
    list is compiled once), no zone database, no PYTHONPATH."""
    for folder in ("home", "no-zones"):
        (installed.parent / folder).mkdir()
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


def test_the_installed_code_and_lists_are_the_wheels(installed: Path, user_env: dict[str, str]) -> None:
    script = "import bot, core, lexicons; print(bot.__file__, core.__file__, lexicons.__file__)"
    result = run([str(installed / "bin" / "python"), "-c", script], env=user_env, cwd=user_env["HOME"])
    assert result.returncode == 0, result.stderr
    paths = [Path(path) for path in result.stdout.split()]
    assert all(path.is_relative_to(installed) for path in paths), paths
    lists = paths[2].parent
    for name in ("SOURCES.json", "fr.txt.gz", "en.txt.gz", "fr.LICENSE", "en.LICENSE", "README.md"):
        assert (lists / name).is_file(), name


def test_check_score_and_a_console_game_on_the_bundled_lists(installed: Path, user_env: dict[str, str]) -> None:
    check = arbitre(installed, user_env, "check", "VAGUE", "AVIONS")
    assert check.returncode == 0 and "VAGUE valable" in check.stdout, check.stdout + check.stderr
    english = arbitre(installed, user_env, "check", "--lexicon", "en", "ZA", "QI")
    assert english.returncode == 0 and "ZA valid" in english.stdout, english.stdout + english.stderr
    score = arbitre(installed, user_env, "score", "H8 VAGUE")
    assert score.returncode == 0 and "VAGUE (4+1+2+1+1x2)x2 = 20" in score.stdout, score.stderr
    game = arbitre(installed, user_env, "console", "--admin", "Ana", stdin=GAME)
    assert game.returncode == 0, game.stderr
    out = game.stdout
    assert "fuseau Europe/Paris" in out  # the zone is known without a system zone database
    assert "VAGUE (4+1+2+1+1x2)x2 = 20" in out and "vous annoncez 12, le coup vaut 10" in out
    assert "VOGUE valable" in out and "VAGUE valable, KAOS non valable" in out
    assert "Fin de partie." in out
    # the same first start as `make run`: the room's database in the user's data folder
    assert (Path(user_env["HOME"]) / ".local" / "share" / "arbitre" / "arbitre.sqlite").is_file()
