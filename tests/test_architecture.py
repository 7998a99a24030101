"""The layers of the code: each module imports only its own layer and those
below it, the imports make no cycle, and the cache's fingerprint covers every
module that feeds the cache. Read from the source with :mod:`ast`: every
import counts, at module level, inside a function or for type checking."""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest

from rules_kb import loader

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules_kb", "indexer", "cli")

#: The layers, from the ground up: a module belongs to the first layer one of
#: whose prefixes it starts with (docs/contribuer/architecture.md).
LAYERS = (
    ("core", ("rules_kb.core", "rules_kb")),
    ("parsers", ("indexer",)),
    ("engines", ("rules_kb.engines",)),
    ("indexing", ("rules_kb.indexing",)),
    ("loader", ("rules_kb.loader",)),
    (
        "features",
        (
            "rules_kb.lookup",
            "rules_kb.search",
            "rules_kb.ask",
            "rules_kb.checker",
            "rules_kb.export",
            "rules_kb.inventory",
        ),
    ),
    ("presentation", ("rules_kb.serialize", "rules_kb.serve", "cli")),
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


MODULES = _modules()


def layer(module: str) -> int:
    """The rank of ``module``'s layer in :data:`LAYERS`."""
    found = [
        (len(prefix), rank)
        for rank, (_name, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    assert found, f"{module} belongs to no layer"
    return max(found)[1]


def imports(module: str) -> dict[str, int]:
    """The project modules ``module`` imports, each with a line where it does.

    ``from package import name`` imports the package itself (its
    ``__init__``: the name is looked up on it first) and, if ``name`` is a
    submodule, that submodule too; so a submodule writing ``from rules_kb.ask
    import fusion`` while ``rules_kb/ask/__init__.py`` imports it is a cycle
    between the package and its submodule."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES and name in MODULES and name != module:
                found.setdefault(name, node.lineno)
    return found


GRAPH = {module: imports(module) for module in MODULES}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_layer_above_its_own(module):
    upward = [
        f"{module} (line {line}, {LAYERS[layer(module)][0]}) imports {target} ({LAYERS[layer(target)][0]})"
        for target, line in GRAPH[module].items()
        if layer(target) > layer(module)
    ]
    assert not upward, "\n".join(upward)


def test_the_imports_make_no_cycle():
    """Tarjan's strongly connected components: every one is a single module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in GRAPH[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    assert not cycles, cycles


#: The layers above the loader: what may only read the cache through a KnowledgeBase.
ABOVE_THE_LOADER = tuple(name for name, _prefixes in LAYERS[[n for n, _ in LAYERS].index("features") :])


def _above_the_loader(module: str) -> bool:
    return LAYERS[layer(module)][0] in ABOVE_THE_LOADER


def _write_side_imports(module: str, graph: dict[str, dict[str, int]]) -> list[str]:
    return [f"{module}:{line} imports {target}" for target, line in graph[module].items()
            if target.startswith("rules_kb.indexing")]  # fmt: skip


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _above_the_loader(m)))
def test_features_and_fronts_never_import_the_write_side(module):
    """rules_kb.indexing builds the cache; only the loader runs it (docs, "Architecture")."""
    assert not _write_side_imports(module, GRAPH)


def _engine_imports(source: str) -> list[tuple[int, str, str, bool]]:
    """``(line, engine module, name, only for type checking)`` of each name the
    code ``source`` imports from rules_kb.engines (``name`` empty for ``import rules_kb.engines.x``)."""
    tree = ast.parse(source)
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, "", False) for alias in node.names
                      if alias.name.startswith("rules_kb.engines")]  # fmt: skip
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rules_kb.engines"):
            found += [(node.lineno, node.module, alias.name, id(node) in typing_only) for alias in node.names]
    return found


def _not_types(module: str, source: str) -> list[str]:
    """What ``source`` imports from rules_kb.engines at run time that is not a type."""
    wrong = []
    for line, engine, name, typing_only in _engine_imports(source):
        value = getattr(importlib.import_module(engine), name, None) if name else None
        if not typing_only and not isinstance(value, type):
            wrong.append(f"{module}:{line} imports {name or engine} from {engine}, which is not a type")
    return wrong


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _above_the_loader(m)))
def test_features_and_fronts_take_every_engine_from_the_knowledge_base(module):
    """Issue 35: features import rules_kb.engines only for types (a class, an enum, a named tuple);
    every engine itself (the index, the concept table, the vectors, the lexicon…) is a property of
    the KnowledgeBase, opened once."""
    assert not _not_types(module, MODULES[module].read_text(encoding="utf-8"))


