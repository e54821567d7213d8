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

import builtins
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.core.dumps import (
    Dump,
    DumpError,
    DumpProblem,
    TensorInfo,
    TensorKind,
    TensorReadError,
    TensorRef,
    dtype_name,
)
from dumpscope.core.formats.npyfile import (
    NpyLoader,
    Scratch,
    SmallFiles,
    check_shape,
    facts_loader,
    npy_facts,
)
from dumpscope.core.formats.safe_fs import (
    FOLDER,
    FOLDER_LINK,
    MAX_JSON_BYTES,
    OTHER,
    SNIFF_ENTRIES,
    JsonStream,
    Walk,
    child_text_maker,
    list_folder,
    load_json,
    member_path,
    read_csv_rows,
    regular_file_problem,
    shared_listings,
    walk_files,
)
from dumpscope.core.names import from_filename

if TYPE_CHECKING:
    import numpy as np

NAME = "npy-dir"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = (
    "a folder holding manifest.json, or .npy files within a few folder levels (mapping.csv or encoded "
    "file names give the tensor names)"
)
MANIFEST = "manifest.json"
_MAX_DEPTH = 8

_MSACCUCMP = re.compile(
    r"^(?P<op_type>[^.]+)\.(?P<op_name>.+?)(?P<nums>(?:\.\d+){2,8})\.(?P<io>input|output)\.(?P<idx>\d+)"
    r"(?:\.(?P<shape>\d+(?:x\d+)*))?$"
)
_MSIT = re.compile(r"^(?P<name>.+)\.(?P<idx>\d{1,4})\.(?P<ts>\d{10,})$")


