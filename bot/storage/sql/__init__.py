"""The storage on an SQL database, written once for SQLite and PostgreSQL: the statements of each aggregate
(``store``: channels, games, the event log, rounds, clock leases, house words; ``games``: players and private
moves; ``outbox``; ``series``; ``simultanes``; ``views``), the spelling of each backend (``dialect``), the one
schema history (``migrations``), and the backends (``sqlite``, ``memory``, ``postgres``) that give them a
connection and transactions."""
