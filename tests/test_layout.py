"""The house stays as built: linkgraph's import graph is acyclic, follows the layer order,
and imports no private name across modules.

The import graph is read from the source with `ast` (every import, also those inside
functions and under ``if TYPE_CHECKING``), one node per module, and checked with networkx.
The checks are plain functions over ``{module name: source text}``, so the tests below
also plant a cycle, an upward import and a private import in a copy of the tree and
show that each is caught.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1] / "linkgraph"

#: The layers, bottom up (DESIGN.md §2). A module may import its own layer and those below.
#: The foundation is the modules directly in linkgraph/ but `solver` (which runs the ladder).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("linkgraph.errors", "linkgraph.model", "linkgraph.bitops", "linkgraph.geometry", "linkgraph.grid",
     "linkgraph.steps", "linkgraph.notation", "linkgraph.io", "linkgraph.oracle", "linkgraph.samples",
     "linkgraph.limits", "linkgraph.kernel"),
    ("linkgraph.graph",),
    ("linkgraph.chains",),
    ("linkgraph.nets",),
    ("linkgraph.techniques",),
    ("linkgraph.solver",),
    ("linkgraph.check",),
    ("linkgraph.draw",),
    ("linkgraph.research",),
    ("linkgraph.commands",),
    ("linkgraph.explorer",),
    ("linkgraph",),  # the package's __init__: the public names
    ("linkgraph.cli",),
    ("linkgraph.__main__",),
)

#: Imports allowed against the layer order: (importer, imported) -> why. At most two.
EXCEPTIONS: dict[tuple[str, str], str] = {}

#: How many modules may stand directly in linkgraph/ (the foundation, the solver, __main__).
MAX_TOP_MODULES = 13


def read_tree(root: Path = ROOT) -> dict[str, str]:
    """{module name: source} of every module of the package under `root`."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path.read_text(encoding="utf-8")
    return out


@functools.lru_cache(maxsize=None)
def _parse(text: str) -> ast.Module:
    """The syntax tree of a module's text, parsed once for all the checks (they only read it)."""
    return ast.parse(text)


def _packages(sources: dict[str, str]) -> set[str]:
    """The modules that are packages (some other module lies inside them)."""
    return {name.rsplit(".", 1)[0] for name in sources if "." in name}


def imports(sources: dict[str, str]) -> list[tuple[str, str, str]]:
    """(importer, imported module, name or '') for every import of a linkgraph module.

    ``from a.b import c`` counts as an import of ``a.b.c`` when that is a module, else of
    ``a.b`` with name ``c``; relative imports are resolved against the importer.
    """
    packages = _packages(sources)
    out = []
    for name, text in sources.items():
        package = name if name in packages else name.rsplit(".", 1)[0]
        for node in ast.walk(_parse(text)):
            if isinstance(node, ast.Import):
                out += [(name, a.name, "") for a in node.names if a.name.split(".")[0] == "linkgraph"]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                if mod.split(".")[0] != "linkgraph":
                    continue
                for a in node.names:
                    sub = f"{mod}.{a.name}"
                    out.append((name, sub, "") if sub in sources else (name, mod, a.name))
    return out


def import_graph(sources: dict[str, str]) -> nx.DiGraph:
    """Modules as nodes, an edge importer -> imported (names on the edge's ``names``)."""
    D = nx.DiGraph()
    D.add_nodes_from(sources)
    for src, dst, name in imports(sources):
        if dst == src:
            continue
        D.add_edge(src, dst)
        D.edges[src, dst].setdefault("names", set()).add(name)
    return D


def layer_of(module: str) -> int:
    """The index in `LAYERS` of the longest layer prefix of `module`."""
    best, rank = -1, None
    for i, layer in enumerate(LAYERS):
        for prefix in layer:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    if rank is None:
        raise AssertionError(f"{module}: in no layer of test_layout.LAYERS")
    return rank


