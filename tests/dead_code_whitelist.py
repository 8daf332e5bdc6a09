# ruff: noqa
"""Names vulture cannot see used (``tests/project/test_dead_code.py``), each called by a library or read by name.

A vulture whitelist: vulture reads it, nothing imports or runs it; each line uses a name."""

collect  # prometheus-client's Collector interface (bot/operations/metrics.py)
_backoff  # discord.py 2.7 reads each shard's own backoff (bot/adapters/discordbot/client.py)
connection_made  # asyncio.Protocol's callbacks (bot/web/limits.py)
eof_received
move_score  # set through dataclasses.replace and keywords (core/duplicate)
plays_seen  # summed with getattr by name (core/movegen_formats.py)
__getattr__  # module-level lazy imports (PEP 562: bot/web, core)
__signature__  # inspect.signature reads it: discord.py builds a command's options from it (bot/adapters/discordbot/forms.py)
default_permissions  # discord.py writes them into the registered command (bot/adapters/discordbot/forms.py)
allowed_contexts
interaction_check  # discord.py's command tree asks it of each interaction (bot/adapters/discordbot/former.py)
