"""The Discord adapter's start, end to end (real discord.py against the fake Discord): the handshake canary (it
logs in, registers its commands in the club's server and answers one; if it fails after a discord.py upgrade, fix
tests/fakes/discord_server.py first, see tests/bot/adapters/discord/test_fake_discord.py), the gateway intents it
asks for, the command line (a rejected or missing token, --sync, running until interrupted), and every command's
name in every language being a valid Discord name."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.discordbot.commands import intents_for
from bot.adapters.names import platform_name
from bot.games.installed import COMMANDS
from bot.messages import languages
from tests.bot.adapters.discord.discord_adapter_club import AdapterDiscord, answer, slash
from tests.bot.adapters.discord.discord_adapter_club import adapter as adapter  # the club's adapter
from tests.bot.adapters.discord.discord_adapter_club import dc as dc  # the club's fake Discord
from tests.bot.adapters.discord.discord_adapter_club import no_logged_errors as no_logged_errors  # autouse
from tests.fakes import FakeDiscord
from tests.paths import REPO_ROOT
from tests.processes import interruptible

ROOT = REPO_ROOT


# --- the handshake canary ------------------------------------------------------------


@pytest.mark.asyncio
async def test_handshake_adapter_logs_in_syncs_and_answers(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    assert adapter.client.user is not None
    assert adapter.client.user.id == dc.bot_user.id
    registered = dc.guild_commands[dc.guild.id]
    assert set(registered) == {spec.name for spec in COMMANDS}
    score = registered["score"]
    assert score["name_localizations"] == {"fr": "coup"}
    assert [(o["name"], o["type"], o.get("required", False)) for o in score["options"]] == [
        ("position", 3, True),
        ("word", 3, True),
        ("claimed", 4, False),
        ("player", 6, False),  # a member: /score H8 VAGUE for @Ben
    ]
    assert score["options"][1]["name_localizations"] == {"fr": "mot"}
    assert (score["options"][2]["min_value"], score["options"][2]["max_value"]) == (0, 2000)
    assert "fr" in score["description_localizations"]
    assert registered["pass"]["options"][0].get("required", False) is False  # /pass [@PLAYER]
    assert registered["pass"]["options"][0]["type"] == 6
    assert "options" not in registered["undo"] or registered["undo"]["options"] == []
    assert registered["exchange"]["options"][0].get("required", False) is False
    assert registered["penalty"]["options"][0]["autocomplete"] is True
    for command in registered.values():
        assert 1 <= len(command["description"]) <= 100
        assert all(1 <= len(d) <= 100 for d in command["description_localizations"].values())
        assert re.fullmatch(r"[a-z_]{1,32}", command["name_localizations"]["fr"])
    iid = await slash(dc, "help")
    reply = await answer(dc, iid)
    assert "/coup" in reply.text
    assert reply.ephemeral  # /help answers its asker alone
    assert reply.payload["data"]["allowed_mentions"]["parse"] == []


def test_intents_ask_for_message_content_only_when_wanted() -> None:
    assert not intents_for(False).message_content
    assert not intents_for(False).guild_messages
    assert intents_for(True).message_content
    assert intents_for(True).guild_messages
    assert intents_for(False).dm_messages
    assert intents_for(False).guilds
    assert not intents_for(True).members
    assert not intents_for(True).presences


# --- the command line ------------------------------------------------------------------


async def run_cli(*args: str, env: dict[str, str], timeout: float = 15) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def cli_env(tmp_path: Path, dc: FakeDiscord, token: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"), ARBITRE_DATA=str(tmp_path / "data"), ARBITRE_DISCORD_API=dc.api_base
    )
    if token is not None:
        env["ARBITRE_DISCORD_TOKEN"] = token
    return env


@pytest.mark.asyncio
async def test_cli_rejected_or_missing_token_is_one_line_and_exit_2(dc: AdapterDiscord, tmp_path: Path) -> None:
    bad = "MTIz.bad-token.for-the-fake-server"
    code, out, err = await run_cli("discord", env=cli_env(tmp_path, dc, bad))
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "rejected" in err
    assert bad not in err + out
    code, _, err = await run_cli("discord", env=cli_env(tmp_path, dc, None))
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "ARBITRE_DISCORD_TOKEN" in err
    config = tmp_path / "tokens.toml"
    config.write_text(f'[discord]\ntoken = "{dc.token}"\n')
    config.chmod(0o644)
    code, _, err = await run_cli("discord", "--config", str(config), env=cli_env(tmp_path, dc, None))
    assert code == 2
    assert "chmod 600" in err
    assert dc.token not in err


@pytest.mark.asyncio
async def test_cli_sync_registers_commands_in_a_guild_then_exits(dc: AdapterDiscord, tmp_path: Path) -> None:
    config = tmp_path / "tokens.toml"
    config.write_text(f'[discord]\ntoken = "{dc.token}"\n')
    config.chmod(0o600)
    code, out, err = await run_cli(
        "discord", "--sync", "--guild", str(dc.guild.id), "--config", str(config), env=cli_env(tmp_path, dc, None)
    )
    assert code == 0, err
    assert f"{len(COMMANDS)} slash commands registered in server {dc.guild.id}" in out
    assert dc.guild_commands[dc.guild.id]["play"]["name_localizations"] == {"fr": "jouer"}
    assert not dc.gateways  # syncing does not connect
    assert dc.token not in out + err


@pytest.mark.asyncio
async def test_cli_runs_the_bot_until_interrupted(dc: AdapterDiscord, tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "discord",
        "--db",
        str(tmp_path / "a.sqlite"),
        cwd=ROOT,
        env=cli_env(tmp_path, dc, dc.token),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=interruptible,
    )
    try:
        # a loaded 2-core machine was seen taking over 15 s to start a CLI process (the waits end when they can)
        await dc.wait_until_identified(timeout=60)  # READY and the guild sent: the interaction below comes after
        # the commands were registered once, as docs/operating.md says (`arbitre discord --sync --guild`)
        sync = await run_cli("discord", "--sync", "--guild", str(dc.guild.id), env=cli_env(tmp_path, dc, dc.token))
        assert sync[0] == 0, sync[2]
        iid = await slash(dc, "help")
        assert "/coup" in (await answer(dc, iid, timeout=30)).text
    finally:
        process.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err.decode()
    assert dc.token not in out.decode() + err.decode()


def test_every_name_in_every_language_is_a_valid_discord_name() -> None:
    names = [platform_name(spec, lang) for spec in COMMANDS for lang in languages()]
    assert all(re.fullmatch(r"[a-z0-9_-]{1,32}", n) for n in names)
    assert len({platform_name(spec, "fr") for spec in COMMANDS}) == len(COMMANDS)
    slow = {spec.name for spec in COMMANDS if spec.slow}
    assert slow >= {"play", "duplicate", "close", "board", "challenge", "check"}
    assert {spec.name for spec in COMMANDS if spec.private} == {"play", "rack"}
