"""Issue 21's output, name and walking cases of the hostile corpus (``python -m tests.fuzz.run``).

Kept apart from the readers' cases (``corpus.py``): each case plants something where a command
writes (a link leading to the sentinel ``outside/``, a FIFO, a character device, a name planted
in advance), gives dumps with hostile names, or points a command at a folder that is not a dump.
Besides the run's own checks (internal errors, tracebacks, hangs, touches outside ``out/``), a
case's ``check`` looks at what is left: a device still a device, no raw control or bidi
character in what a terminal would show.

``OUTPUT_CASES``: name -> (owner, build(folder) -> argv, check(folder, stdout, stderr) -> problems).
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .corpus import GOOD, good_array, npy_dir

Build = Callable[[Path], list[str]]
Check = Callable[[Path, str, str], list[str]]

#: What a terminal acts on: C0 (but tab, newline, and CR of a CSV line end), DEL, C1, bidi controls.
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")
HOSTILE = ("t\x1b]0;pwned\x07", "w\x1b[2J\x1b[H", "v\x9b2J", "u\u202ex", "s\u2067y\u2069", "r\u200fz")


def _dumps(folder: Path, names: tuple[str, ...] = GOOD) -> tuple[str, str, str]:
    g, t, b = (npy_dir(folder / s, names) for s in ("golden", "target", "b"))
    np.save(t / f"{names[-1]}.npy", np.full((2, 3), np.inf, np.float32))
    return str(g), str(t), str(b)


def _nothing(_folder: Path, _out: str, _err: str) -> list[str]:
    return []


def _no_raw(_folder: Path, out: str, err: str) -> list[str]:
    found = RAW.findall(out + err)
    return [f"raw control characters reach the terminal: {sorted(set(found))!r}"] if found else []


def _device_kept(*paths: str) -> Check:
    def check(folder: Path, _out: str, _err: str) -> list[str]:
        kept = [p for p in paths if stat.S_ISCHR((folder / p).lstat().st_mode)]
        return [f"{p} is no longer a character device" for p in paths if p not in kept]

    return check


def _fifo_kept(path: str) -> Check:
    def check(folder: Path, _out: str, _err: str) -> list[str]:
        return [] if stat.S_ISFIFO((folder / path).lstat().st_mode) else [f"{path} is no longer a FIFO"]

    return check


# ----------------------------------------------------------------- outputs onto links, FIFOs, devices

#: ``-o`` of every file writer, over the dumps of :func:`_dumps` (``OUT`` is the destination).
WRITERS: dict[str, tuple[str, ...]] = {
    "compare-table": ("compare", "G", "T", "-o", "OUT"),
    "compare-csv": ("compare", "G", "T", "--format", "csv", "-o", "OUT"),
    "compare-json": ("compare", "G", "T", "--format", "json", "-o", "OUT"),
    "compare-markdown": ("compare", "G", "T", "--format", "markdown", "-o", "OUT"),
    "compare-parquet": ("compare", "G", "T", "--format", "parquet", "-o", "OUT"),
    "compare-sigmastar": ("compare", "T", "G", "--format", "sigmastar", "-o", "OUT"),
    "diagnose-json": ("diagnose", "G", "T", "--json", "-o", "OUT"),
    "threeway-csv": ("compare", "G", "T", "B", "--format", "csv", "-o", "OUT"),
    "threeway-json": ("compare", "G", "T", "B", "--format", "json", "-o", "OUT"),
    "threeway-parquet": ("compare", "G", "T", "B", "--format", "parquet", "-o", "OUT"),
    "msprobe-csv": ("compare", "NPU", "BENCH", "--format", "csv", "-o", "OUT"),
    "msprobe-json": ("compare", "NPU", "BENCH", "--format", "json", "-o", "OUT"),
    "convert-npy": ("convert", "ASCEND", "-o", "OUT"),
    "patch": ("patch", "MODEL", "-o", "OUT", "--keep-fp32", "relu"),
}
#: The file a folder writer writes (``OUT`` is then the folder ``out/dir``).
FOLDER_FILE = {"convert-npy": "Add.a.0.1.1700000000000000.output.0.npy"}


def _argv(folder: Path, writer: str, out: str) -> list[str]:
    g, t, b = _dumps(folder)
    subs = {"G": g, "T": t, "B": b, "OUT": out}
    argv = WRITERS[writer]
    if "MODEL" in argv:
        subs["MODEL"] = _model(folder)
    if "ASCEND" in argv:
        subs["ASCEND"] = _ascend(folder)
    if "NPU" in argv:
        subs.update(NPU=_msprobe(folder, "npu"), BENCH=_msprobe(folder, "bench"))
    return [subs.get(a, a) for a in argv]


def _model(folder: Path) -> str:
    """``model.onnx`` (Relu, Neg) in ``folder``: the corpus's own small model."""
    from .run import _model as small_model

    return str(small_model(folder))


