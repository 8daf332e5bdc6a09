"""The import graph of ``core`` and ``bot`` has no cycle, and no layer imports one above it.

Every import counts, wherever it stands: at module top, inside a function, or under ``TYPE_CHECKING``
(a cycle hidden in a function is still a cycle). Each module's source is read with ``ast``, the graph
of ``core.*`` and ``bot.*`` modules is built, and its strongly connected components are found (Tarjan).
"""

from __future__ import annotations

import ast
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
PACKAGES = ("core", "bot")

# Cycles allowed for now, each with what removes it; delete an entry once its cycle is gone.
KNOWN_CYCLES: list[frozenset[str]] = []  # none: every cycle is a failure

# No module of the first package imports a module of the second: a lower layer never reaches up. From the
# bottom: the games in play (bot.play), the dispatch (bot.commands: the handlers are given their services,
# never the referee), the kinds of game and their commands (bot.games), the referee, the event loop.
KINDS = ("bot.games.classic", "bot.games.duplicate", "bot.games.series", "bot.games.sheet", "bot.games.simultane")
STORAGE_PARTS = tuple(f"bot.storage.{m}" for m in ("protocol", "records", "outbox_records", "simultane_records"))
FORBIDDEN = [
    ("core", "bot"),
    ("bot.play", "bot.commands"),
    ("bot.play", "bot.games"),
    ("bot.play", "bot.referee"),
    ("bot.commands", "bot.games"),
    ("bot.commands", "bot.referee"),
    ("bot.commands", "bot.runtime"),
    ("bot.commands", "bot.adapters"),
    ("bot.commands", "bot.tools"),
    ("bot.games", "bot.referee"),
    ("bot.games", "bot.runtime"),
    ("bot.games", "bot.adapters"),
    ("bot.games", "bot.tools"),
    ("bot.storage", "bot.play"),
    ("bot.storage", "bot.commands"),
    ("bot.storage", "bot.games"),
    ("bot.storage", "bot.referee"),
    ("bot.storage", "bot.outbox"),
    # the outbox keeps its rows in storage and knows nothing of who stores or sends them
    *(("bot.outbox", high) for high in ("bot.commands", "bot.games", "bot.referee", "bot.runtime", "bot.adapters")),
    ("bot.outbox", "bot.storage.sql"),
    ("bot.storage", "bot.web"),
    # the storage protocols and records are what the rest imports: they never load the SQL behind them
    *((part, "bot.storage.sql") for part in STORAGE_PARTS),
    # the live pages' notifier is the referee's (it tells the other processes what changed): it imports storage,
    # never the referee nor the pages
    ("bot.web.notify", "bot.referee"),
    ("bot.web.notify", "bot.web.hub"),
    ("bot.web.notify", "bot.web.server"),
    ("bot.referee", "bot.runtime"),
    ("bot.referee", "bot.adapters"),
    ("bot.words", "bot.commands"),
    ("bot.words", "bot.games"),
    ("bot.words", "bot.referee"),
    ("bot.simultanes", "bot.commands"),
    ("bot.simultanes", "bot.games"),
    # the kinds' registry serves every kind and names none; the classic game and the sheet know nothing of
    # the duplicate game and its simultanés and series
    *(("bot.games.kinds", kind) for kind in KINDS),
    *((low, high) for low in ("bot.games.classic", "bot.games.sheet") for high in KINDS[1:3] + KINDS[4:]),
    ("bot.games.classic", "bot.games.sheet"),
    ("bot.runtime", "bot.adapters"),
    ("bot.storage", "bot.adapters"),
    ("bot.adapters", "bot.tools"),
    ("bot.adapters", "bot.cli"),
]

# The adapters: a platform's package never imports another's, and what they share imports none of them.
PLATFORMS = ("bot.adapters.console", "bot.adapters.discordbot", "bot.adapters.telegrambot")
SHARED_BY_ADAPTERS = ("base", "memory", "names", "ordering", "text", "tracking")
FORBIDDEN += [(one, other) for one in PLATFORMS for other in PLATFORMS if one != other]
FORBIDDEN += [(f"bot.adapters.{shared}", platform) for shared in SHARED_BY_ADAPTERS for platform in PLATFORMS]


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, tuple[Path, bool]]:
    """Every module under the packages: its dotted name, its file, and whether it is a package."""
    found: dict[str, tuple[Path, bool]] = {}
    for top in packages:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found[".".join(parts)] = (path, is_package)
    return found


