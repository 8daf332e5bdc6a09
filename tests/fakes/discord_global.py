"""Discord's limits that span every route, as the fake enforces them, each next to the documentation it
follows: the global rate limit (a sliding second, the interaction endpoints outside it, every other webhook
inside), the invalid-request limit and the temporary ban past it, and the pace of opening direct messages.

Sources: Topics > Rate Limits (https://discord.com/developers/docs/topics/rate-limits; discord-api-docs
``developers/topics/rate-limits.mdx``), Interactions > Receiving and Responding > Endpoints
(``developers/interactions/receiving-and-responding.mdx``), Resources > User > Create DM
(``developers/resources/user.mdx``), Topics > Opcodes and Status Codes > JSON (error 40003). Where the
documentation gives no number, the number used is the community's, and the docstring of its constant says so.

The global limit runs on the event loop's clock (the one discord.py sleeps a ``retry_after`` on, and the one a
test moves with ``tests.loop_time.LoopTime``); the invalid-request window, the ban and the pace of opening DMs
run on the fake's clock (:meth:`FakeDiscord.advance`): discord.py never waits for them, it is refused.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

# --- the global rate limit ----------------------------------------------------------------------------
# https://discord.com/developers/docs/topics/rate-limits#global-rate-limit
# Topics > Rate Limits > Global Rate Limit: "All bots can make up to 50 requests per second to our API. [...]
# This is independent of any individual rate limit on a route." Read strictly, as Discord enforces it: at most
# 50 in ANY second (a sliding window), so that two adjacent fixed windows cannot let 100 through in about a second.
GLOBAL_LIMIT = (50, 1.0)

# https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints
# Same section: "Interaction endpoints are not bound to the bot's Global Rate Limit", and Receiving and
# Responding > Endpoints lists them: POST /interactions/{interaction.id}/{interaction.token}/callback and the
# /webhooks/{application.id}/{interaction.token}[/messages/...] routes (original response and follow-ups). A
# webhook of a channel (/webhooks/{webhook.id}/{webhook.token}, Resources > Webhook > Execute Webhook) is not an
# interaction endpoint: it stays bound to the global limit, which is applied to the IP address when the request
# carries no Authorization header ("If no authorization header is provided, then the limit is applied to the IP
# address"); the fake is one bot on one address, so both share one window here.
INTERACTION_CALLBACK_PREFIX = "/interactions/"
WEBHOOK_PREFIX = "/webhooks/"


def bound_to_global(path: str, match_info: dict[str, str], application_id: int) -> bool:
    """Whether a request (``path`` below ``/api/v10``, its route's ``match_info``) counts against the global
    limit: every request but those of the interaction endpoints (an interaction's callback, and a webhook
    route whose id is the application's: an interaction token's)."""
    if path.startswith(INTERACTION_CALLBACK_PREFIX):
        return False
    if path.startswith(WEBHOOK_PREFIX):
        webhook_id = match_info.get("application_id") or path[len(WEBHOOK_PREFIX) :].split("/", 1)[0]
        return webhook_id != str(application_id)
    return True


@dataclass
class GlobalWindow:
    """The global limit as a sliding window: at most ``limit`` requests in any ``window`` seconds."""

    limit: int
    window: float
    _times: deque[float] = field(default_factory=deque)

    def take(self, now: float) -> float | None:
        """Count a request at ``now`` (None), or the seconds until the window has room (nothing counted)."""
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()
        if len(self._times) >= self.limit:
            return max(0.001, self._times[0] + self.window - now)
        self._times.append(now)
        return None


# --- the invalid-request limit and its ban --------------------------------------------------------------
# https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans
# Topics > Rate Limits > Invalid Request Limit aka Cloudflare bans: "IP addresses that make too many invalid HTTP
# requests are automatically and temporarily restricted from accessing the Discord API. Currently, this limit is
# 10,000 per 10 minutes. An invalid request is one that results in 401, 403, or 429 statuses. [...] 429 errors
# returned with X-RateLimit-Scope: shared are not counted against you."
INVALID_LIMIT = 10_000
INVALID_WINDOW = 600.0
INVALID_STATUSES = frozenset({401, 403, 429})
SHARED_SCOPE = "shared"

# The documentation says "temporarily" and no more. Reported bans last about an hour (discord-api-docs#5385: a
# 1015 ban "with a retry after of 1 hour"): the fake bans for an hour of its clock.
BAN_SECONDS = 3600.0

# What a banned address is answered (discord-api-docs#5810, confirmed there as the IP ban): HTTP 429, this JSON
# body, no X-RateLimit-* header and no Retry-After ("the response is static, stored in cloudflare"), and no Via
# header, which is how discord.py (http.py, "Banned by Cloudflare more than likely") tells it from a rate limit:
# it raises HTTPException instead of sleeping and retrying.
BAN_MESSAGE = (
    "You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently. "
    "Please read our docs at https://discord.com/developers/docs/topics/rate-limits to prevent this moving forward."
)


@dataclass(frozen=True)
class InvalidRequest:
    """A request the invalid-request limit counted: when (the fake's clock), which, and its status."""

    at: float
    method: str
    path: str
    status: int


@dataclass(frozen=True)
class Ban:
    """A temporary ban: from when to when (the fake's clock), after how many invalid requests."""

    start: float
    until: float
    invalid: int


@dataclass
class InvalidRequests:
    """The invalid-request limit of one address: :meth:`record` every answer; past ``limit`` invalid ones in
    ``window`` seconds, every request is refused with :meth:`ban_answer` for ``ban_seconds``."""

    limit: int = INVALID_LIMIT
    window: float = INVALID_WINDOW
    ban_seconds: float = BAN_SECONDS
    counted: list[InvalidRequest] = field(default_factory=list)
    bans: list[Ban] = field(default_factory=list)
    refused: int = 0  # requests answered with the ban
    _times: deque[float] = field(default_factory=deque)

    def banned(self, now: float) -> bool:
        """Whether the address is banned at ``now``."""
        return bool(self.bans) and now < self.bans[-1].until

    def in_window(self, now: float) -> int:
        """How many invalid requests the last ``window`` seconds hold."""
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()
        return len(self._times)

    def record(self, method: str, path: str, status: int, headers: Any, now: float) -> None:
        """Count an answer if it is invalid (401, 403, a 429 but a shared-scope one); the one that reaches
        the limit starts a ban."""
        if status not in INVALID_STATUSES:
            return
        if status == 429 and headers.get("X-RateLimit-Scope") == SHARED_SCOPE:
            return  # "429 errors returned with X-RateLimit-Scope: shared are not counted against you"
        self.counted.append(InvalidRequest(now, method, path, status))
        self._times.append(now)
        if not self.banned(now) and self.in_window(now) >= self.limit:
            self.bans.append(Ban(now, now + self.ban_seconds, len(self._times)))
            self._times.clear()

    def ban_answer(self) -> tuple[int, dict[str, Any], dict[str, str]]:
        """The banned address's answer (status, JSON body, headers); counted in ``refused``."""
        self.refused += 1
        return 429, {"code": 0, "message": BAN_MESSAGE}, {}


# --- the pace of opening direct messages ----------------------------------------------------------------
# https://discord.com/developers/docs/resources/user#create-dm and
# https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
# Resources > User > Create DM (POST /users/@me/channels): "You should not use this endpoint to DM everyone in a
# server about something. DMs should generally be initiated by a user action. If you open a significant amount
# of DMs too quickly, your bot may be rate limited or blocked from opening new ones." Topics > Opcodes and Status
# Codes > JSON: 40003 "You are opening direct messages too fast". The same section of Create DM: "if one already
# exists, it will be returned instead": only a new DM channel is an opening.
DM_TOO_FAST = 40003
DM_TOO_FAST_MESSAGE = "You are opening direct messages too fast."

# The documentation gives no number, discord.py none either (it sends the request and raises what comes back).
# The community's reports: the refusal is HTTP 403 with code 40003 (davidhozic/discord-advertisement-framework#82,
# "403 Forbidden (error code: 40003)"), a bot opening "several DMs at once" is served and "a few dozen at once"
# refused (DasWolke/SnowTransfer#43), and bots back off for tens of seconds after one. The fake therefore lets 10
# new DM channels be opened in any 60 s and refuses the next ones with 403 / 40003 until the minute has room.
DM_OPENS = (10, 60.0)


@dataclass(frozen=True)
class DmRefusal:
    """An opening of a DM refused as too fast: when (the fake's clock) and with whom."""

    at: float
    recipient: int


@dataclass
class DmOpenings:
    """The pace of opening new DM channels: at most ``limit`` in any ``window`` seconds."""

    limit: int = DM_OPENS[0]
    window: float = DM_OPENS[1]
    opened: list[tuple[float, int]] = field(default_factory=list)  # (when, recipient)
    refused: list[DmRefusal] = field(default_factory=list)
    _times: deque[float] = field(default_factory=deque)

    def take(self, recipient: int, now: float) -> bool:
        """Count the opening of a new DM channel with ``recipient`` (True), or refuse it (False, recorded)."""
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()
        if len(self._times) >= self.limit:
            self.refused.append(DmRefusal(now, recipient))
            return False
        self._times.append(now)
        self.opened.append((now, recipient))
        return True