def _ascend(folder: Path) -> str:
    """An Ascend dump folder of :data:`GOOD` (the corpus's own builder)."""
    from .corpus import _ascend_dir

    return str(_ascend_dir(folder / "ascend"))


def _msprobe(folder: Path, side: str, steps: int = 1) -> str:
    import json

    record = {
        "type": "torch.Tensor",
        "dtype": "torch.float32",
        "shape": [2],
        "Max": 1.0,
        "Min": 0.0,
        "Mean": 0.5,
        "Norm": 1.0,
        "requires_grad": False,
    }
    for step in range(steps):
        rank = folder / side / f"step{step}" / "rank0"
        rank.mkdir(parents=True, exist_ok=True)
        data = {"Functional.relu.0.forward": {"input_args": [record], "input_kwargs": {}, "output": [record]}}
        body = {
            "task": "statistics",
            "level": "mix",
            "framework": "pytorch",
            "dump_data_dir": None,
            "data": data,
        }
        (rank / "dump.json").write_text(json.dumps(body))
    return str(folder / side)


def _onto_link(writer: str) -> Build:
    """``-o`` onto a link planted in ``out/`` leading to the sentinel: replaced, never written through."""

    def build(folder: Path) -> list[str]:
        out = folder / "out"
        out.mkdir(exist_ok=True)
        if writer in FOLDER_FILE:
            (out / "dir").mkdir()
            (out / "dir" / FOLDER_FILE[writer]).symlink_to(folder / "outside" / "notes.txt")
            return _argv(folder, writer, str(out / "dir"))
        (out / "r.out").symlink_to(folder / "outside" / "notes.txt")
        return _argv(folder, writer, str(out / "r.out"))

    return build


def _onto_fifo(writer: str) -> Build:
    """``-o`` onto a FIFO (nobody reads it): refused at once, never opened (no hang)."""

    def build(folder: Path) -> list[str]:
        out = folder / "out"
        out.mkdir(exist_ok=True)
        if writer in FOLDER_FILE:
            (out / "dir").mkdir()
            os.mkfifo(out / "dir" / FOLDER_FILE[writer])
            return _argv(folder, writer, str(out / "dir"))
        os.mkfifo(out / "r.out")
        return _argv(folder, writer, str(out / "r.out"))

    return build


def _onto_device(writer: str) -> Build:
    """``-o`` onto a character device (the null device's numbers, made with mknod): written in place."""

    def build(folder: Path) -> list[str]:
        out = folder / "out"
        out.mkdir(exist_ok=True)
        target = out / "dir" / FOLDER_FILE[writer] if writer in FOLDER_FILE else out / "r.out"
        target.parent.mkdir(exist_ok=True)
        os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return _argv(folder, writer, str(out / "dir" if writer in FOLDER_FILE else target))

    return build


def _kept_path(writer: str) -> str:
    return f"out/dir/{FOLDER_FILE[writer]}" if writer in FOLDER_FILE else "out/r.out"


def _out_dir_planted(three: bool) -> Build:
    """msaccucmp's ``-out DIR``: its ``result_<timestamp>.csv`` names planted in advance as links out."""

    def build(folder: Path) -> list[str]:
        out = folder / "out"
        out.mkdir(exist_ok=True)
        stem = "threeway" if three else "result"
        now = time.time()
        for k in range(-1, 30):
            link = out / f"{stem}_{time.strftime('%Y%m%d%H%M%S', time.localtime(now + k))}.csv"
            if not link.is_symlink():
                link.symlink_to(folder / "outside" / "notes.txt")
        g, t, b = _dumps(folder)
        return ["compare", g, t, *([b] if three else []), "-out", str(out)]

    return build


def _per_rank_csv_links(folder: Path) -> list[str]:
    """msprobe per-step/rank CSVs into ``-o FOLDER`` whose names are planted links."""
    out = folder / "out" / "runs"
    out.mkdir(parents=True)
    for step in range(2):
        (out / f"step{step}_rank0.csv").symlink_to(folder / "outside" / "notes.txt")
        (out / f"step{step}_rank0.csv.tmp").symlink_to(folder / "outside" / "notes.txt")
    npu, bench = _msprobe(folder, "npu", 2), _msprobe(folder, "bench", 2)
    return ["compare", npu, bench, "--format", "csv", "-o", str(out)]


