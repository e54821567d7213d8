"""Run the whole hostile corpus against the CLI, one subprocess per run, and print a table.

    python -m tests.fuzz.run              # every case (about a minute or two)
    python -m tests.fuzz.run --fast       # only the cases of the normal pytest run
    python -m tests.fuzz.run --only npz   # cases whose name contains "npz"

Per command: cases, internal errors ("internal error" on stderr), tracebacks, hangs
(killed after --timeout seconds), peak RSS over 4x the input + 200 MB, rows lost (a good
tensor missing from the compare output), and files touched outside the folders given
(the case folder, with its ``outside/`` sentinel, is snapshotted before and after; only
``dump``'s -o folder may change).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import (
    GOOD,
    CacheCase,
    Case,
    SchedulerCase,
    cache_cases,
    cache_pair,
    cases,
    make_outside,
    remove_tree,
    scheduler_cases,
)
from .outputs import OUTPUT_CASES, run_output_case

RSS_SLACK = 200 << 20
COLUMNS = (
    "cases",
    "internal errors",
    "tracebacks",
    "hangs",
    "RSS over bound",
    "rows lost",
    "outside touches",
    "outside reads",
)
#: The --cache and --scheduler rows' own columns (issue 21).
CACHE_COLUMNS = (*COLUMNS, "forged verdicts", "unclear failures")


@dataclass
class Outcome:
    command: str
    case: str
    rc: int | None
    stderr: str
    problems: list[str] = field(default_factory=list)


def _entries(top: Path) -> Iterator[Path]:
    """Every entry under ``top`` (iterative: case folders nest 1,100 deep; links not followed)."""
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                for e in it:
                    yield Path(e.path)
                    if e.is_dir(follow_symlinks=False):
                        stack.append(Path(e.path))
        except OSError:
            continue


def snapshot(top: Path, skip: Path | None = None) -> dict[str, tuple[int, int, str]]:
    """(mtime, size, digest of small regular files) of everything under ``top`` except ``skip``."""
    out = {}
    for p in _entries(top):
        if skip is not None and (p == skip or skip in p.parents):
            continue
        st = p.lstat()
        digest = ""
        if p.is_file() and not p.is_symlink() and st.st_size < (1 << 20) and not _is_fifo(st.st_mode):
            digest = hashlib.sha1(p.read_bytes()).hexdigest()
        out[str(p)] = (st.st_mtime_ns, st.st_size, digest)
    return out


def _is_fifo(mode: int) -> bool:
    import stat

    return stat.S_ISFIFO(mode)


def input_bytes(paths: list[Path]) -> int:
    total = 0
    for top in paths:
        items = [top] if not top.is_dir() else list(_entries(top))
        total += sum(p.lstat().st_size for p in items if not p.is_dir())
    return total


#: A small fresh interpreter runs the command and reports its peak RSS: a child forked from
#: this (large) process would inherit this process's high-water mark in ``ru_maxrss``.
_WRAPPER = (
    "import resource, subprocess, sys\n"
    "rc = subprocess.call([sys.executable, '-c', _WATCHED, *sys.argv[1:]])\n"
    "sys.stderr.write('\\n' + _MARK + str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + '\\n')\n"
    "sys.exit(rc)\n"
)
_MARK = "@@dumpscope-fuzz-maxrss-kb@@ "
#: The command itself: ``python -m dumpscope`` with an audit hook that reports, on stderr, every
#: file it opens under the watched paths (``DUMPSCOPE_FUZZ_WATCH``: the case's ``outside/``
#: sentinel and /etc/passwd), so a read outside the dump is seen even when nothing changes.
_READ_MARK = "@@dumpscope-fuzz-outside-read@@ "
_WATCHED = (
    "import os, sys\n"
    "def _watch(watched):\n"
    "    inside = []\n"
    "    def hook(event, args):\n"
    "        if event != 'open' or inside or not args or isinstance(args[0], int):\n"
    "            return\n"
    "        inside.append(1)\n"
    "        try:\n"
    "            real = os.path.realpath(os.fsdecode(os.fspath(args[0])))\n"
    "            if any(real == w or real.startswith(w + os.sep) for w in watched):\n"
    f"                os.write(2, ('\\n{_READ_MARK}' + real + '\\n').encode(errors='replace'))\n"
    "        except (TypeError, ValueError, OSError):\n"
    "            pass\n"
    "        finally:\n"
    "            inside.pop()\n"
    "    sys.addaudithook(hook)\n"
    "_watch([os.path.realpath(w) for w in os.environ.get('DUMPSCOPE_FUZZ_WATCH', '').split(os.pathsep)\n"
    "        if w])\n"
    "import runpy\n"
    "sys.argv = ['dumpscope', *sys.argv[1:]]\n"
    "runpy.run_module('dumpscope', run_name='__main__', alter_sys=True)\n"
)


def _holds(arg: str, path: str) -> bool:
    """Whether the command-line argument ``arg`` names ``path`` or a folder above it."""
    if not arg.startswith("/"):
        return False
    root = os.path.realpath(arg).rstrip("/") + "/"
    return path == root.rstrip("/") or path.startswith(root)


def _split_rss(stderr: str) -> tuple[str, int]:
    head, mark, tail = stderr.rpartition(_MARK)
    if not mark:
        return stderr, 0
    return head.rstrip("\n") + ("\n" if head.strip() else ""), int(tail.split()[0]) * 1024


def run(
    argv: list[str], timeout: float, cwd: Path, env: dict[str, str] | None = None
) -> tuple[int | None, str, str, int]:
    """``(exit code or None on a hang, stdout, stderr, peak RSS bytes)`` of one CLI run."""
    wrapper = f"_MARK = {_MARK!r}\n_WATCHED = {_WATCHED!r}\n" + _WRAPPER
    # /etc/passwd is a sentinel outside every dump, unless the run was given a folder that holds it (`/`)
    passwd = [] if any(_holds(a, "/etc/passwd") for a in argv) else ["/etc/passwd"]
    watch = os.pathsep.join([str(cwd / "outside"), *passwd])
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", wrapper, *argv],
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            cwd=cwd,
            start_new_session=True,
            env={
                **os.environ,
                "NO_COLOR": "1",
                "COLUMNS": "200",
                "DUMPSCOPE_FUZZ_WATCH": watch,
                **(env or {}),
            },
        )
        hung = threading.Event()

        def kill() -> None:
            hung.set()
            os.killpg(proc.pid, signal.SIGKILL)

        timer = threading.Timer(timeout, kill)
        timer.start()
        _pid, status, _usage = os.wait4(proc.pid, 0)
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        rc = None if hung.is_set() else proc.returncode
        stderr, rss = _split_rss(err.read().decode(errors="replace"))
        return rc, out.read().decode(errors="replace"), stderr, rss


def _rows_lost(case: Case, stdout: str) -> list[str]:
    try:
        rows = json.loads(stdout)
    except ValueError:
        return list(case.good) if case.good else []
    names = (
        _msprobe_names(rows)
        if isinstance(rows, dict)
        else ({r.get("target_name") for r in rows} | {r.get("name") for r in rows})
    )
    return [n for n in case.good if n not in names]


def _msprobe_names(out: dict) -> set[object]:  # type: ignore[type-arg]
    """The record names of every step/rank of an msprobe ``compare --format json``."""
    rows = [row for r in out.get("results", []) for row in r.get("rows") or []]
    return {row.get("NPU Name") for row in rows} | {row.get("Bench Name") for row in rows}


def outside_reads(stderr: str) -> tuple[str, list[str]]:
    """``stderr`` without the watch hook's lines, and the watched files it says were opened."""
    kept, read = [], []
    for line in stderr.splitlines(keepends=True):
        (read.append(line[len(_READ_MARK) :].strip()) if line.startswith(_READ_MARK) else kept.append(line))
    return "".join(kept), sorted(set(read))


