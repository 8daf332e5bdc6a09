"""``python -m bot`` is the ``arbitre`` command.

``python -m`` puts the working directory first on the module path. The package keeps its repository's
top-level names (``bot``, ``core``, ``lexicons``: docs/operating.md, Installing outside a clone), so a folder
holding a ``core/`` or ``lexicons/`` of its own would be imported in place of Arbitre's: unless the working
directory is where this ``bot`` comes from (a checkout), it is taken off the path before anything else is
imported.
"""

import os
import sys
from pathlib import Path


def _keep_own_packages(path: list[str], cwd: str, home: Path) -> None:
    """Take the working directory off the front of ``path`` unless it is ``home``, the folder holding ``bot``."""
    while path and path[0] in ("", cwd) and Path(path[0] or cwd).resolve() != home:
        path.pop(0)


_keep_own_packages(sys.path, os.getcwd(), Path(__file__).resolve().parent.parent)

from bot.cli import main  # noqa: E402 (after the path is made safe)

raise SystemExit(main())
