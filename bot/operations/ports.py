"""The port options (``--metrics-port``, ``--web-port``): a number from 0 (any free port) to 65535."""

from __future__ import annotations

from collections.abc import Callable


class BadPortError(Exception):
    """A port that is not a number from 0 to 65535; ``what`` names the option it was given for."""

    def __init__(self, what: str, text: str) -> None:
        super().__init__(f"{what} port {text!r}: a number from 0 to 65535 is needed")
        self.what = what
        self.text = text


def port_number(text: int | str, error: Callable[[str], BadPortError]) -> int:
    """``text`` as a port number; raises ``error(str(text))`` when it is none."""
    try:
        number = int(text)
    except ValueError:
        raise error(str(text)) from None
    if not 0 <= number <= 65535:
        raise error(str(text))
    return number