def cycles(sources: dict[str, str]) -> list[list[str]]:
    """Every import cycle, as the list of its modules."""
    return sorted(sorted(c) for c in nx.simple_cycles(import_graph(sources)))


def upward_imports(sources: dict[str, str]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a lower layer imports a higher one, exceptions aside;
    a submodule importing its own package's ``__init__`` counts too (a cycle in waiting)."""
    out = []
    for src, dst in import_graph(sources).edges:
        if (src, dst) in EXCEPTIONS:
            continue
        if layer_of(dst) > layer_of(src) or (src.startswith(dst + ".") and dst != "linkgraph"):
            out.append((src, dst))
    return sorted(out)


def private_imports(sources: dict[str, str]) -> list[str]:
    """``importer: module.name`` for each private name taken from another module, by import
    or by attribute of an imported module (``from linkgraph.x import _y``, ``x._y``)."""
    out = []
    for src, dst, name in imports(sources):
        if name.startswith("_") and not name.startswith("__") and dst != src:
            out.append(f"{src}: {dst}.{name}")
    for name, text in sources.items():
        tree = _parse(text)
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("linkgraph") and a.asname:
                        aliases[a.asname] = a.name
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("linkgraph"):
                for a in node.names:
                    if f"{node.module}.{a.name}" in sources:
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")
                    and aliases[node.value.id] != name):
                out.append(f"{name}: {aliases[node.value.id]}.{node.attr}")
    return sorted(set(out))


# ---- the tree as it is ------------------------------------------------------------------

@pytest.fixture(scope="module")
def tree() -> dict[str, str]:
    return read_tree()


def test_every_module_is_in_a_layer(tree):
    for module in tree:
        layer_of(module)


def test_no_import_cycle(tree):
    assert cycles(tree) == []


def test_imports_follow_the_layer_order(tree):
    assert upward_imports(tree) == []
    assert len(EXCEPTIONS) <= 2


def test_no_private_name_is_imported_across_modules(tree):
    assert private_imports(tree) == []


def test_the_foundation_stays_small(tree):
    top = [m for m in tree if m.count(".") == 1 and f"{m}" not in _packages(tree)]
    assert len(top) <= MAX_TOP_MODULES, top


def test_every_package_says_its_role(tree):
    for package in _packages(tree):
        doc = ast.get_docstring(ast.parse(tree[package]))
        assert doc and len(doc.split()) >= 8, f"{package}/__init__.py: no docstring saying its role"


def test_importing_linkgraph_has_no_side_effects():
    import os
    import subprocess
    import sys

    code = "import os; before = dict(os.environ); import linkgraph; print(dict(os.environ) == before)"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "True"


# ---- the checks can fail ----------------------------------------------------------------

def test_a_planted_cycle_is_found(tree):
    planted = dict(tree)
    planted["linkgraph.model"] += "\n\ndef _later():\n    from linkgraph.geometry import Geometry\n"
    found = cycles(planted)
    assert ["linkgraph.geometry", "linkgraph.model"] in found


def test_a_planted_upward_import_is_found(tree):
    planted = dict(tree)
    planted["linkgraph.graph.links"] += "\nfrom linkgraph.nets.search import forcing_nets\n"
    assert ("linkgraph.graph.links", "linkgraph.nets.search") in upward_imports(planted)


def test_a_planted_private_import_is_found(tree):
    planted = dict(tree)
    planted["linkgraph.graph.links"] += "\nfrom linkgraph.geometry import _hidden\n"
    planted["linkgraph.grid"] += "\nfrom linkgraph import bitops\nx = bitops._private\n"
    found = private_imports(planted)
    assert "linkgraph.graph.links: linkgraph.geometry._hidden" in found
    assert "linkgraph.grid: linkgraph.bitops._private" in found


def test_a_submodule_importing_its_own_package_is_found(tree):
    planted = dict(tree)
    planted["linkgraph.nets.engine"] += "\nfrom linkgraph.nets import forcing_nets\n"
    assert ("linkgraph.nets.engine", "linkgraph.nets") in upward_imports(planted)
