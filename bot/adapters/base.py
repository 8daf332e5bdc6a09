"""What every adapter shares: platform ids and the platform's time of a message."""

from __future__ import annotations


def platform_id(key: str | None, platform: str) -> int | None:
    """``"discord:123"`` -> 123 (None for another platform's id or no id)."""
    if not key:
        return None
    prefix, _, rest = key.partition(":")
    if prefix != platform:
        return None
    try:
        return int(rest)
    except ValueError:
        return None


PLATFORM_TIME_SPAN = 60.0  # seconds: a platform's time further back than this is another clock's (a test's)


def platform_received(now: float, local: float, platform: float | None) -> float | None:
    """When a message reached the platform, on the referee's clock (``now``; ``Incoming.received``): its
    age by the platform's own time (``platform``, on the adapter's clock ``local``; never negative), so
    that an answer queued on its way (a crowd, a process behind) is timed when it was handed in; None (the
    service stamps its arrival) without a platform time, or with one too far back to be of the same clock."""
    if platform is None or not local - PLATFORM_TIME_SPAN <= platform:
        return None
    return now - max(0.0, local - platform)
