"""Games in play: what lives from one command to the next, below the dispatcher that hands it to the
handlers (``bot.commands.services``): the games kept in memory and the unit of work that keeps them true
to the log (``cache``), the duplicate clock's state and the tops it searches ahead (``clock``,
``top_searches``), which process runs each channel's clock (``clock_lease``), the views posted lately
(``shown_views``), and the seats bound to the accounts that play them (``seats``). It imports neither the
commands nor the kinds of game.
"""