def _judge(outcome: Outcome, stdout: str, rss: int, bound: int, touched: list[str], lost: list[str]) -> None:
    outcome.stderr, read = outside_reads(outcome.stderr)
    if read:
        outcome.problems.append("outside reads")
    text = outcome.stderr + stdout
    if outcome.rc is None:
        outcome.problems.append("hangs")
    if "internal error" in outcome.stderr:
        outcome.problems.append("internal errors")
    if "Traceback (most recent call last)" in text:
        outcome.problems.append("tracebacks")
    if rss > bound:
        outcome.problems.append("RSS over bound")
    if lost:
        outcome.problems.append("rows lost")
    if touched:
        outcome.problems.append("outside touches")
    outcome.stderr = (
        (outcome.stderr.strip().splitlines() or [""])[-1][:200]
        + (f" | lost {lost[:5]}" if lost else "")
        + (f" | touched {touched[:3]}" if touched else "")
        + (f" | read {read[:3]}" if read else "")
        + (f" | RSS {rss >> 20} MB > {bound >> 20} MB" if rss > bound else "")
    )


def _changed(before: dict, after: dict) -> list[str]:  # type: ignore[type-arg]
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def run_case(case: Case, folder: Path, timeout: float) -> list[Outcome]:
    make_outside(folder)
    golden, target = case.build(folder)
    bound = 4 * input_bytes([golden, target]) + RSS_SLACK
    outcomes = []
    for command in case.commands:
        argv = {
            "compare": ["compare", str(golden), str(target), "--format", "json"],
            "diagnose": ["diagnose", str(golden), str(target), "--json"],
            "overflow": ["overflow", str(target), "--json"],
        }[command]
        before = snapshot(folder)
        rc, stdout, stderr, rss = run(argv, timeout, folder)
        touched = _changed(before, snapshot(folder))
        lost = _rows_lost(case, stdout) if command == "compare" and rc is not None and rc in (0, 1) else []
        if command == "compare" and rc == 2 and case.good:
            lost = list(case.good)  # the whole command refused although good tensors exist
        outcome = Outcome(command, case.name, rc, stderr)
        _judge(outcome, stdout, rss, bound, touched, lost)
        outcomes.append(outcome)
    return outcomes


