"""msprobe (MindStudio Probe) dumps: ``dump_path/step{N}/rank{N}/dump.json`` and friends.

One *rank directory* (``rank{N}`` or ``proc{pid}``) holds

* ``dump.json``: ``{"task", "level", "framework", "dump_data_dir", "data": {entry: {...}}}``
  where an entry (``Functional.conv2d.0.forward``, ``Tensor.__mul__.3.forward``,
  ``Module.layer1.0.conv1.Conv2d.forward.0``, ``...backward``, ``...parameters_grad.N``)
  holds ``input_args`` / ``input_kwargs`` / ``output`` / ``parameters`` (backward:
  ``input`` / ``output``) records.  A tensor record carries ``dtype``, ``shape``, ``Max``,
  ``Min``, ``Mean``, ``Norm`` (L2), optionally ``md5`` and ``data_name``; other arguments
  are records too (``{"type": "int", "value": 2}``...).  Overflowed statistics are bare
  ``NaN`` / ``Infinity`` JSON literals, which Python's ``json`` reads as floats.
* ``construct.json``: entry -> parent module entry (empty at level L1);
* ``stack.json``: call stacks (two layouts in the wild; kept as raw text per entry);
* ``dump_tensor_data/*.npy`` (tensor mode): looked up next to ``dump.json``, as msprobe
  does; ``dump_data_dir`` is ignored.

``.pt`` tensors (``torch.save`` zips) are read without torch and without unpickling:
:mod:`dumpscope.core.formats.torch_pt` walks ``data.pkl``'s opcodes on an inert stack
machine that accepts only the tensor-rebuild globals; any other content refuses that
one record with a message.

Record names follow msprobe's compare convention: ``{entry}.{input|output|parameters}.{i}``
(kwargs ``{entry}.input.{key}``, nested lists append ``.{j}``).

:func:`read_rank` returns an :class:`MsprobeRank` (entries in call order, problems as
rows); :func:`discover` lists the step/rank directories of a dump tree; ``sniff`` /
``open`` implement the format protocol of :mod:`dumpscope.core.formats`.
"""

from __future__ import annotations

import builtins
import functools
import json
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, TypeGuard

import numpy as np

from dumpscope.core.dumps import (
    Dump,
    DumpError,
    DumpProblem,
    TensorInfo,
    TensorKind,
    TensorReadError,
    TensorRef,
)
from dumpscope.core.formats.npyfile import open_npy
from dumpscope.core.formats.safe_fs import (
    FILE,
    FOLDER,
    FOLDER_LINK,
    OTHER,
    JsonStream,
    JsonTooDeep,
    list_folder,
    load_json,
    member_path,
    name_problem,
    regular_file_problem,
)

NAME = "msprobe"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = "a msprobe dump path: step*/rank*/ (or proc*) folders holding dump.json"
DUMP_JSON = "dump.json"
TENSOR_DIR = "dump_tensor_data"
_STEP = re.compile(r"^step(\d+)$")
_RANK = re.compile(r"^(rank|proc)(\d*)$")
_TORCH_DTYPES = {
    "bfloat16": "bfloat16",
    "float16": "float16",
    "half": "float16",
    "float32": "float32",
    "float": "float32",
    "float64": "float64",
    "double": "float64",
    "int8": "int8",
    "uint8": "uint8",
    "int16": "int16",
    "int32": "int32",
    "int": "int32",
    "int64": "int64",
    "long": "int64",
    "bool": "bool",
}
_STAT_KEYS = ("Max", "Min", "Mean", "Norm")
_IO_KEYS = (
    ("input_args", "input"),
    ("input_kwargs", "input"),
    ("input", "input"),
    ("output", "output"),
    ("parameters", "parameters"),
)


