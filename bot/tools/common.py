"""Options and helpers shared by the command-line tools."""

from __future__ import annotations

import argparse

from core.edition import Edition, edition_by_code
from core.notation import Notation, default_notation, notation_by_name


def add_edition_options(parser: argparse.ArgumentParser) -> None:
    """``--edition fr|en`` and ``--notation fisf|gcg``."""
    parser.add_argument("--edition", default="fr", choices=["fr", "en"], help="tile set (default fr)")
    parser.add_argument("--notation", choices=["fisf", "gcg"], help="fisf (default for fr) or gcg (default for en)")


def edition_and_notation(args: argparse.Namespace) -> tuple[Edition, Notation]:
    """The edition and notation chosen by ``add_edition_options``."""
    edition = edition_by_code(args.edition)
    notation = notation_by_name(args.notation) if args.notation else default_notation(edition.code)
    return edition, notation
