"""The fake Discord gateway (Topics > Gateway): the websocket endpoint, IDENTIFY (intents, shards, READY and
the guilds' GUILD_CREATE), RESUME (the missed events replayed), member requests, and the dispatch of events to
the live sessions that own them (Topics > Gateway > Sharding: a guild's events to its shard, DMs to shard 0; a
message's content only to sessions with the Message Content intent, unless it mentions the bot), with
``gateway_log``, ``dispatches`` and the helpers that wait for them or tell which shards got an event.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from ._common import DEFAULT_TIMEOUT, MessageLog, reset_connection
from .discord_faults import DiscordFaults
from .discord_rules import INVALID_SHARD, SHARDING_REQUIRED, identify_shard
from .discord_sessions import Dispatch, _Gateway, _Session, _shard_owns
from .discord_world import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    PRIVILEGED_INTENTS,
    FakeGuild,
)


class DiscordGateway(DiscordFaults):
    """The gateway: its connections, sessions and events."""

    token: str
    application_id: int
    privileged_intents_enabled: bool
    guilds_per_shard: int
    identifies: int
    sessions: dict[str, _Session]
    dispatches: list[Dispatch]
    gateway_log: list[str]
    log: MessageLog
    _identified: asyncio.Event | None
    _gateway_changed: asyncio.Event | None

    if TYPE_CHECKING:  # FakeDiscord's (discord_server): where the fake listens

        @property
        def gateway_url(self) -> str: ...

    # ------------------------------------------------------------------ gateway

    async def wait_until_identified(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        assert self._identified is not None, "start the fake first"
        await asyncio.wait_for(self._identified.wait(), timeout)

    async def wait_for_gateway(self, event: str, count: int = 1, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until ``gateway_log`` holds ``event`` at least ``count`` times in all."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.gateway_log.count(event) < count:
            self.log.check_errors()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"gateway: {event!r} x{count} not seen within {timeout}s; log: {self.gateway_log}")
            assert self._gateway_changed is not None, "start the fake first"
            try:
                await asyncio.wait_for(self._gateway_changed.wait(), remaining)
            except TimeoutError:
                pass

    def _gateway_event(self, event: str) -> None:
        self.gateway_log.append(event)
        if self._gateway_changed is not None:
            self._gateway_changed.set()
            self._gateway_changed = asyncio.Event()

    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        outage = self._in_outage()
        if outage is not None:
            self._served("outage", "GET", "/gateway")
            if outage.mode == "reset":
                reset_connection(request)
            return web.Response(status=503, text="upstream connect error")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        gateway = _Gateway(ws, request.query.get("compress"))
        gateway.transport = request.transport
        self.gateways.append(gateway)
        try:
            await gateway.send({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await gateway.send({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    await self._identify(gateway, data["d"])
                elif op == 6:
                    await self._resume(gateway, data["d"])
                elif op == 8:
                    await self._request_members(gateway, data["d"])
        finally:
            self.gateways.remove(gateway)
            session = gateway.session
            if session is not None and session.connection is gateway:
                session.connection = None
                # Topics > Gateway > Disconnecting: a client closing with 1000 or 1001 ends its
                # session; any other close (or none) leaves it resumable.
                if gateway.closed_by_server is None and ws.close_code in (1000, 1001):
                    session.alive = False
        return ws

    async def _identify(self, gateway: _Gateway, data: dict[str, Any]) -> None:
        if data.get("token", "").removeprefix("Bot ") != self.token:
            await gateway.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.privileged_intents_enabled:
            await gateway.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        self._gateway_event("identify")
        if gateway.session is not None:  # Gateway > Identifying: once per connection
            await gateway.ws.close(code=4005, message=b"Already authenticated.")
            return
        shard = identify_shard(data["shard"]) if "shard" in data else None
        if "shard" in data and shard is None:
            await gateway.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        guilds = [guild for guild in self.guilds.values() if _shard_owns(shard, guild.id)]
        if len(guilds) > self.guilds_per_shard:
            await gateway.ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return
        self.identifies += 1
        session = _Session(id=secrets.token_hex(16), intents=intents, shard=shard, connection=gateway)
        self.sessions[session.id] = session
        gateway.session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot_user.to_dict(), "verified": True, "mfa_enabled": False, "bot": True},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._dispatch_session(session, "READY", ready)
        for guild in guilds:
            await self._dispatch_session(session, "GUILD_CREATE", self._guild_payload(guild, intents))
        self._gateway_event("ready")
        if self._identified is not None:
            self._identified.set()

    async def _resume(self, gateway: _Gateway, data: dict[str, Any]) -> None:
        """Topics > Gateway > Resuming: the missed events are replayed in order, then RESUMED;
        a session that cannot be resumed gets op 9 Invalid Session (d=false)."""
        self._gateway_event("resume")
        if str(data.get("token", "")).removeprefix("Bot ") != self.token:
            await gateway.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not session.alive:
            self._gateway_event("invalid_session:false")
            await gateway.send({"op": 9, "d": False, "s": None, "t": None})
            return
        previous = session.connection
        session.connection = gateway
        gateway.session = session
        if previous is not None and previous is not gateway and not previous.ws.closed:
            previous.closed_by_server = 4000
            await previous.ws.close(code=4000, message=b"Session resumed elsewhere")
        seq = int(data.get("seq") or 0)
        for number, frame in list(session.sent):
            if number > seq and not await gateway.send(frame):
                return
        await self._dispatch_session(session, "RESUMED", {})
        self._gateway_event("resumed")

    async def _request_members(self, gateway: _Gateway, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None or gateway.session is None or not gateway.session.owns(guild.id):
            return  # Topics > Gateway > Sharding: a guild is only known to the shard that owns it
        user_ids = data.get("user_ids")
        members = [
            self._member_payload(guild, self.users[uid])
            for uid in guild.members
            if not user_ids or str(uid) in [str(x) for x in user_ids]
        ]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch_session(gateway.session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch_session(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        """Give a session the next event: sent now if it is connected, replayed on RESUME if not."""
        session.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.seq, "d": data})
        session.sent.append((session.seq, frame))
        self.dispatches.append(Dispatch(session.id, session.shard, event, data))
        if session.connection is not None:
            await session.connection.send(frame)

    def _live_sessions(self) -> list[_Session]:
        return [session for session in self.sessions.values() if session.alive]

    async def _announce_guild(self, guild: FakeGuild) -> None:
        for session in self._live_sessions():
            if session.owns(guild.id):
                await self._dispatch_session(session, "GUILD_CREATE", self._guild_payload(guild, session.intents))

    async def _announce_channel(self, channel: dict[str, Any]) -> None:
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        await self._dispatch_all("CHANNEL_UPDATE", dict(channel), guild_id=guild_id, intents=INTENT_GUILDS)

    async def _dispatch_all(self, event: str, data: dict[str, Any], *, guild_id: int | None, intents: int = 0) -> None:
        """``event`` to every live session with ``intents`` that owns ``guild_id`` (None: a DM's)."""
        for session in self._live_sessions():
            if session.intents & intents == intents and session.owns(guild_id):
                await self._dispatch_session(session, event, data)

    def shards_given(
        self, event: str, predicate: Callable[[dict[str, Any]], bool] | None = None
    ) -> list[tuple[int, int] | None]:
        """The shards (``(shard_id, num_shards)``, None for an unsharded session) of the sessions that
        were dispatched ``event`` with data matching ``predicate``, once per dispatch, in order."""
        return [d.shard for d in self.dispatches if d.event == event and (predicate is None or predicate(d.data))]

    def interaction_shards(self, interaction_id: int) -> list[tuple[int, int] | None]:
        """The shards of the sessions that received interaction ``interaction_id``."""
        return self.shards_given("INTERACTION_CREATE", lambda data: data.get("id") == str(interaction_id))

    async def _deliver_message(self, message: dict[str, Any], event: str = "MESSAGE_CREATE") -> None:
        guild_message = "guild_id" in message
        guild_id = int(message["guild_id"]) if guild_message else None
        author_id = int(message["author"]["id"])
        mentioned = any(int(m["id"]) == self.bot_user.id for m in message.get("mentions", []))
        for session in self._live_sessions():
            needed = INTENT_GUILD_MESSAGES if guild_message else INTENT_DIRECT_MESSAGES
            if not session.intents & needed or not session.owns(guild_id):
                continue
            data = message
            visible = (
                not guild_message
                or session.intents & INTENT_MESSAGE_CONTENT
                or mentioned
                or author_id == self.bot_user.id
            )
            if not visible:
                data = {**message, "content": "", "embeds": [], "attachments": [], "components": []}
            await self._dispatch_session(session, event, data)
