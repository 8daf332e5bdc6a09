"""The fake Discord's fault injection: the faults a test asks for (a 429 with Discord's rate-limit headers,
an error, a 5xx, a connection reset, before or after the request took effect, on routes matched by template
or glob), an outage of the whole API and gateway, the gateway's own faults (op 7 Reconnect, op 9 Invalid
Session, a close code, a dropped connection), what was served (``faults_served``), and the rate-limit headers
(Topics > Rate Limits > Header Format) of Discord's buckets (:mod:`tests.fakes.discord_limits`).
"""

from __future__ import annotations

import fnmatch
import math
import secrets
from typing import TYPE_CHECKING

from aiohttp import web

from ._common import Fault, Outages, ServedFault
from .discord_limits import BucketRule, RateLimits, Throttle
from .discord_sessions import NON_RESUMABLE_CLOSES, _Gateway
from .discord_world import API_PREFIX, DiscordWorld


class DiscordFaults(DiscordWorld, Outages):
    """The faults a test injects, the outage, and the rate-limit headers."""

    limits: RateLimits
    faults_served: list[ServedFault]
    _faults: list[Fault]

    if TYPE_CHECKING:  # the gateway's (discord_gateway): what happened to it, in ``gateway_log``

        def _gateway_event(self, event: str) -> None: ...

    # ------------------------------------------------------------------ fault injection

    def rate_limit_next(
        self,
        route: str,
        retry_after: float = 0.2,
        *,
        is_global: bool = False,
        scope: str | None = None,
        count: int = 1,
    ) -> None:
        """The next ``count`` requests matching ``route`` ("METHOD /path-template") get a 429.

        Topics > Rate Limits: the body carries ``retry_after`` (seconds, a float) and ``global``;
        the headers ``Retry-After``, ``X-RateLimit-*`` and ``X-RateLimit-Scope`` ("user",
        "global" or "shared"), plus ``Via``, without which discord.py takes a 429 for a
        Cloudflare ban and does not retry.
        """
        method, path = self._split_route(route)
        scope = scope or ("global" if is_global else "user")
        if scope not in ("user", "global", "shared"):
            raise ValueError("scope is 'user', 'global' or 'shared'")
        headers = self._rate_limit_headers(0, retry_after, "fakebucket" + secrets.token_hex(4))
        headers.update(
            {"Retry-After": str(max(1, math.ceil(retry_after))), "X-RateLimit-Scope": scope, "Via": "1.1 google"}
        )
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global, "code": 0}
        self._faults.append(Fault(method, path, 429, body, headers, count, kind="429"))

    def fail_next(self, route: str, status: int, code: int = 0, message: str = "error", *, count: int = 1) -> None:
        """The next ``count`` requests matching ``route`` fail with ``status`` / JSON error ``code``."""
        method, path = self._split_route(route)
        kind = "5xx" if status >= 500 else "error"
        self._faults.append(Fault(method, path, status, {"message": message, "code": code}, {}, count, kind=kind))

    def server_error_next(self, route: str = "* *", *, count: int = 1, status: int = 500) -> None:
        """The next ``count`` requests matching ``route`` get an HTTP ``status`` server error
        (discord.py retries 500, 502, 504 and 524 itself, after 1, 3, 5, 7 s)."""
        if status < 500:
            raise ValueError("a server error is 5xx")
        self.fail_next(route, status, 0, f"{status}: Internal Server Error", count=count)

    def reset_next(self, route: str = "* *", *, count: int = 1, handled: bool = False) -> None:
        """The next ``count`` requests matching ``route`` have their connection reset (no answer);
        ``handled``: after Discord acted on them (a reset on the way back: the request took effect)."""
        method, path = self._split_route(route)
        self._faults.append(Fault(method, path, 0, None, {}, count, kind="reset", reset=True, handled=handled))

    def outage(self, duration: float = 30.0, *, mode: str = "reset") -> None:
        """Refuse everything for ``duration`` seconds of the fake's clock (end it early with
        :meth:`advance` or :meth:`end_outage`): REST calls are reset (``mode="reset"``) or answered
        503 (``"unavailable"``), gateway connections are dropped and new ones refused."""
        self._begin_outage(duration, mode)
        for gateway in list(self.gateways):
            self._abort_gateway(gateway)

    def _served(self, kind: str, method: str, path: str) -> None:
        self.faults_served.append(ServedFault(kind, method, path, self.now()))

    def faults_of(self, kind: str) -> list[ServedFault]:
        return [f for f in self.faults_served if f.kind == kind]

    async def gateway_reconnect(self) -> int:
        """Send op 7 Reconnect on every open connection (Gateway Events > Reconnect): the bot
        should reconnect and RESUME. Returns how many connections got it."""
        sent = 0
        for gateway in list(self.gateways):
            if gateway.identified and await gateway.send({"op": 7, "d": None, "s": None, "t": None}):
                sent += 1
                self._served("gateway:7", "GATEWAY", "reconnect")
        self._gateway_event("reconnect")
        return sent

    async def gateway_invalid_session(self, resumable: bool = False) -> int:
        """Send op 9 Invalid Session (Gateway Events > Invalid Session). With ``resumable=False``
        the session is gone: the bot must IDENTIFY again; with True it may RESUME."""
        sent = 0
        for gateway in list(self.gateways):
            if gateway.session is None:
                continue
            if not resumable:
                gateway.session.alive = False
            if await gateway.send({"op": 9, "d": resumable, "s": None, "t": None}):
                sent += 1
                self._served("gateway:9", "GATEWAY", f"invalid_session:{resumable}")
        self._gateway_event(f"invalid_session:{str(resumable).lower()}")
        return sent

    async def gateway_close(self, code: int = 4000, reason: str = "") -> int:
        """Close every open connection with ``code`` (Opcodes and Status Codes > Gateway Close
        Event Codes: 4000 Unknown error, resumable; 4009 Session timed out, a new session needed)."""
        closed = 0
        for gateway in list(self.gateways):
            if gateway.ws.closed:
                continue
            if gateway.session is not None and code in NON_RESUMABLE_CLOSES:
                gateway.session.alive = False
            gateway.closed_by_server = code
            await gateway.ws.close(code=code, message=(reason or f"fake close {code}").encode())
            closed += 1
            self._served(f"gateway:{code}", "GATEWAY", "close")
        self._gateway_event(f"close:{code}")
        return closed

    async def gateway_drop(self) -> int:
        """Reset every gateway connection (no close frame: an abnormal closure); sessions stay
        resumable."""
        dropped = 0
        for gateway in list(self.gateways):
            if not gateway.ws.closed:
                self._abort_gateway(gateway)
                dropped += 1
        self._gateway_event("drop")
        return dropped

    def _abort_gateway(self, gateway: _Gateway) -> None:
        gateway.closed_by_server = 1006
        if gateway.transport is not None:
            gateway.transport.abort()
        self._served("gateway:drop", "GATEWAY", "drop")

    @staticmethod
    def _split_route(route: str) -> tuple[str, str]:
        method, _, path = route.strip().partition(" ")
        if not path:
            raise ValueError("route must look like 'POST /channels/{channel_id}/messages'")
        return method.upper(), path.removeprefix(API_PREFIX)

    @staticmethod
    def _template(request: web.Request) -> str | None:
        resource = request.match_info.route.resource
        return resource.canonical[len(API_PREFIX) :] if resource is not None else None

    def _route_matches(self, method: str, path_pattern: str, request: web.Request) -> bool:
        if method not in ("*", request.method):
            return False
        path = request.path.removeprefix(API_PREFIX)
        return path_pattern in ("*", self._template(request)) or fnmatch.fnmatchcase(path, path_pattern)

    def _match_fault(self, request: web.Request) -> Fault | None:
        for fault in self._faults:
            if fault.count <= 0:
                continue
            assert fault.path is not None
            if self._route_matches(fault.method, fault.path, request):
                fault.count -= 1
                if fault.count == 0:
                    self._faults.remove(fault)
                return fault
        return None

    # ------------------------------------------------------------------ rate-limit headers

    def _rate_limit_headers(self, remaining: int, reset_after: float, bucket: str, limit: int = 5) -> dict[str, str]:
        """Topics > Rate Limits > Header Format (an injected 429's own bucket)."""
        return self.limits.headers(BucketRule(bucket, limit, reset_after), remaining, reset_after, self.now()) | {
            "X-RateLimit-Bucket": bucket
        }

    def _limit_args(self, request: web.Request) -> tuple[str, str, str, dict[str, str]]:
        template = self._template(request) or request.path
        return request.method, template, request.path.removeprefix(API_PREFIX), dict(request.match_info)

    @property
    def throttled(self) -> list[Throttle]:
        """The 429s the rate limits served (injected ones are in ``faults_served``)."""
        return self.limits.throttled