class Record(NamedTuple):
    """One argument of an entry: a tensor (statistics, optional file) or a plain value.

    Immutable; a named tuple rather than a frozen dataclass because a dump holds one per
    argument and a frozen dataclass costs ~3 us to build against ~0.4 us (most of reading)."""

    name: str
    """msprobe's compare name, e.g. ``Functional.conv2d.0.forward.input.0``."""
    entry: str
    role: str
    """``input``, ``output``, ``parameters`` or ``parameters_grad``."""
    suffix: str
    """The name after the entry: ``input.0``, ``output.0``, ``parameters.weight``..."""
    is_tensor: bool
    dtype: str | None = None
    shape: tuple[int, ...] | None = None
    stats: tuple[float | None, float | None, float | None, float | None] = (None, None, None, None)
    """Max, Min, Mean, Norm (``None`` when absent, e.g. bool Mean or xor mode)."""
    md5: str | None = None
    value: str | None = None
    """A non-tensor argument's value, as text (compared for equality)."""
    data_path: Path | None = None
    requires_grad: bool | None = None
    error: str | None = None


@dataclass(slots=True)
class Entry:
    """One API or module call: ``Functional.conv2d.0.forward`` and its records."""

    name: str
    order: int
    records: list[Record] = field(default_factory=list)
    parent: str | None = None
    stack: str | None = None

    @property
    def parts(self) -> NameParts:
        return split_name(self.name)

    def role(self, role: str) -> list[Record]:
        return [r for r in self.records if r.role == role]


@dataclass(frozen=True)
class NameParts:
    """An entry name taken apart: prefix, api/module path, call counter, direction."""

    prefix: str
    api: str
    counter: int | None
    direction: str

    @property
    def key(self) -> str:
        """The name without its call counter: what msprobe's fuzzy match compares."""
        return f"{self.prefix}.{self.api}.{self.direction}"


@dataclass
class MsprobeRank:
    """One ``step/rank`` directory: entries in call order and the problems met."""

    path: Path
    step: int | None
    rank: str
    task: str | None = None
    level: str | None = None
    framework: str | None = None
    entries: dict[str, Entry] = field(default_factory=dict)
    problems: list[DumpProblem] = field(default_factory=list)

    @property
    def label(self) -> str:
        return step_rank_label(self.step, self.rank)

    def children(self) -> dict[str | None, list[str]]:
        """The module tree of construct.json: parent (None = top level) -> children in
        call order; modules named only as parents are included.  For a collapsible view."""
        tree: dict[str | None, list[str]] = {}
        known = set(self.entries)
        for entry in sorted(self.entries.values(), key=lambda e: e.order):
            tree.setdefault(entry.parent, []).append(entry.name)
        for parent in [p for p in tree if p is not None and p not in known]:
            tree.setdefault(None, []).append(parent)
        return tree


_MODULE = re.compile(r"^(?P<prefix>Module|Cell)\.(?P<api>.+)\.(?P<dir>forward|backward)\.(?P<n>\d+)$")
_PARAM_GRAD = re.compile(r"^(?P<prefix>Module|Cell)\.(?P<api>.+)\.parameters_grad(?:\.(?P<n>\d+))?$")
_API = re.compile(r"^(?P<prefix>[^.]+)\.(?P<api>.+)\.(?P<n>\d+)\.(?P<dir>forward|backward)(?:\.\d+)?$")


@functools.lru_cache(maxsize=1 << 16)
def step_rank_label(step: int | None, rank: str) -> str:
    """``step3/rank0``; a dump without step folders is named by its rank folder alone."""
    return rank if step is None else f"step{step}/{rank}"


def split_name(name: str) -> NameParts:
    """Take an entry name apart; a name of no known shape keeps itself as ``api``."""
    for pattern, direction in ((_MODULE, None), (_PARAM_GRAD, "parameters_grad"), (_API, None)):
        m = pattern.match(name)
        if m:
            n = m.group("n")
            return NameParts(m["prefix"], m["api"], int(n) if n else None, direction or m["dir"])
    head, _, rest = name.partition(".")
    return NameParts(head, rest, None, "")


