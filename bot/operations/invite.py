"""The link that adds the Discord bot to a server, with the permissions it needs and no other.

What the bot does in a server's channels, and the permission each needs (Discord's names, as the Developer
Portal shows them): it reads the channels it is used in (*View Channels*), posts draws, results and
answers (*Send Messages*; *Send Messages in Threads* for a game played in a thread), and attaches the
board and the standings as images (*Attach Files*). It edits and deletes only its own messages and
answers slash commands through their interactions, which need no permission; it never replies to a
message (*Read Message History*), embeds links, mentions anyone or reacts. The slash commands come with
the ``applications.commands`` scope.
"""

from __future__ import annotations

from urllib.parse import urlencode

AUTHORIZE_URL = "https://discord.com/oauth2/authorize"
SCOPES = ("bot", "applications.commands")

# Discord's permission bits (the API's names), with what the bot does with each.
NEEDED = {
    "VIEW_CHANNEL": (1 << 10, "see the channels it plays in"),
    "SEND_MESSAGES": (1 << 11, "post draws, results and answers"),
    "ATTACH_FILES": (1 << 15, "attach the board and the standings as images"),
    "SEND_MESSAGES_IN_THREADS": (1 << 38, "play in a thread as in a channel"),
}


def permissions_value() -> int:
    """The permissions the bot asks for, as the integer the invite link carries."""
    value = 0
    for bit, _why in NEEDED.values():
        value |= bit
    return value


def invite_url(application_id: int) -> str:
    """The link a server's administrator opens to add the bot, with its slash commands and its permissions."""
    query = urlencode({"client_id": application_id, "scope": " ".join(SCOPES), "permissions": permissions_value()})
    return f"{AUTHORIZE_URL}?{query}"
