"""The Telegram bot's command line: a rejected or missing token (one line, exit 2), polling until interrupted, and
the token's sources and masking."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.bot.adapters.telegram.adapter_club import GROUP, START_EN, ClubTelegram, say
from tests.bot.adapters.telegram.adapter_club import tg as tg  # the club's fake Bot API
from tests.paths import REPO_ROOT
from tests.processes import interruptible

ROOT = REPO_ROOT


# --- the command line ------------------------------------------------------------------


def cli_env(tmp_path: Path, token: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), ARBITRE_DATA=str(tmp_path / "data"))
    if token is not None:
        env["ARBITRE_TELEGRAM_TOKEN"] = token
    return env


# How long a CLI process may take to start and answer: a few seconds idle, but a loaded 2-core machine
# (four test processes and a build beside them) was seen taking over 15 s to import and start.
CLI_START = 60.0


async def start_cli(*args: str, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "telegram",
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=interruptible,
    )


@pytest.mark.asyncio
async def test_cli_rejected_or_missing_token_is_one_line_and_exit_2(tg: ClubTelegram, tmp_path: Path) -> None:
    bad = "123456789:WRONG-token_for_the_fake_server"
    process = await start_cli("--base-url", tg.base_url, env=cli_env(tmp_path, bad))
    out, err = await asyncio.wait_for(process.communicate(), CLI_START)
    text = err.decode()
    assert process.returncode == 2
    assert len(text.strip().splitlines()) == 1
    assert "rejected" in text
    assert "WRONG-token" not in text + out.decode()
    process = await start_cli("--base-url", tg.base_url, env=cli_env(tmp_path, None))
    _, err = await asyncio.wait_for(process.communicate(), CLI_START)
    assert process.returncode == 2
    assert "ARBITRE_TELEGRAM_TOKEN" in err.decode()


@pytest.mark.long(3)
@pytest.mark.asyncio
async def test_cli_runs_polling_until_interrupted(tg: ClubTelegram, tmp_path: Path) -> None:
    process = await start_cli(
        "--base-url", tg.base_url, "--db", str(tmp_path / "a.sqlite"), env=cli_env(tmp_path, tg.token)
    )
    try:
        await tg.send_user_message(None, tg.cleo, "/start", chat_type="private")
        assert (await tg.wait_for_message(chat_id=tg.cleo.id, timeout=CLI_START)).text == START_EN
        assert tg.commands.get("default/fr")  # post_init ran inside run_polling
        await say(tg, tg.cleo, "/aide@TestBot")  # the first to speak in a new group: English
        assert "/score" in (await tg.wait_for_message(chat_id=GROUP, timeout=5)).text
    finally:
        process.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(process.communicate(), 10)
    assert process.returncode == 0, err.decode()
    assert tg.token.split(":")[1] not in out.decode() + err.decode()


def test_token_sources_and_masking(tmp_path: Path) -> None:
    from bot.operations.tokens import MaskingFormatter, TokenError, load_token, mask

    token = "123456789:AAHsecret-part_of_the_token"
    home = {"XDG_CONFIG_HOME": str(tmp_path)}
    with pytest.raises(TokenError, match="ARBITRE_TELEGRAM_TOKEN"):
        load_token("telegram", environ=home)
    assert load_token("telegram", environ={**home, "ARBITRE_TELEGRAM_TOKEN": f" {token}\n"}) == token
    default = tmp_path / "arbitre" / "tokens.toml"
    default.parent.mkdir()
    default.write_text(f'telegram = "{token}"\n[discord]\ntoken = "d-token"\n')
    default.chmod(0o600)
    assert load_token("telegram", environ=home) == token
    assert load_token("discord", environ=home) == "d-token"
    default.chmod(0o640)
    with pytest.raises(TokenError, match="chmod 600") as refused:
        load_token("telegram", environ=home)
    assert token not in str(refused.value)
    assert "\n" not in str(refused.value)
    broken = tmp_path / "broken.toml"
    broken.write_text(f"telegram = {token}\n")  # unquoted: not TOML
    broken.chmod(0o600)
    with pytest.raises(TokenError, match="not valid TOML") as invalid:
        load_token("telegram", broken)
    assert "AAHsecret" not in str(invalid.value)

    assert (
        mask(f"GET https://api.telegram.org/bot{token}/getMe", [token]) == "GET https://api.telegram.org/bot***/getMe"
    )
    assert "AAHsecret" not in mask("secret AAHsecret-part_of_the_token alone", [token])
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed %s", (token,), None)
    assert token not in MaskingFormatter(logging.Formatter("%(message)s"), [token]).format(record)
