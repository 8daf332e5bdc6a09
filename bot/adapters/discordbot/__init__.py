"""The Discord adapter (discord.py 2.7): ``adapter.DiscordAdapter`` and the pieces it is made of.

Nothing is imported here: the command line reads ``shards`` before it loads discord.py.
"""
