"""Where the wall time of one ``dumpscope compare`` goes: a timeline per phase and per process.

    python bench/timeline_compare.py GOLDEN TARGET [compare's options...]   (e.g. --workers 2)
    python bench/timeline_compare.py --repeat 3 GOLDEN TARGET ...           (the fastest run shown)

Runs ``dumpscope compare GOLDEN TARGET ... --format csv -o TMP`` as a child process, as the
command line does (``python -m dumpscope``), with a hook installed first that records, in every
process (the parent and each forked worker), when each phase starts and ends: wall seconds since
the child was started (the interpreter's own start-up included), that process's CPU seconds and its
minor page faults (``getrusage``: every thread of the process; a task's column lists each task's, the
first of each process holding its copy-on-write faults on the pages it shares with the other).
Phases: the imports of numpy, Polars and Rich (CPU: the importing thread's), argument parsing, opening and
pairing the dumps, the row table, forking, a worker's start-up, each task (rows, in which process),
joining the workers, the finish (for a run whose workers read the headers), the frame and judging,
writing the CSV, and the exit.  Functions a build does not have are left out, so the same
script times main and a branch.  Nothing is changed in what is computed.

The table lists the phases in the order they started; ``sys.modules`` of each process is read at
its exit (``polars in worker``: whether a forked worker had Polars loaded).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The hook the child runs before dumpscope's command line (``sitecustomize`` style, through ``-c``).
HOOK = r"""
import importlib.abc, importlib.machinery, os, resource, sys, time
T0 = float(os.environ["DUMPSCOPE_TIMELINE_T0"])
FD = os.open(os.environ["DUMPSCOPE_TIMELINE_OUT"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
def faults():  # the process's minor page faults (every thread's)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def note(name, w0, c0, w1, c1, extra="", f0=0, f1=0):
    line = f"{os.getpid()}\t{name}\t{w0 - T0:.6f}\t{w1 - T0:.6f}\t{c0:.6f}\t{c1:.6f}\t{extra}\t{f0}\t{f1}\n"
    os.write(FD, line.encode())
IMPORTS = {"numpy", "polars", "rich", "onnx", "threadpoolctl", "dumpscope.core.comparison.pipeline"}
SPANS = {
    "dumpscope.tui.cli.main": [("build_parser", "parse args"), ("_run", None)],
    "dumpscope.core.comparison.pipeline": [("_prepare", "open + pair"), ("_Run.__init__", "run set-up"),
        ("_Run.snapshot", "frame + judge"), ("_Run.context", "row context"), ("_LateRun.finish", "finish")],
    "dumpscope.core.comparison.table": [("RowTable.__init__", "row table")],
    "dumpscope.core.comparison.execution": [
        ("_Forked.__init__", "fork"), ("_run_part", "task"), ("_serve", "worker's life"),
        ("_worker_start", "worker start-up"), ("_Forked.close", "workers joined")],
    "dumpscope.core.report.writers": [("write_csv", "write csv")],
}
def wrap(fn, label):
    def timed(*a, **k):
        w0, c0, f0 = time.time(), time.process_time(), faults()
        try:
            return fn(*a, **k)
        finally:
            extra = ""
            if label == "task" and len(a) > 1:
                extra = f"{len(a[1])} rows"
            if label == "worker's life":
                extra = loaded()
            note(label, w0, c0, time.time(), time.process_time(), extra, f0, faults())
    timed.__wrapped__ = fn
    return timed
def patch(mod):
    for qual, label in SPANS.get(mod.__name__, []):
        owner, _, attr = qual.rpartition(".")
        target = getattr(mod, owner) if owner else mod
        fn = getattr(target, attr, None) if target is not None else None
        if fn is not None:
            setattr(target, attr, wrap(fn, label or attr))
class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in IMPORTS and name not in SPANS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        for finder in sys.meta_path:
            if spec is not None:
                break
            if finder is not self and hasattr(finder, "find_spec"):
                spec = finder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return spec
        loader, run = spec.loader, spec.loader.exec_module
        def exec_module(module):
            w0, c0, f0 = time.time(), time.thread_time(), faults()
            try:
                run(module)
            finally:
                if name in IMPORTS:  # (CPU: this thread's; a module is executed once)
                    note("import " + name, w0, c0, time.time(), time.thread_time(), "", f0, faults())
            patch(module)
        loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, Finder())
import atexit
said = set()
def loaded():
    return "loaded: " + ",".join(m for m in ("numpy", "polars", "rich") if m in sys.modules)
def bye():
    if os.getpid() in said:
        return
    said.add(os.getpid())
    note("exit", time.time(), time.process_time(), time.time(), time.process_time(), loaded(), 0, faults())
atexit.register(bye)
note("interpreter up", T0, 0.0, time.time(), time.process_time(), "", 0, faults())
sys.argv = ["dumpscope", *sys.argv[1:]]
from dumpscope.tui.cli.main import main
code = main()
note("main returned", time.time(), time.process_time(), time.time(), time.process_time())
sys.exit(code)
"""


def run_once(python: str, args: list[str]) -> tuple[float, list[dict[str, object]]]:
    """One timed child; its wall seconds and its events."""
    with tempfile.TemporaryDirectory(prefix="dumpscope-timeline-") as tmp:
        out = Path(tmp) / "events.tsv"
        csv = Path(tmp) / "result.csv"
        t0 = time.time()
        env = {**os.environ, "DUMPSCOPE_TIMELINE_T0": repr(t0), "DUMPSCOPE_TIMELINE_OUT": str(out)}
        proc = subprocess.run(
            [python, "-c", HOOK, "compare", *args, "--format", "csv", "-o", str(csv)],
            env=env,
            capture_output=True,
            text=True,
        )
        wall = time.time() - t0
        if proc.returncode not in (0, 1):
            raise SystemExit(f"compare failed ({proc.returncode}): {proc.stderr[-2000:]}")
        events = []
        for line in out.read_text().splitlines():
            pid, name, w0, w1, c0, c1, extra, f0, f1 = line.split("\t")
            events.append(
                {
                    "pid": int(pid),
                    "name": name,
                    "w0": float(w0),
                    "w1": float(w1),
                    "c0": float(c0),
                    "c1": float(c1),
                    "extra": extra,
                    "f0": int(f0),
                    "f1": int(f1),
                }
            )
    return wall, events


def show(wall: float, events: list[dict[str, object]], each_task: bool = False) -> None:
    """The events as a table, tasks of one process folded into one line per process (``each_task``:
    a line per task as well)."""
    parent = min(events, key=lambda e: e["w0"])["pid"]  # type: ignore[type-var]
    names = {parent: "parent"}
    for e in sorted(events, key=lambda e: e["w0"]):  # type: ignore[arg-type,return-value]
        names.setdefault(e["pid"], f"worker {len(names)}")  # type: ignore[arg-type]
    head = f"{'start s':>8} {'end s':>8} {'wall s':>7} {'CPU s':>7} {'faults':>7}"
    print(f"{'process':9} {'phase':22} {head}  note")
    tasks: dict[int, list[dict[str, object]]] = {}
    lines = []
    for e in events:
        if e["name"] == "task":
            tasks.setdefault(e["pid"], []).append(e)  # type: ignore[arg-type]
            if each_task:
                lines.append(e)
        else:
            lines.append(e)
    for pid, ts in tasks.items():
        rows = sum(int(str(t["extra"]).split()[0]) for t in ts if t["extra"])
        lines.append(
            {
                "pid": pid,
                "name": f"{len(ts)} tasks",
                "w0": min(t["w0"] for t in ts),  # type: ignore[type-var]
                "w1": max(t["w1"] for t in ts),
                "c0": 0.0,  # type: ignore[type-var]
                "c1": sum(float(t["c1"]) - float(t["c0"]) for t in ts),  # type: ignore[arg-type]
                "f0": 0,
                "f1": sum(int(t["f1"]) - int(t["f0"]) for t in ts),  # type: ignore[call-overload]
                "extra": f"{rows} rows, busy {sum(float(t['w1']) - float(t['w0']) for t in ts):.3f} s wall; "
                f"faults per task {', '.join(str(int(t['f1']) - int(t['f0'])) for t in ts)}",  # type: ignore[call-overload]
            }  # type: ignore[arg-type]
        )
    for e in sorted(lines, key=lambda e: e["w0"]):  # type: ignore[arg-type,return-value]
        w0, w1, c0, c1 = (float(e[k]) for k in ("w0", "w1", "c0", "c1"))  # type: ignore[arg-type]
        who, name = names[e["pid"]], e["name"]  # type: ignore[index]
        flt = int(e["f1"]) - int(e["f0"])  # type: ignore[call-overload]  # (exit, interpreter up: the total)
        print(f"{who:9} {name:22} {w0:8.3f} {w1:8.3f} {w1 - w0:7.3f} {c1 - c0:7.3f} {flt:7d}  {e['extra']}")
    print(f"child wall (spawn to reap): {wall:.3f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=1, help="runs; the fastest is shown")
    ap.add_argument("--python", default=sys.executable, help="the interpreter whose dumpscope is timed")
    ap.add_argument("--json", action="store_true", help="also print the events as JSON")
    ap.add_argument("--tasks", action="store_true", help="a line per task too")
    args, rest = ap.parse_known_args()
    runs = [run_once(args.python, rest) for _ in range(args.repeat)]
    wall, events = min(runs, key=lambda r: r[0])
    print(f"load average {os.getloadavg()[0]:.2f}; walls: {', '.join(f'{w:.3f}' for w, _e in runs)}")
    show(wall, events, args.tasks)
    if args.json:
        print(json.dumps(events))


if __name__ == "__main__":
    main()
