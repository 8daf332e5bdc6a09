"""Offline referee tools of the ``arbitre`` command line, one module per subcommand.

Each module exposes ``register(subparsers)`` which adds its subparser and sets
``handler(args, out, err) -> exit status``.
"""
