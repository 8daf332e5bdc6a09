"""SIGTERM stops the chat adapters cleanly, as Ctrl-C does (issue #11, item 4): the real ``arbitre``
process against the fake servers, a duplicate round's clock running."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import SQLiteStorage
from bot.words.loader import LexiconRegistry
from tests.discord_club import ClubDiscord
from tests.paths import REPO_ROOT
from tests.telegram_club import ClubTelegram

ROOT = REPO_ROOT
GROUP = -4_000_000_555

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX signals")


@pytest.fixture(scope="module", autouse=True)
def compiled_lists() -> None:
    LexiconRegistry().get("fr")  # the list's cache exists before a process needs it


def cli_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), ARBITRE_DATA=str(tmp_path / "data"), **extra)
    return env


async def start(tool: str, *args: str, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        tool,
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def terminate(process: asyncio.subprocess.Process) -> tuple[int | None, str]:
    """SIGTERM, then the exit status and what the process wrote on stderr."""
    process.send_signal(signal.SIGTERM)
    try:
        _, err = await asyncio.wait_for(process.communicate(), 15)
    except TimeoutError:
        process.kill()
        raise
    return process.returncode, err.decode()


def assert_closed_cleanly(db: Path) -> None:
    """The last connection to a WAL database removes its -wal file when it closes."""
    assert db.exists()
    assert not Path(f"{db}-wal").exists(), "the database was not closed"
    store = SQLiteStorage(db)  # and it opens again, sound
    store.close()


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[ClubDiscord]:
    async with ClubDiscord() as fake:
        yield fake


@pytest.mark.asyncio
async def test_sigterm_closes_the_discord_bot_cleanly_with_exit_0(dc: ClubDiscord, tmp_path: Path) -> None:
    db = tmp_path / "discord.sqlite"
    env = cli_env(tmp_path, ARBITRE_DISCORD_API=dc.api_base, ARBITRE_DISCORD_TOKEN=dc.token)
    sync = await start("discord", "--sync", "--guild", str(dc.guild.id), "--db", str(db), env=env)
    await asyncio.wait_for(sync.communicate(), 30)
    assert sync.returncode == 0
    process = await start("discord", "--db", str(db), env=env)
    try:
        await dc.wait_until_identified(timeout=20)
        for _ in range(30):  # a bot just started may still be preparing its word list: it says so, we retry
            iid = await dc.send_interaction("duplicate", {"args": "3"}, user=dc.ana, channel_id=dc.guild.channel_id)
            answer = await dc.wait_for_response(iid, lambda r: bool((r.text or "").strip("…")), timeout=10)
            if "en cours de préparation" not in (answer.text or ""):
                break
            await asyncio.sleep(1)
        assert "duplicate" in (answer.text or "").lower()
        await dc.wait_for_message(lambda m: "tirage" in (m.text or ""), timeout=10)  # a round is open: the clock runs
    finally:
        code, err = await terminate(process)
    assert code == 0, err
    assert "Traceback" not in err
    assert dc.sessions
    assert not any(session.alive for session in dc.sessions.values())
    assert_closed_cleanly(db)


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[ClubTelegram]:
    async with ClubTelegram(GROUP, title="Club", creator_username="ana_s", privacy_mode=False) as fake:
        yield fake


@pytest.mark.asyncio
async def test_sigterm_closes_the_telegram_bot_cleanly_with_exit_0(tg: ClubTelegram, tmp_path: Path) -> None:
    db = tmp_path / "telegram.sqlite"
    env = cli_env(tmp_path, ARBITRE_TELEGRAM_TOKEN=tg.token)
    process = await start("telegram", "--base-url", tg.base_url, "--db", str(db), env=env)
    try:
        for _ in range(30):  # a bot just started may still be preparing its word list: it says so, we retry
            await tg.send_user_message(GROUP, tg.ana, "/duplicate 3")
            started = await tg.wait_for_message(chat_id=GROUP, timeout=20)
            if "en cours de préparation" not in (started.text or ""):
                break
            await asyncio.sleep(1)
        assert "duplicate" in (started.text or "").lower()
    finally:
        code, err = await terminate(process)
    assert code == 0, err
    assert "Traceback" not in err
    assert_closed_cleanly(db)
