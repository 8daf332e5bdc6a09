"""The metrics endpoint and health check of one process: a duplicate round in the console adapter,
scraped over HTTP and read with Prometheus' own parser."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.adapters.console.room import ConsoleRoom
from bot.adapters.console.rooms import start_room
from bot.chat import Reply
from bot.cli import build_parser
from bot.operations.metrics import Metrics, MetricsAddress, MetricsServer
from bot.referee import Referee
from bot.storage import OutboxBacklog, SQLiteStorage, Storage
from bot.tools.console import run_console
from bot.words.game_lists import prepare_at_start
from bot.words.loader import LexiconRegistry
from tests.storage_backends import opener

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def get(url: str) -> tuple[int, str]:
    """An HTTP GET: the status and the body."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status), answer.read().decode()
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode()


def scrape(url: str) -> Samples:
    """Every sample of ``/metrics``, read by prometheus_client's parser: (name, labels) -> value."""
    status, text = get(url + "/metrics")
    assert status == 200, text
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


class BreakableOutput(io.StringIO):
    """The console's output; once ``closed_by_reader``, writing raises as a pipe whose reader went away."""

    closed_by_reader = False

    def write(self, text: str) -> int:
        if self.closed_by_reader:
            raise BrokenPipeError
        return super().write(text)


