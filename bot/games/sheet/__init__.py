"""The sheet without a board (``core.boardless``): a table plays on its own board and types each turn's
points. Its ``Kind`` and what is said of a sheet (``kind``), and its commands (``commands``: /new with
``no-board``, and its handlers of /score /pass /exchange /challenge /undo /end /join)."""