def _demo_golden_link(folder: Path) -> list[str]:
    """``demo --out`` whose ``golden/`` links to an (empty) outside folder: refused, nothing written there."""
    out = folder / "out" / "demo"
    out.mkdir(parents=True)
    empty = folder / "outside" / "empty"
    empty.mkdir()
    (out / "golden").symlink_to(empty)
    (out / "model.onnx").symlink_to(folder / "outside" / "notes.txt")
    return ["demo", "--out", str(out), "--headless", "--frames", "2"]


def _export_values_links(folder: Path) -> list[str]:
    """SigmaStar ``--export-values DIR`` with its value files planted as links out (and a FIFO)."""
    g, t, _b = _dumps(folder)
    top = folder / "out" / "values" / "Undefined_golden_DumpDebug_out"
    for number in range(len(GOOD)):
        (top / str(number)).mkdir(parents=True)
        for name in GOOD:
            (top / str(number) / f"{name}_sample.txt").symlink_to(folder / "outside" / "notes.txt")
        os.mkfifo(top / str(number) / f"{GOOD[number]}_benchmark.txt")
    return ["compare", t, g, "--format", "sigmastar", "--export-values", str(folder / "out" / "values")]


# ----------------------------------------------------------------- names, walking


def _hostile_names(fmt: str, three: bool = False) -> Build:
    """Dumps whose tensor names hold terminal escapes, C1 and bidi controls, printed as ``fmt``."""

    def build(folder: Path) -> list[str]:
        g, t, b = _dumps(folder, HOSTILE)
        return ["compare", g, t, *([b] if three else []), *(["--format", fmt] if fmt != "table" else [])]

    return build


def _hostile_diagnose(folder: Path) -> list[str]:
    g, t, _b = _dumps(folder, HOSTILE)
    return ["diagnose", g, t]


def _hostile_model_names(folder: Path) -> list[str]:
    """A ``--model`` whose node and tensor names hold escapes, bidi controls and bytes that are not UTF-8."""
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("c", TensorProto.FLOAT, [2, 3])
    nodes = [
        helper.make_node("Relu", ["x"], ["aQQ"], name="r\x1b]0;t\x07QQ"),
        helper.make_node("Neg", ["aQQ"], ["b\u202e"], name="n\x9b"),
        helper.make_node("Abs", ["b\u202e"], ["c"], name="abs"),
    ]
    model = _onnx(nodes, x, y)
    (folder / "m.onnx").write_bytes(model.SerializeToString().replace(b"QQ", b"\xff\xfe"))
    g, t, _b = _dumps(folder)
    return ["compare", g, t, "--model", str(folder / "m.onnx"), "--format", "csv"]


