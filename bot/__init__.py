"""Arbitre in chats: commands, storage, rendering, adapters and the CLI."""
