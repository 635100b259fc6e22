"""The import graph of ``whr`` and ``flows`` keeps its layering, read from the source with ``ast``.

- the numerical core (``whr.core``) imports the standard library, numpy and scipy only;
- Prefect (and Dask, which runs under it) is imported only in ``flows/``;
- nothing in ``whr`` imports ``flows``;
- no import cycle, among modules or packages: every import counts, also one inside a function
  (a lazy import defers the cost, it does not make the dependency go away), except those under
  ``if TYPE_CHECKING:``, which never run.

Each import of ``from package import name`` counts as an import of ``package.name`` when that is
a module, else of ``package`` (its ``__init__``).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("whr", "flows")
CORE_MAY_IMPORT = {"numpy", "scipy"}
ONLY_IN_FLOWS = {"prefect", "prefect_dask", "dask", "distributed"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {
    module_name(path): path
    for package in PACKAGES
    for path in sorted((ROOT / package).rglob("*.py"))
}


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # an internal module, or an external top-level name
    line: int
    typing_only: bool  # under ``if TYPE_CHECKING:``

    @property
    def internal(self) -> bool:
        return self.target in MODULES

    def __str__(self) -> str:
        return f"{MODULES[self.source].relative_to(ROOT)}:{self.line} imports {self.target}"


def _typing_only_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def _resolve(name: str) -> str:
    """``name`` if it is one of our modules, else its longest prefix that is; an external name
    becomes its top-level package."""
    parts = name.split(".")
    if parts[0] not in PACKAGES:
        return parts[0]
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    return ".".join(parts)


def imports_of(module: str) -> Iterator[Import]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typing_only = _typing_only_lines(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                names.append(full if full in MODULES else base)
        for name in names:
            yield Import(module, _resolve(name), node.lineno, node.lineno in typing_only)


IMPORTS = [i for module in MODULES for i in imports_of(module)]


def test_the_graph_is_read() -> None:
    # the reader finds what is plainly there (a broken reader would pass every rule below)
    found = {(i.source, i.target) for i in IMPORTS}
    assert ("whr.core.solver", "scipy") in found
    assert ("whr.core.solver", "whr.core.model") in found
    assert ("flows.pipeline", "prefect") in found
    assert len(MODULES) > 40 and len([i for i in IMPORTS if i.internal]) > 100


def test_the_numerical_core_imports_numpy_and_scipy_only() -> None:
    wrong = [
        str(i)
        for i in IMPORTS
        if i.source.startswith("whr.core")
        and not (i.target.startswith("whr.core") or i.target in CORE_MAY_IMPORT)
        and not (not i.internal and i.target in sys.stdlib_module_names)
    ]
    assert not wrong, "whr.core knows nothing of files, tables or Prefect:\n" + "\n".join(wrong)


def test_prefect_only_in_flows() -> None:
    wrong = [str(i) for i in IMPORTS if i.target in ONLY_IN_FLOWS and i.source.startswith("whr")]
    assert not wrong, "the library runs without Prefect; the flow wires it:\n" + "\n".join(wrong)


def test_nothing_in_the_library_imports_flows() -> None:
    wrong = [
        str(i)
        for i in IMPORTS
        if i.target.split(".")[0] == "flows" and i.source.split(".")[0] == "whr"
    ]
    assert not wrong, "\n".join(wrong)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (or a module importing
    itself), each as a cycle through them (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges.get(node, ()):
                        found.append(sorted(component))
    return found


def shortest_cycle(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest cycle through the first module of ``component`` (breadth first)."""
    start = component[0]
    members = set(component)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(edges[node] & members):
                if target == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [*reversed(path), start]
                if target not in came:
                    came[target] = node
                    following.append(target)
        frontier = following
    raise AssertionError(f"{component} is not a cycle")


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    edges = {"a": {"b", "d"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"f"}, "f": {"a"}}
    assert shortest_cycle(["a", "b", "c", "d", "e", "f"], edges) == ["a", "b", "c", "a"]


@pytest.mark.parametrize("level", ["modules", "packages"])
def test_no_import_cycle(level: str) -> None:
    def node(module: str) -> str:
        if level == "modules":
            return module
        # a package's modules are one node: whr.publish.site.render -> whr.publish
        return ".".join(module.split(".")[:2])

    edges: dict[str, set[str]] = {node(m): set() for m in MODULES}
    where: dict[tuple[str, str], Import] = {}
    for i in IMPORTS:
        if i.internal and not i.typing_only:
            a, b = node(i.source), node(i.target)
            if a != b or level == "modules":
                edges[a].add(b)
                where.setdefault((a, b), i)
    found = cycles(edges)
    detail = []
    for component in found:
        path = shortest_cycle(component, edges)
        detail.append("  " + "; ".join(str(where[a, b]) for a, b in pairwise(path)))
    assert not found, f"import cycles among {level}:\n" + "\n".join(detail)
