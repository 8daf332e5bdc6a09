"""``arbitre telegram --webhook URL --listen HOST --port P``: updates by webhook, with a secret token.

The workers are real subprocesses running python-telegram-bot's webhook server; the fake Bot API
(a self-hosted server in ``--local`` mode: HTTP webhooks on any port) POSTs the updates to them.
Two workers serve one bot behind a small round-robin proxy, over one SQLite file.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import signal
import sqlite3
import sys
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp import ClientSession, ClientTimeout, web

from bot.adapters.telegrambot.webhook import WebhookConfig, WebhookConfigError
from bot.operations.tokens import TokenError, load_webhook_secret
from bot.storage import SQLiteStorage
from tests.fakes import SECRET_HEADER
from tests.fakes._common import free_port
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram
from tests.waiting import saying

ROOT = REPO_ROOT
SECRET = "w3bhook-Secret_for-the-tests"
START_TIMEOUT = 20.0  # interpreters importing python-telegram-bot on a busy machine
GROUPS = [-4_000_000_801, -4_000_000_802, -4_000_000_803, -4_000_000_804]


class WebhookTelegram(ClubTelegram):
    """A self-hosted Bot API (HTTP webhooks on any port, retried after 0.2 s) with four groups, and Ben."""

    def __init__(self) -> None:
        super().__init__(*GROUPS, title="Club {group}", local_mode=True, webhook_retry_seconds=0.2)
        self.ben = self.add_user(first_name="Ben")


# --- the options --------------------------------------------------------------------------------


def test_the_webhook_secret_comes_from_the_environment_or_the_token_file(tmp_path: Path) -> None:
    home = {"XDG_CONFIG_HOME": str(tmp_path)}
    with pytest.raises(TokenError, match="ARBITRE_TELEGRAM_WEBHOOK_SECRET"):
        load_webhook_secret(environ=home)
    assert load_webhook_secret(environ={**home, "ARBITRE_TELEGRAM_WEBHOOK_SECRET": f" {SECRET}\n"}) == SECRET
    default = tmp_path / "arbitre" / "tokens.toml"
    default.parent.mkdir()
    default.write_text(f'[telegram]\ntoken = "1:x"\nwebhook_secret = "{SECRET}"\n')
    default.chmod(0o600)
    assert load_webhook_secret(environ=home) == SECRET
    default.chmod(0o644)
    with pytest.raises(TokenError, match="chmod 600") as refused:
        load_webhook_secret(environ=home)
    assert SECRET not in str(refused.value)
    other = tmp_path / "other.toml"
    other.write_text('[telegram]\ntoken = "1:x"\n')
    other.chmod(0o600)
    with pytest.raises(TokenError, match="no webhook secret in"):
        load_webhook_secret(other, environ={"ARBITRE_TELEGRAM_WEBHOOK_SECRET": SECRET})


@pytest.mark.parametrize(
    ("url", "secret", "port", "option"),
    [
        ("bot.example.org/hook", SECRET, 8080, "--webhook"),
        ("ftp://bot.example.org/hook", SECRET, 8080, "--webhook"),
        ("https://bot.example.org/hook", SECRET, 70000, "--port"),
        ("https://bot.example.org/hook", "with spaces", 8080, "the webhook secret"),
        ("https://bot.example.org/hook", "x" * 257, 8080, "the webhook secret"),
    ],
)
def test_webhook_options_that_cannot_work_are_refused_without_showing_the_secret(
    url: str, secret: str, port: int, option: str
) -> None:
    with pytest.raises(WebhookConfigError) as refused:
        WebhookConfig(url, secret, port=port)
    assert refused.value.option == option
    assert secret not in str(refused.value)


def test_a_worker_serves_the_webhook_urls_own_path() -> None:
    config = WebhookConfig("https://bot.example.org/arbitre/tg", SECRET, "0.0.0.0", 8443)
    assert config.url_path == "arbitre/tg"
    assert config.local_address == "http://0.0.0.0:8443/arbitre/tg"
    assert SECRET not in repr(config)


def cli_env(tmp_path: Path, token: str, secret: str | None = SECRET) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), ARBITRE_DATA=str(tmp_path / "data"))
    env["ARBITRE_TELEGRAM_TOKEN"] = token
    if secret is not None:
        env["ARBITRE_TELEGRAM_WEBHOOK_SECRET"] = secret
    return env


@pytest.mark.parametrize(
    ("options", "secret", "said"),
    [
        (["--webhook", "https://bot.example.org/hook"], None, "ARBITRE_TELEGRAM_WEBHOOK_SECRET"),
        (["--port", "8443"], SECRET, "--listen and --port go with --webhook"),
        (["--webhook", "https://bot.example.org/hook"], "bad secret!", "the webhook secret"),
        (["--webhook", "https://bot.example.org/hook", "--port", "0"], SECRET, "--port"),
    ],
)
@pytest.mark.asyncio
async def test_cli_refuses_webhook_options_that_cannot_work(
    tmp_path: Path, options: list[str], secret: str | None, said: str
) -> None:
    env = cli_env(tmp_path, "123456789:TEST-token_for_the_fake_server", secret)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "telegram", *options, cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, err = await asyncio.wait_for(process.communicate(), 15)
    text = err.decode()
    assert process.returncode == 2
    assert said in text
    assert len(text.strip().splitlines()) == 1
    assert secret is None or secret not in text


# --- the webhook's HTTP server: refused on the headers, before the body is read ----------------------

MIB = 1 << 20


@dataclass
class Answer:
    """What a raw POST got: the status (0: the connection closed unanswered) and how many body bytes it
    had sent when the answer (or the close) came."""

    status: int
    sent: int


async def raw_post(
    port: int,
    path: str,
    headers: dict[str, str],
    *,
    length: int | None,
    body: bytes = b"",
    chunked: int = 0,
    moment: float = 0.5,
) -> Answer:
    """A POST declaring ``length`` body bytes (None: chunked); ``body`` is sent only after the server had
    ``moment`` seconds to answer the headers alone, ``chunked`` bytes of zeros in 64 KiB chunks until it answers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = [f"POST /{path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    head += [f"{k}: {v}" for k, v in headers.items()]
    head.append(f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
    sent = 0
    answer = asyncio.ensure_future(reader.readline())
    try:
        await asyncio.wait([answer], timeout=moment)  # the headers alone may be enough to answer
        if not answer.done() and body:
            writer.write(body)
            sent += len(body)
        while not answer.done() and sent < chunked:
            writer.write(f"{64 * 1024:x}\r\n".encode() + bytes(64 * 1024) + b"\r\n")
            sent += 64 * 1024
            try:
                await asyncio.wait_for(writer.drain(), 5)
            except (ConnectionError, TimeoutError):
                break
            await asyncio.wait([answer], timeout=0.01)
        await asyncio.wait([answer], timeout=10)
        line = answer.result() if answer.done() and not answer.exception() else b""
    finally:
        answer.cancel()
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    return Answer(int(line.split()[1]) if line.startswith(b"HTTP/1.1 ") else 0, sent)


@pytest_asyncio.fixture
async def receiver() -> AsyncIterator[tuple[int, list[dict[str, object]]]]:
    """The webhook's server in this process on a free port; yields the port and the updates it received."""
    from bot.adapters.telegrambot.receiver import serve_updates

    received: list[dict[str, object]] = []

    async def receive(update: dict[str, object]) -> None:
        received.append(update)

    port = free_port()
    server = serve_updates(WebhookConfig("https://bot.example.org/arbitre", SECRET, port=port), receive)
    yield port, received
    server.stop()
    await server.close_all_connections()


UPDATE = b'{"update_id": 1, "message": {"text": "/jouer H8 VAGUE"}}'


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 403),
        ({SECRET_HEADER: "not-the-secret"}, 403),
        ({SECRET_HEADER: SECRET[:-1]}, 403),
        ({SECRET_HEADER: SECRET}, 413),
    ],
    ids=["no-secret", "wrong-secret", "almost-the-secret", "the-secret"],
)
@pytest.mark.asyncio
async def test_a_large_declared_body_is_refused_before_a_byte_of_it_is_sent(
    receiver: tuple[int, list[dict[str, object]]], headers: dict[str, str], status: int
) -> None:
    port, received = receiver
    answer = await raw_post(port, "arbitre", headers, length=50 * MIB, body=bytes(MIB))
    assert answer == Answer(status, 0)  # answered on the headers: the 50 MB were never read
    assert received == []


