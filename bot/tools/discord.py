"""``arbitre discord``: run the referee as a Discord bot (slash commands), or register its commands.

``--sync`` registers the slash commands with Discord and exits: run it once after
installing (and after upgrades), with ``--guild ID`` for instant registration in
one server, or without for every server (Discord takes up to an hour). Syncing
never happens at an ordinary start.

``--shard-count N --shards A-B`` runs shards A to B of N (discord.py's sharded client); several
processes on different ranges and one database serve every server. Without them, one unsharded
session gets every server (Discord requires sharding past 2,500 servers).

``ARBITRE_DISCORD_API`` (read here only) points discord.py at another API base
URL, such as a test server: ``http://127.0.0.1:8080/api/v10``; its gateway is
``ARBITRE_DISCORD_GATEWAY``, by default the same host's ``/gateway/``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO

from bot.tools.common import (
    EXIT_METRICS,
    EXIT_STORAGE,
    add_http_options,
    add_metrics_options,
    add_web_options,
    database_url,
    http_metrics,
    open_database,
    start_log,
)

if TYPE_CHECKING:  # asyncio and the rest are imported when the bot runs, not to parse arguments
    from bot.adapters.discordbot.shards import ShardRange
    from bot.operations.metrics import Metrics
    from bot.storage import Storage
    from bot.web import WebAddress
    from bot.web.run import HttpPlan

EXIT_TOKEN = 2


def _point_at_test_api() -> None:
    api = os.environ.get("ARBITRE_DISCORD_API")
    if not api:
        return
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api.rstrip("/")
    gateway = os.environ.get("ARBITRE_DISCORD_GATEWAY")
    if not gateway:
        url = yarl.URL(api)
        gateway = str(url.with_scheme("wss" if url.scheme == "https" else "ws").with_path("/gateway/"))
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class _Terminated:
    """Set when SIGTERM arrived: the main task was cancelled to stop the bot, as Ctrl-C does."""

    def __init__(self) -> None:
        self.received = False


def _cancel_on_sigterm() -> _Terminated:
    """SIGTERM (a service manager stopping the bot) cancels the running task as Ctrl-C does, so
    that the client closes its gateway session (code 1000), the clock stops and the database
    is closed; the process then exits 0."""
    import asyncio
    import logging
    import signal

    terminated = _Terminated()
    task = asyncio.current_task()
    if task is None:
        return terminated

    def cancel() -> None:
        logging.getLogger("arbitre").info("SIGTERM: closing")
        terminated.received = True
        task.cancel()

    with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows has no loop signal handlers
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, cancel)
    return terminated


async def _main(
    args: argparse.Namespace,
    token: str,
    storage: Storage,
    out: TextIO,
    shards: ShardRange | None = None,
    metrics: Metrics | None = None,
    web: WebAddress | None = None,
    err: TextIO | None = None,
    plan: HttpPlan | None = None,
) -> int:
    import asyncio

    from bot.adapters.discordbot.adapter import DiscordAdapter
    from bot.referee import Referee
    from bot.words.game_lists import prepare_at_start
    from bot.words.loader import LexiconRegistry

    try:
        registry = LexiconRegistry()
        if not (args.sync or args.invite):
            prepare_at_start(registry, storage)  # in the background: commands say so until it is done
        adapter = DiscordAdapter(
            Referee(storage, registry, clock_scope="discord:"),
            message_content=args.message_content,
            shards=shards,
            metrics=metrics,
        )
        async with adapter.client:
            if args.sync or args.invite:
                await adapter.client.login(token)
                if args.invite:
                    print(invite_line(adapter.client.application_id), file=out)
                    return 0
                synced = await adapter.sync(args.guild)
                where = f"in server {args.guild}" if args.guild else "globally (visible within an hour)"
                print(f"{len(synced)} slash commands registered {where}", file=out)
                return 0
            if shards is not None:
                import logging

                logging.getLogger("arbitre.discord").info("running %s", shards)
            terminated = _cancel_on_sigterm()
            from bot.web.run import serving

            try:
                async with serving(adapter.referee, web, "discord", err or sys.stderr, plan=plan, metrics=metrics):
                    await adapter.client.login(token)  # what client.start does, the invite said in between
                    print(f"arbitre discord: {invite_line(adapter.client.application_id)}", file=err or sys.stderr)
                    await adapter.client.connect()
            except asyncio.CancelledError:
                if not terminated.received:
                    raise
        return 0
    finally:
        storage.close()


def invite_line(application_id: int | None) -> str:
    """The line that gives the link adding the bot to a server (``bot.operations.invite``)."""
    from bot.operations.invite import invite_url

    if application_id is None:  # discord.py reads it at login: never seen missing
        return "no invite link: Discord did not give the application's id"
    return f"add the bot to a server with {invite_url(application_id)}"


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.operations.tokens import TokenError, load_token, mask

    if args.guild is not None and not args.sync:
        print("arbitre discord: --guild goes with --sync", file=err)
        return EXIT_TOKEN
    if args.invite and args.sync:
        print("arbitre discord: --invite and --sync are two runs", file=err)
        return EXIT_TOKEN
    try:
        shards = _shards(args)
    except ValueError as error:
        print(f"arbitre discord: {error}", file=err)
        return EXIT_TOKEN
    try:
        token = load_token("discord", args.config)
    except TokenError as error:
        print(f"arbitre discord: {error}", file=err)
        return EXIT_TOKEN
    start_log(args, [token])

    import asyncio

    import discord

    _point_at_test_api()
    storage = open_database(database_url(args), "discord", err)
    if storage is None:
        return EXIT_STORAGE
    from bot.web.run import WebOptionsError, address_of

    once = args.sync or args.invite  # a run that does one thing and exits: no port opened
    try:
        web = None if once else address_of(args, "discord")
    except WebOptionsError as error:
        print(error.text, file=err)
        storage.close()
        return EXIT_METRICS
    plan, metrics = http_metrics(args, "discord", err) if not once else (None, None)
    if plan is not None:
        web = None  # the pages go on the one port
    if metrics is None and not once:
        storage.close()
        return EXIT_METRICS
    try:
        measured = metrics.metrics if metrics else None
        return asyncio.run(_main(args, token, storage, out, shards, measured, web, err, plan))
    except WebOptionsError as error:
        print(error.text, file=err)
        return EXIT_METRICS
    except discord.LoginFailure:
        print(
            "arbitre discord: Discord rejected the token (401 Unauthorized); "
            "check ARBITRE_DISCORD_TOKEN or the token file",
            file=err,
        )
        return EXIT_TOKEN
    except discord.PrivilegedIntentsRequired:
        print(
            "arbitre discord: the Message Content intent is not enabled for this bot: enable it in the "
            "Developer Portal (Bot > Privileged Gateway Intents) or run without --message-content",
            file=err,
        )
        return EXIT_TOKEN
    except KeyboardInterrupt:
        return 0
    except (discord.DiscordException, OSError) as error:
        print(f"arbitre discord: {mask(str(error).splitlines()[0] if str(error) else repr(error), [token])}", file=err)
        return 1
    finally:
        if metrics is not None:
            metrics.close()


def _shards(args: argparse.Namespace) -> ShardRange | None:
    """The shards asked for with ``--shard-count`` and ``--shards`` (None: unsharded); ValueError
    (one line) for options that do not go together or name no shard."""
    if args.shards is not None and args.shard_count is None:
        raise ValueError("--shards goes with --shard-count N (the number of shards in all)")
    if args.shard_count is None:
        return None
    if args.sync or args.invite:
        what = "--sync registers the commands" if args.sync else "--invite prints the link"
        raise ValueError(f"{what} and exits: it takes no shards")
    from bot.adapters.discordbot.shards import parse_shard_range

    return parse_shard_range(args.shards, args.shard_count)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "discord",
        help="run the referee as a Discord bot (slash commands)",
        description="Run the referee as a Discord bot; its token comes from ARBITRE_DISCORD_TOKEN or the token file.",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="register the slash commands with Discord, then exit (once, and after upgrades)",
    )
    parser.add_argument(
        "--invite",
        action="store_true",
        help="print the link that adds the bot to a server, with the permissions it needs, then exit "
        "(also said at every start)",
    )
    parser.add_argument(
        "--guild",
        type=int,
        metavar="ID",
        help="with --sync: register in this server only (instant) instead of globally",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="shard the bot's gateway connection into N shards (Discord requires it past 2,500 servers)",
    )
    parser.add_argument(
        "--shards",
        metavar="A-B",
        help="with --shard-count: run shards A to B only (another process runs the others, on the same "
        "database); default: all N",
    )
    parser.add_argument(
        "--message-content",
        action="store_true",
        help="also read '!score ...' prefix commands (needs the privileged Message Content intent)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the database: a SQLite file path, sqlite:///PATH or memory: (default: ARBITRE_DB, else "
        "~/.local/share/arbitre/arbitre.sqlite)",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="token file (default: ~/.config/arbitre/tokens.toml; ARBITRE_DISCORD_TOKEN otherwise)",
    )
    add_http_options(parser)
    add_metrics_options(parser)
    add_web_options(parser)
    parser.set_defaults(handler=run)