# ----------------------------------------------------------------- dump -o


def _model(folder: Path) -> Path:
    import onnx
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    nodes = [
        helper.make_node("Relu", ["x"], ["h"], name="relu"),
        helper.make_node("Neg", ["h"], ["y"], name="neg"),
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 17)]
    )
    model.ir_version = 8
    path = folder / "model.onnx"
    onnx.save(model, str(path))
    return path


def _first_tensor(out: Path) -> Path:
    manifest = json.loads((out / "manifest.json").read_text())
    return out / next(t["file"] for t in manifest["tensors"] if t["kind"] == "activation")


def _plant(kind: str) -> Callable[[Path, Path, Path], list[str]]:
    """Spoil an earlier dump at ``out`` (outside = the sentinel); return the dump options."""

    def plant(out: Path, outside: Path, model: Path) -> list[str]:
        secret = outside / "secret.npy"
        if kind == "tensor-symlink":
            victim = _first_tensor(out)
            victim.unlink()
            victim.symlink_to(secret)
        elif kind == "tmp-symlink":
            (out / "manifest.json.tmp").symlink_to(outside / "notes.txt")
        elif kind == "inputs-symlink":
            import shutil

            shutil.rmtree(out / "inputs")
            (out / "inputs").symlink_to(outside)
        elif kind == "old-manifest-symlinked-dir":
            (out / "sub").symlink_to(outside)
            manifest = json.loads((out / "manifest.json").read_text())
            manifest["tensors"].append({"name": "evil", "file": "sub/secret.npy"})
            (out / "manifest.json").write_text(json.dumps(manifest))
        elif kind == "foreign-file":
            (out / "mine.txt").write_text("keep")
        elif kind == "out-is-symlink":
            import shutil

            shutil.rmtree(out)
            out.symlink_to(outside)
        return {"max-memory-nan": ["--max-memory", "nan"], "seed-negative": ["--seed", "-1"]}.get(kind, [])

    return plant


DUMP_CASES = (
    "tensor-symlink", "tmp-symlink", "inputs-symlink", "old-manifest-symlinked-dir", "foreign-file",
    "out-is-symlink", "max-memory-nan", "seed-negative",
)  # fmt: skip


def run_dump_case(kind: str, folder: Path, timeout: float) -> Outcome:
    outside = make_outside(folder)
    model = _model(folder)
    out = folder / "out"
    rc, _o, err, _r = run(["dump", str(model), "-o", str(out)], timeout, folder)
    assert rc == 0, err
    extra = _plant(kind)(out, outside, model)
    before = snapshot(folder, skip=out)
    rc, stdout, stderr, rss = run(["dump", str(model), "-o", str(out), *extra], timeout, folder)
    touched = _changed(before, snapshot(folder, skip=out))
    outcome = Outcome("dump", f"dump-{kind}", rc, stderr)
    if rc == 0 and kind not in ("max-memory-nan", "seed-negative"):
        touched.append("dump replaced a folder holding files it did not write")
    _judge(outcome, stdout, rss, 4 * input_bytes([model]) + RSS_SLACK, touched, [])
    return outcome


