"""The statuses the ``arbitre`` commands exit with, beside 0 and 1, for the operator's scripts and services."""

EXIT_STORAGE = 2  # the database cannot be opened (as for a missing token: nothing to retry)
EXIT_METRICS = 2  # the metrics port is not a port or cannot be bound (nothing to retry either)
EXIT_USAGE = 2  # an option's value is refused (as argparse refuses a bad option, in one line)
EXIT_BROKEN_PIPE = 141  # the reader of the output went away (128 + SIGPIPE, as the shell's own tools)