class _Parsed:
    """What a file name says about its tensor (a plain slotted class: a frozen dataclass cost
    ~1 us a file to make)."""

    __slots__ = ("extra", "index", "kind", "name", "node", "op_type", "order")

    def __init__(
        self,
        name: str,
        node: str | None = None,
        op_type: str | None = None,
        index: int = 0,
        kind: TensorKind = "activation",
        order: float | None = None,
        extra: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.name, self.node, self.op_type, self.index = name, node, op_type, index
        self.kind, self.order, self.extra = kind, order, extra


def _walk_npy(root: Path) -> Walk[Path]:
    """Every ``.npy`` below ``root`` (sorted, depth-limited, see :mod:`safe_fs`), and what was skipped."""
    return walk_files(root, _is_npy, _MAX_DEPTH).whole(root)


def _walk_npy_text(root: Path) -> Walk[str]:
    """:func:`_walk_npy` with each file as the text of its path (no Path object per file)."""
    return walk_files(root, _is_npy, _MAX_DEPTH, text=True).whole(root)


def _is_npy(name: str) -> bool:
    return name.endswith(".npy")


def sniff(path: Path) -> float:
    try:
        if not path.is_dir():
            return 0.0
        if (path / MANIFEST).is_file():
            return 0.95
        return 0.5 if _has_npy(path) else 0.0
    except OSError:
        return 0.0


def _has_npy(root: Path) -> bool:
    """Whether an ``.npy`` name appears within :data:`_MAX_DEPTH` levels: breadth-first (a dump's
    own files first), iterative, and at most :data:`~dumpscope.core.formats.safe_fs.SNIFF_ENTRIES`
    entries listed, so ``/`` or ``/proc`` is "no" at once rather than a walk of the machine."""
    from collections import deque

    queue, seen = deque([(root, 0)]), 0
    while queue and seen <= SNIFF_ENTRIES:
        folder, depth = queue.popleft()
        try:
            names, kinds = list_folder(folder)
        except OSError:
            continue
        seen += len(names)
        if any(name.endswith(".npy") for name in names):
            return True
        if depth < _MAX_DEPTH:
            queue.extend((folder / n, depth + 1) for n, k in zip(names, kinds, strict=True) if k == FOLDER)
    return False


def open(path: Path) -> Dump:  # noqa: A001 - the format protocol's name
    """Read a folder of ``.npy`` files; its ``manifest.json`` when there is a usable one.

    Files are read as :mod:`~dumpscope.core.formats.safe_fs` allows: only regular files
    inside ``path``; a manifest path that leads outside (``../x``, an absolute path, a
    symbolic link pointing out) is refused on its row.  An unusable manifest is not fatal:
    the files are read by name (percent-encoded names decoded) and the first problem says
    why the manifest was not used.
    """
    if not path.is_dir():
        raise DumpError(f"{path}: not a directory")
    manifest_path = path / MANIFEST
    if not (manifest_path.exists() or manifest_path.is_symlink()):
        return _open_scan(path)
    manifest, reason = _load_manifest(path, manifest_path)
    if manifest is not None:
        return _open_manifest(path, manifest)
    dump = _open_scan(path, decode_names=True)
    message = f"manifest not used: {reason}; files read by their (decoded) names"
    dump.problems.insert(0, DumpProblem(str(manifest_path), message))
    dump.meta["manifest_unused"] = reason
    return dump


def _load_manifest(root: Path, manifest_path: Path) -> tuple[dict | None, str]:
    """``(manifest, "")`` when ``manifest.json`` is usable, else ``(None, why not)``."""
    reason = regular_file_problem(root, manifest_path)
    if reason is not None:
        return None, reason
    try:
        manifest = load_json(manifest_path)
    except (OSError, ValueError, UnicodeError) as exc:
        return None, f"unreadable ({getattr(exc, 'strerror', None) or exc})"
    if not (isinstance(manifest, dict) and manifest.get("format") == "dumpscope-manifest"):
        return None, "not a dumpscope manifest"
    if not isinstance(manifest.get("tensors", []), list):
        return None, "its 'tensors' is not a list"
    return manifest, ""


def _ref(
    info: TensorInfo,
    path: Path | str,
    refused: str | None = None,
    keep: SmallFiles | None = None,
    by_mtime: bool = False,
) -> TensorRef:
    """The row of one file: its header read (one ``open``; a small file kept whole within
    ``keep``), or why it cannot be read.  ``by_mtime``: the file's modification time is the
    tensor's order (taken from the same ``open``)."""
    if refused is not None:
        return _unread(info, path, refused, by_mtime)
    try:
        facts = npy_facts(path, info.dtype, keep)
    except TensorReadError as exc:
        return _unread(info, path, str(exc), by_mtime)
    if info.shape is not None and tuple(info.shape) != facts.shape:
        return TensorRef(
            info,
            None,
            f"{os.path.basename(path)}: file holds shape {list(facts.shape)}, "
            f"manifest says {list(info.shape)}",
        )
    order = float(facts.mtime_ns) if by_mtime else info.order
    _complete_info(info, dtype_name(facts.dtype), facts.shape, order)
    return TensorRef(info, facts_loader(str(path), facts))  # a str: no Path object kept per tensor


_SET_DTYPE, _SET_SHAPE, _SET_ORDER = (
    getattr(TensorInfo, name).__set__ for name in ("dtype", "shape", "order")
)


def _complete_info(info: TensorInfo, dtype: str, shape: tuple[int, ...], order: float | None) -> None:
    """Fill in the header facts of an info :func:`_ref` was handed fresh (made for this one
    row by its caller, not yet shared): three slot writes instead of a copy of all twelve
    fields (the copy was ~10 % of opening 20,000 tiny tensors)."""
    _SET_DTYPE(info, dtype)
    _SET_SHAPE(info, shape)
    _SET_ORDER(info, order)


def _unread(info: TensorInfo, path: Path | str, why: str, by_mtime: bool) -> TensorRef:
    """A file whose data cannot be read: a row with the reason."""
    if by_mtime:
        info = _with(info, order=_mtime(Path(path)))
    return TensorRef(info, None, f"{os.path.basename(path)}: {why}")


def _with(info: TensorInfo, **changes: object) -> TensorInfo:
    """A copy of ``info`` with ``changes`` (``dataclasses.replace`` re-runs ``__init__``
    through field introspection: a third of opening 20,000 tiny tensors).  The info is a
    frozen, slotted dataclass: its slots are filled directly, through their descriptors."""
    copy = object.__new__(TensorInfo)
    for name, slot in _INFO_SLOTS:
        slot.__set__(copy, changes[name] if name in changes else slot.__get__(info))
    return copy


_INFO_SLOTS = tuple((name, getattr(TensorInfo, name)) for name in TensorInfo.__slots__)


_KINDS = ("activation", "input", "constant", "op_input")


def _opt_str(entry: dict, key: str) -> str | None:
    value = entry.get(key)
    if value is None or isinstance(value, str):
        return value
    raise ValueError(f"{key!r} is a {type(value).__name__}, not a string")


def _opt_int(entry: dict, key: str) -> int | None:
    value = entry.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and abs(value) < 1 << 62):
        return value
    raise ValueError(f"{key!r} is {str(value)[:40]}, not an integer")


