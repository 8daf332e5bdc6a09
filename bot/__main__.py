"""``python -m bot`` is the ``arbitre`` command."""

from .cli import main

raise SystemExit(main())
