"""The layers import inward only: engine and db know nothing of ours, rendering knows no
application, the application knows no cog. Checked on the source, every module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("engine", "db", "rendering", "bot", "cogs")
# What each layer may import of ours (besides itself).
ALLOWED = {
    "engine": set(),
    "db": set(),
    "rendering": {"engine"},
    "bot": {"engine", "db", "rendering"},
    "cogs": {"engine", "db", "rendering", "bot"},
}
# Pure rules: no clock, network, database, threads or Discord.
ENGINE_FORBIDDEN = {
    "asyncio",
    "sqlite3",
    "aiosqlite",
    "asyncpg",
    "discord",
    "socket",
    "subprocess",
    "threading",
    "time",
    "datetime",
    "urllib",
    "http",
    "PIL",
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


def _modules(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", OURS)
def test_layer_imports_only_inward(layer: str) -> None:
    for path in _modules(layer):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in OURS and top != layer:
                assert top in ALLOWED[layer], f"{path.relative_to(ROOT)} imports {name}"


def test_engine_does_no_io() -> None:
    for path in _modules("engine"):
        for name in _imports(path):
            assert name.split(".")[0] not in ENGINE_FORBIDDEN, f"{path.name} imports {name}"


def _import_graph(layers: tuple[str, ...]) -> dict[str, set[str]]:
    """Each module of ``layers`` and the modules of ours it imports, resolved as Python does:
    "from pkg import mod" imports ``pkg.mod`` (and runs ``pkg``, already loaded by then),
    "from pkg import name" imports ``pkg``; relative imports count, and so do imports under
    ``TYPE_CHECKING`` or inside a function (a circle the type checker needs is still one)."""
    files = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for layer in layers
        for path in _modules(layer)
    }
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names if alias.name in files}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for alias in node.names:
                    if f"{base}.{alias.name}" in files:
                        found.add(f"{base}.{alias.name}")
                    elif base in files:
                        found.add(base)
        graph[module] = found - {module}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each one circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                done = stack.pop()
                part.append(done)
                if done == node:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_import_circle_anywhere() -> None:
    """No module imports back, even through others, what imports it: in the engine (Wings'
    rule modules once shared their Turn this way, 22 of them) or in any layer."""
    circles = _circles(_import_graph(OURS))
    assert not circles, [" <-> ".join(circle) for circle in circles]


def test_the_circle_finder_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_the_rules_checker_knows_nothing_of_the_engine() -> None:
    """``verify --rules`` is written from the rules text, not from the engine it checks: the
    carrier's checker imports nothing of ours but itself (it reads the data files with its
    own TOML reader), lazily included, though it lives in the carrier's package."""
    allowed = {"engine.rulesets.carrier.rulecheck"}
    for path in sorted((ROOT / "engine" / "rulesets" / "carrier" / "rulecheck").rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in OURS:
                assert any(name == a or name.startswith(a + ".") for a in allowed), (
                    f"{path.relative_to(ROOT)} imports {name}"
                )


# A game named as a word of its own: "pearl-harbor", "wings_catalog", "engine.zero" and
# "ZERO!" count, "landing" and "island" do not.
GAMES = re.compile(r"(?<![a-z])(carrier|land|pearl|wings|dambuster|memoir|zero)(?![a-z])", re.I)
REGISTRY = ROOT / "bot" / "rulesets.py"


def test_shared_code_names_no_game() -> None:
    """bot/, cogs/ and db/ serve every game alike: no game is named in their modules (code,
    words or comments) but in the registry, ``bot/rulesets.py``, which pairs each game with
    its packages. What a game needs of them is declared by the seam (``engine.ruleset``,
    ``rendering.presenter``). Data is not code: the released migrations and the storage's
    deflate dictionaries keep what they were written with."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for layer in ("bot", "cogs", "db")
        for path in _modules(layer)
        if path != REGISTRY
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GAMES.search(line)
    ]
    assert not found, f"{len(found)} lines name a game:\n" + "\n".join(found)