def _entry_shape(entry: dict) -> tuple[int, ...] | None:
    shape = entry.get("shape")
    if shape is None:
        return None
    if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
        raise ValueError(f"'shape' {str(shape)[:60]} is not a list of integers")
    return check_shape(tuple(shape))


def _entry_inputs(entry: dict) -> list[str]:
    """The entry's ``node_inputs`` (a list of strings; absent is empty)."""
    inputs = entry.get("node_inputs") or []
    if not isinstance(inputs, list) or not all(isinstance(i, str) for i in inputs):
        raise ValueError("'node_inputs' is not a list of strings")
    return inputs


def _entry_info(entry: object, file: Path) -> TensorInfo:
    """The TensorInfo of one manifest entry; ValueError/TensorReadError names the bad field."""
    if not isinstance(entry, dict):
        raise ValueError(f"the entry is a {type(entry).__name__}, not an object")
    name = entry.get("name")
    if not isinstance(name, str):
        raise ValueError(f"'name' is a {type(name).__name__}, not a string")
    inputs = _entry_inputs(entry)
    kind = entry.get("kind", "activation")
    if kind not in _KINDS:
        raise ValueError(f"'kind' {str(kind)[:40]!r} is not one of {', '.join(_KINDS)}")
    topo = _opt_int(entry, "topo_index")
    return TensorInfo(
        name=name,
        dtype=_opt_str(entry, "dtype"),
        shape=_entry_shape(entry),
        node_name=_opt_str(entry, "node_name"),
        op_type=_opt_str(entry, "op_type"),
        topo_index=topo,
        node_inputs=tuple(inputs),
        output_index=_opt_int(entry, "output_index") or 0,
        kind=kind,
        source=str(file),
        order=topo,
        extra=_manifest_extra(entry),
    )


def _bad_entry_name(entry: object, position: int) -> str:
    """A row name for a manifest entry too damaged to give its own: its ``name``, else the name its
    ``file`` encodes (so the row pairs with the other side's tensor and is not lost), else its position."""
    name = entry.get("name") if isinstance(entry, dict) else None
    if isinstance(name, str):
        return name
    file = entry.get("file") if isinstance(entry, dict) else None
    if isinstance(file, str) and file.endswith(".npy") and "/" not in file and len(file) > 4:
        return from_filename(file[:-4])
    return f"<manifest entry {position}>"


def _bad_entry(entry: object, position: int, where: str, exc: Exception) -> TensorRef:
    """The row of a manifest entry too damaged to describe its tensor."""
    info = TensorInfo(name=_bad_entry_name(entry, position), source=where, order=float(position))
    return TensorRef(info, None, f"bad manifest entry {position}: {exc}")


@dataclass
class _Listing:
    """What one pass over a manifest's entries keeps: the files they name that exist (the walk
    then reads only the others by name) and each folder's resolved path (resolved once)."""

    files: set[str] = field(default_factory=set)
    real_dirs: dict[str, str] = field(default_factory=dict)


def _manifest_ref(
    root: Path, entry: object, position: int, listed: _Listing, keep: SmallFiles | None = None
) -> TensorRef:
    """One manifest entry as a tensor row; a bad entry is a row with the reason, never an exception."""
    rel = entry.get("file") if isinstance(entry, dict) else None
    file, why = _listed_file(root, rel, listed)
    try:
        info = _entry_info(entry, file or root)
    except (ValueError, TensorReadError) as exc:
        return _bad_entry(entry, position, str(file or root / MANIFEST), exc)
    return _listed_ref(info, (rel, file, why), position, keep)


def _listed_file(root: Path, rel: object, listed: _Listing) -> tuple[Path | None, str | None]:
    """The file an entry names and why it is not read (:func:`member_path`, then :func:`_file_problem`);
    a file that exists goes into ``listed`` (a missing one cannot turn up in the walk: not kept)."""
    file, why = member_path(root, rel, listed.real_dirs)
    if file is None:
        return None, why
    problem = _file_problem(root, file)
    if problem is not _MISSING:
        listed.files.add(os.path.normpath(file))
    return file, problem


def _listed_ref(
    info: TensorInfo, where: tuple[object, Path | None, str | None], position: int, keep: SmallFiles | None
) -> TensorRef:
    """The row of a well-formed entry: its file read, or why not (``where``: the entry's
    ``file`` field, the path it resolved to or None, and why it is not read or None)."""
    rel, file, why = where
    if file is None:
        return TensorRef(info, None, f"manifest entry {position}: {why}")
    if why is not None:
        return TensorRef(info, None, f"{rel}: {why}")
    return _ref(info, file, keep=keep)