def _stat(value: object) -> float | None:
    if isinstance(value, float):  # the common case (JSON numbers are floats or ints)
        return value
    return float(value) if isinstance(value, int) else None


@functools.lru_cache(maxsize=1024)
def _dtype_text(text: str) -> str:
    base = text.rsplit(".", 1)[-1].lower()
    return _TORCH_DTYPES.get(base, base)


def _dtype(text: object) -> str | None:
    return _dtype_text(text) if isinstance(text, str) else None


_INT_ONLY = frozenset({int})


def _shape(value: object) -> tuple[int, ...] | None:
    """A list of ints as a tuple (bools and floats are not dimensions); else None.  A dump
    repeats few shapes: each is kept once (:data:`_SHAPES`), not once per record."""
    if value.__class__ is list and _INT_ONLY.issuperset(map(type, value)):
        shape = tuple(value)
        return _SHAPES.setdefault(shape, shape) if len(_SHAPES) < _MAX_SHAPES or shape in _SHAPES else shape
    return None


#: One tuple per distinct shape (bounded: a hostile dump of all-different shapes only misses the sharing).
_SHAPES: dict[tuple[int, ...], tuple[int, ...]] = {}
_MAX_SHAPES = 1 << 16


def _is_tensor(record: dict) -> bool:
    kind = str(record.get("type", ""))
    return kind.endswith("Tensor") or "dtype" in record and "shape" in record and "value" not in record


class TensorFiles:
    """Where a rank's records find their tensor files: ``dump_tensor_data/{data_name}`` inside
    the rank folder, through the one member-path check of every reader (:func:`member_path`:
    no absolute name, no ``..`` climbing out, no symbolic link leading out of the rank folder).
    ``dump_data_dir`` is never used (msprobe ignores it too)."""

    def __init__(self, rank_dir: Path) -> None:
        self.rank_dir = rank_dir
        self.real_dirs: dict[str, str] = {}
        self._dir = rank_dir / TENSOR_DIR
        self._dir_text = str(self._dir)
        self._dir_problem: str | None | bool = False  # not checked yet

    def path(self, data_name: object) -> tuple[Path | None, str | None]:
        """``(path, None)``, ``(None, why not)``, or ``(None, None)`` for a record without a file."""
        if data_name is None or data_name == "":
            return None, None
        if not isinstance(data_name, str):
            return None, f"data_name is {type(data_name).__name__}, not a file name; not read"
        if "/" not in data_name and "\0" not in data_name and data_name not in (".", ".."):
            return self._plain(data_name)  # msprobe's own names: one lstat, one Path
        return self._checked(data_name)

    def _plain(self, data_name: str) -> tuple[Path | None, str | None]:
        """A bare file name in ``dump_tensor_data``: inside the folder unless the folder or the
        file is a symbolic link, which the whole check then judges."""
        if self._dir_problem is False:
            self._dir_problem = member_path(self.rank_dir, TENSOR_DIR, self.real_dirs)[1]
        if self._dir_problem is not None:
            return None, f"data_name {data_name[:200]!r}: {self._dir_problem}"
        if os.path.islink(self._dir_text + os.sep + data_name):
            return self._checked(data_name)
        return self._dir / data_name, None

    def _checked(self, data_name: str) -> tuple[Path | None, str | None]:
        why = name_problem(data_name)
        if why is None:
            path, why = member_path(self.rank_dir, f"{TENSOR_DIR}/{data_name}", self.real_dirs)
            if path is not None:
                return path, None
        return None, f"data_name {why}"


