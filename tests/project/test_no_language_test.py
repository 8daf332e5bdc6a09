"""No code of ``bot/`` (nor ``core/``) chooses a keyword, a time zone, a text or a rule set by testing a
language or edition code: such choices are data, in the catalogs (``bot/locale/``) and the edition files
(``core/editions/``).

Each module is read with ``ast``; a comparison (``==``, ``!=``, ``in``, ``not in``, a ``match`` case)
with a string literal that is a language or edition code, alone or in a literal tuple, list or set, is
a failure.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bot.messages import languages
from core.edition import EDITIONS
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
PACKAGES = ("bot", "core")
# Modules allowed to test a language code (the catalogs' loader would be, if it had to name its files:
# it does not, it finds them by their folders).
ALLOWED: set[Path] = set()
# Languages of the editions on their way (issue 23) besides those shipped, and the catalogs' own.
CODES = frozenset({"fr", "en", "ca", "es", "ro", "it", "de", "pl", *EDITIONS, *languages()})


def _codes_in(node: ast.AST) -> list[str]:
    """The language codes a compared operand is or holds as literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value.strip().lower() in CODES else []
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [code for item in node.elts for code in _codes_in(item)]
    return []


def language_tests(source: str) -> list[tuple[int, str]]:
    """Each comparison of ``source`` with a language-code literal: its line and the codes compared."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        operands: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            operands = [node.value]
        codes = [code for operand in operands for code in _codes_in(operand)]
        if codes:
            found.append((getattr(node, "lineno", 0), ", ".join(codes)))
    return found


def test_the_check_finds_every_form_of_a_language_test() -> None:
    source = (
        'if lang == "fr": pass\n'
        'x = "en" != language\n'
        'y = code in ("manual", "FR")\n'
        'z = lang not in ["de"]\n'
        'match lang:\n    case "es": pass\n'
        'ok = lang == other or word in ("manuel", "-") or lang == DEFAULT\n'
    )
    assert language_tests(source) == [(1, "fr"), (2, "en"), (3, "FR"), (4, "de"), (6, "es")]


def test_no_module_tests_a_language_code() -> None:
    found = {}
    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            where = path.relative_to(ROOT)
            tests = language_tests(path.read_text(encoding="utf-8")) if where not in ALLOWED else []
            if tests:
                found[str(where)] = tests
    assert found == {}