#: Why a file the manifest names is not read, when it does not exist (compared by identity:
#: such a file is not added to the set of listed files, see :func:`_manifest_ref`).
_MISSING = "listed in the manifest but missing"


def _file_problem(root: Path, file: Path) -> str | None:
    """Why a file the manifest names is not read (one ``lstat`` for a plain regular file)."""
    try:
        mode = os.lstat(file).st_mode
    except FileNotFoundError:
        return _MISSING
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    return None if stat.S_ISREG(mode) else regular_file_problem(root, file)


def _open_manifest(root: Path, manifest: dict) -> Dump:
    tensors: dict[str, TensorRef] = {}
    problems: list[DumpProblem] = []
    listed = _Listing()
    keep = SmallFiles()
    entries = manifest.get("tensors", [])
    count = len(entries) if isinstance(entries, list) else 0
    for position in range(count):
        entry, entries[position] = entries[position], None  # free each decoded entry once it is a row
        _put(tensors, problems, _manifest_ref(root, entry, position, listed, keep))
    walk = _walk_npy(root)
    problems.extend(walk.skipped)
    for file in walk.files:
        if os.path.normpath(file) not in listed.files and file.parent.name != "inputs":
            rel = file.relative_to(root)
            name = from_filename(str(rel.with_suffix("")))
            _put(
                tensors,
                problems,
                _ref(TensorInfo(name=name, source=str(file)), file, walk.refused.get(file), keep),
            )
            problems.append(DumpProblem(str(file), "not in the manifest; read by its file name"))
    meta: dict[str, object] = {"manifest": _checked_manifest(manifest, problems, str(root / MANIFEST))}
    return Dump(path=root, format=NAME, tensors=tensors, problems=problems, meta=meta)


#: Top-level manifest fields other parts read, and the JSON types they may have.
_MANIFEST_FIELDS: dict[str, tuple[type, ...]] = {
    "version": (int,), "model": (str, type(None)), "model_sha256": (str, type(None)), "producer": (str,),
    "target": (str, type(None)), "seed": (int,), "ort_runs": (int,), "inputs": (list,), "nodes": (list, dict),
    "clamped": (list,), "notes": (list,), "demo": (dict,),
}  # fmt: skip
_ITEM_TYPES: dict[str, type] = {"inputs": dict, "clamped": dict, "notes": str, "nodes": dict}


def _checked_manifest(manifest: dict, problems: list[DumpProblem], where: str) -> dict:
    """The manifest with every known field of the wrong type dropped (and said), so no later
    reader meets an ``"inputs": 7``; list fields keep only items of the right type.

    ``tensors`` is not kept (the dump's tensors are its rows; a 100k-entry list would
    double the reader's memory): ``tensor_entries`` gives its length."""
    out = {k: v for k, v in manifest.items() if k != "tensors"}
    out["tensor_entries"] = len(manifest.get("tensors") or [])
    for key, types in _MANIFEST_FIELDS.items():
        if key in out:
            _check_field(out, key, types, lambda message: problems.append(DumpProblem(where, message)))
    return out


def _check_field(out: dict, key: str, types: tuple[type, ...], say: Callable[[str], None]) -> None:
    """Drop ``out[key]`` when it has the wrong type; keep only the right items of a list field."""
    value = out[key]
    if not isinstance(value, types) or isinstance(value, bool):
        say(f"manifest field {key!r} is a {type(value).__name__}; ignored")
        del out[key]
    elif isinstance(value, list) and key in _ITEM_TYPES:
        kept = [v for v in value if isinstance(v, _ITEM_TYPES[key])]
        if len(kept) != len(value):
            say(f"manifest field {key!r}: {len(value) - len(kept)} malformed item(s) ignored")
        out[key] = kept


def _manifest_extra(entry: dict) -> tuple[tuple[str, str], ...]:
    extra: list[tuple[str, str]] = []
    quant = entry.get("quant")
    if isinstance(quant, dict):
        extra += [(f"quant_{k}", str(v)) for k, v in quant.items()]
    vendor = entry.get("vendor")  # a vendor toolchain's own facts (ncnn: the blob and how it was paired)
    if isinstance(vendor, dict):
        extra += [
            (k if k == "unmatched_note" else f"vendor_{k}", str(v)[:1000])
            for k, v in vendor.items()
            if isinstance(k, str) and isinstance(v, str | int | float)
        ]
    return tuple(extra)


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
    problems.append(
        DumpProblem(ref.info.source or new, f"duplicate tensor name {name!r} (also {first}); kept as {new!r}")
    )


