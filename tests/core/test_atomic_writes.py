"""Every file the product writes goes through ``core/atomic.py``: the source is walked (ast) for
any other way to write a file, and a hit outside ``core/atomic.py`` fails."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import REPO as REPO_DIR
from tests.support.paths import product_sources

PACKAGE = REPO_DIR
ATOMIC = PACKAGE / "core" / "atomic.py"

#: Methods and functions that write a file when given a destination.
WRITERS = {
    "write_text",
    "write_bytes",
    "write_csv",
    "write_parquet",
    "write_json",
    "write_ndjson",
    "write_ipc",
    "write_avro",
    "write_excel",
    "write_database",
    "sink_parquet",
    "sink_csv",
    "sink_ipc",
    "sink_ndjson",
    "tofile",
    "save_model",
    "save_screenshot",
    "to_csv",
    "to_parquet",
    "to_json",
    "mkstemp",
    "NamedTemporaryFile",
    "mkfifo",
    "touch",
}
#: Writers by a common name, caught on these modules only (``cmp.save`` is the product's own, atomic).
MODULE_WRITERS = {
    "save": {"np", "numpy", "onnx", "torch"},
    "savez": {"np", "numpy"},
    "savez_compressed": {"np", "numpy"},
    "savetxt": {"np", "numpy"},
    "copy": {"shutil"},
    "copy2": {"shutil"},
    "copyfile": {"shutil"},
}
#: The product's own module-level writers (checked where they are defined), called as ``module.write_...``.
OWN_MODULES = {"atomic", "report", "writers"}
_WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}


def product_files() -> list[Path]:
    return product_sources()


def _atomic_targets(tree: ast.AST) -> dict[ast.AST, set[str]]:
    """For each node, the names bound by an enclosing ``with atomic_*(...) as NAME``."""
    scopes: dict[ast.AST, set[str]] = {}

    def visit(node: ast.AST, bound: frozenset[str]) -> None:
        if isinstance(node, (ast.With, ast.AsyncWith)):
            names = set(bound)
            for item in node.items:
                call = item.context_expr
                target = item.optional_vars
                atomic = isinstance(call, ast.Call) and _callee(call).startswith("atomic_")
                if atomic and isinstance(target, ast.Name):
                    names.add(target.id)
            bound = frozenset(names)
        scopes[node] = set(bound)
        for child in ast.iter_child_nodes(node):
            visit(child, bound)

    visit(tree, frozenset())
    return scopes


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _receiver(call: ast.Call) -> str:
    f = call.func
    return f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""


def _mode(call: ast.Call) -> str | None:
    """The constant mode of an ``open`` call (``io.open``/``Path.open`` too), if any."""
    args = list(call.args)
    is_method = isinstance(call.func, ast.Attribute) and _receiver(call) not in ("io", "os", "codecs")
    candidates = args[:1] if is_method else args[1:2]
    candidates += [k.value for k in call.keywords if k.arg == "mode"]
    for c in candidates:
        if isinstance(c, ast.Constant) and isinstance(c.value, str):
            return c.value
    return None


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _memory_buffers(tree: ast.AST) -> set[str]:
    """Names bound to an in-memory buffer (``out = io.BytesIO()``): writing into one writes no file."""
    buffers = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and _callee(node.value) in ("BytesIO", "StringIO")
        ):
            buffers |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return buffers


def offending_writes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    targets = _atomic_targets(tree)
    buffers = _memory_buffers(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name, receiver = _callee(node), _receiver(node)
        args = [*node.args, *(k.value for k in node.keywords)]
        into_atomic = any(_names(a) & (targets.get(node, set()) | buffers) for a in args)
        if name == "open" and receiver == "os" and ast.unparse(node.args[0]) == "os.devnull":
            bad = False  # the null device, for dup2 over a closed stdout
        elif name == "open" and receiver == "os":
            flags = {n.attr for a in node.args[1:2] for n in ast.walk(a) if isinstance(n, ast.Attribute)}
            bad = bool(flags & _WRITE_FLAGS)
        elif name == "open":
            mode = _mode(node)
            bad = mode is not None and any(c in mode for c in "wax+")
        elif name in WRITERS or receiver in MODULE_WRITERS.get(name, ()):
            bad = (
                bool(args)
                and not into_atomic
                and receiver not in OWN_MODULES
                and not (name in ("write_text", "write_bytes") and isinstance(node.func, ast.Name))
            )  # atomic's own
        else:
            bad = False
        if bad:
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node.func)}(...)")
    return found


def test_no_file_is_written_outside_core_atomic() -> None:
    offending = [hit for p in product_files() if p != ATOMIC for hit in offending_writes(p)]
    assert not offending, "write through dumpscope.core.atomic instead:\n" + "\n".join(offending)


def test_the_walker_finds_each_kind_of_write(tmp_path: Path) -> None:
    """The walker itself: each way of writing is caught; the atomic forms are not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, numpy as np\n"
        "from pathlib import Path\n"
        "open(p, 'w')\n"  # 3
        "Path(p).open('ab')\n"  # 4
        "Path(p).write_text('x')\n"  # 5
        "frame.write_csv(p)\n"  # 6
        "np.save(p, a)\n"  # 7
        "os.open(p, os.O_WRONLY | os.O_CREAT)\n"  # 8
        "a.tofile(p)\n"  # 9
        "onnx.save_model(m, p)\n"  # 10
        "open(p, 'rb')\n"
        "os.open(p, os.O_RDONLY)\n"
        "frame.write_csv()\n"
        "write_text('x', p)\n"
        "with atomic_binary(p) as fh:\n    np.save(fh, a)\n    frame.write_csv(fh)\n"
        "with atomic_path(p) as tmp:\n    onnx.save_model(m, str(tmp))\n"
        "report.write_parquet(cmp, p)\n"
        "buf = io.BytesIO()\nframe.write_parquet(buf)\n"
    )
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        hits = offending_writes(sample)
    finally:
        PACKAGE = saved
    assert [int(h.split(":")[1]) for h in hits] == list(range(3, 11))