# ----------------------------------------------------------------- elsewhere (tui, vendor, knowledge)


def _explain_fifo(folder: Path) -> list[str]:
    os.mkfifo(folder / "log.fifo")
    return ["explain", "--log", str(folder / "log.fifo")]


def _explain_dev_zero(_folder: Path) -> list[str]:
    return ["explain", "--log", "/dev/zero"]


def _fusion_bad_attr(folder: Path) -> list[str]:
    graph = {
        "graph": [
            {
                "name": "g",
                "op": [
                    {
                        "name": "a",
                        "type": "Add",
                        "attr": [{"key": "_datadump_original_op_names", "value": {"s": 5}}],
                    }
                ],
            }
        ]
    }
    (folder / "graph.json").write_text(json.dumps(graph))
    return ["fusion", str(folder / "graph.json")]


def _fusion_deep(folder: Path) -> list[str]:
    (folder / "graph.json").write_text('{"graph": ' + "[" * 100_000 + "]" * 100_000 + "}")
    return ["fusion", str(folder / "graph.json")]


def _overflow_status(status: object) -> Callable[[Path], list[str]]:
    def build(folder: Path) -> list[str]:
        d = folder / "od"
        d.mkdir()
        for k, word in enumerate((status, 32)):
            record = {"AI Core": {"status": word, "task_id": k, "stream_id": 1}}
            (d / f"Opdebug.Node_OpDebug.{k}.1.170000000000000{k}.output.0.json").write_text(
                json.dumps(record)
            )
        return ["overflow", str(d), "--json"]

    return build


_CSV_HEAD = "Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,TensorIndex,Shape,CosineSimilarity\n"


def _open_inf_index(folder: Path) -> list[str]:
    (folder / "result.csv").write_text(
        _CSV_HEAD + "inf,Add,a,float32,NaN,a,float32,a:output:0,[2],1.0\n"
        "1,Add,b,float32,NaN,b,float32,b:output:0,[2],0.5\n"
    )
    return ["open", str(folder / "result.csv"), "--format", "json"]


def _open_csv_odd_cells(folder: Path) -> list[str]:
    rows = "".join(
        f"{i},Add,n{i},float32,NaN,n{i},float32,n{i}:output:0,[{10**30}],{v}\n"
        for i, v in enumerate(("inf", "nan", "x", ""))
    )
    (folder / "result.csv").write_text(_CSV_HEAD + rows)
    return ["open", str(folder / "result.csv"), "--format", "json"]


def _open_csv_100k_rows(folder: Path) -> list[str]:
    rows = "".join(f"{i},Add,n{i},float32,NaN,n{i},float32,n{i}:output:0,[2],0.99\n" for i in range(100_000))
    (folder / "result.csv").write_text(_CSV_HEAD + rows)
    return ["open", str(folder / "result.csv"), "--format", "json"]


def _open_parquet_meta(meta: str) -> Callable[[Path], list[str]]:
    def build(folder: Path) -> list[str]:
        import polars as pl

        pl.DataFrame({"name": ["a"], "health": ["ok"]}).write_parquet(
            folder / "r.parquet", metadata={"dumpscope": meta}
        )
        return ["open", str(folder / "r.parquet"), "--format", "json"]

    return build


def _fusion_atc(count: int, shared: bool) -> Callable[[Path], list[str]]:
    """An ATC graph of ``count`` ops: a chain (each its own original) or one fusion group (all share one)."""

    def build(folder: Path) -> list[str]:
        def attr(i: int) -> list[dict[str, object]]:
            names = ["shared", f"o{i}"] if shared else [f"o{i}"]
            return [{"key": "_datadump_original_op_names", "value": {"list": {"s": names}}}]

        ops = [
            {
                "name": f"op{i}",
                "type": "Add",
                "id": i,
                "input": [f"op{i - 1}:0"] if i else [],
                "attr": attr(i),
                "output_desc": [{"dtype": "DT_FLOAT"}],
            }
            for i in range(count)
        ]
        (folder / "graph.json").write_text(json.dumps({"name": "g", "graph": [{"name": "g", "op": ops}]}))
        return ["fusion", str(folder / "graph.json"), "--json", "--outputs"]

    return build


