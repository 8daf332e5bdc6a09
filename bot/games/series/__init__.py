"""The series: a tournament of the channel's duplicate games, and of simultanés it organised, with one
ranking. Its commands (``commands``: /series /season), its simultanés (``simultanes``: /series add and
remove) and its rankings as tables and CSV (``tables``)."""
