"""Discord's rate limits as the fake enforces them: per-route buckets per top-level resource, the
global limit, and the 429s they predict.

Topics > Rate Limits (discord-api-docs, ``developers/topics/rate-limits.mdx``):

* "Per-route rate limits exist for many individual endpoints [...] In some cases, per-route limits
  will be shared across a set of similar endpoints, indicated in the ``X-RateLimit-Bucket``
  header", and they "account for top-level resources within the path": channels (``channel_id``),
  guilds (``guild_id``) and webhooks (``webhook_id`` or ``webhook_id + webhook_token``). A bucket
  here is therefore a rule (its hash in ``X-RateLimit-Bucket``) and the request's top-level
  resource: one channel's bucket says nothing of another's.
* Header Format: ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After``
  (seconds, with decimals) and ``-Bucket`` on the answers; ``X-RateLimit-Global`` and
  ``X-RateLimit-Scope`` ("user", "global" or "shared") only on a 429.
* Exceeding A Rate Limit: a 429 whose JSON body has ``message``, ``retry_after`` (a float) and
  ``global``, with ``Retry-After``; "normal route rate-limiting headers will also be sent". The
  global 429 of the example carries ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``
  and no route headers.
* Global Rate Limit: "All bots can make up to 50 requests per second to our API [...] independent
  of any individual rate limit on a route": a sliding second, with the interaction endpoints outside
  it and every other webhook inside (:mod:`tests.fakes.discord_global`, each rule next to its
  source). Interactions > Receiving and Responding: "Interactions webhooks share the same rate limit
  properties as normal webhooks": one bucket per token.

The docs ask bots not to hard-code the numbers, and give none per route; the fake uses what
Discord's headers are observed to say (PLATFORMS.md): 5 messages per 5 s in a channel, posts and
edits of the channel's messages sharing that bucket, the same 5 per 5 s through one webhook or
interaction token, one reaction per 0.25 s in a channel. Every other route gets a per-route bucket
of :data:`OTHER_ROUTES`, and the global limit bounds them all.

discord.py (2.7) reads these headers: it waits out a bucket whose ``Remaining`` reached 0 before
sending the next request of it (no 429 needed), sleeps ``retry_after`` on a 429 and sends again,
and treats a 429 without ``Via`` as a Cloudflare ban.

Buckets run on the event loop's clock, the one discord.py sleeps on: the fake's clock
(:meth:`FakeDiscord.advance`) jumps for tokens and deadlines, but never empties a bucket.
"""

from __future__ import annotations

import asyncio
import fnmatch
import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

from .discord_global import GLOBAL_LIMIT, GlobalWindow, bound_to_global

VIA = "1.1 google"  # discord.py retries a 429 only when it carries a Via header


@dataclass(frozen=True)
class BucketRule:
    """A per-route limit: ``limit`` requests per ``window`` seconds for each top-level resource."""

    name: str
    limit: int
    window: float

    @property
    def hash(self) -> str:
        """What ``X-RateLimit-Bucket`` says for this rule (the same for every resource)."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:16]


# The observed numbers (module docstring): what the fake enforces unless a test gives its own.
CHANNEL_MESSAGES = BucketRule("channel messages", 5, 5.0)
INTERACTION_WEBHOOK = BucketRule("interaction webhook", 5, 5.0)
REACTIONS = BucketRule("reactions", 1, 0.25)
OTHER_ROUTES = (50, 1.0)  # per route and resource, for the routes above none of those

# Route templates (Discord's, as the fake routes them) of the shared buckets.
SHARED_ROUTES: dict[tuple[str, str], BucketRule] = {
    ("POST", "/channels/{channel_id}/messages"): CHANNEL_MESSAGES,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): CHANNEL_MESSAGES,
    ("POST", "/webhooks/{application_id}/{interaction_token}"): INTERACTION_WEBHOOK,
    ("GET", "/webhooks/{application_id}/{interaction_token}/messages/{message_id}"): INTERACTION_WEBHOOK,
    ("PATCH", "/webhooks/{application_id}/{interaction_token}/messages/{message_id}"): INTERACTION_WEBHOOK,
    ("DELETE", "/webhooks/{application_id}/{interaction_token}/messages/{message_id}"): INTERACTION_WEBHOOK,
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): REACTIONS,
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): REACTIONS,
}


@dataclass(frozen=True)
class Throttle:
    """A 429 the limits served: which limit, for which route and resource, and the wait it asked."""

    scope: str  # "user" (a route's bucket) or "global"
    method: str
    route: str  # the route's template
    resource: str  # the top-level resource (channel, guild or token); "" for the global limit
    retry_after: float


@dataclass(frozen=True)
class Taken:
    """A request a bucket counted: when (loop time), its route and resource, what it left, and its
    index in the fake's ``requests``."""

    at: float
    method: str
    route: str
    resource: str
    bucket: str
    remaining: int
    request: int = -1


@dataclass
class _Window:
    remaining: int
    ends: float  # loop time