def _read_mapping(directory: Path, present: set[str], problems: list[DumpProblem]) -> dict[str, str]:
    """``mapping.csv``: file stem -> real name (column order detected from the files present).

    Only names of ``.npy`` files found in ``directory`` (``present``, their stems) are
    mapped: the CSV never makes dumpscope open a path.  A bad line is a note.
    """
    path = directory / "mapping.csv"
    if not (path.exists() or path.is_symlink()):
        return {}
    problem = regular_file_problem(directory, path)
    if problem is not None:
        problems.append(DumpProblem(str(path), problem))
        return {}
    out: dict[str, str] = {}
    try:
        _mapping_rows(path, present, problems, out)
    except OSError as exc:
        problems.append(DumpProblem(str(path), f"cannot read: {exc.strerror or exc}"))
    return out


def _mapping_rows(path: Path, present: set[str], problems: list[DumpProblem], out: dict[str, str]) -> None:
    """Every usable line of ``mapping.csv`` into ``out``; a bad line is a note."""
    for number, row in read_csv_rows(path):
        if isinstance(row, str):
            problems.append(DumpProblem(f"{path}:{number}", row))
        elif len(row) >= 2:
            _map_row(out, row[0].strip(), row[1].strip(), present)


def _map_row(out: dict[str, str], a: str, b: str, present: set[str]) -> None:
    a_stem, b_stem = a.removesuffix(".npy"), b.removesuffix(".npy")
    if a_stem in present or a_stem.isdigit():
        out[a_stem] = b
    elif b_stem in present or b_stem.isdigit():
        out[b_stem] = a


def parse_name(stem: str) -> _Parsed:
    """Facts a file name gives about its tensor (see the module docstring)."""
    if "." not in stem:  # both patterns need a dot: a plain name is only its name
        return _Parsed(stem)
    m = _MSACCUCMP.match(stem)
    if m:
        nums = [int(v) for v in m["nums"].strip(".").split(".")]
        ts = max(nums)  # the timestamp is by far the largest field
        op, idx = m["op_name"], int(m["idx"])
        extra = (("file_fields", m["nums"].strip(".")),)
        if m["io"] == "output":
            return _Parsed(
                op if idx == 0 else f"{op}:{idx}", op, m["op_type"], idx, "activation", float(ts), extra
            )
        return _Parsed(f"{op}:input:{idx}", op, m["op_type"], idx, "op_input", float(ts), extra)
    m = _MSIT.match(stem)
    if m:
        node, idx = m["name"], int(m["idx"])
        return _Parsed(node if idx == 0 else f"{node}:{idx}", node, None, idx, "activation", float(m["ts"]))
    return _Parsed(stem)


def _scan_names(
    root: Path, files: list[str], problems: list[DumpProblem], decode: bool
) -> list[tuple[str, _Parsed]]:
    """The facts each file name gives (through ``mapping.csv`` where there is one).

    Directories are keyed by their text: a ``Path`` per file as a dict key (hash, parts,
    ``relative_to``) cost more than parsing the names at 20,000 files.
    """
    split = [f.rpartition(os.sep) for f in files]  # (parent, sep, name): os.path.dirname costs 4x
    by_dir: dict[str, set[str]] = {}
    for parent, _sep, name in split:
        by_dir.setdefault(parent, set()).add(name[:-4])
    mappings = {d: _read_mapping(Path(d), stems, problems) for d, stems in by_dir.items()}
    rel_dirs = {d: Path(d).relative_to(root) for d in by_dir}
    nested = {d: bool(rel.parts) for d, rel in rel_dirs.items()}
    parsed: list[tuple[str, _Parsed]] = []
    for (parent, _sep, name), file in zip(split, files, strict=False):
        stem = name[: -len(".npy")]
        mapping = mappings[parent]
        stem = mapping.get(stem, stem) if mapping else stem
        if decode:
            parsed.append((file, _decoded(rel_dirs[parent], stem)))
            continue
        p = _parse_safely(stem)
        if p.node is None and nested[parent]:
            p = _Parsed(f"{rel_dirs[parent].as_posix()}/{p.name}")
        parsed.append((file, p))
    return parsed


