"""Faults the fake Telegram serves on a test's demand: rate limits (429), flood waits held by flood
control, errors and server errors, reset connections, slow answers and outages, and the bookkeeping of
what was served (``faults_served``) and of the limits (``flood_control``).
"""

from __future__ import annotations

from ._common import Fault, Outages, ServedFault
from .telegram_limits import FloodControl
from .telegram_state import TelegramState


class TelegramFaults(TelegramState, Outages):
    """Fault injection: what goes wrong at the next calls, and what went wrong."""

    def flood_control(self) -> FloodControl:
        """The fake's flood control (one started with ``flood_control=False`` has none)."""
        assert self.flood is not None, "the fake was started without flood control"
        return self.flood

    # ------------------------------------------------------------------ fault injection
    # ``method`` is a Bot API method name (any case) or "*" for every method.

    def rate_limit_next(self, method: str, retry_after: int = 1, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` get a 429 flood-control answer.

        ResponseParameters: ``retry_after`` is an Integer, "the number of seconds left to wait";
        Telegram's answers say at least 1, so anything else is refused here.
        """
        if isinstance(retry_after, bool) or not isinstance(retry_after, int) or retry_after < 1:
            raise ValueError(f"Telegram's retry_after is a whole number of seconds >= 1, not {retry_after!r}")
        body = {
            "ok": False,
            "error_code": 429,
            "description": f"Too Many Requests: retry after {retry_after}",
            "parameters": {"retry_after": retry_after},
        }
        self._faults.append(Fault(method.lower(), None, 429, body, count=count, kind="429"))

    def flood_wait(self, seconds: int = 35, chat_id: int | None = None) -> None:
        """A flood wait of ``seconds`` served at the next message or edit to ``chat_id`` (to any chat when
        None): answered "Too Many Requests: retry after N" and then held, unlike :meth:`rate_limit_next`'s
        single answer: that chat (None: the whole bot) is refused for N s of the fake's clock, and a request
        during the wait doubles it (:meth:`tests.fakes.telegram_limits.FloodControl.trip`). Needs flood
        control on."""
        if self.flood is None:
            raise ValueError("flood_wait needs flood control (FakeTelegram(flood_control=True), the default)")
        self.flood.trip(seconds, chat_id)

    def fail_next(self, method: str, error_code: int, description: str, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` fail with the given error."""
        body = {"ok": False, "error_code": error_code, "description": description}
        kind = "5xx" if error_code >= 500 else "error"
        self._faults.append(Fault(method.lower(), None, error_code, body, count=count, kind=kind))

    def server_error_next(self, method: str = "*", *, count: int = 1, status: int = 500) -> None:
        """The next ``count`` calls of ``method`` get an HTTP ``status`` server error: a JSON 500
        like the Bot API's, or the HTML page of the proxy in front of it (502, 503, 504)."""
        if status < 500:
            raise ValueError("a server error is 5xx")
        if status == 500:
            self.fail_next(method, 500, "Internal Server Error", count=count)
            return
        self._faults.append(Fault(method.lower(), None, status, None, count=count, kind="5xx"))

    def reset_next(self, method: str = "*", *, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` have their connection reset (no answer)."""
        self._faults.append(Fault(method.lower(), None, 0, None, count=count, kind="reset", reset=True))

    def slow_next(self, method: str, seconds: float, *, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` are answered normally, after ``seconds`` of real time
        (a Bot API under load: the call is slow, not refused)."""
        self._slow.extend([(method.lower(), seconds)] * count)

    def outage(self, duration: float = 30.0, *, mode: str = "reset") -> None:
        """Refuse every call for ``duration`` seconds of the fake's clock (end it early with
        :meth:`advance` or :meth:`end_outage`): connections reset (``mode="reset"``) or HTTP 502
        (``"unavailable"``). Pending long polls are cut too."""
        self._begin_outage(duration, mode)
        self._wake_pollers("outage")

    def faults_of(self, kind: str) -> list[ServedFault]:
        return [f for f in self.faults_served if f.kind == kind]

    def _served(self, kind: str, method: str) -> None:
        self.faults_served.append(ServedFault(kind, method, method, self.now()))

    def _match_fault(self, key: str) -> Fault | None:
        for fault in self._faults:
            if fault.method in (key, "*") and fault.count > 0:
                fault.count -= 1
                if fault.count == 0:
                    self._faults.remove(fault)
                return fault
        return None