@pytest.mark.asyncio
async def test_a_small_body_without_the_secret_is_refused_and_never_received(
    receiver: tuple[int, list[dict[str, object]]],
) -> None:
    port, received = receiver
    # small bodies, sent with their headers as a client would (no moment left for an answer to the headers)
    for headers in ({}, {SECRET_HEADER: "x" * 300}, {SECRET_HEADER: "é"}):
        answer = await raw_post(port, "arbitre", headers, length=len(UPDATE), body=UPDATE, moment=0)
        assert answer.status == 403
    assert received == []
    answer = await raw_post(port, "arbitre", {SECRET_HEADER: SECRET}, length=len(UPDATE), body=UPDATE, moment=0)
    assert answer.status == 200
    assert received == [{"update_id": 1, "message": {"text": "/jouer H8 VAGUE"}}]
    answer = await raw_post(port, "arbitre", {SECRET_HEADER: SECRET}, length=9, body=b"not json!", moment=0)
    assert answer.status == 400
    assert len(received) == 1


@pytest.mark.parametrize(("headers", "status"), [({}, 403), ({SECRET_HEADER: SECRET}, 413)])
@pytest.mark.asyncio
async def test_a_chunked_body_longer_than_any_update_is_cut_short(
    receiver: tuple[int, list[dict[str, object]]], headers: dict[str, str], status: int
) -> None:
    from bot.adapters.telegrambot.receiver import MAX_UPDATE_BYTES

    port, received = receiver
    answer = await raw_post(port, "arbitre", headers, length=None, chunked=64 * MIB)
    assert answer.status in (status, 0)  # the answer, or a connection closed before the client read it
    assert answer.sent < MAX_UPDATE_BYTES + 8 * MIB  # what the kernel's buffers held: never the 64 MB
    assert received == []


