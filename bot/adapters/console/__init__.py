"""The console adapter: a chat room in the terminal, and the embedded default of ``make run``.

Each input line is ``NAME: MESSAGE``, or just ``MESSAGE`` (sent by the last
speaker), or ``NAME> MESSAGE`` for a private message to the bot. A name is an
account: ``Ben#2: ...`` is another account whose display name is also Ben.
Speakers are ordinary players unless named with ``--admin NAME``. Lines starting
with ``#`` are comments; ``:sleep SECONDS`` lets the clock run (for scripts).
Replies are printed with their audience; board images are written to files.
Reading from a pipe runs the script to its end and exits 0; a script's commands wait for
the word lists being prepared, where a person typing is told at once that a list is.
The room is created at its first start, in ``--lang``'s language with that language's
edition; from then on its stored settings are kept at every start.

``--room NAME`` makes the process another room (``RoomKey``): several console processes on one database
are each their own room, with its own games, settings, clock and files, and the same accounts.
"""
