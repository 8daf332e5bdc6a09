"""The duplicate game: its commands (``commands``: /duplicate /draw /play /close, and its side of /join
and /end), the arbiter's corrections (``arbiter``), its games loaded and saved with their tops
(``games``), its rounds and clock (``rounds``), a close handed over in order with its images drawn after
(``closes``), what is said and shown of it (``texts``, ``views``, ``sanctions``), a private /play decided
once (``play_decision``) for the quick way (``submissions``) and the usual one, answers stored after a
close (``submissions_late``), and its ``Kind`` (``kind``)."""
