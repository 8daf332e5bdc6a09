"""How a Telegram bot process receives updates by webhook: ``--webhook URL --listen HOST --port P``.

Telegram POSTs each update to the public ``URL`` (HTTPS, through a reverse proxy or load balancer
that forwards it to ``HOST:P`` with the same path), with the secret token in the
``X-Telegram-Bot-Api-Secret-Token`` header; a request without it is refused (403), as is one declaring
a body larger than any update (413), on its headers (``.receiver``). Several
processes may serve one bot behind the same URL, sharing the database. No telegram import here:
the command line checks the options before loading the library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")  # setWebhook: 1-256 characters, A-Z a-z 0-9 _ -
DEFAULT_LISTEN = "127.0.0.1"
DEFAULT_PORT = 8080


class WebhookConfigError(ValueError):
    """Webhook options that cannot work (``option`` names the one at fault; never the secret)."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option}: {reason}")
        self.option = option
        self.reason = reason


@dataclass(frozen=True)
class WebhookConfig:
    """Where Telegram sends updates (``url``), where this process listens, and the secret token."""

    url: str
    secret: str = field(repr=False)
    listen: str = DEFAULT_LISTEN
    port: int = DEFAULT_PORT

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise WebhookConfigError("--webhook", f"{self.url!r} is not an http(s) URL with a host")
        if not 0 < self.port < 65536:
            raise WebhookConfigError("--port", f"{self.port} is not a TCP port")
        if not self.listen:
            raise WebhookConfigError("--listen", "an address to listen on is needed")
        if not SECRET_TOKEN.fullmatch(self.secret):
            raise WebhookConfigError(
                "the webhook secret", "1 to 256 characters among A-Z, a-z, 0-9, '_' and '-' (Telegram's rule)"
            )

    @property
    def url_path(self) -> str:
        """The path this process serves: the webhook URL's own (a proxy forwards it unchanged)."""
        return urlsplit(self.url).path.strip("/")

    @property
    def local_address(self) -> str:
        """``http://HOST:P/PATH``, where the proxy must send Telegram's requests."""
        return f"http://{self.listen}:{self.port}/{self.url_path}"