def _nearest(name: str, known: dict[str, tuple[Path, bool]]) -> str | None:
    """The module a dotted name is, or is defined in (None: outside the packages)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _targets(node: ast.Import | ast.ImportFrom, package: str, known: dict[str, tuple[Path, bool]]) -> set[str | None]:
    """The modules one import statement imports: ``from p import m`` imports the submodule ``p.m`` when
    there is one, else the names defined in ``p``."""
    if isinstance(node, ast.Import):
        return {_nearest(alias.name, known) for alias in node.names}
    if node.level:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return {
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else _nearest(base, known) for alias in node.names
    }


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Each module to the modules of the packages it imports, anywhere in its source."""
    known = modules(root, packages)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in known.items():
        package = name if is_package else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                edges |= {target for target in _targets(node, package, known) if target is not None}
        graph[name] = edges - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_no_import_cycle_in_core_and_bot() -> None:
    found = cycles(import_graph(ROOT))
    unexpected = [sorted(c) for c in found if c not in KNOWN_CYCLES]
    assert unexpected == []


def test_no_layer_imports_one_above_it() -> None:
    graph = import_graph(ROOT)
    reaching_up = sorted(
        (module, target)
        for module, targets in graph.items()
        for target in targets
        for lower, upper in FORBIDDEN
        if _inside(module, lower) and _inside(target, upper)
    )
    assert reaching_up == []


def test_the_referee_imports_the_commands_at_module_top() -> None:
    # The command table, the clock tick and quick play are imported where the module starts, not when
    # a function first runs (an import put off to dodge a cycle).
    path = ROOT / "bot" / "referee.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    late = [
        node.lineno for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top
    ]
    assert late == []


def test_every_module_is_read() -> None:
    graph = import_graph(ROOT)
    read = {"core.game", "bot.referee", "bot.commands", "bot.commands.services", "bot.adapters.discordbot.adapter"}
    assert read <= set(graph)
    assert {"bot.games.installed", "bot.games.duplicate.submissions", "bot.games.duplicate.rounds"} <= graph[
        "bot.referee"
    ]


def test_no_adapter_module_is_named_after_a_library() -> None:
    # ``bot/adapters/discord.py`` read as ``discord`` by a tool that puts its folder on the path (a debugger,
    # a script run from there) hid discord.py: each module's name is none of the standard library's nor any
    # installed package's.
    libraries = set(sys.stdlib_module_names) | set(packages_distributions()) - set(PACKAGES)
    modules_of_adapters = modules(ROOT, ("bot",))
    named = sorted(
        name for name in modules_of_adapters if _inside(name, "bot.adapters") and name.rpartition(".")[2] in libraries
    )
    assert named == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_hidden_in_a_function_or_under_type_checking_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "bot/__init__.py": "",
            "bot/low.py": "def f():\n    from .high import g\n",
            "bot/high.py": "from . import low\n",
            "bot/pkg/__init__.py": "",
            "bot/pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.pkg.b import B\n",
            "bot/pkg/b.py": "from ..pkg import a\nimport bot.pkg.c\n",
            "bot/pkg/c.py": "from .. import low\n",
        },
    )
    graph = import_graph(tmp_path, ("bot",))
    assert graph["bot.pkg.b"] == {"bot.pkg.a", "bot.pkg.c"}
    assert graph["bot.pkg.c"] == {"bot.low"}
    assert sorted(sorted(c) for c in cycles(graph)) == [["bot.high", "bot.low"], ["bot.pkg.a", "bot.pkg.b"]]


def test_importing_a_submodule_is_not_importing_its_package(tmp_path: Path) -> None:
    # The package imports its modules and they import each other through it: no cycle unless a module
    # imports a name the package itself defines.
    _write(
        tmp_path,
        {
            "bot/__init__.py": "",
            "bot/cmds/__init__.py": "from . import one, two\nfrom .one import NAME\n",
            "bot/cmds/one.py": "NAME = 1\n",
            "bot/cmds/two.py": "from . import one\n",
        },
    )
    graph = import_graph(tmp_path, ("bot",))
    assert cycles(graph) == []
    _write(tmp_path, {"bot/cmds/two.py": "from . import one, NAME\n"})
    assert cycles(import_graph(tmp_path, ("bot",))) == [frozenset({"bot.cmds", "bot.cmds.two"})]


if __name__ == "__main__":  # python -m tests.project.test_import_graph: the cycles, one a line
    for cycle in cycles(import_graph(ROOT)):
        print(len(cycle), " ".join(sorted(cycle)))