def _parse_safely(stem: str) -> _Parsed:
    """:func:`parse_name`, falling back to the plain name for absurd fields (a 5,000-digit id)."""
    try:
        return parse_name(stem)
    except ValueError:
        return _Parsed(stem)


def _decoded(rel_dir: Path, stem: str) -> _Parsed:
    """A file of our own dump read without its manifest: percent-decoded name; ``inputs/`` are inputs."""
    if rel_dir.parts == ("inputs",):
        return _Parsed(from_filename(stem), kind="input")
    return _Parsed(from_filename(f"{rel_dir.as_posix()}/{stem}" if rel_dir.parts else stem))


def _msit_input(p: _Parsed, nodes: set[str]) -> _Parsed:
    """msit writes a node's inputs as ``input_{node}.{i}.{ts}.npy``; only call it that when
    such a node exists, so a node really named ``input_x`` keeps its outputs."""
    if (
        p.node
        and p.node.startswith("input_")
        and p.node[6:] in nodes
        and p.kind == "activation"
        and p.op_type is None
    ):
        return _Parsed(f"{p.node[6:]}:input:{p.index}", p.node[6:], None, p.index, "op_input", p.order)
    return p


def _mtime(file: Path) -> float | None:
    """No ids in the names: file times are the best record of execution order."""
    try:
        return float(file.stat().st_mtime_ns)
    except OSError:
        return None


#: A setter of each of TensorInfo's slots, in the fields' order (see :func:`_scan_info`).
_INFO_SETTERS = tuple(slot.__set__ for _name, slot in _INFO_SLOTS)
if tuple(name for name, _slot in _INFO_SLOTS) != (
    *("name", "dtype", "shape", "node_name", "op_type", "topo_index", "node_inputs", "output_index"),
    *("kind", "source", "order", "extra"),
):  # pragma: no cover - TensorInfo changed: _scan_info must set its new fields too
    raise ImportError(f"npy_dir._scan_info does not set every field of TensorInfo: {TensorInfo.__slots__}")


def _scan_info(file: Path | str, p: _Parsed, order: float | None) -> TensorInfo:
    """The info of a scanned file, its header not read: its twelve slots written one by one (a
    frozen dataclass's ``__init__`` sets each through ``object.__setattr__``: twice the cost, at one
    info a file; equal to ``TensorInfo(...)``, tested)."""
    info = object.__new__(TensorInfo)
    name, dtype, shape, node, op_type, topo, inputs, index, kind, source, when, extra = _INFO_SETTERS
    name(info, p.name)
    dtype(info, None)
    shape(info, None)
    node(info, p.node)
    op_type(info, p.op_type)
    topo(info, None)
    inputs(info, ())
    index(info, p.index)
    kind(info, p.kind)
    source(info, str(file))
    when(info, order)
    extra(info, p.extra)
    return info


def _without_repeated_inputs(parsed: list[tuple[str, _Parsed]]) -> list[tuple[str, _Parsed]]:
    """An input of our own dump also dumped as a tensor appears once."""
    names = {p.name for _f, p in parsed if p.kind != "input"}
    return [(f, p) for f, p in parsed if p.kind != "input" or p.name not in names]


def _scan_refs(parsed: list[tuple[str, _Parsed]], walk: Walk[str], timed: bool) -> Iterator[TensorRef]:
    """The row of every file found, its header read (ordered by file time when the names
    give no order)."""
    nodes = {p.node for _f, p in parsed if p.node}
    keep = SmallFiles()
    refused = walk.refused or {}  # (a Path's hash costs microseconds: not looked up when none was refused)
    deferred = _DEFERRED.get()
    for file, p in parsed:
        p = _msit_input(p, nodes)
        why = refused.get(file) if refused else None
        later = _deferred_ref(file, p, timed) if deferred and why is None else None
        if later is not None:
            yield later
            continue
        info = _scan_info(file, p, p.order if timed else None)
        yield _ref(info, file, why, keep, by_mtime=not timed)


_DEFERRED: ContextVar[bool] = ContextVar("dumpscope_deferred_headers", default=False)
#: The :attr:`~dumpscope.core.dumps.Dump.meta` key of a dump opened with :func:`deferred_headers`
#: whose files' headers are not read yet.
DEFERRED_META = "headers_deferred"