@dataclass
class RateLimits:
    """The buckets of one fake Discord. ``overrides`` maps ``(METHOD, template or glob)`` to
    ``(limit, window)`` for a test that wants a route tighter (or looser) than Discord's."""

    overrides: dict[tuple[str, str], tuple[int, float]] = field(default_factory=dict)
    global_limit: tuple[int, float] = GLOBAL_LIMIT  # (requests, seconds): a sliding window (discord_global)
    application_id: int = 0  # whose /webhooks/{application_id}/{interaction_token} routes are outside it
    throttled: list[Throttle] = field(default_factory=list)
    taken: list[Taken] = field(default_factory=list)
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict)
    _global: GlobalWindow | None = None

    def rule(self, method: str, template: str, path: str) -> BucketRule:
        """The bucket rule of a request (``template``: its route, ``path``: the concrete path)."""
        for (o_method, pattern), (limit, window) in self.overrides.items():
            if o_method in ("*", method) and (pattern in ("*", template) or fnmatch.fnmatchcase(path, pattern)):
                return BucketRule(f"{method} {template}", limit, window)
        shared = SHARED_ROUTES.get((method, template))
        if shared is not None:
            return shared
        return BucketRule(f"{method} {template}", *OTHER_ROUTES)

    @staticmethod
    def resource(match_info: dict[str, str]) -> str:
        """The request's top-level resource: its channel, guild or (interaction) webhook token."""
        for name in ("channel_id", "guild_id"):
            if match_info.get(name):
                return match_info[name]
        token = match_info.get("interaction_token")
        return f"{match_info.get('application_id') or match_info.get('interaction_id', '')}/{token}" if token else ""

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    def _window(self, key: tuple[str, str], limit: int, window: float, now: float) -> _Window:
        state = self._windows.get(key)
        if state is None or now >= state.ends:
            state = _Window(limit, now + window)
            self._windows[key] = state
        return state

    def _global_window(self) -> GlobalWindow:
        """The sliding window of the global limit (a new one when a test changed ``global_limit``)."""
        limit, window = self.global_limit
        if self._global is None or (self._global.limit, self._global.window) != (limit, window):
            self._global = GlobalWindow(limit, window)
        return self._global

    def reset_after(self, method: str, template: str, resource: str) -> float:
        """Seconds until the window of a route's bucket for ``resource`` ends (0: a fresh bucket)."""
        rule = self.rule(method, template, template)
        state = self._windows.get((rule.hash, resource))
        return 0.0 if state is None else max(0.0, state.ends - self._now())

    def headers(self, rule: BucketRule, remaining: int, reset_after: float, unix_now: float) -> dict[str, str]:
        """Topics > Rate Limits > Header Format."""
        return {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{unix_now + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": rule.hash,
        }

    def peek(
        self, method: str, template: str, path: str, match_info: dict[str, str], unix_now: float
    ) -> dict[str, str]:
        """The route headers of a request without counting it (an injected fault's answer)."""
        rule = self.rule(method, template, path)
        now = self._now()
        state = self._window((rule.hash, self.resource(match_info)), rule.limit, rule.window, now)
        return self.headers(rule, state.remaining, max(0.0, state.ends - now), unix_now)

    def take(
        self, method: str, template: str, path: str, match_info: dict[str, str], unix_now: float, request: int = -1
    ) -> tuple[dict[str, str], tuple[int, dict[str, Any], dict[str, str]] | None]:
        """Count a request: the route headers for its answer, and the 429 (status, body, headers)
        to serve instead when a limit is reached (counted in ``throttled``)."""
        now = self._now()
        if bound_to_global(path, match_info, self.application_id):  # tests.fakes.discord_global
            wait = self._global_window().take(now)  # a request it lets through counts, whatever follows
            if wait is not None:
                self.throttled.append(Throttle("global", method, template, "", round(wait, 3)))
                # Exceeding A Rate Limit > Example Exceeded Global Rate Limit Response
                headers = {
                    "Retry-After": str(max(1, math.ceil(wait))),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Via": VIA,
                }
                body = {"message": "You are being rate limited.", "retry_after": round(wait, 3), "global": True}
                return {}, (429, body, headers)
        rule = self.rule(method, template, path)
        resource = self.resource(match_info)
        state = self._window((rule.hash, resource), rule.limit, rule.window, now)
        reset_after = max(0.0, state.ends - now)
        if state.remaining <= 0:
            wait = max(0.001, reset_after)
            self.throttled.append(Throttle("user", method, template, resource, round(wait, 3)))
            # Exceeding A Rate Limit > Example Exceeded User Rate Limit Response: the route headers too.
            headers = self.headers(rule, 0, reset_after, unix_now)
            headers.update({"Retry-After": str(max(1, math.ceil(wait))), "X-RateLimit-Scope": "user", "Via": VIA})
            body = {"message": "You are being rate limited.", "retry_after": round(wait, 3), "global": False}
            return headers, (429, body, headers)
        state.remaining -= 1
        self.taken.append(Taken(now, method, template, resource, rule.name, state.remaining, request))
        return self.headers(rule, state.remaining, reset_after, unix_now), None
