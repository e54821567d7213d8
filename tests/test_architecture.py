"""Layering, cycles, packaging and complexity of the source tree.

Rules:

(a) ``dumpscope.core`` never imports ``dumpscope.tui``, textual or rich;
(b) ``core.formats`` never imports the pipeline or anything above it (``core.comparison``,
    ``core.diagnosis``, ``core.inspect``, ``core.report``); ``core.vendor`` never imports the
    pipeline either (``core.comparison.pipeline``/``result``/``judge``, or anything above).
    (a) and (b) are import-linter contracts in pyproject.toml (``lint-imports``, run by CI and
    by :func:`test_layers_hold`); the rules below are this file's ``ast`` walk:
(c) no import cycles between modules (function-level imports count; imports under
    ``if TYPE_CHECKING:`` do not, they never run);
(d) ``dumpscope.tui.cli`` modules never import textual at module level;
(e) every package folder under ``core/`` and ``tui/`` is listed in pyproject.toml;
(f) McCabe complexity (1 + decision points: if/elif, for, while, except, each extra operand
    of and/or, comprehension ifs, ternaries, match cases, assert): mean <= 3.5 and every
    function < 20, over ``core/`` and ``tui/`` together, and over ``core/`` alone.

Each checker is a pure function over source text or a module graph, and each has a test
that plants a violation and sees it caught, so no rule can pass by accident.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import tomllib

from tests.support.paths import REPO as REPO_DIR

REPO = REPO_DIR
#: Source folder -> dotted package (pyproject's package-dir).
ROOTS = {"core": "dumpscope.core", "tui": "dumpscope.tui"}
MAX_MEAN_COMPLEXITY = 3.5
MAX_COMPLEXITY = 20  # exclusive: every function must stay below


# ----------------------------------------------------------------- reading the tree


@dataclass(frozen=True)
class Import:
    """One import statement's target, as seen from the importing module."""

    target: str
    line: int
    top_level: bool
    """Runs at import time (not inside a function or class body method)."""
    typing_only: bool
    """Under ``if TYPE_CHECKING:`` (never runs)."""