def test_the_rules_catch_what_they_forbid():
    """A feature importing the write side, or an engine's function, fails the checks above."""
    graph = {"rules_kb.search": {"rules_kb.indexing.cache": 3}}
    assert _write_side_imports("rules_kb.search", graph) == ["rules_kb.search:3 imports rules_kb.indexing.cache"]
    source = "from rules_kb.engines.index import SearchIndex, read_index\nimport rules_kb.engines.dense\n"
    assert _not_types("f", source) == [
        "f:1 imports read_index from rules_kb.engines.index, which is not a type",
        "f:2 imports rules_kb.engines.dense from rules_kb.engines.dense, which is not a type",
    ]
    typing_only = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rules_kb.engines.index import read_index\n"
    )
    assert _not_types("f", typing_only) == []


def test_only_the_loader_opens_the_cache_database():
    """The KnowledgeBase keeps its store to itself: no other module reaches ``._store``."""
    reaching = [
        f"{module}:{node.lineno}"
        for module, path in MODULES.items()
        if module != "rules_kb.loader"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "_store"
    ]
    assert not reaching, reaching


def test_a_submodule_importing_a_sibling_through_its_package_is_a_cycle(tmp_path, monkeypatch):
    """``from rules_kb.ask import fusion`` in a submodule of rules_kb.ask, whose ``__init__``
    imports that submodule, is a package-level cycle (issue 35)."""
    package = tmp_path / "ask"
    package.mkdir()
    (package / "__init__.py").write_text("from rules_kb.ask.rank import rank\n", encoding="utf-8")
    (package / "rank.py").write_text("from rules_kb.ask import fusion\n", encoding="utf-8")
    (package / "fusion.py").write_text("WEIGHTS = 1\n", encoding="utf-8")
    fake = {"rules_kb.ask": package / "__init__.py", "rules_kb.ask.rank": package / "rank.py",
            "rules_kb.ask.fusion": package / "fusion.py"}  # fmt: skip
    monkeypatch.setattr(sys.modules[__name__], "MODULES", fake)
    graph = {module: imports(module) for module in fake}
    assert "rules_kb.ask" in graph["rules_kb.ask.rank"]
    assert "rules_kb.ask.rank" in graph["rules_kb.ask"]


def test_the_layer_map_knows_every_module():
    assert {layer(module) for module in MODULES} == set(range(len(LAYERS)))


def _reached(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(GRAPH[module])
    return seen


def test_the_fingerprint_covers_every_module_that_feeds_the_cache():
    """Everything the build imports (parsers, build steps, core) and the data it reads."""
    covered = {Path(path).resolve() for path in loader.code_files()}
    feeding = _reached("rules_kb.indexing.cache") | _reached("indexer")
    missing = sorted(module for module in feeding if MODULES[module].resolve() not in covered)
    assert not missing, missing
    assert (ROOT / "rules_kb" / "data" / "lexicon.tsv").resolve() in covered
    assert not any("__pycache__" in str(path) for path in covered)


#: What names a command or an option of the CLI in a text.
_COMMAND_RE = re.compile(
    r"rules-kb (?:show|search|define|ask|check|graph|export|index|corpus)\b"
    r"|--(?:force|all|format|json|corpus|kind|example|edition|limit|explain|scenario|term|card|search|ask|note|"
    r"output|depth|relation|strict|only|no-annotations)\b"
)


def _texts(tree: ast.AST) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings, with their lines."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                docstrings.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_command_names_appear_only_in_the_cli():
    """The library raises, the CLI says what to type (``rules-kb search``, ``--force``). The one
    exception is :mod:`rules_kb.operations`, where every operation is declared once for the three
    fronts: its options and examples are the command line's declaration."""
    offenders = [
        f"{module}:{line}: {text!r}"
        for module, path in MODULES.items()
        if not module.startswith("cli") and module != "rules_kb.operations"
        for line, text in _texts(ast.parse(path.read_text(encoding="utf-8")))
        if _COMMAND_RE.search(text)
    ]
    assert not offenders, "\n".join(offenders)
