"""A dealt game's clock: what the clock tick does about its stored deadline."""

from __future__ import annotations

from ...chat import Reply
from ...commands.services import Services
from ...storage import Deadline


def clock_decision(services: Services, deadline: Deadline, now: float) -> list[Reply]:
    """Nothing yet: the deadline is dropped."""
    services.storage.open_round(deadline.game, deadline.round, None)
    return []
