"""What an operator sets and watches when running the bot.

``metrics`` serves the metrics in Prometheus' text format and the health check; ``ports`` reads the port
options (``--metrics-port``, ``--web-port``); ``tokens`` reads the chat adapters' bot tokens and keeps them
out of logs; ``exit_codes`` the statuses the commands exit with.
"""
