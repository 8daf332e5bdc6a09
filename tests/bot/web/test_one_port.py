"""One HTTP port per process (issue 40): ``arbitre telegram --webhook URL --http-port P``, a real process, serves
the health check, the metrics, the rooms' live pages and Telegram's webhook on ``P`` (the fake Bot API posts the
updates there); the webhook there refuses what it refuses on a port of its own; each path can be left out."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp import ClientSession

from tests.bot.adapters.telegram.test_telegram_webhooks import (
    GROUPS,
    MIB,
    SECRET,
    Answer,
    WebhookTelegram,
    answer,
    cli_env,
    commands_set,
    listening,
    raw_post,
)
from tests.fakes import SECRET_HEADER
from tests.fakes._common import free_port
from tests.processes import ROOT, terminate


@pytest_asyncio.fixture
async def api() -> AsyncIterator[WebhookTelegram]:
    """A self-hosted Bot API (HTTP webhooks on any port) with the webhook tests' groups, created by Ana."""
    async with WebhookTelegram() as fake:
        yield fake


async def start(api: WebhookTelegram, tmp_path: Path, port: int, *options: str) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "telegram",
        "--base-url",
        api.base_url,
        "--db",
        str(tmp_path / "one.sqlite"),
        "--webhook",
        f"http://127.0.0.1:{port}/arbitre",
        "--http-port",
        str(port),
        *options,
        cwd=ROOT,
        env=cli_env(tmp_path, api.token),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    await listening(port, process, tmp_path / "none.log")
    await commands_set(api, 1)
    return process


async def get(url: str) -> tuple[int, str, str]:
    async with ClientSession() as session, session.get(url) as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


@pytest.mark.asyncio
async def test_one_port_serves_health_metrics_pages_and_the_webhook(api: WebhookTelegram, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = await start(api, tmp_path, port)
    try:
        group = GROUPS[0]
        await api.send_user_message(group, api.ana, "/reglages")  # through the webhook, on the one port
        await answer(api, group, "Réglages :")
        assert api.webhook_attempts[-1].status == 200
        assert await get(f"{base}/healthz") == (200, "text/plain; charset=utf-8", "ok\n")
        status, kind, metrics = await get(f"{base}/metrics")
        assert status == 200
        assert kind.startswith("text/plain")
        assert 'arbitre_commands_total{command="settings",platform="telegram"} 1.0' in metrics

        await api.send_user_message(group, api.ana, "/nouvelle Ana Ben")
        await answer(api, group, "Nouvelle partie")
        await api.send_user_message(group, api.ana, "/vue")
        link = re.search(r"(http://\S+/v/\S+)", await answer(api, group, "Page en direct"))
        assert link is not None
        assert link.group(1).startswith(f"{base}/v/")
        status, kind, page = await get(link.group(1))
        assert (status, kind) == (200, "text/html; charset=utf-8")
        assert "/events" in page

        for headers, refused in (({}, 403), ({SECRET_HEADER: "wrong"}, 403), ({SECRET_HEADER: SECRET}, 413)):
            sent = await raw_post(port, "arbitre", headers, length=95 * MIB, body=bytes(MIB))
            assert sent == Answer(refused, 0)  # refused on its headers: the 95 MB were never read
        async with ClientSession() as session:
            forged = {"update_id": 999_999_001, "message": {"text": "/nouvelle Eve"}}
            async with session.post(f"{base}/arbitre", json=forged, headers={SECRET_HEADER: "no"}) as response:
                assert response.status == 403
    finally:
        code, err = await terminate(process)
    assert code == 0, err
    assert f"arbitre telegram: health, metrics, pages, webhook on port {port}" in err
    assert "Traceback" not in err


@pytest.mark.long(4)
@pytest.mark.asyncio
async def test_each_path_can_be_left_out(api: WebhookTelegram, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = await start(api, tmp_path, port, "--http-paths", "health,webhook")
    try:
        await api.send_user_message(GROUPS[0], api.ana, "/reglages")
        await answer(api, GROUPS[0], "Réglages :")
        assert (await get(f"{base}/healthz"))[0] == 200
        assert (await get(f"{base}/metrics"))[0] == 404
        assert (await get(f"{base}/v/anything"))[0] == 404
    finally:
        code, err = await terminate(process)
    assert code == 0, err