@contextmanager
def deferred_headers() -> Iterator[None]:
    """Within it (in this thread), a folder of ``.npy`` files read by their names (no manifest)
    is opened without reading its files' headers: one ``stat`` a file (its modification time,
    the order when the names give none, and its size) instead of an ``open``, a read and a
    ``close``.  Such a tensor's info has no dtype or shape until :func:`read_header` reads it,
    which a comparison's worker does for the rows it computes (the parent then reads no
    header of a matched pair, see :mod:`dumpscope.core.comparison.late`); its loader
    (:class:`DeferredNpy`) reads the header whenever the data is loaded."""
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


class DeferredNpy:
    """The loader of an ``.npy`` file whose header is read only when its data is: the same
    data and the same messages as the loader :func:`open` makes after reading the header."""

    __slots__ = ("file_bytes", "path")

    def __init__(self, path: str, file_bytes: int) -> None:
        self.path = path
        self.file_bytes = file_bytes
        """The file's size when it was listed (a task's share of the work, before any header)."""

    def _loader(self) -> NpyLoader:
        try:
            facts = npy_facts(self.path)
        except TensorReadError as exc:  # the message of the row :func:`_unread` makes
            raise TensorReadError(f"{os.path.basename(self.path)}: {exc}") from None
        return facts_loader(self.path, facts)

    def __call__(self) -> np.ndarray:
        return self._loader()()

    def read_into(self, scratch: Scratch) -> np.ndarray:
        return self._loader().read_into(scratch)


#: Files from this size up have their header read later under :func:`deferred_headers`; a
#: smaller file's header is much of its whole cost (a small file is read whole with it), and
#: reading it in a worker cost more there than it saved the parent: 20,000 pairs of 16-256
#: float32 values at two workers, measured, took the parent 0.09 CPU s less and the tasks 0.37
#: s more (500 pairs of 400 KB: 6 ms less, ~4.5 ms more).
DEFER_MIN_BYTES = 64 << 10


def _deferred_ref(file: str, p: _Parsed, timed: bool) -> TensorRef | None:
    """The row of a file whose header is read later (:func:`deferred_headers`): its info from
    the name and one ``stat``; None when the file cannot be stat'ed, is not a regular file
    (read now: the usual read says why) or is smaller than :data:`DEFER_MIN_BYTES`."""
    path = file
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size < DEFER_MIN_BYTES:
        return None
    info = _scan_info(path, p, p.order if timed else float(st.st_mtime_ns))
    return TensorRef(info, DeferredNpy(path, st.st_size))


def read_header(ref: TensorRef, keep: SmallFiles | None = None) -> TensorRef:
    """``ref`` as :func:`open` makes it without :func:`deferred_headers`, when its header was
    deferred: the header read (a small file kept whole within ``keep``), ``ref.info`` completed
    in place (dtype, shape; unchanged when the file cannot be read, the ref then says why);
    any other ref as it is."""
    loader = ref.loader
    if not isinstance(loader, DeferredNpy):
        return ref
    return _ref(ref.info, loader.path, keep=keep)  # (a str: a Path costs ~2 us a file to make)


def complete_header(info: TensorInfo, dtype: str | None, shape: tuple[int, ...] | None) -> None:
    """Fill in the header facts :func:`read_header` read for ``info`` in another process (a
    worker): the same info as if it had been read here.  Nothing when it could not be read."""
    if dtype is not None and shape is not None:
        _complete_info(info, dtype, shape, info.order)


def _open_scan(root: Path, decode_names: bool = False) -> Dump:
    walk = _walk_npy_text(root)
    if not walk.files:
        detail = f"; {walk.skipped[0].path}: {walk.skipped[0].message}" if walk.skipped else ""
        raise DumpError(f"{root}: no .npy files found (is this a dump directory?){detail}")
    problems: list[DumpProblem] = list(walk.skipped)
    parsed = _scan_names(root, walk.files, problems, decode_names)
    if decode_names:
        parsed = _without_repeated_inputs(parsed)
    timed = all(p.order is not None for _f, p in parsed)
    tensors: dict[str, TensorRef] = {}
    for ref in _scan_refs(parsed, walk, timed):
        _put(tensors, problems, ref)
    meta: dict[str, object] = {"order_source": "file names" if timed else "file modification times"}
    if _DEFERRED.get() and any(isinstance(ref.loader, DeferredNpy) for ref in tensors.values()):
        meta[DEFERRED_META] = True
    return Dump(path=root, format=NAME, tensors=tensors, problems=problems, meta=meta)


