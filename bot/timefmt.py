"""Times shown in a channel: in the channel's time zone, named so nobody has to guess."""

from __future__ import annotations

import datetime as dt
import math
import zoneinfo
from functools import lru_cache


class UnknownTimeZoneError(Exception):
    """A time zone name that is not in the time zone database."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown time zone {name!r}")
        self.name = name


@lru_cache(maxsize=64)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone called ``name`` (``Europe/Paris``, ``UTC``...); UnknownTimeZoneError otherwise."""
    if not name or len(name) > 64 or name.startswith(("/", ".")) or ".." in name:
        raise UnknownTimeZoneError(name)
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise UnknownTimeZoneError(name) from None


def canonical_zone(name: str) -> str:
    """The zone name as the database spells it (``europe/paris`` -> ``Europe/Paris``)."""
    wanted = name.strip()
    if wanted.upper() == "UTC":
        return "UTC"
    by_lower = {z.lower(): z for z in zoneinfo.available_timezones()}
    found = by_lower.get(wanted.lower(), wanted)
    zone(found)
    return found


def clock_time(timestamp: float, zone_name: str) -> str:
    """``21:04:30 (Europe/Paris)``: a deadline as a wall-clock time in the channel's zone."""
    local = dt.datetime.fromtimestamp(timestamp, zone(zone_name))
    return f"{local:%H:%M:%S} ({zone_name})"


def time_left(seconds: float) -> str:
    """``45 s``, ``1 min 30 s``, ``2 min``: a time left, in whole seconds (the same in every language)."""
    whole = max(0, math.floor(seconds + 0.5))  # half a second up: a reopening for 4,5 s shows 5 s
    minutes, rest = divmod(whole, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


def date_time(timestamp: float, zone_name: str) -> str:
    """``2026-11-30 21:04``: when a game started, in the channel's zone."""
    return f"{dt.datetime.fromtimestamp(timestamp, zone(zone_name)):%Y-%m-%d %H:%M}"