def _tensor_at(raw: dict, entry: str, role: str, suffix: str, files: TensorFiles) -> Record:
    """One tensor record (the hot path of reading a dump: plain positional construction)."""
    get = raw.get
    path, why = files.path(get("data_name"))
    stats = (_stat(get("Max")), _stat(get("Min")), _stat(get("Mean")), _stat(get("Norm")))
    md5, grad = get("md5"), get("requires_grad")
    return Record(
        f"{entry}.{suffix}",
        entry,
        role,
        sys.intern(suffix),
        True,
        _dtype(get("dtype")),
        _shape(get("shape")),
        stats,
        md5 if isinstance(md5, str) else None,
        None,
        path,
        grad if isinstance(grad, bool) else None,
        why,
    )


def _value_record(raw: object, base: dict) -> Record:
    value = raw.get("value", raw) if isinstance(raw, dict) else raw
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return Record(**base, is_tensor=False, value=text)


def _items(raw: list | dict) -> list[tuple[object, object]]:
    """(index or key, item) of a list or dict argument."""
    return list(enumerate(raw)) if isinstance(raw, list) else list(raw.items())


def _is_container(raw: object) -> TypeGuard[list | dict]:
    """A nested list/dict of arguments (a dict with ``type`` is one record)."""
    return isinstance(raw, list) or isinstance(raw, dict) and bool(raw) and "type" not in raw


def _records(raw: object, entry: str, role: str, suffix: str, files: TensorFiles) -> list[Record]:
    """Flatten one argument (tensor, value, nested list or dict) into records."""
    if raw.__class__ is dict and str(raw.get("type", "")).endswith("Tensor"):
        return [_tensor_at(raw, entry, role, suffix, files)]  # the common case, first
    if _is_container(raw):
        return [r for k, item in _items(raw) for r in _records(item, entry, role, f"{suffix}.{k}", files)]
    base = {"name": f"{entry}.{suffix}", "entry": entry, "role": role, "suffix": suffix}
    if isinstance(raw, dict) and _is_tensor(raw):
        return [_tensor_at(raw, entry, role, suffix, files)]
    return [_value_record(raw, base)]


def _entry_records(name: str, body: dict, files: TensorFiles) -> list[Record]:
    """Every record of an entry: forward/backward arguments, or parameter gradients."""
    if split_name(name).direction == "parameters_grad":
        return [
            r
            for key, item in body.items()
            for r in _records(_single(item), name, "parameters_grad", key, files)
        ]
    out: list[Record] = []
    for key, role in _IO_KEYS:
        args = body.get(key)
        if isinstance(args, (list, dict)):
            out += [r for k, a in _items(args) for r in _records(a, name, role, f"{role}.{k}", files)]
    return out


def _single(item: object) -> object:
    """``{"weight": [tensor]}``: a one-element gradient list is the tensor itself."""
    return item[0] if isinstance(item, list) and len(item) == 1 else item


def _optional_json(path: Path, problems: list[DumpProblem]) -> dict:
    """A side file of the rank folder (construct.json, stack.json): {} when absent; a link
    leading out, a FIFO, deep or broken JSON is one problem row and {}."""
    if not os.path.lexists(path):
        return {}
    try:
        why = regular_file_problem(path.parent, path)
        if why is not None:
            raise ValueError(why)
        data = load_json(path)
    except (OSError, ValueError) as exc:
        problems.append(DumpProblem(str(path), f"unreadable {path.name}: {exc}; ignored"))
        return {}
    if not isinstance(data, dict):
        problems.append(DumpProblem(str(path), f"{path.name} is not a JSON object; ignored"))
        return {}
    return data


def _stacks(raw: dict) -> dict[str, str]:
    """Both stack.json layouts: ``{name: [frames]}`` and ``{"0": [[names], [frames]]}``."""
    out: dict[str, str] = {}
    for key, value in raw.items():
        out.update(_stack_entry(key, value))
    return out


def _stack_entry(key: str, value: object) -> dict[str, str]:
    """Entry name -> its stack text, for one stack.json item (nothing for an item of neither layout)."""
    if isinstance(value, list) and len(value) == 2 and isinstance(value[0], list):
        return {str(name): "\n".join(map(str, value[1])) for name in value[0]}
    return {key: "\n".join(map(str, value))} if isinstance(value, list) else {}


