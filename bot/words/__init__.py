"""The word lists on the chat side: finding, compiling and caching them, and what each channel's games use.

``loader`` finds a list (bundled in ``lexicons/``, the operator's folder, a path), reads it and keeps its
compiled form in the cache (the I/O side of ``core.lexicon``); ``registry`` keeps a process's compiled lists,
compiled in the background when asked to; ``house`` is a channel's house words (its additions to and removals
from a list); ``game_lists`` gives the commands a game's list with the channel's house words applied, never
waited for, and says what a verdict used.
"""
