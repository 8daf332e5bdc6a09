"""Storage by aggregate: ``Storage`` is its aggregates' protocols and nothing of its own, each method is
declared by one aggregate, and both SQL backends serve every one."""

from __future__ import annotations

from typing import Protocol

from bot.storage import (
    ChannelStore,
    ClockStore,
    GameLog,
    HouseWordStore,
    OutboxStore,
    SeriesStore,
    SimultaneStore,
    SQLiteStorage,
    Storage,
    Transactions,
    ViewStore,
)

AGGREGATES: tuple[type, ...] = (
    Transactions,
    ChannelStore,
    GameLog,
    ClockStore,
    OutboxStore,
    HouseWordStore,
    SeriesStore,
    ViewStore,
    SimultaneStore,
)


def _declared(protocol: type) -> set[str]:
    """The methods and attributes a protocol declares itself."""
    names = {name for name in vars(protocol) if not name.startswith("_")}
    return names | set(vars(protocol).get("__annotations__", {}))


def test_storage_is_its_aggregates_and_nothing_else() -> None:
    assert Storage.__bases__ == (*AGGREGATES, Protocol)
    assert _declared(Storage) == set()


def test_each_method_belongs_to_one_aggregate() -> None:
    seen: dict[str, list[str]] = {}
    for protocol in AGGREGATES:
        for name in _declared(protocol):
            seen.setdefault(name, []).append(protocol.__name__)
    assert {name: owners for name, owners in seen.items() if len(owners) > 1} == {}


def test_both_backends_serve_every_aggregate() -> None:
    from bot.storage.sql.postgres import PostgresStorage

    wanted = set().union(*(_declared(protocol) for protocol in AGGREGATES))
    for backend in (SQLiteStorage, PostgresStorage):
        assert {name for name in wanted if not hasattr(backend, name)} == set()