class Clock:
    """Unix time the test moves (the referee's deadlines and the outbox's retries)."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


async def until(condition: Callable[[], bool]) -> None:
    """Wait (without timing anything) until ``condition`` holds, 30 s at most."""
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the console did not get there")


@pytest.mark.asyncio
async def test_a_duplicate_round_counted_scraped_and_health_checked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    start_room(storage, "fr", io.StringIO())
    lists = LexiconRegistry()
    prepare_at_start(lists, storage)
    clock = Clock()
    referee = Referee(storage, lists, clock_scope="console", now=clock)
    metrics = Metrics()
    server = MetricsServer(metrics, MetricsAddress("127.0.0.1", 0))
    read_end, write_end = os.pipe()
    stdin, typing = os.fdopen(read_end, "r", encoding="utf-8"), os.fdopen(write_end, "w", encoding="utf-8")
    out = BreakableOutput()
    room = ConsoleRoom(referee, out, tmp_path / "images", "Moi", ("ref",), script=True, metrics=metrics)

    def type_lines(*lines: str) -> None:
        typing.write("".join(line + "\n" for line in lines))
        typing.flush()

    def count(command: str) -> float:
        return (
            metrics.registry.get_sample_value("arbitre_commands_total", {"command": command, "platform": "console"})
            or 0
        )

    try:
        assert await asyncio.to_thread(get, server.url + "/healthz") == (
            503,
            "adapter not connected (the console is not running)\n",
        )
        running = asyncio.get_running_loop().create_task(room.run(stdin))
        type_lines(
            "Ref: /duplicate 0.1 manuel",
            "Ref: /tirage ACEHNTZ",
            "Ben> /jouer H4 CHANTEZ",
            "Cy> /jouer H8 ZZZ",
            "Cy> /play H6 CHANT",
            "Dan> /jouer H7 ZEBRE",
            "Dan: /nimportequoi",
            "Dan: pas une commande",
        )
        await until(lambda: count("unknown") == 1 and bool(referee.clock.held))  # the clock took the round's lease
        samples = await asyncio.to_thread(scrape, server.url)
        commands = {
            dict(labels)["command"]: value
            for (name, labels), value in samples.items()
            if name == "arbitre_commands_total"
        }
        assert commands == {"duplicate": 1, "draw": 1, "play": 4, "unknown": 1}
        assert all(
            dict(labels)["platform"] == "console" for (name, labels) in samples if name == "arbitre_commands_total"
        )
        assert samples[("arbitre_command_seconds_count", (("command", "play"), ("platform", "console")))] == 4
        assert samples[("arbitre_clock_leases", ())] == 1  # the open round's clock is this process's
        assert samples[("arbitre_storage_up", ())] == 1
        assert not [key for key in samples if key[0] == "arbitre_outbox_waiting"]  # all printed: nothing waits
        assert "Reçu pour le coup 1 : H4 CHANTEZ" in out.getvalue()
        assert await asyncio.to_thread(get, server.url + "/healthz") == (200, "ok\n")

        # the output's reader goes away: Ben's acknowledgement stays owed, and the adapter is not connected
        out.closed_by_reader = True
        type_lines("Ben> /jouer H4 CHANTEZ")
        await until(lambda: count("play") == 5)
        samples = await asyncio.to_thread(scrape, server.url)
        assert samples[("arbitre_outbox_waiting", (("platform", "console"),))] == 1
        assert samples[("arbitre_outbox_oldest_seconds", (("platform", "console"),))] >= 0
        assert await asyncio.to_thread(get, server.url + "/healthz") == (
            503,
            "adapter not connected (the console's output was closed)\n",
        )
        type_lines(":quit")
        await running
        samples = await asyncio.to_thread(scrape, server.url)
        assert samples[("arbitre_clock_leases", ())] == 0  # a clean stop gives the leases up
        assert samples[("arbitre_outbox_waiting", (("platform", "console"),))] == 1

        room.running, room.output_gone = True, False  # the adapter says it is connected: only the storage is off
        storage.close()
        assert await asyncio.to_thread(get, server.url + "/healthz") == (
            503,
            "storage does not answer (ProgrammingError)\n",
        )
        for _ in range(2):
            samples = await asyncio.to_thread(scrape, server.url)
            assert samples[("arbitre_storage_up", ())] == 0
        said = [r.getMessage() for r in caplog.records if "metrics: the storage" in r.getMessage()]
        assert said == ["metrics: the storage does not answer (ProgrammingError)"]  # once, not at every scrape
    finally:
        typing.close()
        stdin.close()
        server.close()
        storage.close()


@pytest.fixture(params=["sqlite", "memory", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Storage:
    return opener(request, tmp_path)()


def test_the_outbox_backlog_per_platform_with_its_dead_letters(store: Storage) -> None:
    assert store.outbox_backlog() == []
    first, *_ = store.enqueue(
        [Reply("a", channel="telegram:-100"), Reply("b", to_user="telegram:7"), Reply("c", channel="discord:5")],
        due=0.0,
        created=100.0,
    )
    store.enqueue([Reply("d", channel="console")], due=0.0, created=200.0)
    store.mark_delivered([first + 2], 1.0)
    assert store.outbox_backlog() == [OutboxBacklog("console", 1, 200.0), OutboxBacklog("telegram", 2, 100.0)]
    store.mark_dead(first, 2.0, "400 Bad Request")  # the next one of the destination goes on
    store.mark_dropped(first + 1, 2.0, "expired")  # an expired warning is no dead letter
    assert store.outbox_backlog() == [OutboxBacklog("console", 1, 200.0), OutboxBacklog("telegram", 0, None, 1)]
    store.close()


def listening_ports() -> set[int]:
    """The TCP ports this process listens on (its sockets among the kernel's listening ones)."""
    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in rows.readlines()[1:]:
                fields = row.split()
                if fields[3] == "0A" and fields[9] in mine:  # 0A: LISTEN
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def run_in_thread(
    args: argparse.Namespace, err: io.StringIO
) -> tuple[threading.Thread, Callable[[str], None], io.StringIO]:
    """``arbitre console`` run in a thread on a pipe: the thread, a way to type a line, its output."""
    read_end, write_end = os.pipe()
    stdin, typing = os.fdopen(read_end, "r", encoding="utf-8"), os.fdopen(write_end, "w", encoding="utf-8")
    out = io.StringIO()

    def run() -> None:
        try:
            assert run_console(args, stdin, out, err) == 0
        finally:
            stdin.close()

    def type_line(line: str) -> None:
        if line:
            typing.write(line + "\n")
            typing.flush()
        else:
            typing.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, type_line, out


def wait_for(condition: Callable[[], bool]) -> None:
    done = threading.Event()
    for _ in range(3000):
        if condition():
            return
        done.wait(0.01)
    raise AssertionError("the console did not get there")


def test_metrics_are_off_unless_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBITRE_METRICS_PORT", raising=False)
    before = listening_ports()
    args = build_parser().parse_args(["console", "--db", str(tmp_path / "a.sqlite")])
    err = io.StringIO()
    thread, type_line, out = run_in_thread(args, err)
    type_line("Ben: /aide")
    wait_for(lambda: "[#console]" in out.getvalue())
    assert listening_ports() == before  # no port opened
    type_line("")
    thread.join()
    assert "metrics" not in err.getvalue()


def test_the_environment_turns_metrics_on_bound_to_the_loopback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITRE_METRICS_PORT", "0")  # any free port; the console says which
    before = listening_ports()
    args = build_parser().parse_args(["console", "--db", str(tmp_path / "a.sqlite")])
    err = io.StringIO()
    thread, type_line, out = run_in_thread(args, err)
    try:
        type_line("Ben: /aide")
        wait_for(lambda: "[#console]" in out.getvalue())
        opened = listening_ports() - before
        assert len(opened) == 1
        port = opened.pop()
        assert f"metrics on http://127.0.0.1:{port}/metrics" in err.getvalue()
        assert get(f"http://127.0.0.1:{port}/healthz") == (200, "ok\n")
        samples = scrape(f"http://127.0.0.1:{port}")
        assert samples[("arbitre_commands_total", (("command", "help"), ("platform", "console")))] == 1
    finally:
        type_line("")
        thread.join()
    assert listening_ports() == before  # the port is closed with the console


def test_a_wrong_metrics_port_is_said_in_one_line(tmp_path: Path) -> None:
    args = build_parser().parse_args(["console", "--db", str(tmp_path / "a.sqlite"), "--metrics-port", "http"])
    err = io.StringIO()
    assert run_console(args, io.StringIO(""), io.StringIO(), err) == 2
    assert err.getvalue() == "arbitre console: metrics port 'http': a number from 0 to 65535 is needed\n"


def test_a_scrape_reads_the_storage_in_one_statement(tmp_path: Path) -> None:
    statements: list[str] = []
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite", tracer=lambda sql, params: statements.append(sql))
    refused, *_ = storage.enqueue(
        [
            Reply("refused", channel="telegram:-100"),
            Reply("owed", channel="telegram:-100"),
            Reply("owed", to_user="telegram:7"),
        ],
        due=0.0,
        created=1000.0,
    )
    storage.mark_dead(refused, 1001.0, "400 Bad Request: message is too long")
    metrics = Metrics(now=lambda: 1042.0)
    metrics.watch(Referee(storage, LexiconRegistry(), clock_scope="telegram:"), lambda: None)
    server = MetricsServer(metrics, MetricsAddress("127.0.0.1", 0))
    try:
        statements.clear()
        samples = scrape(server.url)
        assert len(statements) == 1, statements
        assert statements[0].lower().startswith("select"), statements
        assert samples[("arbitre_outbox_waiting", (("platform", "telegram"),))] == 2
        assert samples[("arbitre_outbox_oldest_seconds", (("platform", "telegram"),))] == 42
        assert samples[("arbitre_outbox_dead_letters", (("platform", "telegram"),))] == 1
    finally:
        server.close()
        storage.close()
