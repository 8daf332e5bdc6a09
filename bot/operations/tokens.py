"""Bot tokens for the chat adapters: where they come from, and keeping them out of logs.

A token is read, in this order, from:

1. the config file given with ``--config PATH`` (it must exist);
2. the environment: ``ARBITRE_DISCORD_TOKEN`` / ``ARBITRE_TELEGRAM_TOKEN``, else the file that
   ``ARBITRE_DISCORD_TOKEN_FILE`` / ``ARBITRE_TELEGRAM_TOKEN_FILE`` names (a container's secret);
3. the default config file ``$XDG_CONFIG_HOME/arbitre/tokens.toml`` (``~/.config/arbitre/tokens.toml``),
   when it exists.

The config file is TOML and must be readable and writable by its owner only (``chmod 600``)::

    [discord]
    token = "..."

    [telegram]
    token = "123456:ABC..."

(``discord = "..."`` and ``telegram = "..."`` at the top level work too.)

The Telegram webhook's secret token (``arbitre telegram --webhook``) is read from the same places:
``webhook_secret = "..."`` in the ``[telegram]`` section, or ``ARBITRE_TELEGRAM_WEBHOOK_SECRET``.

Every failure is a :class:`TokenError` whose message is one line and never contains a token.
"""

from __future__ import annotations

import logging
import os
import stat
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

ENV_VARS = {"discord": "ARBITRE_DISCORD_TOKEN", "telegram": "ARBITRE_TELEGRAM_TOKEN"}
WEBHOOK_SECRET_VAR = "ARBITRE_TELEGRAM_WEBHOOK_SECRET"
FILE_SUFFIX = "_FILE"  # ARBITRE_DISCORD_TOKEN_FILE=/run/secrets/discord_token: the secret in a file of its own
PLATFORM_NAMES = {"discord": "Discord", "telegram": "Telegram"}
MASK = "***"


class TokenError(Exception):
    """A token that cannot be had: missing, unreadable, or in a file others can read or write."""


def default_config_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/arbitre/tokens.toml``, ``~/.config/arbitre/tokens.toml`` by default."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "arbitre" / "tokens.toml"


_READ_BY_OTHERS = stat.S_IRGRP | stat.S_IROTH
_WRITTEN_BY_OTHERS = stat.S_IWGRP | stat.S_IWOTH


def check_private(path: Path) -> None:
    """Refuse a token file that the group or others can read or write (a file others can write
    can be given a token of their choosing, or read through a link they put in its place)."""
    if os.name == "nt":  # POSIX modes mean nothing there
        return
    mode = path.stat().st_mode
    could = [verb for verb, bits in (("read", _READ_BY_OTHERS), ("written", _WRITTEN_BY_OTHERS)) if mode & bits]
    if could:
        raise TokenError(
            f"{path} can be {' and '.join(could)} by other users (mode {stat.S_IMODE(mode):04o}); "
            f"make it private with: chmod 600 {path}"
        )


def read_config(path: Path) -> dict[str, object]:
    """The parsed token file, after checking who may read it."""
    try:
        check_private(path)
        raw = path.read_bytes()
    except FileNotFoundError:
        raise TokenError(f"token file {path} not found") from None
    except OSError as error:
        raise TokenError(f"cannot read token file {path}: {error.strerror or error}") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        # tomllib's messages give a line and column, never the offending text
        reason = str(error).splitlines()[0] if str(error) else "invalid TOML"
        raise TokenError(f"token file {path} is not valid TOML: {reason}") from None


def _token_in(config: Mapping[str, object], platform: str) -> str | None:
    section = config.get(platform)
    if isinstance(section, Mapping):
        value = section.get("token")
    else:
        value = section if section is not None else config.get(f"{platform}_token")
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _look_up(
    config: str | os.PathLike[str] | None,
    environ: Mapping[str, str] | None,
    variable: str,
    pick: Callable[[Mapping[str, object]], str | None],
    not_in_file: str,
    nowhere: str,
) -> str:
    """A secret from the given config file, else the environment variable, else the default config
    file; :class:`TokenError` with ``not_in_file`` or ``nowhere`` (``{path}`` filled in) otherwise."""
    env = os.environ if environ is None else environ
    if config is not None:
        path = Path(config).expanduser()
        found = pick(read_config(path))
        if found:
            return found
        raise TokenError(not_in_file.format(path=path))
    from_env = (env.get(variable) or "").strip()
    if from_env:
        return from_env
    secret_file = (env.get(f"{variable}{FILE_SUFFIX}") or "").strip()
    if secret_file:
        return _read_secret_file(Path(secret_file), f"{variable}{FILE_SUFFIX}")
    path = default_config_path(env)
    if path.exists():
        found = pick(read_config(path))
        if found:
            return found
    raise TokenError(nowhere.format(path=path))


def _read_secret_file(path: Path, variable: str) -> str:
    """The secret held by the file a ``..._FILE`` variable names (a container's secret, mounted read-only)."""
    try:
        found = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else type(error).__name__
        raise TokenError(f"{variable}: cannot read {path}: {reason}") from None
    if not found:
        raise TokenError(f"{variable}: {path} is empty")
    return found


def load_token(
    platform: str, config: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The token for ``platform`` ("discord" or "telegram"); :class:`TokenError` when there is none."""
    variable = ENV_VARS[platform]
    return _look_up(
        config,
        environ,
        variable,
        lambda found: _token_in(found, platform),
        f'no {platform} token in {{path}} (expected [{platform}] token = "...")',
        f"no {PLATFORM_NAMES[platform]} token: set {variable} or put "
        f'[{platform}] token = "..." in {{path}} (chmod 600)',
    )


def _webhook_secret_in(config: Mapping[str, object]) -> str | None:
    section = config.get("telegram")
    value = section.get("webhook_secret") if isinstance(section, Mapping) else None
    return value.strip() if isinstance(value, str) and value.strip() else None


def load_webhook_secret(config: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The Telegram webhook's secret token, found as :func:`load_token` finds the token (``webhook_secret``
    in the ``[telegram]`` section, or ``ARBITRE_TELEGRAM_WEBHOOK_SECRET``); :class:`TokenError` if none."""
    return _look_up(
        config,
        environ,
        WEBHOOK_SECRET_VAR,
        _webhook_secret_in,
        'no webhook secret in {path} (expected [telegram] webhook_secret = "...")',
        f"a webhook needs a secret token: set {WEBHOOK_SECRET_VAR} or put [telegram] "
        'webhook_secret = "..." in {path} (chmod 600); 1-256 characters among A-Z a-z 0-9 _ -',
    )


# --- keeping tokens out of logs and error messages ----------------------------------------


def mask(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (and, for Telegram tokens, the secret part) replaced by ***."""
    for secret in secrets:
        if not secret:
            continue
        text = text.replace(secret, MASK)
        _, colon, key = secret.partition(":")  # Telegram: "123456:SECRET"; the id is not secret
        if colon and len(key) >= 8:
            text = text.replace(key, MASK)
    return text


class MaskingFormatter(logging.Formatter):
    """Formats like the formatter it wraps, then masks the secrets (tracebacks included)."""

    def __init__(self, inner: logging.Formatter | None, secrets: Iterable[str]) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        return mask(self.inner.format(record), self.secrets)
