"""The settings of one classic game, over its rule set's defaults (docs/rules.md, "Challenge options" and
"Game clocks"): each a name and a canonical value, applied to the ``RuleSet`` with ``dataclasses.replace``.

- ``penalty``: points per word wrongly challenged (0 to 50; 0, 5 and 10 are the usual ones);
- ``double``: ``on``/``off``, a wrongly challenged word costs the challenger their next turn;
- ``void``: ``on``/``off``, a challenge costs nothing (a phony is simply taken off, a valid word stands);
- ``zeros``: ``on``/``off``, the scoreless turns limit (six for two players) ends the game;
- ``clock``: ``off``, ``chess`` or ``chess:MINUTES`` (a chess clock per player, 1 to 600 minutes),
  ``stopwatch`` or ``stopwatch:SECONDS`` (a time per move, 10 to 3600 seconds).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from .errors_classic import SettingNameError, SettingValueError
from .rules import ClockMode, RuleSet

SETTING_NAMES = ("penalty", "double", "void", "zeros", "clock")
MAX_CHALLENGE_PENALTY = 50
CLOCK_MINUTES = (1, 600)
STOPWATCH_SECONDS = (10, 3600)
_SWITCHES = ("double", "void", "zeros")


def _number(name: str, value: str, low: int, high: int, choices: str) -> int:
    if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
        raise SettingValueError(name, value, choices)
    return int(value)


def with_setting(rules: RuleSet, name: str, value: str) -> RuleSet:
    """``rules`` with one game setting applied; SettingNameError or SettingValueError when it cannot be."""
    if name == "penalty":
        points = _number(name, value, 0, MAX_CHALLENGE_PENALTY, f"0-{MAX_CHALLENGE_PENALTY}")
        return dataclasses.replace(rules, challenge_penalty_per_word=points)
    if name in _SWITCHES:
        if value not in ("on", "off"):
            raise SettingValueError(name, value, "on, off")
        on = value == "on"
        if name == "double":
            return dataclasses.replace(rules, challenge_lost_turn=on)
        if name == "void":
            return dataclasses.replace(rules, challenge_void=on)
        return dataclasses.replace(rules, scoreless_ends=on)
    if name == "clock":
        return _with_clock(rules, value)
    raise SettingNameError(name)


def _with_clock(rules: RuleSet, value: str) -> RuleSet:
    choices = "off, chess, chess:MINUTES, stopwatch, stopwatch:SECONDS"
    mode, _, amount = value.partition(":")
    if mode == "off" and not amount:
        return dataclasses.replace(rules, clock=ClockMode.NONE)
    if mode == "chess":
        minutes = _number("clock", amount, *CLOCK_MINUTES, choices) if amount else rules.clock_minutes
        return dataclasses.replace(rules, clock=ClockMode.CHESS, clock_minutes=minutes)
    if mode == "stopwatch":
        seconds = _number("clock", amount, *STOPWATCH_SECONDS, choices) if amount else rules.stopwatch_seconds
        return dataclasses.replace(rules, clock=ClockMode.STOPWATCH, stopwatch_seconds=seconds)
    raise SettingValueError("clock", value, choices)


def with_settings(rules: RuleSet, settings: Mapping[str, str]) -> RuleSet:
    """``rules`` with every game setting applied, in the order they were chosen."""
    for name, value in settings.items():
        rules = with_setting(rules, name, value)
    return rules
