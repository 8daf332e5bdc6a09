"""A throwaway PostgreSQL server for tests and benchmarks: the machine's ``initdb`` and ``pg_ctl`` in a
temporary directory, listening on a free 127.0.0.1 port, stopped and removed afterwards.

PostgreSQL refuses to run as root: under root the server runs as the ``postgres`` system user (which the
Debian package creates), its directory handed to that user.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SERVER_USER = "postgres"  # the system account the server runs as when the tests run as root
SUPERUSER = "arbitre"  # the database superuser initdb creates (trust authentication on 127.0.0.1 only)


class PostgresUnavailableError(Exception):
    """The PostgreSQL server binaries are not on this machine (or cannot be run); ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def find_binaries() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest
    /usr/lib/postgresql/*/bin."""
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(os.path.realpath(initdb)).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name or 0))
    if found:
        return Path(found[-1]).parent
    raise PostgresUnavailableError(
        "PostgreSQL's initdb and pg_ctl are not installed (Debian: apt-get install postgresql)"
    )


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """One server in its own directory; ``start`` it, ``create_database`` as many as needed, ``stop`` it."""

    settings: dict[str, str] = field(default_factory=dict)  # extra server settings (-c NAME=VALUE)
    port: int = 0
    directory: Path | None = None
    flags: str = ""  # the options it was started with (its port among them): ``start_again`` uses them
    _names: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def _run_as(self) -> str | None:
        return SERVER_USER if os.geteuid() == 0 else None

    def _run(self, command: list[str], timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, user=self._run_as, capture_output=True, text=True, timeout=timeout, check=False)

    def start(self) -> PostgresServer:
        """initdb, then pg_ctl start on a free port (tried again on another port if taken meanwhile)."""
        binaries = find_binaries()
        if self._run_as is not None:
            try:
                account = pwd.getpwnam(self._run_as)
            except KeyError:
                raise PostgresUnavailableError(
                    f"running as root and there is no {self._run_as!r} user to run the server as"
                ) from None
        self.directory = Path(tempfile.mkdtemp(prefix="arbitre-pg-"))
        if self._run_as is not None:
            os.chown(self.directory, account.pw_uid, account.pw_gid)
        data = self.directory / "data"
        init = self._run(
            [str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-sync"]
        )
        if init.returncode != 0:
            raise PostgresUnavailableError(f"initdb failed: {init.stderr.strip()[-500:]}")
        options = {
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": "''",
            "max_connections": "200",
            **self.settings,
        }
        last = ""
        for _ in range(5):
            self.port = free_port()
            self.flags = " ".join([f"-p {self.port}"] + [f"-c {k}={v}" for k, v in options.items()])
            started = self._pg_ctl("start")
            if started.returncode == 0:
                self._wait_ready()
                return self
            last = started.stderr.strip() + self._log_tail()
        raise PostgresUnavailableError(f"pg_ctl start failed: {last[-800:]}")

    def _pg_ctl(self, action: str) -> subprocess.CompletedProcess[str]:
        assert self.directory is not None
        return self._run(
            [
                str(find_binaries() / "pg_ctl"),
                "-D",
                str(self.directory / "data"),
                "-l",
                str(self.directory / "server.log"),
                "-o",
                self.flags,
                "-w",
                "-t",
                "60",
                action,
            ]
        )

    def crash(self) -> None:
        """Stop the server at once (``pg_ctl stop -m immediate``: every session cut, no clean shutdown), its
        data kept for ``start_again``."""
        assert self.directory is not None
        stopped = self._run(
            [str(find_binaries() / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "immediate", "-w", "stop"]
        )
        assert stopped.returncode == 0, stopped.stderr

    def start_again(self) -> None:
        """Start the server stopped by ``crash`` on the same port (it recovers from its log), once it answers."""
        started = self._pg_ctl("start")
        assert started.returncode == 0, started.stderr + self._log_tail()
        self._wait_ready()

    def _log_tail(self) -> str:
        log = self.directory / "server.log" if self.directory else None
        return "\n" + log.read_text(errors="replace")[-800:] if log and log.exists() else ""

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=5).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "arbitre") -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'create database "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its directory."""
        if self.directory is None:
            return
        binaries = find_binaries()
        self._run([str(binaries / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop"])
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None


def wait_until_lock_is_free(url: str, space: int, name: str, timeout: float = 10.0) -> None:
    """Until no session holds the advisory lock ``(space, hashtext(name))``: after a process is killed, the
    server ends its session, and frees its locks, a moment later, once it reads the closed socket."""
    import psycopg

    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("select pg_try_advisory_lock(%s, hashtext(%s))", [space, name]).fetchone()
            if row is not None and row[0]:
                conn.execute("select pg_advisory_unlock(%s, hashtext(%s))", [space, name])
                return
            time.sleep(0.01)
    raise AssertionError(f"a killed process's session still holds the lock on {name!r} after {timeout} s")
