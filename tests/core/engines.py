"""The top search's two engines, for tests that hold both to the same truth.

``core.movegen`` lists a rack's plays with the C walk (``core.movegen_native``) where the build has it and
the rack has at most ``NATIVE_JOKERS`` jokers, and searches in Python alone otherwise, or with
``ARBITRE_NATIVE=0``. A test that checks the plays against a brute force or a full list runs its checks
under each engine (``ENGINES``: the C walk only where it is built).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from core.movegen_native import available

PYTHON = "python"
NATIVE = "native"
ENGINES = (PYTHON, NATIVE) if available() else (PYTHON,)


@contextmanager
def engine(name: str) -> Iterator[None]:
    """Searches in the block use the engine ``name`` (``ARBITRE_NATIVE`` set, then put back)."""
    previous = os.environ.get("ARBITRE_NATIVE")
    os.environ["ARBITRE_NATIVE"] = "1" if name == NATIVE else "0"
    try:
        yield
    finally:
        if previous is None:
            del os.environ["ARBITRE_NATIVE"]
        else:
            os.environ["ARBITRE_NATIVE"] = previous
