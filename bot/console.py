"""Console adapter: a chat room in the terminal."""

from __future__ import annotations

import argparse
from typing import TextIO


def run_console(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Placeholder until the command layer lands."""
    print("Arbitre: the console chat room is not built yet; try `arbitre score \"H8 VAGUE\"`.", file=out)
    return 0