def _step_rank(path: Path) -> tuple[int | None, str]:
    m = _STEP.match(path.parent.name)
    return (int(m[1]) if m else None), path.name


def read_rank(path: str | Path) -> MsprobeRank:
    """Read one rank directory (or its ``dump.json``).  Raises DumpError only when
    ``dump.json`` itself is missing, not a regular file inside the folder, or unreadable
    before its ``"data"``; a bad entry costs one problem row, and a file cut short or broken
    after some entries keeps them with a problem row saying where the rest was lost.

    ``dump.json`` is read incrementally (:class:`JsonStream`): one entry is decoded at a
    time, so memory follows the records kept, not the JSON tree."""
    p = Path(path)
    if p.is_file():
        p = p.parent
    dump_json = _dump_json(p)
    step, rank = _step_rank(p)
    out = MsprobeRank(p, step, rank)
    construct = _optional_json(p / "construct.json", out.problems)
    stacks = _stacks(_optional_json(p / "stack.json", out.problems))
    try:
        with builtins.open(dump_json, encoding="utf-8", errors="replace", newline="") as fh:
            _read_stream(JsonStream(fh), out, _Context(TensorFiles(p), construct, stacks))
    except OSError as exc:
        raise DumpError(f"{dump_json}: cannot read ({exc.strerror or exc})") from None
    return out


def _dump_json(p: Path) -> Path:
    """The rank's ``dump.json``: a regular file inside the rank folder (else DumpError)."""
    dump_json = p / DUMP_JSON
    try:
        os.lstat(dump_json)
    except (FileNotFoundError, NotADirectoryError):
        raise DumpError(f"{p}: no {DUMP_JSON} (not an msprobe rank directory)") from None
    except OSError as exc:
        raise DumpError(f"{dump_json}: cannot read ({exc.strerror or exc})") from None
    why = regular_file_problem(p, dump_json)
    if why is not None:
        raise DumpError(f"{dump_json}: {why}")
    return dump_json


@dataclass(frozen=True)
class _Context:
    """What turns a decoded entry into an :class:`Entry`: its files, parents and stacks."""

    files: TensorFiles
    construct: dict
    stacks: dict


_HEAD_FIELDS = ("task", "level", "framework")


def _read_stream(stream: JsonStream, out: MsprobeRank, context: _Context) -> None:
    """The top object of dump.json: ``task``/``level``/``framework`` and the ``data`` entries."""
    where, found_data = out.path / DUMP_JSON, False
    try:
        stream.begin_object()
        for key in stream.members():
            if key == "data" and stream.next_is("{"):
                found_data = True
                _read_entries(stream, out, context)
                continue
            value = stream.value()
            if key in _HEAD_FIELDS:
                setattr(out, key, value if isinstance(value, str) else None)
    except ValueError as exc:
        if not found_data:
            raise DumpError(f"{where}: unreadable JSON ({exc})") from None
        out.problems.append(
            DumpProblem(
                str(where),
                f"unreadable JSON after {len(out.entries)} entries ({exc}); the rest of the file is not read",
            )
        )
    if not found_data:
        raise DumpError(f'{where}: no "data" object (not an msprobe dump.json)')


def _read_entries(stream: JsonStream, out: MsprobeRank, context: _Context) -> None:
    """The entries of ``data``, decoded one at a time; an entry nested too deeply is skipped with a row."""
    stream.begin_object()
    for order, name in enumerate(stream.members()):
        try:
            body = stream.value()
        except JsonTooDeep:
            out.problems.append(
                DumpProblem(f"{out.path / DUMP_JSON}:{name}", "entry nested too deeply; skipped")
            )
            continue
        _add_entry(out, order, name, body, context)


