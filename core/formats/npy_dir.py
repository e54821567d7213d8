"""A directory of ``.npy`` files, under any of the naming conventions in use.

* our own dumps: ``manifest.json`` gives every tensor's true name, producer node,
  topological index and file (names are percent-encoded, see :mod:`dumpscope.core.names`);
* msaccucmp-converted NPU dumps: ``{op_type}.{op_name}.{task}.{stream}.{ts}.output.{i}.npy``
  (``.input.{i}``; an optional ``.{1x3x224x224}`` shape before ``.npy``; the FFTS+ variant
  has more numeric fields);
* msit ONNX golden dumps: ``{node}.{output_idx}.{timestamp}.npy`` and
  ``input_{node}.{input_idx}.{timestamp}.npy``;
* plain ``{tensor}.npy`` (sub-directories become ``dir/tensor``);
* ``mapping.csv`` next to files whose over-long names were replaced by numbers.

Names are never filtered by a narrow regex: anything ending in ``.npy`` is a tensor,
and the patterns above only add facts (node, output index, order) to it.
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from dumpscope.core.formats.npyfile import open_npy
from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorReadError, TensorRef
from dumpscope.core.names import from_filename

NAME = "npy-dir"
MANIFEST = "manifest.json"
_MAX_DEPTH = 8

_MSACCUCMP = re.compile(
    r"^(?P<op_type>[^.]+)\.(?P<op_name>.+?)(?P<nums>(?:\.\d+){2,8})\.(?P<io>input|output)\.(?P<idx>\d+)"
    r"(?:\.(?P<shape>\d+(?:x\d+)*))?$"
)
_MSIT = re.compile(r"^(?P<name>.+)\.(?P<idx>\d{1,4})\.(?P<ts>\d{10,})$")


@dataclass(frozen=True)
class _Parsed:
    name: str
    node: str | None = None
    op_type: str | None = None
    index: int = 0
    kind: str = "activation"
    order: float | None = None
    extra: tuple[tuple[str, str], ...] = ()


def _walk_npy(root: Path) -> list[Path]:
    """Every ``.npy`` below ``root`` (sorted for determinism, depth-limited, no symlink loops)."""
    found: list[Path] = []
    root_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root):
        if len(Path(dirpath).parts) - root_depth >= _MAX_DEPTH:
            dirnames[:] = []
        dirnames.sort()
        found.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(".npy"))
    return found


def sniff(path: Path) -> float:
    try:
        if not path.is_dir():
            return 0.0
        if (path / MANIFEST).is_file():
            return 0.95
        for _dirpath, _dirs, files in os.walk(path):
            if any(f.endswith(".npy") for f in files):
                return 0.5
    except OSError:
        return 0.0
    return 0.0


def open(path: Path) -> Dump:  # noqa: A001 - the format protocol's name
    if not path.is_dir():
        raise DumpError(f"{path}: not a directory")
    manifest_path = path / MANIFEST
    if manifest_path.is_file():
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            if manifest.get("format") == "dumpscope-manifest":
                return _open_manifest(path, manifest)
            problem = DumpProblem(str(manifest_path), "not a dumpscope manifest; files read by name")
        except (OSError, ValueError, AttributeError, TypeError, KeyError) as exc:
            problem = DumpProblem(str(manifest_path), f"unreadable manifest ({exc}); files read by name")
        dump = _open_scan(path)
        dump.problems.insert(0, problem)
        return dump
    return _open_scan(path)


def _ref(info: TensorInfo, path: Path) -> TensorRef:
    try:
        shape, dtype, loader = open_npy(path, info.dtype)
    except TensorReadError as exc:
        return TensorRef(info, None, f"{path.name}: {exc}")
    if info.shape is not None and tuple(info.shape) != shape:
        return TensorRef(info, None, f"{path.name}: file holds shape {list(shape)}, manifest says {list(info.shape)}")
    info = _with(info, dtype=str(dtype.name), shape=shape)
    return TensorRef(info, loader)


def _with(info: TensorInfo, **changes: object) -> TensorInfo:
    from dataclasses import replace

    return replace(info, **changes)  # type: ignore[arg-type]


def _open_manifest(root: Path, manifest: dict) -> Dump:  # type: ignore[type-arg]
    tensors: dict[str, TensorRef] = {}
    problems: list[DumpProblem] = []
    listed: set[Path] = set()
    for entry in manifest.get("tensors", []):
        try:
            name = str(entry["name"])
            file = root / str(entry["file"])
        except (KeyError, TypeError):
            problems.append(DumpProblem(str(root / MANIFEST), f"manifest entry without name/file: {entry!r}"[:300]))
            continue
        listed.add(file)
        shape = entry.get("shape")
        info = TensorInfo(
            name=name,
            dtype=entry.get("dtype"),
            shape=tuple(int(d) for d in shape) if isinstance(shape, list) else None,
            node_name=entry.get("node_name"),
            op_type=entry.get("op_type"),
            topo_index=entry.get("topo_index"),
            node_inputs=tuple(entry.get("node_inputs") or ()),
            output_index=int(entry.get("output_index") or 0),
            kind=entry.get("kind", "activation"),
            source=str(file),
            order=entry.get("topo_index"),
            extra=_manifest_extra(entry),
        )
        if not file.is_file():
            ref = TensorRef(info, None, f"{entry['file']}: listed in the manifest but missing")
        else:
            ref = _ref(info, file)
        _put(tensors, problems, ref)
    for file in _walk_npy(root):
        if file not in listed and file.parent.name != "inputs":
            rel = file.relative_to(root)
            name = from_filename(str(rel.with_suffix("")))
            _put(tensors, problems, _ref(TensorInfo(name=name, source=str(file)), file))
            problems.append(DumpProblem(str(file), "not in the manifest; read by its file name"))
    return Dump(path=root, format=NAME, tensors=tensors, problems=problems, meta={"manifest": manifest})


def _manifest_extra(entry: dict) -> tuple[tuple[str, str], ...]:  # type: ignore[type-arg]
    quant = entry.get("quant")
    if isinstance(quant, dict):
        return tuple((f"quant_{k}", str(v)) for k, v in quant.items())
    return ()


def _put(tensors: dict[str, TensorRef], problems: list[DumpProblem], ref: TensorRef) -> None:
    """Add ``ref``; a duplicate name is kept as ``name#2`` (and said), never dropped."""
    name = ref.info.name
    if name not in tensors:
        tensors[name] = ref
        return
    n = 2
    while f"{name}#{n}" in tensors:
        n += 1
    new = f"{name}#{n}"
    first = tensors[name].info.source
    tensors[new] = TensorRef(_with(ref.info, name=new), ref.loader, ref.error)
    problems.append(DumpProblem(ref.info.source or new, f"duplicate tensor name {name!r} (also {first}); kept as {new!r}"))


