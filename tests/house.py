"""The shape of the house, read from the code's own imports (docs/architecture.md).

`python tests/house.py` prints the report; `tests/test_house.py` holds the limits. What it reads:

- **Python modules**: every `import` under `python/stratagem`: at module level, inside
  functions and under `if TYPE_CHECKING:` alike (a deferred or type-only import that dodges a
  circle at run time is still a circle in the design). Relative imports are resolved, and
  `from pkg import name` counts as importing the submodule `pkg.name` when there is one.
  Importing a module of another package also imports that package (Python runs its
  `__init__` first), so a package face that imports its users is a circle too.
- **Rust modules**: every `crate::`, `super::` and `self::` path in each crate's files (the
  `#[cfg(test)]` module and comments left out), resolved to the module that defines it,
  following the crate root's `pub use` re-exports.
- **Circles**: groups of modules that import each other, directly or around a loop.
- **Back-up imports**: a module importing one of a higher tier. The tiers, low to high:
  shared pieces (errors, validation, RNG, MPI, files, progress, statistics, the extension), the
  game machinery (the registry, which names its games' classes as strings and imports none of
  them, the protocol, the CLI vocabulary, the conformance harness, the shared graph and
  tournament), the game rooms, and the front (bridges, command line, demo). Inside a room, only
  `cli.py` and the package's `__init__` may import the room's `cli.py`.
- **Folder sizes**: the modules of each package folder (its `__init__` included); a folder
  holds at most 15 of them, subsystems go to sub-packages.
- **Oracle imports**: a module that is not itself an oracle or checking code (a room's
  `conformance.py`, `stratagem.testing`, the demo's Rust-against-oracle tour) importing an
  oracle module. The oracles are the second path the engine is checked against.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "stratagem"
GAMES = ("annexation", "conquest", "diplomacy", "mastermind", "outpost")
PYTHON_ROOM_LIMIT = 800
RUST_FILE_LIMIT = 900
FOLDER_LIMIT = 15

SHARED_TIER = ("errors", "_validate", "rng", "mpi", "_files", "progress", "stats", "_plotting")
MACHINERY_TIER = ("games", "protocol", "cli_common", "testing", "graph", "tournament", "names")
CHECKING = ("stratagem.testing", "stratagem.cli.demo")


def _python_module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_modules() -> dict[str, Path]:
    """Every module of the package, the extension's included (named by its stubs)."""
    modules = {_python_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    for stub in sorted((PACKAGE / "_core").glob("*.pyi")):
        modules[_python_module_name(stub)] = stub
    return modules


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    """Every dotted name the module imports, wherever the import stands (`from a import b`
    gives `a.b`)."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import name` loads the submodule `pkg.name` if there is one, else `pkg`.
            found.extend(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def python_graph() -> dict[str, set[str]]:
    modules = python_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if path.suffix == ".pyi":
            graph[name] = set()  # the extension imports nothing of the package
            continue
        tree = ast.parse(path.read_text(), str(path))
        targets: set[str] = set()
        for dotted in _imported_names(tree, name, path.name == "__init__.py"):
            if not dotted.startswith("stratagem"):
                continue
            # `from pkg import name`: the submodule if there is one, else the package itself.
            resolved = dotted
            while resolved and resolved not in modules:
                resolved = resolved.rpartition(".")[0]
            if resolved and resolved != name:
                targets.add(resolved)
                targets.update(_entered_packages(name, resolved, modules))
        graph[name] = targets
    return graph


def _entered_packages(module: str, target: str, modules: dict[str, Path]) -> set[str]:
    """The packages whose ``__init__`` Python runs to import ``target`` from ``module``: the
    target's enclosing packages, but for those that enclose the module too (already run)."""
    parts = target.split(".")
    enclosing = {".".join(parts[:cut]) for cut in range(1, len(parts))}
    own = module.split(".")
    already = {".".join(own[:cut]) for cut in range(1, len(own) + 1)}
    return {package for package in enclosing - already if package in modules}


_RUST_PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
_PUB_USE = re.compile(r"pub use (\w+)::(?:\{([^}]*)\}|(\w+));")


def _code_of(text: str) -> str:
    """The file without its ``#[cfg(test)]`` module and its comments (doc links are not uses)."""
    marker = re.search(r"#\[cfg\(test\)\]\s*mod \w+\s*\{", text)
    code = text[: marker.start()] if marker else text
    return re.sub(r"//[^\n]*", "", code)


def rust_crates() -> dict[str, Path]:
    return {p.parent.parent.name: p.parent for p in sorted((ROOT / "rust").glob("*/src/lib.rs"))}


def _rust_modules(src: Path) -> dict[tuple[str, ...], Path]:
    modules: dict[tuple[str, ...], Path] = {}
    for path in sorted(src.rglob("*.rs")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] in ("lib", "mod"):
            parts.pop()
        modules[tuple(parts)] = path
    return modules


def rust_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for crate, src in rust_crates().items():
        modules = _rust_modules(src)
        reexports: dict[str, tuple[str, ...]] = {}
        for match in _PUB_USE.finditer((src / "lib.rs").read_text()):
            for name in (match.group(2) or match.group(3)).split(","):
                if name.strip():
                    reexports[name.strip().split(" as ")[0]] = (match.group(1),)
        for module, path in modules.items():
            targets: set[str] = set()
            for anchor, tail in _RUST_PATH.findall(_code_of(path.read_text())):
                names = tail.strip(":").split("::")
                if anchor == "crate":
                    base: tuple[str, ...] = ()
                else:
                    # super:: in a file module means its parent; self:: the module itself.
                    base = module[:-1] if anchor == "super" else module
                full = base + tuple(names)
                resolved = full
                while resolved and resolved not in modules:
                    resolved = resolved[:-1]
                if resolved == () and names and names[0] in reexports:
                    resolved = reexports[names[0]]
                if resolved not in (module, ()):
                    targets.add("::".join((crate, *resolved)))
            graph["::".join((crate, *module)) if module else crate] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def tier(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return 3  # the package's front door
    head = parts[1]
    if head in SHARED_TIER or head == "_core":
        return 0
    if head in MACHINERY_TIER:
        return 1
    if head in GAMES:
        return 2
    return 3


def back_up_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    found = []
    for module, targets in graph.items():
        for target in targets:
            upward = tier(target) > tier(module)
            room_cli = (
                target.endswith(".cli")
                and tier(target) == 2
                and module.split(".")[:2] == target.split(".")[:2]  # the room, sub-packages too
                and not module.endswith(".cli")
                and module != target.rpartition(".")[0]
            )
            if upward or room_cli:
                found.append((module, target))
    return sorted(found)


def oracle_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    def checking(module: str) -> bool:
        return module.endswith((".oracle", ".conformance")) or module in CHECKING

    return sorted(
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if target.endswith(".oracle") and not checking(module)
    )


def oversized() -> list[tuple[str, int]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = len(path.read_text().splitlines())
        if lines > PYTHON_ROOM_LIMIT and path.name != "oracle.py":
            found.append((str(path.relative_to(ROOT)), lines))
    for path in sorted((ROOT / "rust").glob("*/src/**/*.rs")):
        lines = len(path.read_text().splitlines())
        if lines > RUST_FILE_LIMIT:
            found.append((str(path.relative_to(ROOT)), lines))
    return found


def folder_sizes() -> dict[str, int]:
    """The number of modules (``.py`` files, ``__init__`` included) in each package folder."""
    return {
        str(folder.relative_to(ROOT)): len(list(folder.glob("*.py")))
        for folder in sorted(p.parent for p in PACKAGE.rglob("__init__.py"))
    }


def crowded_folders() -> list[tuple[str, int]]:
    return [(folder, n) for folder, n in folder_sizes().items() if n > FOLDER_LIMIT]


@dataclass
class Report:
    python_circles: list[list[str]] = field(default_factory=list)
    rust_circles: list[list[str]] = field(default_factory=list)
    back_up: list[tuple[str, str]] = field(default_factory=list)
    oracle: list[tuple[str, str]] = field(default_factory=list)
    too_long: list[tuple[str, int]] = field(default_factory=list)
    folders: dict[str, int] = field(default_factory=dict)


def report() -> Report:
    graph = python_graph()
    return Report(
        python_circles=circles(graph),
        rust_circles=circles(rust_graph()),
        back_up=back_up_imports(graph),
        oracle=oracle_imports(graph),
        too_long=oversized(),
        folders=folder_sizes(),
    )


def main() -> int:
    found = report()
    print(f"python circles: {len(found.python_circles)}")
    for group in found.python_circles:
        print("  " + " <-> ".join(group))
    print(f"rust circles: {len(found.rust_circles)}")
    for group in found.rust_circles:
        print("  " + " <-> ".join(group))
    print(f"back-up imports: {len(found.back_up)}")
    for module, target in found.back_up:
        print(f"  {module} -> {target}")
    print(f"product modules importing an oracle: {len(found.oracle)}")
    for module, target in found.oracle:
        print(f"  {module} -> {target}")
    print(
        f"files over the limit (python {PYTHON_ROOM_LIMIT}, rust {RUST_FILE_LIMIT}): "
        f"{len(found.too_long)}"
    )
    for path, lines in found.too_long:
        print(f"  {path}: {lines} lines")
    crowded = sum(n > FOLDER_LIMIT for n in found.folders.values())
    print(f"package folders (modules each, at most {FOLDER_LIMIT}): {crowded} over")
    for folder, n in found.folders.items():
        print(f"  {folder}: {n}{'  (over)' if n > FOLDER_LIMIT else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
