"""Which process runs each channel's duplicate clock when several share one database.

A lease row per channel (in storage) names its owner and an expiry; the owner renews it at every
tick while the channel has clock work due (a warning or a close within ``WARNING_SECONDS``), and
other processes leave that channel alone. When the owner dies, its leases expire and the next
process to tick takes them over: a round closes late by at most the lease time (plus a tick). The
lease spares duplicated work and double warnings; a round closed once is the storage's guarantee
(each close re-reads the round under the channel's lock, and ``closes`` has a primary key).
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

LEASE_SECONDS = 10.0
LEASE_ENV = "ARBITRE_CLOCK_LEASE"  # seconds, for every process of a deployment (and the tests)


class BadLeaseError(Exception):
    """A lease time that is not a positive number of seconds."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{LEASE_ENV}={text!r}: a positive number of seconds is needed")
        self.text = text


@dataclass(frozen=True)
class ClockLease:
    """This process's name as a clock owner, and how long a lease lasts unless renewed."""

    owner: str
    seconds: float = LEASE_SECONDS

    @classmethod
    def for_this_process(cls) -> ClockLease:
        """Owner ``HOST:PID`` (referees of one process share their leases), lease time from
        ``ARBITRE_CLOCK_LEASE`` or 10 s."""
        text = os.environ.get(LEASE_ENV, "").strip()
        seconds = LEASE_SECONDS
        if text:
            try:
                seconds = float(text)
            except ValueError:
                raise BadLeaseError(text) from None
            if not seconds > 0:
                raise BadLeaseError(text)
        return cls(f"{socket.gethostname()}:{os.getpid()}", seconds)