# --- workers ---------------------------------------------------------------------------------------


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[WebhookTelegram]:
    async with WebhookTelegram() as fake:
        yield fake


@contextlib.asynccontextmanager
async def workers(tg: WebhookTelegram, tmp_path: Path, ports: dict[str, int], url: str) -> AsyncIterator[list[Path]]:
    """``arbitre telegram --webhook URL --port PORT``, one process per name and port of ``ports``, started
    together, until the block ends (then SIGTERM to all: each exits 0); yields their log files."""
    logs = [tmp_path / f"{name}.log" for name in ports]
    processes: list[asyncio.subprocess.Process] = []
    with contextlib.ExitStack() as files:
        try:
            for log, port in zip(logs, ports.values(), strict=True):
                options = ["--base-url", tg.base_url, "--db", str(tmp_path / "shared.sqlite")]
                options += ["--webhook", url, "--listen", "127.0.0.1", "--port", str(port)]
                err = files.enter_context(log.open("wb"))
                process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot",
                    "telegram",
                    *options,
                    cwd=ROOT,
                    env=cli_env(tmp_path, tg.token),
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=err,
                )
                processes.append(process)
            await asyncio.gather(*(listening(p, w, log) for p, w, log in zip(ports.values(), processes, logs)))
            yield logs
        finally:
            await asyncio.gather(*(stopped(process) for process in processes))
    for process, log in zip(processes, logs, strict=True):
        text = log.read_text()
        assert process.returncode == 0, text
        assert tg.token.split(":")[1] not in text, text
        assert SECRET not in text, text
        assert "Traceback" not in text, text


@contextlib.asynccontextmanager
async def worker(tg: WebhookTelegram, tmp_path: Path, name: str, port: int, url: str) -> AsyncIterator[Path]:
    """One worker (see ``workers``); yields its log file."""
    async with workers(tg, tmp_path, {name: port}, url) as logs:
        yield logs[0]


async def stopped(process: asyncio.subprocess.Process) -> None:
    """SIGTERM, then until the process has exited (killed if it has not within 15 s)."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), 15)
    except TimeoutError:
        process.kill()
        await process.wait()


async def listening(port: int, process: asyncio.subprocess.Process, log: Path) -> None:
    """Until the worker's webhook server accepts connections."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if process.returncode is not None or loop.time() > deadline:
                raise AssertionError(f"the worker on port {port} did not start: {log.read_text()}") from None
            await asyncio.sleep(0.1)
            continue
        writer.close()
        await writer.wait_closed()
        return


async def commands_set(tg: WebhookTelegram, workers: int) -> None:
    """Until every worker has set the webhook and its command menu (post_init is over)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT
    while sum(1 for method, _ in tg.requests if method.lower() == "setwebhook") < workers or not tg.commands:
        assert loop.time() < deadline, f"the workers did not set the webhook: {tg.requests}"
        await asyncio.sleep(0.05)


class RoundRobin:
    """A load balancer in front of the workers: each POST to the next one, headers and body as they came;
    a worker that cannot be reached is a 502 (Telegram then sends the update again)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.turn = itertools.cycle(range(len(ports)))
        self.served: list[tuple[int, int, int]] = []  # (worker, update id, status)
        self.port = free_port()

    async def forward(self, request: web.Request) -> web.Response:
        index = next(self.turn)
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("content-type", SECRET_HEADER.lower())}
        url = f"http://127.0.0.1:{self.ports[index]}{request.path_qs}"
        update_id = int((await request.json()).get("update_id", 0))
        try:
            async with ClientSession(timeout=ClientTimeout(total=10)) as session:
                async with session.post(url, data=body, headers=headers) as answer:
                    status, content = answer.status, await answer.read()
        except OSError:
            status, content = 502, b"worker unreachable"
        self.served.append((index, update_id, status))
        return web.Response(status=status, body=content)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[str]:
        app = web.Application()
        app.router.add_post("/{path:.*}", self.forward)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", self.port).start()
        try:
            yield f"http://127.0.0.1:{self.port}/arbitre"
        finally:
            await runner.cleanup()


