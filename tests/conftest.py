"""Shared fixtures."""

from __future__ import annotations

import pytest

from core.board import Board


@pytest.fixture
def empty_board() -> Board:
    return Board()