def open_head(path: Path, count: int, least: int = 0) -> Dump | None:
    """The first ``count`` tensors of a flat ``.npy`` folder as a dump of their own, read
    without opening the rest: the manifest's first entries, or the first ``.npy`` files by
    name.  What a UI judges and shows while the whole folder is opened (the whole folder's
    rows come from :func:`open`; these are never a comparison's result).

    None where there is no such cheap head: not a folder whose every entry is an ``.npy``
    file (or the manifest, or ``mapping.csv``), a manifest :func:`open` would not use, fewer than
    ``least`` files or manifest entries (opening the whole folder is then quick).
    """
    with shared_listings():  # listed once for the check and the walk
        return _head(path, count, least)


def _head(path: Path, count: int, least: int) -> Dump | None:
    try:
        names, kinds = list_folder(path)
    except OSError:
        return None
    files = [n for n in names if n.endswith(".npy")]
    if FOLDER in kinds or FOLDER_LINK in kinds or OTHER in kinds or len(files) < max(least, 1):
        return None
    others = len(names) - len(files)  # names are unique: each of the two allowed is there once at most
    if others > (MANIFEST in names) + ("mapping.csv" in names):  # (no Python loop over 100k names)
        return None
    if MANIFEST in names:
        manifest = _manifest_start(path, path / MANIFEST, max(count, least))
        if manifest is None or len(manifest["tensors"]) < least:
            return None
        return _manifest_head(path, manifest, count)
    # every entry is a regular file (checked above): the walk's answer without a pass over 100k names
    child = child_text_maker(path)
    walk = Walk(files=[child(name) for name in files[:count]])
    problems: list[DumpProblem] = []
    parsed = _scan_names(path, walk.files, problems, False)
    timed = all(p.order is not None for _f, p in parsed)
    tensors: dict[str, TensorRef] = {}
    for ref in _scan_refs(parsed, walk, timed):
        _put(tensors, problems, ref)
    meta: dict[str, object] = {"order_source": "file names" if timed else "file modification times"}
    return Dump(path=path, format=NAME, tensors=tensors, problems=problems, meta=meta)


def _manifest_start(root: Path, manifest_path: Path, entries: int) -> dict | None:
    """The fields of ``manifest.json`` up to its ``tensors`` and that list's first ``entries``
    entries, read as a stream: decoding a 100k-entry manifest whole costs ~0.2 s a side before
    a first row could be shown.  None where :func:`_load_manifest` would not use it as far as
    this reads (not a regular file, too big, malformed, not a dumpscope manifest, ``tensors``
    not a list), and where ``format`` comes only after the tensors (our writers put it first)."""
    if regular_file_problem(root, manifest_path) is not None:
        return None
    try:
        if os.stat(manifest_path).st_size > MAX_JSON_BYTES:
            return None
        with builtins.open(manifest_path, encoding="utf-8", errors="surrogateescape", newline="") as fh:
            return _streamed_start(JsonStream(fh), entries)
    except (OSError, ValueError, UnicodeError, RecursionError):
        return None


def _streamed_start(stream: JsonStream, entries: int) -> dict | None:
    """:func:`_manifest_start` on the opened stream."""
    stream.begin_object()
    out: dict = {}
    for key in stream.members():
        if key != "tensors":
            out[key] = stream.value()
            continue
        if out.get("format") != "dumpscope-manifest" or not stream.next_is("["):
            return None
        stream.begin_array()
        out[key] = [stream.value() for _ in islice(stream.items(), entries)]
        return out
    return {**out, "tensors": []} if out.get("format") == "dumpscope-manifest" else None


def _manifest_head(root: Path, manifest: dict, count: int) -> Dump:
    """The first ``count`` entries of a usable manifest as a dump (see :func:`open_head`; the
    manifest may hold only its first entries: ``tensor_entries`` is not said)."""
    tensors: dict[str, TensorRef] = {}
    problems: list[DumpProblem] = []
    listed, keep = _Listing(), SmallFiles()
    for position, entry in enumerate(manifest.get("tensors", [])[:count]):
        _put(tensors, problems, _manifest_ref(root, entry, position, listed, keep))
    checked = _checked_manifest(manifest, [], str(root / MANIFEST))
    del checked["tensor_entries"]  # (the entries read, not the manifest's)
    return Dump(path=root, format=NAME, tensors=tensors, problems=problems, meta={"manifest": checked})
