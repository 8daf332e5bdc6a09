"""The container image and the compose file (issue 40): the image built from a base given as a build argument,
the compose file's services started (the bot and PostgreSQL), ``/healthz`` and ``/metrics`` answered over HTTP,
the image's health check passing, the slash commands registered with the compose file's command, the bot
reaching the fake Discord with the token from the environment and answering a command, a console game played
inside the container, and the data still there after the services are taken down and started again.

Opt-in (``-m container``): it needs podman and podman-compose (Debian's packages) and a base image with Python
(``ARBITRE_CONTAINER_BASE``; ``tests/data/container/make_base.sh`` builds one with debootstrap where no container
registry is reached); about three minutes. PostgreSQL's image is a stand-in built on that base from Debian's
package (``tests/data/container/postgres.Dockerfile``). Where the runtime cannot set the default descriptor and
process limits or use the machine's cgroups, ``ARBITRE_CONTAINERS_CONF`` names a podman configuration to use
(``tests/data/container/containers.conf``: runc, lower limits). podman-compose 1.0.3 (Debian 12) gives a service
on the host's network a second network and fails: use a newer one (``pip install podman-compose``, 1.6 here).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.discord_club import ClubDiscord
from tests.fakes._common import free_port
from tests.processes import ROOT

BASE = os.environ.get("ARBITRE_CONTAINER_BASE", "")
IMAGE = "localhost/arbitre:container-test"
POSTGRES_IMAGE = "localhost/arbitre-test-postgres:latest"
PROJECT = "arbitretest"
BOT = f"{PROJECT}_bot_1"
HERE = ROOT / "tests" / "data" / "container"
# A machine whose package index is reached through its own proxy: its pip settings and certificates, for the build.
HOST_PIP = [Path("/etc/pip.conf"), Path("/etc/ssl/certs/ca-certificates.crt")]

pytestmark = [
    pytest.mark.container,
    pytest.mark.skipif(
        not (shutil.which("podman") and shutil.which("podman-compose") and BASE),
        reason="needs podman, podman-compose and ARBITRE_CONTAINER_BASE (a base image with Python 3.11+)",
    ),
]


def podman_env() -> dict[str, str]:
    env = dict(os.environ)
    if os.environ.get("ARBITRE_CONTAINERS_CONF"):
        env["CONTAINERS_CONF"] = os.environ["ARBITRE_CONTAINERS_CONF"]
    return env


def run(*command: str, cwd: Path = ROOT, stdin: str | None = None, timeout: float = 600) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=podman_env(), input=stdin, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{' '.join(command)}: {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def build(tag: str, context: Path, *extra: str) -> None:
    mounts = [f"--volume={path}:{path}:ro" for path in HOST_PIP if path.exists()]
    run(
        "podman", "build", "--isolation=chroot", "--network=host", "--format=docker", *mounts,
        f"--build-arg=BASE={BASE}", f"--tag={tag}", *extra, str(context),
    )  # fmt: skip


@pytest.fixture(scope="module")
def images() -> None:
    build(IMAGE, ROOT)
    build(POSTGRES_IMAGE, HERE, f"--file={HERE / 'postgres.Dockerfile'}")


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[ClubDiscord]:
    async with ClubDiscord() as fake:
        yield fake


@pytest.fixture
def project(tmp_path: Path, dc: ClubDiscord) -> Iterator[Path]:
    """The compose file, the test's changes to it and an ``.env`` as an operator writes it, in a folder of their own."""
    shutil.copy(ROOT / "compose.yaml", tmp_path / "compose.yaml")
    shutil.copy(HERE / "compose.host.yaml", tmp_path / "compose.host.yaml")
    metrics_port = free_port()
    (tmp_path / ".env").write_text(
        f"ARBITRE_DISCORD_TOKEN={dc.token}\n"
        f"ARBITRE_DISCORD_API={dc.api_base}\n"
        "POSTGRES_PASSWORD=container-test-password\n"
        f"POSTGRES_IMAGE={POSTGRES_IMAGE}\n"
        f"ARBITRE_IMAGE={IMAGE}\n"
        f"PGPORT={free_port()}\n"
        f"ARBITRE_HTTP_PORT={metrics_port}\n",
        encoding="utf-8",
    )
    (tmp_path / ".env").chmod(0o600)
    (tmp_path / "metrics_port").write_text(str(metrics_port))
    yield tmp_path
    subprocess.run([*compose(tmp_path), "down", "--volumes"], cwd=tmp_path, env=podman_env(), capture_output=True)