def source_modules(repo: Path = REPO) -> dict[str, Path]:
    """Dotted module name -> file, for every module under core/ and tui/."""
    out: dict[str, Path] = {}
    for folder, package in ROOTS.items():
        for path in sorted((repo / folder).rglob("*.py")):
            rel = path.relative_to(repo / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(node: ast.stmt, module: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """Modules an import statement loads (``from pkg import mod`` names ``pkg.mod``)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    assert isinstance(node, ast.ImportFrom)
    base = _resolve(node, module, is_package)
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if sub in known else base


def imports_of(source: str, module: str, is_package: bool = False, known: Iterable[str] = ()) -> list[Import]:
    """Every import in ``source`` (the text of ``module``), at any depth."""
    found: list[Import] = []
    known_set = set(known)

    def walk(node: ast.AST, top: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend(
                    Import(t, child.lineno, top, typing_only)
                    for t in _targets(child, module, is_package, known_set)
                )
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                walk(child, top, True)
            else:
                nested = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                walk(child, top and not nested, typing_only)

    walk(ast.parse(source), True, False)
    return found


def module_imports(repo: Path = REPO) -> dict[str, list[Import]]:
    """Module -> its imports, for the whole tree."""
    modules = source_modules(repo)
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", modules)
        for name, path in modules.items()
    }


def runtime_graph(imports: dict[str, list[Import]]) -> dict[str, set[str]]:
    """Module -> modules of the tree it imports when it runs (typing-only imports left out)."""
    return {
        m: {i.target for i in imps if i.target in imports and not i.typing_only and i.target != m}
        for m, imps in imports.items()
    }


# ----------------------------------------------------------------- the rules


def _under(module: str, prefixes: Iterable[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root not in index:
            _strongconnect(root, graph, index, low, stack, on_stack, found)
    return found


def _strongconnect(
    root: str,
    graph: dict[str, set[str]],
    index: dict[str, int],
    low: dict[str, int],
    stack: list[str],
    on_stack: set[str],
    found: list[list[str]],
) -> None:
    work = [(root, iter(sorted(graph.get(root, ()))))]
    index[root] = low[root] = len(index)
    stack.append(root)
    on_stack.add(root)
    while work:
        node, children = work[-1]
        child = next(children, None)
        if child is not None:
            if child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[node])
        if low[node] == index[node]:
            _pop_component(node, stack, on_stack, found)


def _pop_component(node: str, stack: list[str], on_stack: set[str], found: list[list[str]]) -> None:
    component = []
    while True:
        member = stack.pop()
        on_stack.discard(member)
        component.append(member)
        if member == node:
            break
    if len(component) > 1:
        found.append(sorted(component))


def eager_textual(imports: dict[str, list[Import]]) -> list[str]:
    """tui.cli modules that import textual when they are imported."""
    return [
        f"{m}:{i.line} -> {i.target}"
        for m, imps in imports.items()
        if _under(m, ["dumpscope.tui.cli"])
        for i in imps
        if i.top_level and not i.typing_only and _under(i.target, ["textual"])
    ]


def package_folders(repo: Path = REPO) -> set[str]:
    """Dotted names of every folder with an ``__init__.py`` under core/ and tui/."""
    out = set()
    for folder, package in ROOTS.items():
        for init in (repo / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(repo / folder)
            out.add(".".join([package, *rel.parts]))
    return out


def unlisted_packages(folders: set[str], pyproject_text: str) -> set[str]:
    listed = set(tomllib.loads(pyproject_text)["tool"]["setuptools"]["packages"])
    return folders - listed


# ----------------------------------------------------------------- complexity


class _Decisions(ast.NodeVisitor):
    """Counts decision points of one function body, not descending into nested functions."""

    def __init__(self) -> None:
        self.count = 0

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(
            node,
            (
                ast.If,
                ast.For,
                ast.AsyncFor,
                ast.While,
                ast.ExceptHandler,
                ast.IfExp,
                ast.Assert,
                ast.match_case,
            ),
        ):
            self.count += 1
        elif isinstance(node, ast.BoolOp):
            self.count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            self.count += len(node.ifs)
        super().generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # nested: counted on its own
        return None

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]
    visit_Lambda = visit_FunctionDef  # type: ignore[assignment]


def complexities(source: str, where: str = "") -> dict[str, int]:
    """``where:function@line`` -> McCabe complexity, for every function and method in ``source``."""
    out = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            visitor = _Decisions()
            for stmt in node.body:
                visitor.visit(stmt)
            out[f"{where}:{node.name}@{node.lineno}"] = 1 + visitor.count
    return out


def tree_complexities(folders: Iterable[str] = ("core",), repo: Path = REPO) -> dict[str, int]:
    out: dict[str, int] = {}
    for folder in folders:
        for path in sorted((repo / folder).rglob("*.py")):
            out.update(complexities(path.read_text(encoding="utf-8"), str(path.relative_to(repo))))
    return out


def complexity_problems(scores: dict[str, int]) -> list[str]:
    problems = [
        f"{name}: {score} >= {MAX_COMPLEXITY}" for name, score in scores.items() if score >= MAX_COMPLEXITY
    ]
    mean = sum(scores.values()) / max(len(scores), 1)
    if mean > MAX_MEAN_COMPLEXITY:
        problems.append(f"mean complexity {mean:.2f} > {MAX_MEAN_COMPLEXITY}")
    return problems


# ----------------------------------------------------------------- the tree holds


@pytest.fixture(scope="module")
def tree() -> dict[str, list[Import]]:
    return module_imports()


def test_the_tree_is_read(tree: dict[str, list[Import]]) -> None:
    assert "dumpscope.core.comparison.pipeline" in tree and "dumpscope.tui.cli.main" in tree
    assert any(
        i.target == "dumpscope.core.comparison.rows" for i in tree["dumpscope.core.comparison.pipeline"]
    )
    assert any(
        i.target == "dumpscope.core.comparison.metrics" for i in tree["dumpscope.core.comparison.rows"]
    )


def test_layers_hold() -> None:
    """import-linter's contracts (pyproject.toml), as ``lint-imports`` checks them in CI."""
    pytest.importorskip("importlinter", reason="import-linter is in the test extra")
    script = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    out = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_planted_layer_violations_break_the_contracts(tmp_path: Path) -> None:
    """The contracts catch what they forbid (a tree of empty modules with three planted imports)."""
    pytest.importorskip("importlinter", reason="import-linter is in the test extra")
    planted = {
        "core/formats/npz.py": "from dumpscope.core.comparison import pipeline\n",
        "core/vendor/opdebug.py": "def f():\n    from dumpscope.core.comparison.result import Comparison\n",
        "core/names.py": "import rich\n",
        **dict.fromkeys(
            ["core/comparison/pipeline.py", "core/comparison/result.py", "core/comparison/judge.py"], ""
        ),
        **dict.fromkeys(
            ["core/diagnosis/__init__.py", "core/inspect/__init__.py", "core/report/__init__.py"], ""
        ),
        "tui/cli/main.py": "",
    }
    root = tmp_path / "dumpscope"
    for rel, text in planted.items():
        path = root / rel
        for folder in [path.parent, *path.parent.parents]:
            if folder == tmp_path:
                break
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "__init__.py").touch()
        path.write_text(text)
    (tmp_path / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    script = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert out.returncode != 0 and "3 broken" in out.stdout, out.stdout + out.stderr


def test_no_import_cycles(tree: dict[str, list[Import]]) -> None:
    assert cycles(runtime_graph(tree)) == []


def test_cli_does_not_import_textual_eagerly(tree: dict[str, list[Import]]) -> None:
    assert eager_textual(tree) == []


def test_every_package_folder_is_listed_in_pyproject() -> None:
    folders = package_folders()
    assert "dumpscope.core.comparison" in folders
    assert unlisted_packages(folders, (REPO / "pyproject.toml").read_text(encoding="utf-8")) == set()


@pytest.mark.parametrize("folders", [("core", "tui"), ("core",)], ids=["core+tui", "core"])
def test_complexity_is_within_the_team_target(folders: tuple[str, ...]) -> None:
    scores = tree_complexities(folders)
    assert len(scores) > 500  # the tree was read
    assert complexity_problems(scores) == []


# ----------------------------------------------------------------- planted violations are caught


def _planted(modules: dict[str, str]) -> dict[str, list[Import]]:
    return {m: imports_of(src, m, False, modules) for m, src in modules.items()}


def test_planted_cycle_is_caught_through_a_function_level_import() -> None:
    tree = _planted(
        {
            "dumpscope.core.onnx.patch": "from dumpscope.core.onnx import targets\n",
            "dumpscope.core.onnx.targets": "def f():\n    from dumpscope.core.onnx.patch import x\n",
            "dumpscope.core.onnx.graph": "from dumpscope.core.onnx import targets\n",
        }
    )
    assert cycles(runtime_graph(tree)) == [["dumpscope.core.onnx.patch", "dumpscope.core.onnx.targets"]]


def test_typing_only_imports_are_not_cycles_and_relative_imports_resolve() -> None:
    tree = _planted(
        {
            "dumpscope.core.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from "
            "dumpscope.core import b\n",
            "dumpscope.core.b": "from . import a\n",
        }
    )
    assert [i.target for i in tree["dumpscope.core.b"]] == ["dumpscope.core.a"]
    assert cycles(runtime_graph(tree)) == []


def test_planted_eager_textual_in_the_cli_is_caught() -> None:
    tree = _planted(
        {
            "dumpscope.tui.cli.commands.view": "from textual.app import App\n",
            "dumpscope.tui.cli.commands.open": "def run():\n    from textual.app import App\n",
            "dumpscope.tui.cli.render": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import "
            "textual\n",
        }
    )
    assert eager_textual(tree) == ["dumpscope.tui.cli.commands.view:1 -> textual.app"]


def test_a_missing_package_is_caught(tmp_path: Path) -> None:
    for folder in ("core/new_home", "core/comparison", "tui/cli"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "core" / "__init__.py").write_text("")
    (tmp_path / "tui" / "__init__.py").write_text("")
    listed = (
        '[tool.setuptools]\npackages = ["dumpscope.core", "dumpscope.core.comparison", '
        '"dumpscope.tui", "dumpscope.tui.cli"]\n'
    )
    assert unlisted_packages(package_folders(tmp_path), listed) == {"dumpscope.core.new_home"}


def test_complexity_counts_each_decision_and_catches_a_planted_decider() -> None:
    src = (
        "def f(a, b):\n"
        "    if a and b or a:\n"  # if +1, and/or +2
        "        return [x for x in a if x if b]\n"  # two comprehension ifs +2
        "    for x in b:\n"  # +1
        "        while x:\n"  # +1
        "            x = 1 if a else 2\n"  # +1
        "    try:\n        pass\n    except ValueError:\n        pass\n"  # +1
        "    assert a\n"  # +1
        "    def inner():\n        if a:\n            pass\n"  # counted on its own
        "    match a:\n        case 1:\n            pass\n        case _:\n            pass\n"  # +2
    )
    scores = complexities(src, "m")
    assert scores == {"m:f@1": 13, "m:inner@12": 2}
    decider = "def g(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(19))
    assert complexity_problems(complexities(decider, "m")) == [
        "m:g@1: 20 >= 20",
        "mean complexity 20.00 > 3.5",
    ]


def test_public_api_is_importable_lazily() -> None:
    code = (
        "import sys, dumpscope.core as c; assert 'polars' not in sys.modules; "
        "from dumpscope.core import Comparison, Diagnosis, Thresholds, compare, compare_frame, "
        "compare_stream, diagnose, open_dump; "
        "from dumpscope.core import ThreeWay, compare_three, dump, explain, fusion, overflow; "
        "from dumpscope.core import ComparisonMeta, compare_runs; "
        "assert sorted(c.__all__) == sorted(['Comparison', 'Diagnosis', 'Thresholds', 'compare', "
        "'compare_frame', "
        "'compare_stream', 'diagnose', 'open_dump', 'ThreeWay', 'compare_three', 'dump', 'explain', "
        "'fusion', "
        "'overflow', 'ComparisonMeta', 'compare_runs']); print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
