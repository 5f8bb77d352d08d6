"""Every name the documentation gives the public imports: the dotted ``stratagem.x.y`` names and
the ``from stratagem... import ...`` lines of docs/*.md and README.md, the pages' mkdocstrings
``::: stratagem.x`` directives, and every name the extension's ``.pyi`` stubs declare. Modules
moved into sub-packages stay importable by their documented names through the package faces."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "api").glob("*.md"))
PAGES.append(ROOT / "README.md")
STUBS = sorted((ROOT / "python" / "stratagem" / "_core").glob("*.pyi"))

# A dotted name not inside quotes (quoted ones are file formats, such as "stratagem.game") and
# not a file's name (api/stratagem.md).
_DOTTED = re.compile(r"(?<![\w/\"'.-])stratagem(?:\.[A-Za-z_]\w*)+(?![\w\"'/-])")
_FROM = re.compile(r"^\s*(?:>>>|\.\.\.)?\s*from (stratagem(?:\.\w+)*) import \(?([\w, ]+)\)?\s*$")
_DIRECTIVE = re.compile(r"^::: (stratagem(?:\.\w+)*)\s*$")
_FILE_SUFFIXES = ("md", "py", "pyi", "npz", "json", "png", "toml", "txt", "yml")


def _documented() -> set[str]:
    names: set[str] = set()
    for page in PAGES:
        for line in page.read_text().splitlines():
            directive = _DIRECTIVE.match(line)
            if directive:
                names.add(directive.group(1))
            found = _FROM.match(line)
            if found:
                module, imported = found.groups()
                names.update(
                    f"{module}.{name.split(' as ')[0].strip()}"
                    for name in imported.split(",")
                    if name.strip()
                )
            for dotted in _DOTTED.findall(line):
                if dotted.rpartition(".")[2] not in _FILE_SUFFIXES:
                    names.add(dotted)
    return names


def _stub_names() -> set[str]:
    names: set[str] = set()
    for stub in STUBS:
        module = "stratagem._core" if stub.stem == "__init__" else f"stratagem._core.{stub.stem}"
        for node in ast.parse(stub.read_text()).body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                names.add(f"{module}.{node.name}")
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(f"{module}.{node.target.id}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("stratagem"):
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def resolve(dotted: str) -> object:
    """The object ``dotted`` names: the longest importable module, then its attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(dotted)


DOCUMENTED = sorted(_documented())
STUBBED = sorted(_stub_names())


def test_the_documentation_names_many_things():
    # The collectors read what they should: the pages name well over a hundred public names.
    assert len(DOCUMENTED) > 150
    assert "stratagem.conquest.distributed.DistributedGame" in DOCUMENTED
    assert "stratagem.diplomacy.search.solve" in DOCUMENTED
    assert len(STUBBED) > 50


@pytest.mark.parametrize("name", DOCUMENTED)
def test_every_documented_name_imports(name):
    assert resolve(name) is not None


@pytest.mark.parametrize("name", STUBBED)
def test_every_stubbed_name_imports(name):
    assert resolve(name) is not None


@pytest.mark.parametrize(
    "name",
    [
        # Modules that moved into sub-packages, by the names the pages and users know.
        "stratagem.conquest.distributed.DistributedGame",
        "stratagem.conquest.distributed.partition",
        "stratagem.conquest.board_files.map_csr",
        "stratagem.diplomacy.search.CombinedSearch",
        "stratagem.diplomacy.tables",
        "stratagem.diplomacy.openings",
        "stratagem.outpost.tournament",
        "stratagem.cli.main",
        "stratagem.protocol.Game",
        "stratagem.protocol.load",
    ],
)
def test_moved_modules_keep_their_public_names(name):
    assert resolve(name) is not None