def _onnx(nodes: list, x: object, y: object, initializers: list | None = None):  # type: ignore
    """A model of ``nodes`` from input ``x`` to output ``y`` (opset 17, IR 8)."""
    from onnx import helper

    graph = helper.make_graph(nodes, "g", [x], [y], initializers or [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def _walk(*paths: str) -> Build:
    def build(_folder: Path) -> list[str]:
        return ["compare", *paths, "--format", "json"]

    return build


def _folders_10k(folder: Path) -> list[str]:
    """A folder of 12,000 empty folders and one ``.npy``: a walk bound, not a walk of everything."""
    top = folder / "many"
    for i in range(12_000):
        (top / f"{i:05}").mkdir(parents=True)
    np.save(top / "a.npy", good_array("a"))
    return ["compare", str(top), str(top), "--format", "json"]


def _fifo_as_model(folder: Path) -> list[str]:
    os.mkfifo(folder / "m.onnx")
    g, t, _b = _dumps(folder)
    return ["compare", g, t, "--model", str(folder / "m.onnx")]


def _fifo_as_convert_input(folder: Path) -> list[str]:
    os.mkfifo(folder / "dump.bin")
    return ["convert", str(folder / "dump.bin"), "-o", str(folder / "out" / "c")]


def _patch_external_outside(location: str) -> Build:
    """``patch`` on a model whose external data points outside its folder: one line, nothing read."""

    def build(folder: Path) -> list[str]:
        from onnx import TensorProto, helper, numpy_helper

        d = folder / "model"
        d.mkdir()
        w = numpy_helper.from_array(np.ones((2, 3), np.float32), "w")
        w.ClearField("raw_data")
        w.data_location = TensorProto.EXTERNAL
        loc = {"absolute": str(folder / "outside" / "notes.txt"), "link": "w.bin"}.get(location, location)
        for k, v in (("location", loc), ("offset", "0"), ("length", "24")):
            w.external_data.add(key=k, value=v)
        if location == "link":
            (d / "w.bin").symlink_to(folder / "outside" / "notes.txt")
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
        nodes = [helper.make_node("Add", ["x", "w"], ["y"], name="add")]
        model = _onnx(nodes, x, y, [w])
        (d / "m.onnx").write_bytes(model.SerializeToString())
        return ["patch", str(d / "m.onnx"), "-o", str(folder / "out" / "p.onnx"), "--keep-fp32", "add"]

    return build


def _output_cases() -> dict[str, tuple[str, Build, Check]]:
    cases: dict[str, tuple[str, Build, Check]] = {}
    for writer in WRITERS:
        cases[f"out-link-{writer}"] = ("core atomic", _onto_link(writer), _nothing)
        cases[f"out-fifo-{writer}"] = ("core atomic", _onto_fifo(writer), _fifo_kept(_kept_path(writer)))
        if os.geteuid() == 0:  # mknod needs root (CI runs as root)
            kept = _device_kept(_kept_path(writer))
            cases[f"out-device-{writer}"] = ("core atomic", _onto_device(writer), kept)
    cases.update(
        {
            "out-dir-timestamp-planted": ("core atomic", _out_dir_planted(False), _nothing),
            "out-dir-threeway-timestamp-planted": ("core atomic", _out_dir_planted(True), _nothing),
            "out-per-rank-csv-links": ("core atomic", _per_rank_csv_links, _nothing),
            "out-demo-golden-link": ("tui/cli demo", _demo_golden_link, _nothing),
            "out-sigmastar-export-values": ("report sigmastar", _export_values_links, _nothing),
            "names-table": ("names", _hostile_names("table"), _no_raw),
            "names-csv": ("names", _hostile_names("csv"), _no_raw),
            "names-json": ("names", _hostile_names("json"), _no_raw),
            "names-markdown": ("names", _hostile_names("markdown"), _no_raw),
            "names-sigmastar": ("names", _hostile_names("sigmastar"), _no_raw),
            "names-threeway-table": ("names", _hostile_names("table", three=True), _no_raw),
            "names-threeway-csv": ("names", _hostile_names("csv", three=True), _no_raw),
            "names-threeway-json": ("names", _hostile_names("json", three=True), _no_raw),
            "names-diagnose": ("names", _hostile_diagnose, _no_raw),
            "names-in-model": ("onnx model_io", _hostile_model_names, _no_raw),
            "walk-root-proc-self": ("formats walk", _walk("/", "/proc/self"), _nothing),
            "walk-proc-self-root": ("formats walk", _walk("/proc/self", "/"), _nothing),
            "walk-root-root": ("formats walk", _walk("/", "/"), _nothing),
            "walk-proc-proc": ("formats walk", _walk("/proc", "/proc"), _nothing),
            "walk-sys-dev": ("formats walk", _walk("/sys", "/dev"), _nothing),
            "walk-12k-folders": ("formats walk", _folders_10k, _nothing),
            "fifo-as-model": ("onnx graph", _fifo_as_model, _nothing),
            "fifo-as-convert-input": ("vendor convert", _fifo_as_convert_input, _nothing),
            "patch-external-up": ("onnx patch", _patch_external_outside("../outside/notes.txt"), _nothing),
            "patch-external-absolute": ("onnx patch", _patch_external_outside("absolute"), _nothing),
            "patch-external-link-out": ("onnx patch", _patch_external_outside("link"), _nothing),
        }
    )
    return cases


OUTPUT_CASES = _output_cases()


def run_output_case(name: str, case: tuple[str, Build, Check], folder: Path, timeout: float):  # type: ignore
    """One case through :mod:`tests.fuzz.run`'s checks (only ``out/`` may change), then its own ``check``."""
    from .run import RSS_SLACK, Outcome, _changed, _judge, input_bytes, make_outside, run, snapshot

    make_outside(folder)
    _owner, build, check = case
    argv = build(folder)
    allowed = folder / "out"
    allowed.mkdir(exist_ok=True)
    before = snapshot(folder, skip=allowed)
    rc, stdout, stderr, rss = run(argv, timeout, folder, env={"DUMPSCOPE_CONFIG_DIR": str(folder)})
    outcome = Outcome(argv[0], name, rc, stderr)
    touched = _changed(before, snapshot(folder, skip=allowed))
    touched += check(folder, stdout, stderr) if rc is not None else []
    _judge(outcome, stdout, rss, RSS_SLACK + 4 * input_bytes([folder]), touched, [])
    return outcome
