"""The process's log as an operator tunes it: its level and its format, secrets masked in every line.

``--log-level`` (or ``ARBITRE_LOG_LEVEL``): ``debug``, ``info`` (the default), ``warning`` or ``error``, for
Arbitre's own loggers; the libraries (discord.py, python-telegram-bot, httpx, aiohttp) log from ``warning``
up, or from ``debug`` up when Arbitre does. ``--log-format`` (or ``ARBITRE_LOG_FORMAT``): ``text``, one
readable line per record, or ``json``, one JSON object per line for a log collector (``time`` in UTC,
``level``, ``logger``, ``message``, ``exception`` with the traceback when there is one).
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TextIO

from .tokens import MaskingFormatter

LEVEL_ENV = "ARBITRE_LOG_LEVEL"
FORMAT_ENV = "ARBITRE_LOG_FORMAT"
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}
FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
OWN_LOGGER = "arbitre"


class BadLogOptionError(ValueError):
    """A log level or format that is none of those known (the message names the option and the choices)."""


@dataclass(frozen=True)
class LogSettings:
    """The level of Arbitre's loggers and the format of every line."""

    level: int = logging.INFO
    format: str = "text"


def log_settings(level: str | None = None, form: str | None = None, default_level: str = "info") -> LogSettings:
    """The settings the options ask for, else the environment's, else ``default_level`` and ``text``."""
    level_name = (level or os.environ.get(LEVEL_ENV, "") or default_level).strip().lower()
    form_name = (form or os.environ.get(FORMAT_ENV, "") or "text").strip().lower()
    if level_name not in LEVELS:
        raise BadLogOptionError(f"log level {level_name!r}: one of {', '.join(LEVELS)} is needed")
    if form_name not in FORMATS:
        raise BadLogOptionError(f"log format {form_name!r}: one of {', '.join(FORMATS)} is needed")
    return LogSettings(LEVELS[level_name], form_name)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)


def configure(settings: LogSettings, secrets: Iterable[str] = (), stream: TextIO | None = None) -> logging.Handler:
    """One log handler on ``stream`` (standard error) for the whole process, in ``settings``' format, with
    ``secrets`` masked in every line; one set up so before is replaced (other handlers are left as they are,
    masked too). The handler."""
    formatter = JsonFormatter() if settings.format == "json" else logging.Formatter(TEXT_FORMAT)
    handler = _OwnHandler(stream)
    handler.setFormatter(MaskingFormatter(formatter, secrets))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _OwnHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    mask_more(secrets)
    root.setLevel(logging.DEBUG if settings.level <= logging.DEBUG else logging.WARNING)
    logging.getLogger(OWN_LOGGER).setLevel(settings.level)
    return handler


class _OwnHandler(logging.Handler):
    """The handler ``configure`` sets up (told from others, such as a test runner's): each line to its stream,
    by default the standard error of the moment."""

    def __init__(self, stream: TextIO | None) -> None:
        super().__init__()
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = self.stream if self.stream is not None else sys.stderr
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:
            self.handleError(record)


def mask_more(secrets: Iterable[str]) -> None:
    """Mask ``secrets`` too in every line the handlers of the root logger write (a token read after the log
    was set up)."""
    extra = [secret for secret in secrets if secret]
    for handler in logging.getLogger().handlers:
        formatter = handler.formatter
        if isinstance(formatter, MaskingFormatter):
            formatter.secrets.extend(s for s in extra if s not in formatter.secrets)
        else:
            handler.setFormatter(MaskingFormatter(formatter, extra))
