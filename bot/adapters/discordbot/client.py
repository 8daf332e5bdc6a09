"""The discord.py clients the adapter runs: the plain one (one gateway session) and the sharded one, each
with the adapter's hooks (its command tree, ``!`` commands, the clock started once connected and stopped on
close, the gateway's reconnections bounded: ``.reconnect``)."""

import logging
from typing import Any, Protocol

import discord
from discord import app_commands

from ...commands import CommandSpec
from ...runtime.service import RefereeService
from .channel_requests import one_at_a_time
from .commands import CommandTranslator
from .former import FormerFormsTree
from .interactions import NO_MENTIONS
from .reconnect import BoundedBackoff, connect_bounded
from .shards import ShardRange

log = logging.getLogger("arbitre.discord")


class ClientOwner(Protocol):
    """What the clients need of the adapter that owns them."""

    service: RefereeService
    gateway_up: bool
    reconnect_cap: float
    connect_timeout: float

    async def on_message(self, message: discord.Message) -> None: ...

    async def on_component(self, interaction: discord.Interaction) -> None: ...

    async def on_slash(self, interaction: discord.Interaction, spec: CommandSpec, args: str) -> None: ...

    def stop_tasks(self) -> None: ...


class AdapterHooks(discord.Client):
    """The adapter's side of a discord.py client, mixed into the plain and the sharded client: an
    app command tree (which also reads the commands sent as registered before their forms: ``.former``),
    prefix commands, the clock started once connected and stopped on close."""

    def __init__(self, adapter: ClientOwner, intents: discord.Intents, **options: Any) -> None:
        # the bot never joins voice: no warnings about voice libraries at every start
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(intents=intents, allowed_mentions=NO_MENTIONS, **options)
        self.adapter = adapter
        self.tree: app_commands.CommandTree[Any] = FormerFormsTree(self, adapter.on_slash)
        one_at_a_time(self.http)  # a channel's message requests one after another: discord.py's count exact
        self.backoffs: dict[int | None, BoundedBackoff] = {}  # per shard (None: the unsharded session)

    def backoff(self, shard_id: int | None) -> BoundedBackoff:
        """The reconnect backoff of one session, bounded by the adapter's ``reconnect_cap``."""
        if shard_id not in self.backoffs:
            self.backoffs[shard_id] = BoundedBackoff(self.adapter.reconnect_cap)
        return self.backoffs[shard_id]

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CommandTranslator())

    async def on_ready(self) -> None:
        log.info("connected to Discord as %s (%d guilds)", self.user, len(self.guilds))
        self.adapter.gateway_up = True
        self.adapter.service.start()  # the clock; idempotent on reconnects
        self.backoff(self.shard_id).reset()

    async def on_resumed(self) -> None:
        self.adapter.gateway_up = True
        self.backoff(self.shard_id).reset()

    async def on_disconnect(self) -> None:
        self.adapter.gateway_up = False  # the health check says so until the gateway is back

    async def on_message(self, message: discord.Message) -> None:
        await self.adapter.on_message(message)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button pressed, a menu's choice, a modal submitted (slash commands go to the command tree)."""
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            await self.adapter.on_component(interaction)

    async def close(self) -> None:
        await self.adapter.service.stop()
        self.adapter.stop_tasks()
        await super().close()


class ArbitreClient(AdapterHooks):
    """The unsharded client: one gateway session gets every server the bot is in."""

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's gateway loop, its waits between attempts bounded (see ``.reconnect``)."""
        await connect_bounded(self, self.backoff(None), reconnect=reconnect, timeout=self.adapter.connect_timeout)


class ShardedArbitreClient(AdapterHooks, discord.AutoShardedClient):
    """The sharded client: one gateway session per shard of ``shards``, each getting its own
    servers' events (and shard 0 the DMs); replies go out through the REST API like the plain one's."""

    def __init__(self, adapter: ClientOwner, intents: discord.Intents, shards: ShardRange, **options: Any) -> None:
        super().__init__(adapter, intents, shard_ids=list(shards.ids), shard_count=shards.count, **options)
        self.shard_range = shards

    async def launch_shard(self, gateway: Any, shard_id: int, *, initial: bool = False) -> None:
        """discord.py's, then the shard's reconnect backoff bounded like the unsharded session's."""
        await super().launch_shard(gateway, shard_id, initial=initial)
        shard = self.get_shard(shard_id)
        if shard is not None:
            shard._parent._backoff = self.backoff(shard_id)  # discord.py 2.7: each Shard keeps its own

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d of %d ready", shard_id, self.shard_range.count)
        self.backoff(shard_id).reset()

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.backoff(shard_id).reset()