def _add_entry(out: MsprobeRank, order: int, name: str, body: object, context: _Context) -> None:
    if not isinstance(body, dict):
        out.problems.append(
            DumpProblem(f"{out.path / DUMP_JSON}:{name}", "entry is not a JSON object; skipped")
        )
        return
    parent = context.construct.get(name)
    entry = Entry(
        name, order, parent=parent if isinstance(parent, str) else None, stack=context.stacks.get(name)
    )
    try:
        entry.records = _entry_records(name, body, context.files)
    except RecursionError:
        out.problems.append(
            DumpProblem(f"{out.path / DUMP_JSON}:{name}", "arguments nested too deeply; skipped")
        )
        return
    out.entries[name] = entry


def discover(
    path: str | Path, skipped: list[DumpProblem] | None = None
) -> list[tuple[int | None, str, Path]]:
    """Every rank directory under ``path`` as ``(step, rank, dir)``, sorted by step then rank.

    ``path`` may be the dump root (``step*/rank*``), one step directory, or one rank
    directory, or that rank's ``dump.json`` itself (as msprobe's own compare takes it).
    ``proc{pid}`` directories are listed like ranks.  A step or rank folder that is a
    symbolic link (a loop, one leading out) is never entered, nor is one that cannot be
    read: each goes into ``skipped`` with the reason, and the others are still found."""
    p = Path(path)
    skipped = [] if skipped is None else skipped
    if p.name == DUMP_JSON and p.is_file():
        p = p.parent
    if _has_dump_json(p):
        return [(*_step_rank(p), p)]
    found = [d for d in _children(p, _RANK, skipped) if _has_dump_json(d)]
    if not found:
        found = [
            r for s in _children(p, _STEP, skipped) for r in _children(s, _RANK, skipped) if _has_dump_json(r)
        ]
    return sorted(((*_step_rank(d), d) for d in found), key=_sort_key)


