"""Reconnection to Discord's gateway within a bound the adapter sets, whatever the outage lasted.

discord.py 2.7 waits ``ExponentialBackoff`` delays between two attempts to reach the gateway: a random
time up to 2^n seconds at the n-th failure, n up to 10 (1024 s), forgotten only after 2048 s without
a failure. After gateway faults and a long outage it waited 352 s, then 635 s, while the platform was
long back. Here the ceiling doubles from one second as discord.py's does but stops at
:data:`RECONNECT_CAP`, each delay is a random time below it (full jitter: many processes do not all
come back at once), and it starts again from one second once a session is ready or resumed.

Once Discord answers again the bot is back within the delay it was waiting (at most the cap), one
attempt that may hang until :data:`CONNECT_TIMEOUT`, and discord.py's 5 s before a new IDENTIFY:
:func:`back_within` gives that bound (55 s with the production values; 35 s when the attempts are
refused at once, as during an outage that resets connections).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, Literal

import aiohttp
import discord
from discord.backoff import ExponentialBackoff
from discord.gateway import DiscordWebSocket, ReconnectWebSocket

from ...backoff import ceiling, full_jitter

log = logging.getLogger("arbitre.discord")

RECONNECT_CAP = 30.0  # seconds: the longest wait between two attempts to reach the gateway
CONNECT_TIMEOUT = 20.0  # seconds one attempt may take, the IDENTIFY wait included (discord.py: 60)
IDENTIFY_WAIT = 5.0  # discord.py's before_identify_hook sleeps this long before a new session's IDENTIFY

# What ends a gateway connection and is worth another attempt (discord.py's own list, Client.connect).
GATEWAY_FAULTS = (
    OSError,
    discord.HTTPException,
    discord.GatewayNotFound,
    discord.ConnectionClosed,
    aiohttp.ClientError,
    asyncio.TimeoutError,
)
RESET_ERRNOS = (54, 10054)  # a connection reset on macOS and Windows: discord.py resumes at once


def back_within(cap: float = RECONNECT_CAP, timeout: float = CONNECT_TIMEOUT, *, hanging: bool = True) -> float:
    """Seconds after Discord answers again by which the bot is connected: the wait under way, one attempt
    (up to ``timeout`` when attempts hang, none when they are refused at once), and the IDENTIFY wait."""
    return cap + (timeout if hanging else 0.0) + IDENTIFY_WAIT


class BoundedBackoff(ExponentialBackoff[Literal[False]]):
    """discord.py's backoff with a ceiling: ``min(cap, 2^n)`` seconds at the n-th failure in a row, each
    delay a random time below it; :meth:`reset` once connected."""

    def __init__(self, cap: float = RECONNECT_CAP, *, rand: random.Random | None = None) -> None:
        super().__init__()
        self.cap = cap
        self.failures = 0
        self.rand = rand or random.Random()

    def ceiling(self) -> float:
        """The longest delay the next failure may wait."""
        return ceiling(self.failures + 1, self.cap)

    def delay(self) -> float:
        self.failures += 1
        return full_jitter(self.failures, self.cap, self.rand)

    def reset(self) -> None:
        self.failures = 0


async def connect_bounded(
    client: discord.Client, backoff: BoundedBackoff, *, reconnect: bool = True, timeout: float = CONNECT_TIMEOUT
) -> None:
    """``Client.connect`` of discord.py 2.7 (same cases, same order) with ``backoff`` between attempts and
    ``timeout`` for each."""
    ws_params: dict[str, Any] = {"initial": True, "shard_id": client.shard_id}
    while not client.is_closed():
        try:
            coro = DiscordWebSocket.from_client(client, **ws_params)
            client.ws = await asyncio.wait_for(coro, timeout=timeout)
            ws_params["initial"] = False
            while True:
                await client.ws.poll_event()
        except ReconnectWebSocket as again:
            log.debug("the gateway asks to %s", again.op)
            client.dispatch("disconnect")
            ws_params.update(sequence=client.ws.sequence, resume=again.resume, session=client.ws.session_id)
            if again.resume:
                ws_params["gateway"] = client.ws.gateway
            continue
        except GATEWAY_FAULTS as error:
            client.dispatch("disconnect")
            if not reconnect:
                await client.close()
                if isinstance(error, discord.ConnectionClosed) and error.code == 1000:
                    return
                raise
            if client.is_closed():
                return
            if isinstance(error, OSError) and error.errno in RESET_ERRNOS:
                ws_params.update(
                    sequence=client.ws.sequence,
                    gateway=client.ws.gateway,
                    initial=False,
                    resume=True,
                    session=client.ws.session_id,
                )
                continue
            if isinstance(error, discord.ConnectionClosed):
                if error.code == 4014:
                    raise discord.PrivilegedIntentsRequired(error.shard_id) from None
                if error.code != 1000:
                    await client.close()
                    raise
            retry = backoff.delay()
            log.warning("gateway connection lost (%r); attempting a reconnect in %.2fs", error, retry)
            await asyncio.sleep(retry)
            if client.ws is not None:  # None: the first connection never opened, so nothing to resume
                ws_params.update(
                    sequence=client.ws.sequence, gateway=client.ws.gateway, resume=True, session=client.ws.session_id
                )
