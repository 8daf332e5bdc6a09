"""The build: the top search's C walk where a C compiler is at hand, and one option, ``ARBITRE_COMPILE=1``,
that compiles the move generator to C with mypyc.

The C walk (``core/_movegen_native.c``) is optional: built when the machine has a C compiler and Python's
headers, left out (with setuptools' warning) otherwise, and the package then runs on Python alone;
``ARBITRE_NATIVE=0`` leaves it out (a pure Python wheel, ``py3-none-any``). The rest of the package is pure
Python, and stays so by default. With ``ARBITRE_COMPILE=1`` (``pip install .`` or ``pip
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

from setuptools import Extension, setup


def compiled_modules() -> list[str]:
    """The source files ``[tool.arbitre] compiled`` lists in pyproject.toml."""
    with (Path(__file__).parent / "pyproject.toml").open("rb") as file:
        modules: list[str] = tomllib.load(file)["tool"]["arbitre"]["compiled"]
    return modules


def native_walk() -> Extension:
    """The C walk of the top search (core/_movegen_native.c, the module; core/_movegen_walk.c, the walk),
    optional: without a C compiler the package installs without it and searches in Python alone
    (core/movegen_native.py)."""
    return Extension(
        "core._movegen_native",
        ["core/_movegen_native.c", "core/_movegen_walk.c"],
        depends=["core/_movegen_walk.h"],
        optional=True,
        extra_compile_args=["-O2"],
    )


def extensions() -> list[object]:
    """The extension modules to build: the C walk (not with ``ARBITRE_NATIVE=0``: a pure Python wheel), and the
    mypyc modules with ``ARBITRE_COMPILE=1``."""
    native = [] if os.environ.get("ARBITRE_NATIVE", "1") == "0" else [native_walk()]
    if os.environ.get("ARBITRE_COMPILE", "0") != "1":
        return native
    if "editable_wheel" in sys.argv:
        raise SystemExit("ARBITRE_COMPILE=1 builds a wheel (pip install ., pip wheel .), not an editable install")
    from mypyc.build import mypycify

    return [*native, *mypycify(compiled_modules(), opt_level="3")]


setup(ext_modules=extensions())
