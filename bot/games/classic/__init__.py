"""The classic game: its commands (``commands``: /new /score /challenge /pass /exchange /penalty /undo),
who acts for which seat (``turns``), its settings and clock commands (``settings``), its clock (``clock``),
its end (``ending``: /end, and /undo right after it), and its ``Kind`` (``kind``)."""