def _patch_same_named(folder: Path) -> list[str]:
    import onnx
    from onnx import TensorProto, helper

    n = 20_000
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info(f"t{n - 1}", TensorProto.FLOAT, [2])
    nodes = [
        helper.make_node("Relu", ["x" if i == 0 else f"t{i - 1}"], [f"t{i}"], name="same") for i in range(n)
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 17)]
    )
    onnx.save(model, str(folder / "same.onnx"))
    return [
        "patch",
        str(folder / "same.onnx"),
        "-o",
        str(folder / "out" / "p.onnx"),
        "--keep-fp32",
        "t10",
        "--clip",
        "t20=0,1",
    ]


def _patch_out_dot(folder: Path) -> list[str]:
    return ["patch", str(_model(folder)), "-o", str(folder), "--keep-fp32", "relu"]


def _demo_out_file(folder: Path) -> list[str]:
    (folder / "f.txt").write_text("keep")
    return ["demo", "--out", str(folder / "f.txt"), "--headless"]


def _explain_kb_fifo(folder: Path) -> list[str]:
    (folder / "kb").mkdir()
    os.mkfifo(folder / "kb" / "pipe.jsonl")
    return ["explain", "Segmentation fault"]


def _explain_log_folder(folder: Path) -> list[str]:
    return ["explain", "--log", str(folder)]


def _not_a_dump(folder: Path) -> list[str]:
    (folder / "x.bin").write_bytes(b"\0" * 100)
    return ["compare", str(folder / "x.bin"), str(folder / "x.bin"), "--format", "json"]


def _formats(_folder: Path) -> list[str]:
    return ["formats"]


ELSEWHERE: dict[str, tuple[str, Callable[[Path], list[str]]]] = {
    "explain-log-fifo": ("tui/cli explain", _explain_fifo),
    "explain-log-dev-zero": ("tui/cli explain", _explain_dev_zero),
    "fusion-attr-s-5": ("vendor atc_graph", _fusion_bad_attr),
    "fusion-json-100k-deep": ("vendor atc_graph", _fusion_deep),
    "overflow-status-0x20": ("vendor opdebug", _overflow_status("0x20")),
    "overflow-status-null": ("vendor opdebug", _overflow_status(None)),
    "open-csv-index-inf": ("vendor msaccucmp_csv", _open_inf_index),
    "open-csv-odd-cells": ("vendor msaccucmp_csv", _open_csv_odd_cells),
    "open-csv-100k-rows": ("vendor msaccucmp_csv", _open_csv_100k_rows),
    "open-parquet-meta-list": ("comparison result", _open_parquet_meta("[1, 2]")),
    "open-parquet-meta-bad-types": (
        "comparison result",
        _open_parquet_meta('{"meta": 5, "thresholds": {"bands": 5}}'),
    ),
    "open-parquet-meta-not-json": ("comparison result", _open_parquet_meta("{{{")),
    "fusion-atc-100k-ops": ("vendor atc_graph", _fusion_atc(100_000, shared=False)),
    "fusion-group-20k-ops": ("vendor groups", _fusion_atc(20_000, shared=True)),
    "patch-20k-same-named-nodes": ("onnx patch", _patch_same_named),
    "patch-out-dot": ("tui/cli patch", _patch_out_dot),
    "demo-out-file": ("tui/cli demo", _demo_out_file),
    "explain-kb-fifo": ("knowledge loader", _explain_kb_fifo),
    "explain-log-folder": ("tui/cli explain", _explain_log_folder),
    "compare-not-a-dump": ("formats", _not_a_dump),
    "formats": ("tui/cli formats", _formats),
}


# Issue 21 (readers): a --kb file whose one line is JSON nested 100k deep is one warning, no internal error.


