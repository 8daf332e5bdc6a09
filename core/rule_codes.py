"""The codes of the rule sets ``core.rules`` defines, named apart so that an edition file's ``rules`` is
checked (``core.edition``) without loading the rule sets (which read the editions)."""

from __future__ import annotations

RULE_SET_CODES = ("box-fr", "box-en", "fisf", "naspa", "wespa")
