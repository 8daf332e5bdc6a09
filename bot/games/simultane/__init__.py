"""The simultané: one duplicate game played in many rooms, each under its own arbiter and clock, with one
ranking. Its commands (``commands``: /simultane), who takes part and when (``entries``), a room's game
started (``launch``), one account in one room (``accounts``), rooms paced together (``pacing``), its
clock (``clock``), its tops searched once for every room (``tops``), its overall ranking (``ranking``)
and its files for the federation (``export``)."""
