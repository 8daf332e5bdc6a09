"""The referee in an event loop, above ``bot.referee`` and below the adapters.

``service`` runs each channel's commands in order and channels in parallel, the clock, the outbox worker
and the heartbeat; ``batches`` does together the work that arrives while earlier work runs (the private
``/play`` answers recorded in one thread call).
"""
