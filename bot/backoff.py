"""Exponential backoff with full jitter, shared by the outbox's retries and the adapters' reconnections:
the n-th wait is a random time below ``min(cap, 2^n)`` seconds, so that processes that failed together
do not try again in lockstep."""

from __future__ import annotations

import random


def ceiling(exponent: int, cap: float) -> float:
    """The longest wait at ``exponent``: ``min(cap, 2^exponent)`` seconds (exponents below 0 count as 0)."""
    return min(cap, 2.0 ** min(max(0, exponent), 30))


def full_jitter(exponent: int, cap: float, rng: random.Random | None = None) -> float:
    """A wait anywhere between 0 and :func:`ceiling` (``rng``: a seeded source, or the module's)."""
    return (rng.uniform if rng is not None else random.uniform)(0.0, ceiling(exponent, cap))