def _explain_kb_deep(folder: Path) -> list[str]:
    (folder / "deep.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    return ["explain", "--kb", str(folder / "deep.jsonl"), "Segmentation fault"]


def _msprobe_mapping(kind: str) -> Callable[[Path], list[str]]:
    """msprobe compare with a --mapping that is a FIFO, YAML nested 5000 deep, or broken YAML."""

    def build(folder: Path) -> list[str]:
        from .corpus import ms_rank

        for side in ("g", "t"):
            ms_rank(folder / side / "step0" / "rank0", task="statistics")
        mapping = folder / "mapping.yaml"
        if kind == "fifo":
            os.mkfifo(mapping)
        else:
            mapping.write_text("a: " + "[" * 5000 + "]" * 5000 if kind == "deep" else "a: [\n")
        return [
            "compare",
            str(folder / "g"),
            str(folder / "t"),
            "--mapping",
            str(mapping),
            "--format",
            "json",
        ]

    return build


ELSEWHERE["explain-kb-json-100k-deep"] = ("knowledge loader", _explain_kb_deep)
ELSEWHERE.update(
    {
        f"msprobe-mapping-{kind}": ("msprobe driver", _msprobe_mapping(kind))
        for kind in ("fifo", "deep", "bad")
    }
)


def run_elsewhere(name: str, build: Callable[[Path], list[str]], folder: Path, timeout: float) -> Outcome:
    make_outside(folder)
    argv = build(folder)
    allowed = folder / "out"  # the one folder a command may write (patch -o out/p.onnx)
    allowed.mkdir(exist_ok=True)
    before = snapshot(folder, skip=allowed)
    # A private config folder: the user's KB and keymap stay out of it (and a case may plant its own).
    rc, stdout, stderr, rss = run(argv, timeout, folder, env={"DUMPSCOPE_CONFIG_DIR": str(folder)})
    outcome = Outcome(argv[0], name, rc, stderr)
    _judge(
        outcome,
        stdout,
        rss,
        RSS_SLACK + 4 * input_bytes([folder]),
        _changed(before, snapshot(folder, skip=allowed)),
        [],
    )
    return outcome


# ----------------------------------------------------------------- --cache and --scheduler (issue 21)


def _healths(stdout: str) -> dict[str, str] | None:
    try:
        return {r["name"]: r["health"] for r in json.loads(stdout)}
    except (ValueError, TypeError, KeyError):
        return None


def run_cache_case(case: CacheCase, folder: Path, timeout: float) -> Outcome:
    """Prime ``--cache`` twice, spoil, then the judged ``--cache`` run against a fresh one."""
    make_outside(folder)
    golden, target = cache_pair(folder / "out")
    config = folder / "out" / "config"
    env = {"DUMPSCOPE_CONFIG_DIR": str(config)}
    base = ["compare", str(golden), str(target), "--format", "json"]
    for _ in range(2):
        run([*base, "--cache"], timeout, folder, env)
    case.spoil(golden, target, config)
    before = snapshot(folder, skip=folder / "out")
    rc, stdout, stderr, rss = run([*base, "--cache", *case.extra], timeout, folder, env)
    touched = _changed(before, snapshot(folder, skip=folder / "out"))
    true_rc, true_out, _e, _r = run([*base, *case.extra], timeout, folder, env)
    outcome = Outcome("compare --cache", case.name, rc, stderr)
    judged, truth = _healths(stdout), _healths(true_out)
    if rc is not None and (rc != true_rc or judged != truth or truth is None):
        outcome.problems.append("forged verdicts")
        stderr += f" | cached {judged} exit {rc}, true {truth} exit {true_rc}"
    outcome.stderr = stderr
    lost = [n for n in GOOD if judged is not None and n not in judged]
    _judge(outcome, stdout, rss, 4 * input_bytes([golden, target]) + RSS_SLACK, touched, lost)
    return outcome


@contextlib.contextmanager
def foreign_server(greeting: bytes | None, lifetime: float = 30.0) -> Iterator[str]:
    """A 127.0.0.1 TCP server that is not Dask: sends ``greeting`` to each connection, holds it,
    and stops by itself after ``lifetime`` seconds."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop, held = threading.Event(), []

    def serve() -> None:
        deadline = time.monotonic() + lifetime
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)
            if greeting:
                conn.sendall(greeting)
        for conn in held:
            conn.close()
        server.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)


def run_scheduler_case(case: SchedulerCase, folder: Path, timeout: float) -> Outcome:
    """``compare --scheduler ...`` must end with one line naming the option, and exit 2."""
    make_outside(folder)
    golden, target = cache_pair(folder / "out")
    env = {}
    if case.no_dask:  # a ``distributed`` that cannot be imported, first on the path
        fake = folder / "out" / "nodask" / "distributed"
        fake.mkdir(parents=True)
        (fake / "__init__.py").write_text("raise ImportError('no distributed here')\n")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(fake.parent), os.environ.get("PYTHONPATH")) if p)
    argv = ["compare", str(golden), str(target), "--format", "json", *case.options]
    before = snapshot(folder, skip=folder / "out")
    if case.greeting is not None:
        with foreign_server(case.greeting, lifetime=timeout) as address:
            rc, stdout, stderr, rss = run([*argv, "--scheduler", address], timeout, folder, env)
    else:
        rc, stdout, stderr, rss = run(argv, timeout, folder, env)
    touched = _changed(before, snapshot(folder, skip=folder / "out"))
    outcome = Outcome("compare --scheduler", case.name, rc, stderr)
    lines = stderr.strip().splitlines()
    clear = len(lines) == 1 and lines[0].startswith("dumpscope") and "--scheduler" in lines[0]
    if rc is not None and (rc != 2 or not clear):
        outcome.problems.append("unclear failures")
    _judge(outcome, stdout, rss, 4 * input_bytes([golden, target]) + RSS_SLACK, touched, [])
    return outcome


# ----------------------------------------------------------------- the table


def table(outcomes: list[Outcome], columns: tuple[str, ...] = COLUMNS) -> str:
    commands = sorted({o.command for o in outcomes})
    lines = [f"| command | {' | '.join(columns)} |", "|---" * (len(columns) + 1) + "|"]
    for command in commands:
        mine = [o for o in outcomes if o.command == command]
        counts = [len(mine)] + [sum(col in o.problems for o in mine) for col in columns[1:]]
        lines.append(f"| {command} | {' | '.join(map(str, counts))} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast", action="store_true", help="only the fast cases")
    parser.add_argument("--only", default="", help="only cases whose name contains this")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a run counts as a hang")
    parser.add_argument(
        "--no-elsewhere", action="store_true", help="skip the cases of other areas (tui, vendor)"
    )
    args = parser.parse_args(argv)
    mine: list[Outcome] = []
    other: list[Outcome] = []
    outputs: list[Outcome] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="dumpscope-fuzz-") as tmp:
        root = Path(tmp)
        for k, case in enumerate(c for c in cases() if args.only in c.name and (c.fast or not args.fast)):
            mine += run_case(case, root / f"c{k}", args.timeout)
        for kind in DUMP_CASES:
            if args.only in f"dump-{kind}":
                mine.append(run_dump_case(kind, root / f"dump-{kind}", args.timeout))
        if not args.no_elsewhere:
            for name, (_owner, build) in ELSEWHERE.items():
                if args.only in name:
                    (root / name).mkdir()
                    other.append(run_elsewhere(name, build, root / name, args.timeout))
            for name, case in OUTPUT_CASES.items():  # outputs, names, walking (tests/fuzz/outputs.py)
                if args.only in name:
                    (root / name).mkdir()
                    outputs.append(run_output_case(name, case, root / name, args.timeout))
        cached = [
            run_cache_case(c, root / c.name, args.timeout) for c in cache_cases() if args.only in c.name
        ]
        cached += [
            run_scheduler_case(c, root / c.name, args.timeout)
            for c in scheduler_cases()
            if args.only in c.name
        ]
        remove_tree(root)
    print(f"Readers, dump -o (this area): {len({o.case for o in mine})} cases, {len(mine)} runs")
    print(table(mine))
    _details(mine)
    if other:
        print(
            "\nSide files and other commands (vendor, open, fusion, patch, demo, explain, formats): "
            f"{len(other)} runs"
        )
        print(table(other))
        _details(other, owners={n: o for n, (o, _b) in ELSEWHERE.items()})
    if outputs:
        print(f"\nOutputs onto links, FIFOs and devices; names; walking (outputs.py): {len(outputs)} runs")
        print(table(outputs))
        _details(outputs, owners={n: c[0] for n, c in OUTPUT_CASES.items()})
    if cached:
        print(f"\n--cache and --scheduler: {len(cached)} runs")
        print(table(cached, CACHE_COLUMNS))
        _details(cached)
    print(f"\n{time.monotonic() - started:.0f} s")
    return 1 if any(o.problems for o in (*mine, *other, *outputs, *cached)) else 0


def _details(outcomes: list[Outcome], owners: dict[str, str] | None = None) -> None:
    for o in outcomes:
        if o.problems:
            owner = f" [{owners[o.case]}]" if owners else ""
            print(f"  FAIL {o.command} {o.case}{owner}: {', '.join(o.problems)} (exit {o.rc}): {o.stderr}")


if __name__ == "__main__":
    raise SystemExit(main())