def _has_dump_json(folder: Path) -> bool:
    """``folder/dump.json`` exists and is no folder (one ``lstat``; a link or FIFO there is
    listed, so that reading it says why it is refused)."""
    try:
        return not stat.S_ISDIR(os.lstat(folder / DUMP_JSON).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:  # there but unreadable (permissions): listed, so that reading it says why
        return True


def _children(p: Path, pattern: re.Pattern[str], skipped: list[DumpProblem]) -> list[Path]:
    """Sub-directories whose name matches ``pattern``; names are filtered before any
    stat, so sniffing a folder of 100k tensors costs one directory listing (shared with the
    other sniffers, :func:`list_folder`).  A matching symbolic link is never followed (see
    :func:`discover`)."""
    try:
        names, kinds = list_folder(p)
    except OSError as exc:
        if not isinstance(exc, (FileNotFoundError, NotADirectoryError)):
            skipped.append(DumpProblem(str(p), f"cannot list the folder: {exc.strerror or exc}"))
        return []
    if kinds.count(FILE) == len(kinds):  # only regular files (a folder of tensors): no sub-directory
        return []
    matching = [(p / n, k) for n, k in zip(names, kinds, strict=True) if k != FILE and pattern.match(n)]
    return [path for path, kind in matching if _is_folder(path, kind, skipped)]


def _is_folder(path: Path, kind: int, skipped: list[DumpProblem]) -> bool:
    """A real folder (True); a symbolic link goes into ``skipped``."""
    if kind == FOLDER:
        return True
    if kind == FOLDER_LINK or kind == OTHER and os.path.islink(path):
        skipped.append(
            DumpProblem(
                str(path),
                "a symbolic link; msprobe step and rank folders are never followed through links (not read)",
            )
        )
    return False


def skipped_key(path: str | Path) -> tuple[int | None, str]:
    """The (step, rank) a folder :func:`discover` skipped stands for; ``rank`` is ``*`` for a step folder."""
    p = Path(path)
    m = _STEP.match(p.name)
    return (int(m[1]), "*") if m else _step_rank(p)


def _sort_key(item: tuple[int | None, str, Path]) -> tuple[int, int, str]:
    step, rank, _ = item
    digits = re.sub(r"\D", "", rank)
    return (-1 if step is None else step, int(digits) if digits else -1, rank)


def sniff(path: Path) -> float:
    """0.97 for a rank directory or a tree of them; 0 otherwise.  Never raises."""
    try:
        return 0.97 if discover(path) else 0.0
    except OSError:
        return 0.0


def open(path: Path) -> Dump:  # noqa: A001 - the format protocol's name
    """One rank directory as a generic :class:`Dump` of its tensor records.

    Several steps/ranks are never merged: the caller picks one (see
    :mod:`dumpscope.core.comparison.msprobe.driver`)."""
    skipped: list[DumpProblem] = []
    ranks = [rank for rank in discover(path, skipped) if _usable(rank[2], skipped)]
    if len(ranks) != 1:
        listed = ", ".join(f"step{s}/{r}" for s, r, _ in ranks) or "none"
        raise DumpError(
            f"{path}: {len(ranks)} msprobe step/rank directories ({listed}); "
            "pick one (--step/--rank) - they are never merged"
        )
    rank = read_rank(ranks[0][2])
    tensors = {r.name: _tensor_ref(r, e) for e in rank.entries.values() for r in e.records if r.is_tensor}
    meta: dict[str, object] = {
        "task": rank.task,
        "level": rank.level,
        "framework": rank.framework,
        "msprobe_rank": rank,
    }
    return Dump(rank.path, NAME, tensors, skipped + rank.problems, meta)


def _usable(rank_dir: Path, skipped: list[DumpProblem]) -> bool:
    """The rank's dump.json may be read (else its reason goes into ``skipped``)."""
    try:
        _dump_json(rank_dir)
    except DumpError as exc:
        skipped.append(DumpProblem(str(rank_dir / DUMP_JSON), str(exc)))
        return False
    return True


def _tensor_ref(record: Record, entry: Entry) -> TensorRef:
    info = TensorInfo(
        record.name,
        record.dtype,
        record.shape,
        node_name=entry.name,
        op_type=entry.parts.api,
        topo_index=entry.order,
        kind=_kind(record.role),
        source=str(record.data_path) if record.data_path else None,
        order=float(entry.order),
    )
    if record.error is not None:
        return TensorRef(info, error=record.error)
    if record.data_path is None:
        return TensorRef(info, error=f"{record.name}: statistics-mode record, no tensor data")
    return TensorRef(info, lambda: load_tensor(record))


def load_tensor(record: Record) -> np.ndarray:
    """The tensor file of ``record`` (``.npy`` or ``.pt``), opened only when it is a regular
    file (a FIFO would block, a device never ends); TensorReadError with the reason otherwise.
    The path was confined to the rank folder when the record was read (:class:`TensorFiles`)."""
    path = record.data_path
    if path is None:
        raise TensorReadError(record.error or "no tensor file (statistics-mode record)")
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise TensorReadError(f"{path.name}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        why = regular_file_problem(path.parent, path) or "not a regular file"
        raise TensorReadError(f"{path.name}: {why}")
    if path.suffix not in (".npy", ".pt"):
        raise TensorReadError(f"{path.name}: neither .npy nor .pt; not read")
    try:
        if path.suffix == ".pt":
            from dumpscope.core.formats.torch_pt import load_pt  # (~6 ms: imported by the first .pt read)

            return load_pt(path)
        _shape, _dt, loader = open_npy(path, record.dtype)
        return loader()
    except TensorReadError as exc:  # the message names the file
        text = str(exc)
        raise TensorReadError(text if text.startswith(path.name) else f"{path.name}: {text}") from None


def _kind(role: str) -> TensorKind:
    kinds: dict[str, TensorKind] = {"input": "op_input", "parameters": "constant"}
    return kinds.get(role, "activation")
