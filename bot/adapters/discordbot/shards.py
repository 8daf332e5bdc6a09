"""Which Discord shards a bot process runs: ``--shard-count N --shards A-B``.

Discord splits a bot's servers between shards: server ``G`` belongs to shard ``(G >> 22) % N``,
and DMs come to shard 0 (Topics > Gateway > Sharding). A process runs a range of shards; several
processes on different ranges, over one database, serve all of them. No discord.py import here:
the command line checks the options before loading the library.
"""

from __future__ import annotations

from dataclasses import dataclass


class ShardRangeError(ValueError):
    """A shard range that does not name shards of the count given (``text`` as typed)."""

    def __init__(self, text: str, count: int, reason: str) -> None:
        super().__init__(f"--shards {text!r} with --shard-count {count}: {reason}")
        self.text = text
        self.count = count
        self.reason = reason


@dataclass(frozen=True)
class ShardRange:
    """Shards ``ids`` (in order) of ``count`` shards in all."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ShardRangeError(",".join(map(str, self.ids)), self.count, "the shard count must be at least 1")
        if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ShardRangeError(
                ",".join(map(str, self.ids)), self.count, f"shards are numbered 0 to {self.count - 1}"
            )

    @classmethod
    def every(cls, count: int) -> ShardRange:
        """All ``count`` shards in one process."""
        return cls(count, tuple(range(count)))

    def owns(self, guild_id: int) -> bool:
        """Whether server ``guild_id`` belongs to one of these shards."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        first, last = self.ids[0], self.ids[-1]
        shards = f"shard {first}" if first == last else f"shards {first}-{last}"
        return f"{shards} of {self.count}"


def shard_of(guild_id: int, count: int) -> int:
    """The shard of server ``guild_id`` among ``count`` shards."""
    return (guild_id >> 22) % count


def parse_shard_range(text: str | None, count: int) -> ShardRange:
    """``"A-B"`` (or one number ``"A"``) of ``count`` shards; None or ``""``: all of them.

    Raises :class:`ShardRangeError` for anything else (a reversed range, a shard past the count)."""
    if count < 1:
        raise ShardRangeError(text or "", count, "the shard count must be at least 1")
    if not text:
        return ShardRange.every(count)
    first, dash, last = text.strip().partition("-")
    if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
        raise ShardRangeError(text, count, "expected A-B, two shard numbers (or one)")
    start, end = int(first), int(last) if dash else int(first)
    if start > end:
        raise ShardRangeError(text, count, "the first shard comes after the last")
    if end >= count:
        raise ShardRangeError(text, count, f"shards are numbered 0 to {count - 1}")
    return ShardRange(count, tuple(range(start, end + 1)))
