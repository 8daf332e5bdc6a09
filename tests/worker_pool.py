"""Driving ``tests.referee_worker`` processes: start them, send messages, collect acknowledgements,
kill them (for the multi-process tests and the scale benchmark)."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Ack:
    """A worker's answer to one message: its replies' first lines, whether it was refused, how long it took."""

    id: int
    ms: float
    error: bool
    texts: list[str]
    worker: str
    received: float  # time.time() when the driver read it
    clock_cpu: float = 0.0  # CPU seconds the worker's clock had used when it answered


@dataclass
class Worker:
    """One bot process on the shared database."""

    name: str
    db: str
    folder: Path
    lease: float = 2.0
    tick: float = 0.1
    deliver_seconds: float = 0.0  # a platform that takes this long to accept each batch
    grace: float | None = None  # the outbox's grace (None: the referee's default)
    process: subprocess.Popen[str] | None = None
    acks: dict[int, Ack] = field(default_factory=dict)
    sent: dict[int, dict[str, Any]] = field(default_factory=dict)
    pid: int = 0
    killed: bool = False
    _ready: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _arrived: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self._arrived = threading.Condition(self._lock)

    @property
    def out(self) -> Path:
        return self.folder / f"{self.name}.jsonl"

    def start(self) -> Worker:
        command = [
            sys.executable, "-m", "tests.referee_worker", "--db", self.db, "--name", self.name,
            "--out", str(self.out), "--lease", str(self.lease), "--tick", str(self.tick),
        ]  # fmt: skip
        if self.deliver_seconds:
            command += ["--deliver-seconds", str(self.deliver_seconds)]
        if self.grace is not None:
            command += ["--grace", str(self.grace)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def wait_ready(self, timeout: float = 60.0) -> None:
        if not self._ready.wait(timeout):
            raise TimeoutError(f"worker {self.name} did not start")

    def _read(self) -> None:
        assert self.process is not None
        assert self.process.stdout is not None
        for line in self.process.stdout:
            data = json.loads(line)
            if "ready" in data:
                self.pid = int(data["pid"])
                self._ready.set()
                continue
            texts = list(data["texts"])
            ack = Ack(
                int(data["id"]), float(data["ms"]), bool(data["error"]), texts, self.name, time.time(),
                float(data.get("clock_cpu", 0.0)),
            )  # fmt: skip
            with self._arrived:
                self.acks[ack.id] = ack
                self._arrived.notify_all()

    def send(self, request_id: int, message: dict[str, Any]) -> bool:
        """Give the worker a message; False if it is dead."""
        assert self.process is not None
        assert self.process.stdin is not None
        if self.killed:
            return False
        self.sent[request_id] = message
        try:
            self.process.stdin.write(json.dumps({"id": request_id, **message}) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def wait_ack(self, request_id: int, timeout: float = 60.0) -> Ack:
        with self._arrived:
            if not self._arrived.wait_for(lambda: request_id in self.acks, timeout):
                raise TimeoutError(f"worker {self.name}: no answer to message {request_id}")
            return self.acks[request_id]

    def wait_all(self, timeout: float = 120.0) -> None:
        with self._arrived:
            if not self._arrived.wait_for(lambda: set(self.sent) <= set(self.acks), timeout):
                raise TimeoutError(f"worker {self.name}: {len(set(self.sent) - set(self.acks))} messages unanswered")

    def kill(self) -> None:
        """kill -9: no clean stop, no lease given up, transactions under way cut."""
        assert self.process is not None
        self.killed = True
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(30)

    def finish(self, timeout: float = 120.0) -> int:
        """Close its stdin (it finishes its messages and stops cleanly); its exit status."""
        assert self.process is not None
        assert self.process.stdin is not None
        if self.killed:
            return -9
        self.process.stdin.close()
        return self.process.wait(timeout)

    def delivered(self) -> list[dict[str, Any]]:
        """Every reply it delivered, in order."""
        if not self.out.exists():
            return []
        return [json.loads(line) for line in self.out.read_text(encoding="utf-8").splitlines() if line.strip()]


class Workers:
    """Several workers on one database, message numbers shared."""

    def __init__(self, db: str, folder: Path, count: int, lease: float = 2.0, tick: float = 0.1) -> None:
        self.all = [Worker(f"w{i}", db, folder, lease, tick) for i in range(count)]
        self._ids = itertools.count(1)

    def __enter__(self) -> Workers:
        for worker in self.all:
            worker.start()
        for worker in self.all:
            worker.wait_ready()
        return self

    def __exit__(self, *_: object) -> None:
        for worker in self.all:
            if worker.process is not None and worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait(30)

    def by_name(self, name: str) -> Worker:
        return next(w for w in self.all if w.name == name)

    def alive(self) -> list[Worker]:
        return [w for w in self.all if not w.killed]

    def send(self, worker: Worker, message: dict[str, Any]) -> int | None:
        request_id = next(self._ids)
        return request_id if worker.send(request_id, message) else None


def say(channel: str, user: str, text: str, *, admin: bool = False) -> dict[str, Any]:
    """A public message in a channel."""
    return {"channel": channel, "user": user, "name": user.split(":")[-1], "text": text, "admin": admin}


def whisper(user: str, text: str) -> dict[str, Any]:
    """A private message to the bot (its own private channel)."""
    return {"channel": f"dm:{user}", "user": user, "name": user.split(":")[-1], "text": text, "private": True}
