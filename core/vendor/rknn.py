"""Rockchip RKNN-Toolkit2 ``accuracy_analysis`` output: the report, the name map, the fused groups.

``rknn.accuracy_analysis(inputs=[...], output_dir=DIR, target=None)`` runs the vendor's
simulator and writes (RKNN-Toolkit2 2.5.0, checked on real runs in fp16 and int8):

* ``DIR/golden/NAME.txt`` and ``DIR/golden/npy/NAME.npy``, the same for ``DIR/simulator``:
  float32, NCHW, the ONNX shapes; int8 values dequantised (the scales are not written);
* ``DIR/map_name_to_file.txt``: ``layer_name  file_name`` per line under a two-line header
  (file names replace ``.`` and ``/`` with ``_``);
* ``DIR/error_analysis.txt``: per layer ``[OpType] layer_name`` then the cosine and the
  Euclidean distance (L2 norm of golden - simulator) ``entire`` (errors accumulated along the
  model) and ``single`` (each layer fed the golden inputs: the vendor's own per-layer replay),
  printed to 5 decimals.  A row with no numbers is a layer fused with the next one (a Conv into
  the following Relu/HardSwish in int8): the group is reported at its last layer.

Layer names are the ONNX output tensor of the last node of a fused group; the others are
made by the toolkit (:func:`tool_made_note` says what each kind is).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dumpscope.core.dumps import DumpError

REPORT = "error_analysis.txt"
#: ``dumpscope formats``: this side file's name and how it is recognised.
SIDE_FILE = (
    "rknn-error-analysis",
    "RKNN-Toolkit2's error_analysis.txt ('simulator_error', layer_name with "
    "entire/single cos | euc columns); for open (the snapshot folder itself is a dump)",
)
NAME_MAP = "map_name_to_file.txt"
SIDES = ("golden", "simulator")
#: The report prints cosines and distances to this many decimals.
PRINTED_DECIMALS = 5
#: Largest report or map file read (a real one is ~20 kB for 150 layers).
MAX_FILE_BYTES = 16 << 20

_ROW = re.compile(r"^\[(?P<op>[^\]]{1,200})\]\s+(?P<name>\S+)(?P<rest>.*)$")
#: A cell: a number printed to 5 decimals first (a wide Euclidean distance runs into the next
#: cosine with no space: ``1183.517580.99991``), else any number, nan/inf, or the vendor's ``q_zero``.
_NUM = r"(q_zero|-?\d+\.\d{5}|-?(?:\d+(?:\.\d*)?|nan|inf))"
_NUMBERS = re.compile(rf"^\s*{_NUM}\s*\|\s*{_NUM}\s*{_NUM}\s*\|\s*{_NUM}\s*$", re.IGNORECASE)
#: The cell RKNN prints where the simulator's int8 output of a layer is all zero (quantised to
#: zero; seen on real runs: the golden is not), so it has no cosine and prints no distance.
Q_ZERO = "q_zero"


@dataclass(frozen=True)
class ReportRow:
    """One layer of ``error_analysis.txt``."""

    position: int
    """0-based row position (the simulator's execution order)."""
    op_type: str
    name: str
    entire_cos: float | None = None
    entire_euc: float | None = None
    single_cos: float | None = None
    single_euc: float | None = None
    printed: tuple[str, str, str, str] | None = None
    """The four cells as printed (None: a blank row)."""
    fused_into: str | None = None
    """For a blank row: the layer whose numbers cover it (the last layer of its fused group)."""
    line: int = 0

    @property
    def blank(self) -> bool:
        return self.printed is None

    @property
    def q_zero(self) -> bool:
        """The vendor printed ``q_zero``: the simulator's output of this layer is all zero."""
        return self.printed is not None and any(c.lower() == Q_ZERO for c in self.printed)


@dataclass(frozen=True)
class Report:
    path: Path
    rows: tuple[ReportRow, ...]
    problems: tuple[str, ...] = ()

    def by_name(self) -> dict[str, ReportRow]:
        return {r.name: r for r in self.rows}

    def group_of(self, name: str) -> list[str]:
        """The layers a reported row covers: the blank rows fused into it, then itself."""
        return [r.name for r in self.rows if r.fused_into == name] + [name]


def _read_text(path: Path) -> str:
    """A small text file of the snapshot (bounded; undecodable bytes replaced)."""
    with path.open("rb") as fh:
        data = fh.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise DumpError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB: not an RKNN {path.name}")
    return data.decode("utf-8", errors="replace")


def is_report(path: Path) -> bool:
    """Whether ``path`` starts like an RKNN ``error_analysis.txt`` (cheap: the first 2 kB)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(2048)
    except OSError:
        return False
    return b"simulator_error" in head or (b"layer_name" in head and b"entire" in head and b"single" in head)


def read_report(path: str | Path) -> Report:
    """Parse ``error_analysis.txt``.  A line that is not a layer row is skipped unless it looks
    like one (``[Op] name ...``) and its numbers do not parse: that becomes a problem."""
    p = Path(path)
    try:
        text = _read_text(p)
    except OSError as exc:
        raise DumpError(f"{p}: cannot read: {exc.strerror or exc}") from None
    if "layer_name" not in text:
        raise DumpError(f"{p}: not an RKNN error_analysis.txt (no layer_name header)")
    rows: list[ReportRow] = []
    problems: list[str] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _ROW.match(line.strip())
        if not m:
            continue
        rest = m["rest"].strip()
        if not rest:
            rows.append(ReportRow(len(rows), m["op"], m["name"], line=lineno))
            continue
        nums = _NUMBERS.match(rest)
        if nums is None:
            problems.append(f"{p.name} line {lineno}: numbers not understood: {rest[:80]!r}")
            rows.append(ReportRow(len(rows), m["op"], m["name"], line=lineno))
            continue
        c1, c2, c3, c4 = nums.groups()
        cells = (c1, c2, c3, c4)
        ec, ee, sc, se = (None if c.lower() == Q_ZERO else float(c) for c in cells)
        rows.append(ReportRow(len(rows), m["op"], m["name"], ec, ee, sc, se, cells, line=lineno))
    if not rows:
        raise DumpError(f"{p}: no layer rows ([OpType] name ...) in this RKNN report")
    return Report(p, tuple(_with_groups(rows)), tuple(problems))


def _with_groups(rows: list[ReportRow]) -> list[ReportRow]:
    """Each blank row pointed at the next row with numbers (the end of its fused group)."""
    out: list[ReportRow] = []
    nxt: str | None = None
    for r in reversed(rows):
        if r.blank and r.op_type:
            out.append(ReportRow(r.position, r.op_type, r.name, fused_into=nxt, line=r.line))
        else:
            out.append(r)
            nxt = r.name
    return out[::-1]


def read_name_map(path: str | Path) -> tuple[list[tuple[str, str]], list[str]]:
    """``map_name_to_file.txt``: ``[(layer name, file name)]`` in file order, and the lines not understood."""
    p = Path(path)
    pairs: list[tuple[str, str]] = []
    problems: list[str] = []
    for lineno, line in enumerate(_read_text(p).splitlines(), 1):
        parts = line.split()
        if not parts or set(line.strip()) <= {"-"} or parts[:2] == ["layer_name", "file_name"]:
            continue
        if len(parts) != 2 or not parts[1].endswith(".txt"):
            problems.append(
                f"{p.name} line {lineno}: expected 'layer_name file_name.txt': {line.strip()[:80]!r}"
            )
            continue
        pairs.append((parts[0], parts[1]))
    return pairs, problems


def file_stem(layer: str) -> str:
    """The file name RKNN writes for a layer (``.`` and ``/`` -> ``_``), without ``.txt``."""
    return layer.replace("/", "_").replace(".", "_")


def is_snapshot_root(path: Path) -> bool:
    """A folder holding ``map_name_to_file.txt`` or ``error_analysis.txt`` beside ``golden/`` or
    ``simulator/``."""
    try:
        return (
            path.is_dir()
            and ((path / NAME_MAP).is_file() or (path / REPORT).is_file())
            and any((path / s).is_dir() for s in SIDES)
        )
    except OSError:
        return False


_GAP = re.compile(r"^(?P<op>[A-Za-z]+)@(?P<k>\d+)_2conv(?P<n>\d+)$")
#: ``NODE_2convN``: the same lowering, named after the ONNX node (``p2o.GlobalAveragePool.8_2conv0``).
_NODE_GAP = re.compile(r"^(?P<node>.+)_2conv(?P<n>\d+)$")
#: Name patterns of layers the toolkit makes (seen on real RKNN-Toolkit2 2.5.0 runs of PP-OCR det/cls
#: and YOLOv8n), most specific first: (pattern, note; ``{base}`` is the ONNX tensor the name is built on).
_MADE = (
    (
        re.compile(r"^(?P<base>.+)__float16$"),
        "the toolkit's conversion of {base!r} to float16 (an inserted exDataConvert layer)",
    ),
    (
        re.compile(r"^(?P<base>.+)_int8$"),
        "the toolkit's conversion of {base!r} to int8 (an inserted exDataConvert layer)",
    ),
    (
        re.compile(r"^(?P<base>.+)_rs_sw$"),
        "{base!r} computed by the toolkit's reshape/swap rewrite (e.g. MatMul+Add as a Conv)",
    ),
    (
        re.compile(r"^(?P<base>.+)-rs_sw$"),
        "{base!r} computed on the toolkit's reshape/swap rewrite of its input",
    ),
    (
        re.compile(r"^(?P<base>.+)-rs$"),
        "{base!r} computed on a layout the toolkit reshaped (its '-rs' rewrite)",
    ),
    (re.compile(r"^(?P<base>.+)_rs$"), "a reshape the toolkit inserted at {base!r} (its '_rs' rewrite)"),
    (
        re.compile(r"^(?P<base>.+)_tile(?P<k>\d+)_conv$"),
        "tile {k} of the convolution producing {base!r}, which the toolkit split into tiles",
    ),
    (
        re.compile(r"^(?P<base>.+)_split#(?P<k>\d+)(?:_o(?P<o>\d+))?$"),
        "a Split the toolkit inserted on {base!r} (split {k}{part})",
    ),
    (
        re.compile(r"^(?P<base>.+)_conv$"),
        "a convolution the toolkit made for {base!r} (its op lowered to or "
        "followed by a Conv, e.g. a Resize or an activation's Mul)",
    ),
)


def _made(layer: str) -> tuple[re.Match[str], str] | None:
    for pattern, note in _MADE:
        m = pattern.match(layer)
        if m:
            return m, note
    return None


def is_tool_made(layer: str) -> bool:
    """Whether a layer name has the shape of one the toolkit makes (a lowering step, an inserted
    conversion, a reshape/swap rewrite, a split or tile); only an ONNX model can say for sure."""
    return bool(_GAP.match(layer) or _NODE_GAP.match(layer) or _made(layer))


def precision(layers) -> str:
    """``int8`` when the toolkit converted a layer to int8 (its ``<input>_int8`` exDataConvert: a
    quantised build), else ``fp16`` (``do_quantization=False`` runs in float16 on the NPU)."""
    return "int8" if any(str(name).endswith("_int8") for name in layers) else "fp16"


def tool_made_note(layer: str, op_type: str | None = None) -> str:
    """What a layer name the toolkit made (no ONNX tensor has it) stands for, in words."""
    gap = _GAP.match(layer)
    if gap:
        return (
            f"step {gap['n']} of the toolkit's lowering of {gap['op']} #{gap['k']} into convolutions "
            "(an intermediate with no ONNX tensor; the lowering ends at the op's own ONNX output)"
        )
    gap = _NODE_GAP.match(layer)
    if gap and not layer.endswith("_conv"):
        return (
            f"step {gap['n']} of the toolkit's lowering of ONNX node {gap['node']!r} into convolutions "
            "(an intermediate with no ONNX tensor; the lowering ends at the node's own ONNX output)"
        )
    made = _made(layer)
    if made is not None:
        m, note = made
        base = m["base"]
        if note.startswith("the toolkit's conversion of {base!r} to int8") and op_type not in (
            None,
            "exDataConvert",
        ):
            return (
                f"the int8 output of {op_type} {base!r}, before the toolkit's exDataConvert back to float "
                f"(the next layer, named {base!r})"
            )
        groups = m.groupdict()
        part = f", output {groups['o']}" if groups.get("o") else ""
        return note.format(base=base, k=groups.get("k"), part=part)
    what = f" {op_type}" if op_type else ""
    return f"a{what} layer made by the RKNN toolkit (no ONNX tensor of this name)"


def _fmt(x: float | None) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x:.{PRINTED_DECIMALS}f}"


def agrees(ours: float | None, printed: str | None) -> bool | None:
    """Whether ``ours`` is the report's cell as printed (None: nothing to compare): within half a unit
    of its last decimal, plus one float32 step of the value.  The toolkit computes in float32, whose
    7 significant digits a large distance printed to 5 decimals outruns (``1202.98035``, one float32
    step 0.00012: ours 1202.98038 is the same float32 number)."""
    if ours is None or printed is None or not math.isfinite(ours):
        return None
    try:
        theirs = float(printed)
    except ValueError:
        return None
    if f"{ours:.{PRINTED_DECIMALS}f}" == f"{theirs:.{PRINTED_DECIMALS}f}":
        return True
    step = float(np.spacing(np.float32(abs(theirs)))) if math.isfinite(theirs) else 0.0
    return abs(ours - theirs) <= 0.5 * 10.0**-PRINTED_DECIMALS + step


#: The vendor's "single" error is at least this share of its "entire" error (Euclidean): the
#: error is introduced at this layer, else mostly inherited from upstream (as replay.DIFFERS_SHARE).
INTRODUCED_SHARE = 0.5

#: Columns :func:`join_report` adds to a comparison frame.
REPORT_COLUMNS = (
    "rknn_op",
    "rknn_entire_cos",
    "rknn_entire_euc",
    "rknn_single_cos",
    "rknn_single_euc",
    "rknn_fused_into",
    "rknn_origin",
    "euclidean_distance",
    "rknn_cos_agrees",
    "rknn_euc_agrees",
    "rknn_q_zero",
)


def origin(row: ReportRow) -> str | None:
    """``introduced`` / ``inherited`` / ``clean`` from the vendor's own single vs entire errors
    (None: a blank row)."""
    if row.entire_euc is None or row.single_euc is None:
        return None
    if row.entire_euc == 0.0:
        return "clean"
    return "introduced" if row.single_euc >= INTRODUCED_SHARE * row.entire_euc else "inherited"


def report_sentence(
    row: ReportRow, ours_cos: float | None, ours_euc: float | None, own_golden: bool = True
) -> str:
    """What the vendor's report says of one row, beside our numbers (``own_golden``: ours compare the
    snapshot's own golden; else another golden, whose numbers may differ in the last decimals)."""
    if row.blank:
        into = f" {row.fused_into!r}" if row.fused_into else " (no later layer has numbers)"
        return (
            f"RKNN report: no numbers: this {row.op_type} is fused with the next layer(s) "
            f"and reported at{into}"
        )
    assert row.printed is not None
    if row.q_zero:
        return (
            f"RKNN report: {Q_ZERO}: the simulator's int8 output of this layer is all zero, so the vendor "
            f"prints no cosine or distance (ours: cos {_fmt(ours_cos)} euc {_fmt(ours_euc)})"
        )
    ec, ee, sc, se = row.printed
    share = "" if origin(row) is None else f"; by its single column the error is {origin(row)}"
    whose = "ours" if own_golden else "ours, against this golden, not RKNN's own"
    return (
        f"RKNN report: entire cos {ec} euc {ee}, single cos {sc} euc {se} "
        f"({whose}: cos {_fmt(ours_cos)} euc {_fmt(ours_euc)}){share}"
    )


def join_report(frame, report: Report, own_golden: bool = True):
    """``frame`` with the vendor's numbers for each row (by target name, else name) in the
    :data:`REPORT_COLUMNS`, our absolute Euclidean distance (RMSE x sqrt(size)), whether ours print
    as the vendor's, and a sentence in ``notes``."""
    import polars as pl

    rows = report.by_name()
    names = frame["target_name"].fill_null(frame["name"]).to_list() if frame.height else []
    cos = frame["cosine_similarity"].to_list() if frame.height else []
    rmse = frame["root_mean_square_error"].to_list() if frame.height else []
    size = frame["size"].to_list() if frame.height else []
    zero = _all_zero(frame)
    notes = frame["notes"].to_list() if frame.height else []
    cols: dict[str, list[object]] = {c: [] for c in REPORT_COLUMNS}
    new_notes: list[str | None] = []
    for name, c, r, n, note, z in zip(names, cos, rmse, size, notes, zero, strict=False):
        row = rows.get(name)
        euc = r * math.sqrt(n) if r is not None and n is not None else None
        cols["euclidean_distance"].append(euc)
        if row is None:
            for k in REPORT_COLUMNS:
                if k != "euclidean_distance":
                    cols[k].append(None)
            new_notes.append(note)
            continue
        cols["rknn_q_zero"].append(row.q_zero)
        cols["rknn_op"].append(row.op_type)
        vendor = (row.entire_cos, row.entire_euc, row.single_cos, row.single_euc)
        for k, value in zip(REPORT_COLUMNS[1:5], vendor, strict=False):
            cols[k].append(value)
        cols["rknn_fused_into"].append(row.fused_into)
        cols["rknn_origin"].append(origin(row))
        if row.q_zero:  # the vendor's word for an all-zero simulator output: ours must see all zeros
            cols["rknn_cos_agrees"].append(z)
            cols["rknn_euc_agrees"].append(z)
        else:
            cols["rknn_cos_agrees"].append(agrees(c, row.printed[0]) if row.printed else None)
            cols["rknn_euc_agrees"].append(agrees(euc, row.printed[1]) if row.printed else None)
        sentence = report_sentence(row, c, euc, own_golden)
        new_notes.append(f"{note}; {sentence}" if note else sentence)
    types = {
        "rknn_op": pl.String,
        "rknn_fused_into": pl.String,
        "rknn_origin": pl.String,
        "rknn_cos_agrees": pl.Boolean,
        "rknn_euc_agrees": pl.Boolean,
        "rknn_q_zero": pl.Boolean,
    }
    series = [pl.Series(k, v, dtype=types.get(k, pl.Float64)) for k, v in cols.items()]
    return frame.with_columns(*series, pl.Series("notes", new_notes, dtype=pl.String))


def _all_zero(frame) -> list[bool | None]:
    """Per row: whether the target tensor is all zero (None: its values were not read)."""
    if not frame.height or "min_target" not in frame.columns:
        return [None] * frame.height
    return [
        None if lo is None or hi is None else (lo == 0.0 and hi == 0.0)
        for lo, hi in zip(frame["min_target"].to_list(), frame["max_target"].to_list(), strict=True)
    ]