def _read_mapping(directory: Path) -> dict[str, str]:
    """``mapping.csv``: file stem -> real name (column order detected from the files present)."""
    path = directory / "mapping.csv"
    if not path.is_file():
        return {}
    out: dict[str, str] = {}
    try:
        with path.open(newline="", encoding="utf-8", errors="surrogateescape") as f:
            for row in csv.reader(f):
                if len(row) < 2:
                    continue
                a, b = row[0].strip(), row[1].strip()
                a_stem, b_stem = a.removesuffix(".npy"), b.removesuffix(".npy")
                if (directory / f"{a_stem}.npy").exists() or a_stem.isdigit():
                    out[a_stem] = b
                elif (directory / f"{b_stem}.npy").exists() or b_stem.isdigit():
                    out[b_stem] = a
    except OSError:
        return out
    return out


def parse_name(stem: str) -> _Parsed:
    """Facts a file name gives about its tensor (see the module docstring)."""
    m = _MSACCUCMP.match(stem)
    if m:
        nums = [int(v) for v in m["nums"].strip(".").split(".")]
        ts = max(nums)  # the timestamp is by far the largest field
        op, idx = m["op_name"], int(m["idx"])
        extra = (("file_fields", m["nums"].strip(".")),)
        if m["io"] == "output":
            return _Parsed(op if idx == 0 else f"{op}:{idx}", op, m["op_type"], idx, "activation", float(ts), extra)
        return _Parsed(f"{op}:input:{idx}", op, m["op_type"], idx, "op_input", float(ts), extra)
    m = _MSIT.match(stem)
    if m:
        node, idx = m["name"], int(m["idx"])
        return _Parsed(node if idx == 0 else f"{node}:{idx}", node, None, idx, "activation", float(m["ts"]))
    return _Parsed(stem)


def _open_scan(root: Path) -> Dump:
    files = _walk_npy(root)
    if not files:
        raise DumpError(f"{root}: no .npy files found (is this a dump directory?)")
    mappings: dict[Path, dict[str, str]] = {}
    parsed: list[tuple[Path, _Parsed]] = []
    for file in files:
        if file.parent not in mappings:
            mappings[file.parent] = _read_mapping(file.parent)
        stem = file.name[: -len(".npy")]
        stem = mappings[file.parent].get(stem, stem)
        p = parse_name(stem)
        rel_dir = file.parent.relative_to(root)
        if p.node is None and rel_dir.parts:
            p = _Parsed(f"{rel_dir.as_posix()}/{p.name}")
        parsed.append((file, p))
    # msit writes a node's inputs as input_{node}.{i}.{ts}.npy; only call it that when
    # such a node exists, so a node really named "input_x" keeps its outputs.
    nodes = {p.node for _f, p in parsed if p.node}
    timed = all(p.order is not None for _f, p in parsed)
    tensors: dict[str, TensorRef] = {}
    problems: list[DumpProblem] = []
    for file, p in parsed:
        if p.node and p.node.startswith("input_") and p.node[6:] in nodes and p.kind == "activation" and p.op_type is None:
            p = _Parsed(f"{p.node[6:]}:input:{p.index}", p.node[6:], None, p.index, "op_input", p.order)
        order = p.order
        if not timed:
            try:  # no ids in the names: file times are the best record of execution order
                order = float(file.stat().st_mtime_ns)
            except OSError:
                order = None
        info = TensorInfo(
            name=p.name,
            node_name=p.node,
            op_type=p.op_type,
            output_index=p.index,
            kind=p.kind,  # type: ignore[arg-type]
            source=str(file),
            order=order,
            extra=p.extra,
        )
        _put(tensors, problems, _ref(info, file))
    meta = {"order_source": "file names" if timed else "file modification times"}
    return Dump(path=root, format=NAME, tensors=tensors, problems=problems, meta=meta)