def compose(folder: Path) -> list[str]:
    return ["podman-compose", "--project-name", PROJECT, "-f", "compose.yaml", "-f", "compose.host.yaml"]


async def until(check: Callable[[], bool], what: str, seconds: float = 120) -> None:
    """Wait until ``check()`` is true (asked every second), else fail saying ``what``."""
    for _ in range(int(seconds)):
        if await asyncio.to_thread(check):
            return
        await asyncio.sleep(1)
    raise AssertionError(f"{what} not within {seconds} s")


def healthy(container: str) -> bool:
    done = subprocess.run(["podman", "healthcheck", "run", container], env=podman_env(), capture_output=True)
    return done.returncode == 0


def http_get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return 0, str(error)


def console(lines: str) -> str:
    """A console session in the running bot's container, on its database (the HTTP port is the bot's)."""
    return run("podman", "exec", "-i", "-e", "ARBITRE_HTTP_PORT=", BOT, "arbitre", "console", stdin=lines)


@pytest.mark.asyncio
@pytest.mark.usefixtures("images")
@pytest.mark.timeout(900)
async def test_compose_runs_the_bot_with_postgresql_and_keeps_its_data(dc: ClubDiscord, project: Path) -> None:
    up = [*compose(project), "up", "-d"]
    await asyncio.to_thread(run, *up, "db", cwd=project)
    # podman runs health checks from systemd's timers: here the test asks them (compose's depends_on waits on them)
    await until(lambda: healthy(f"{PROJECT}_db_1"), "the database's health check")
    synced = await asyncio.to_thread(
        run, *compose(project), "run", "--rm", "bot", "discord", "--sync", "--guild", str(dc.guild.id), cwd=project
    )
    assert "slash commands registered in server" in synced
    await asyncio.to_thread(run, *up, cwd=project)
    await dc.wait_until_identified(timeout=180)  # the token from .env, through the environment
    health_url = f"http://127.0.0.1:{(project / 'metrics_port').read_text()}/healthz"
    await until(lambda: http_get(health_url) == (200, "ok\n"), "/healthz answering ok")
    assert healthy(BOT)
    status, metrics = await asyncio.to_thread(http_get, health_url.replace("/healthz", "/metrics"))
    assert status == 200
    assert "arbitre_storage_up 1.0" in metrics

    for _ in range(60):  # a bot just started may still be preparing its word list: it says so, we retry
        iid = await dc.send_interaction("check", {"args": "VAGUE"}, user=dc.ana, channel_id=dc.guild.channel_id)
        answer = await dc.wait_for_response(iid, lambda r: bool((r.text or "").strip("…")), timeout=20)
        if "en cours de préparation" not in (answer.text or ""):
            break
        await asyncio.sleep(1)
    assert "VAGUE valable" in (answer.text or "")

    played = await asyncio.to_thread(console, "Ana: /nouvelle Ana Ben\nAna: /coup H8 VAGUE\n")
    assert "VAGUE (4+1+2+1+1x2)x2 = 20" in played
    logs = subprocess.run(["podman", "logs", BOT], env=podman_env(), capture_output=True, text=True, timeout=60)
    assert f"client_id={dc.application_id}" in logs.stderr  # the invite link, said at start

    await asyncio.to_thread(run, *compose(project), "down", cwd=project)  # the volumes stay
    await asyncio.to_thread(run, *up, "db", cwd=project)
    await until(lambda: healthy(f"{PROJECT}_db_1"), "the database's health check after the restart")
    await asyncio.to_thread(run, *up, cwd=project)
    await until(lambda: http_get(health_url) == (200, "ok\n"), "/healthz after the restart")
    sheet = await asyncio.to_thread(console, "Ben: /feuille\n")
    assert "H8 VAGUE" in sheet
    assert "Ana 20" in sheet
