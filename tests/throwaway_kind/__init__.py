"""A throwaway kind of game laid out as a package of ``bot/games`` would be (``tests/bot/games/test_kind_package.py``
plays it): its class (``game``, what ``core`` would hold), its ``Kind`` (``kind``), its commands
(``commands``) and its messages (``messages.po``, what each catalog of ``bot/locale`` would hold). Adding
it is one line, importing its commands module where ``bot/games/installed.py`` imports the others; its
name in ``GameKind`` (``bot/storage/records.py``) is one more, which the test makes for itself."""
