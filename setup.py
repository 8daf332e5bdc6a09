"""The build's one option: ``ARBITRE_COMPILE=1`` compiles the move generator to C with mypyc.

The package is pure Python, and stays so by default. With ``ARBITRE_COMPILE=1`` (``pip install .`` or ``pip
wheel .``, a C compiler and mypy at hand: ``--no-build-isolation`` with both installed, or ``mypy`` in the build
environment), the modules listed in ``pyproject.toml`` under ``[tool.arbitre] compiled`` are compiled by mypyc
into extension modules that Python imports instead of their sources: the same code, about twice as fast
(docs/operating.md, "The top search compiled"). An editable install (``pip install -e``) is refused that option:
the compiled modules would sit beside the sources and hide every later edit of them.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import setup


def compiled_modules() -> list[str]:
    """The source files ``[tool.arbitre] compiled`` lists in pyproject.toml."""
    with (Path(__file__).parent / "pyproject.toml").open("rb") as file:
        modules: list[str] = tomllib.load(file)["tool"]["arbitre"]["compiled"]
    return modules


def extensions() -> list[object]:
    """The extension modules to build: none unless ``ARBITRE_COMPILE=1``."""
    if os.environ.get("ARBITRE_COMPILE", "0") != "1":
        return []
    if "editable_wheel" in sys.argv:
        raise SystemExit("ARBITRE_COMPILE=1 builds a wheel (pip install ., pip wheel .), not an editable install")
    from mypyc.build import mypycify

    return list(mypycify(compiled_modules(), opt_level="3"))


setup(ext_modules=extensions())
