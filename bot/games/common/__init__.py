"""The commands every kind of game shares: /help /settings /check (``general``), /words, /games
(``history``), the views answered through each game's kind (``views``), /view (``live_view``), and the
text pieces the kinds share (``formatting``, ``renamed``)."""