async def seated(database: Path, chat: int, count: int) -> None:
    """Wait until the chat's game has ``count`` players (a join has no message of its own to wait for)."""
    storage = SQLiteStorage(database)
    try:
        for _ in range(1000):
            record = storage.active_game(f"telegram:{chat}")
            if record is not None and len(storage.players(record.id)) >= count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{count} players never joined in {chat}")
    finally:
        storage.close()


async def answer(tg: WebhookTelegram, chat: int, *expected: str, timeout: float = 10) -> str:
    """The next message in ``chat`` that says one of ``expected`` (a reply to the command, or, when
    the other worker's older message to the chat was still on its way, the same text from the outbox)."""
    reply = await tg.wait_for_message(
        lambda r: any(e in (r.text or "") for e in expected), chat_id=chat, timeout=timeout
    )
    return reply.text or ""


def said_in(tg: WebhookTelegram, chat: int, start: str) -> int:
    """How many messages the bot sent in ``chat`` that start with ``start``."""
    return len(
        [r for r in tg.log.records if r.action == "send" and r.chat_id == chat and (r.text or "").startswith(start)]
    )


@pytest.mark.long(5)
@pytest.mark.asyncio
async def test_an_update_without_the_right_secret_token_is_refused_and_never_processed(
    tg: WebhookTelegram, tmp_path: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/arbitre"
    async with worker(tg, tmp_path, "solo", port, url):
        await commands_set(tg, 1)
        group = GROUPS[0]
        real = await tg.send_user_message(group, tg.ana, "/reglages")
        await answer(tg, group, "Réglages :")
        assert tg.webhook_attempts[-1].status == 200
        assert tg.webhook_attempts[-1].secret_sent
        forged_message = {**real, "message_id": real["message_id"] + 100, "text": "/nouvelle Ana Ben"}
        forged = {"update_id": 999_999_001, "message": forged_message}
        async with ClientSession() as session:
            for headers in ({}, {SECRET_HEADER: "not-the-secret"}, {SECRET_HEADER: SECRET[:-1]}):
                async with session.post(url, json=forged, headers=headers) as response:
                    assert response.status == 403
        for headers, status in (({}, 403), ({SECRET_HEADER: "wrong"}, 403), ({SECRET_HEADER: SECRET}, 413)):
            refused = await raw_post(port, "arbitre", headers, length=95 * MIB, body=bytes(MIB))
            assert refused == Answer(status, 0)  # refused on its headers: the worker never read the 95 MB
        # after the refused updates, a real one: its answer says no game was started, and it is all the chat got
        said = len(tg.log.records)
        await tg.send_user_message(group, tg.ben, "/etat")
        assert "Aucune partie en cours" in await answer(tg, group, "Aucune partie en cours", "Partie")
        got = [r.text for r in tg.log.records[said:] if r.chat_id == group and r.action == "send"]
        assert len(got) == 1, got
    with contextlib.closing(sqlite3.connect(tmp_path / "shared.sqlite")) as db:
        assert db.execute("select count(*) from games").fetchone()[0] == 0  # the forged /nouvelle never ran


@pytest.mark.long(16)
@pytest.mark.asyncio
async def test_two_webhook_workers_behind_one_url_share_the_database(tg: WebhookTelegram, tmp_path: Path) -> None:
    """Real time (about 9 s alone, 10 s on a loaded machine): two worker processes, each on its own real
    clock, share one round's clock through the database's lease, and the 4.5-second round they watch passes
    on those clocks (the two joins and two private moves through the webhooks take 0.05 s alone).

    The workers start and stop together. What is left is not the round but the group's messages: the
    adapter paces them at one a second after a burst of three (Telegram's limit), and the round's eleven
    (announcement, draw, join line, counter, warning, countdown, next draw, three edits, results) take
    about 7.5 s whatever the round's length: a 3-second round closed 1.4 s sooner but posted its results
    only 0.4 s sooner, its close finding the burst spent. The other groups' commands are answered while the round
    runs, leaving the game's group its burst for the round's opening; the processes have no clock a test
    could drive, and their pace no setting."""
    ready_registry().get("fr")  # the compiled list is in the cache before the workers start
    ports = [free_port(), free_port()]
    proxy = RoundRobin(ports)
    async with (
        proxy.running() as url,
        workers(tg, tmp_path, {"a": ports[0], "b": ports[1]}, url) as (log_a, log_b),
    ):
        await commands_set(tg, 2)
        info = tg.webhook_sender.info() if tg.webhook_sender else {}
        assert info.get("url") == url
        assert "allowed_updates" in info

        # every command answered exactly once, whichever worker got it; several chats at once (not the game's
        # group: its round's opening has the group's burst of three messages whole; answered while it runs)
        others = GROUPS[1:]
        await asyncio.gather(*(tg.send_user_message(group, tg.ana, "/reglages") for group in others))
        await asyncio.gather(*(tg.send_user_message(group, tg.ben, "/etat") for group in others))

        # a duplicate game of 4.5-second rounds; both workers' clocks watch the round
        group = GROUPS[0]
        started = await say_until_ready(tg, group, "/duplicate 0.075")
        assert "Partie duplicate" in started
        for seats, (user, word) in enumerate(((tg.ana, "QWERTA"), (tg.ben, "QWERTB")), start=1):
            await tg.send_user_message(group, user, "/rejoindre")
            await seated(tmp_path / "shared.sqlite", group, seats)  # Ben joins the line that names Ana
            await tg.send_user_message(None, user, f"/jouer H8 {word}", chat_type="private")
            ack = await tg.wait_for_message(saying(word), chat_id=user.id, timeout=10)
            assert "coup 1" in (ack.text or "")
        for other in others:
            await answer(tg, other, "Réglages :")
            await answer(tg, other, "Aucune partie en cours")
        await tg.wait_for_message(
            lambda r: "QWERTA" in (r.text or "") and "QWERTB" in (r.text or ""), chat_id=group, timeout=12
        )
        await tg.wait_for_message(lambda r: "Coup 2 — tirage" in (r.text or ""), chat_id=group, timeout=5)
        # one join line, first Ana's, named both of them by the close (edited, or posted by the other worker)
        assert said_in(tg, group, "Ana rejoint la partie au coup 1.") == 1
        assert any("Ana et Ben rejoignent" in (r.text or "") for r in tg.log.records if r.chat_id == group)
        await settle(tg)
        assert all(said_in(tg, g, "Réglages :") == said_in(tg, g, "Aucune partie en cours") == 1 for g in others)
        assert {worker for worker, _, _ in proxy.served} == {0, 1}

    logs = log_a.read_text() + log_b.read_text()
    assert "receiving updates for" in logs
    delivered = [a for a in tg.webhook_attempts if a.delivered]
    assert len({a.update_id for a in delivered}) == len(delivered)  # each update taken once
    served = Counter(update for _, update, status in proxy.served if 200 <= status < 300)
    assert all(count == 1 for count in served.values())
    with contextlib.closing(sqlite3.connect(tmp_path / "shared.sqlite")) as db:
        closes = db.execute("select game, round from closes").fetchall()
    assert [r for _, r in closes] == [1]  # round 1 closed once (round 2 still open)
    posts = [r.text or "" for r in tg.log.records if r.action == "send" and r.chat_id == group]
    assert len([p for p in posts if re.search(r"QWERT[AB]", p)]) == 1  # the results, once
    twice = [p for p, count in Counter(posts).items() if count > 1 and "plus que" not in p]
    assert not twice, twice
    private = [r.text for user in (tg.ana, tg.ben) for r in tg.log.records if r.chat_id == user.id]
    assert len(private) == len(set(private)), private
    warnings = Counter(p for p in posts if "plus que" in p)
    assert warnings, "the clock warns before the close"
    assert max(warnings.values()) == 1, warnings  # one process runs a channel's clock (its lease)


async def say_until_ready(tg: WebhookTelegram, group: int, text: str) -> str:
    """Send a group command again while the workers are still loading their word list (they say so)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT
    while True:
        await tg.send_user_message(group, tg.ana, text)
        said = await answer(tg, group, "Partie duplicate", "préparation")
        if "préparation" not in said or loop.time() > deadline:
            return said
        await asyncio.sleep(0.5)


async def settle(tg: WebhookTelegram, quiet: float = 0.3) -> None:
    """Until the workers have been quiet for ``quiet`` seconds."""
    count = -1
    while count != len(tg.requests):
        count = len(tg.requests)
        await asyncio.sleep(quiet)
