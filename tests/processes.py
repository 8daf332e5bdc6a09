"""The real ``arbitre`` process as an operator starts it: its environment, and its stop by SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cli_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment less every ``ARBITRE_`` variable, its config and data under ``tmp_path``, and ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), ARBITRE_DATA=str(tmp_path / "data"), **extra)
    return env


def interruptible() -> None:
    """Run in a child before it starts (``preexec_fn``): Ctrl-C (SIGINT) stops it as it would at a terminal,
    even when the tests were started in the background, where SIGINT is ignored and children inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


async def terminate(process: asyncio.subprocess.Process, timeout: float = 20) -> tuple[int | None, str]:
    """SIGTERM, then the exit status and what the process wrote on its standard error."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
    try:
        _, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        raise
    return process.returncode, (err or b"").decode()
