"""Benchmark the terminal UI's layer list (figures printed, nothing asserted).

    python bench/bench_tui.py            # everything, each measurement in a fresh process
    python bench/bench_tui.py --quick    # skip the slow DataTable baseline
    python bench/bench_tui.py --fill     # only the fill: the TUI vs `dumpscope compare` at 3k and 10k tensors
    python bench/bench_tui.py --first-row  # time to the first judged row, 100k tiny tensors, no cache
    python bench/bench_tui.py --breakdown  # where the fill's time goes in the TUI process (CPU per
    thread, GC, layout)

Measured (targets from research/tui.md §5.4, 160x50, the 2-core CI box):
  * headless first paint at 10k and 100k rows (target <= 0.1 s at 100k);
  * CPU per `j` and per page at 100k, minus an unbound key (target <= 10 ms per `j`);
  * sort and filter at 100k, data work plus the repaint (target <= 50 ms);
  * RSS the UI adds beyond the comparison frame;
  * cold start to the first frame of `dumpscope open RESULT.parquet` at 10k in a real
    pseudo-terminal (target <= 1 s);
  * baseline: Textual's built-in DataTable showing the same 10k rows, same run;
  * fill: the TUI comparing 10k tensor pairs until no row is pending, against
    `dumpscope compare` on the same pair, both as subprocesses (target <= 1.2x).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # the repository root: screenshots.make

SIZE = (160, 50)


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _comparison(rows: int):  # type: ignore[no-untyped-def]
    from dumpscope.core.comparison.result import Comparison
    from screenshots.make import generated_frame

    return Comparison.from_frame(generated_frame(rows), meta={"golden": "g", "target": "t"})


async def _measure_app(rows: int) -> dict[str, float]:
    """First paint, key costs, sort/filter and RSS of the dumpscope app, headless."""
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.app.widgets.layer_list import LayerList

    cmp = _comparison(rows)
    rss_data = _rss_mb()
    painted: list[float] = []
    original = LayerList.render_line

    def timed(self: LayerList, y: int):  # type: ignore[no-untyped-def]
        strip = original(self, y)
        if y > 0 and not painted and self.view.size:
            painted.append(time.perf_counter())
        return strip

    LayerList.render_line = timed  # type: ignore[method-assign]
    start = time.perf_counter()
    app = DumpscopeApp(cmp)
    out: dict[str, float] = {"rows": rows}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        out["first_paint_s"] = painted[0] - start
        await pilot.pause(0.4)
        await app.workers.wait_for_complete()  # the diagnosis of the complete table runs in a thread
        await pilot.pause()
        out["rss_ui_mb"] = _rss_mb() - rss_data

        async def cpu_per_key(key: str, n: int) -> float:
            t0 = time.process_time()
            for _ in range(n):
                await pilot.press(key)
            await pilot.pause(0.1)
            return (time.process_time() - t0) / n * 1000

        base = await cpu_per_key("z", 30)  # unbound: what Pilot itself costs
        out["j_ms"] = await cpu_per_key("j", 30) - base
        out["page_ms"] = await cpu_per_key("pagedown", 20) - base
        out["key_baseline_ms"] = base

        async def timed_call(call) -> float:  # type: ignore[no-untyped-def]
            """CPU ms (all threads: Polars works in its pool) of ``call`` plus the repaint it causes."""
            t0 = time.process_time()
            call()
            await pilot.pause()
            return (time.process_time() - t0) * 1000

        pane = app.tensor_pane
        out["pane_ms"] = await timed_call(lambda: pane._render_row(app.layer_list.selected, reload=False))

        out["sort_cos_ms"] = await timed_call(app.action_sort)
        out["sort_name_ms"] = await timed_call(lambda: [app.action_sort() for _ in range(6)][-1]) / 6
        out["filter_ms"] = await timed_call(lambda: app._set_query("op:conv health:fail relu"))
        out["filter_word_ms"] = await timed_call(lambda: app._set_query("block12"))
    return out


async def _measure_datatable(rows: int) -> dict[str, float]:
    """The same display columns in Textual's built-in DataTable (the baseline)."""
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable

    from dumpscope.core.vocabulary import format_number
    from dumpscope.tui.app.widgets.layer_rows import HEALTH_LABEL, LayerRows

    cmp = _comparison(rows)
    painted: list[float] = []

    class Baseline(App[None]):
        def compose(self) -> ComposeResult:
            yield DataTable()

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            data = LayerRows(cmp.frame)
            table.add_columns("#", "tensor", "op", "shape", "dtype", "cosine", "max abs", "rmse", "health")
            table.add_rows(
                (
                    str(int(data.index[p])),
                    *data.text(p),
                    format_number(float(data.cos[p]), 8),
                    format_number(float(data.max_abs[p]), 8),
                    format_number(float(data.rmse[p]), 8),
                    HEALTH_LABEL[cmp.frame["health"][p]],
                )
                for p in range(data.n)
            )
            table.focus()

    start = time.perf_counter()
    app = Baseline()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(DataTable)
        while table.virtual_size.height < rows:
            await pilot.pause(0.05)
        await pilot.pause()
        painted.append(time.perf_counter())
        t0 = time.process_time()
        for _ in range(20):
            await pilot.press("down")
        await pilot.pause(0.1)
        down = (time.process_time() - t0) / 20 * 1000
    return {"rows": rows, "first_paint_s": painted[0] - start, "j_ms": down}


def first_row_in_pty(
    argv: list[str],
    env: dict[str, str],
    size: tuple[int, int],
    timeout: float,
    drain: bool = False,
    cpu: list[float] | None = None,
) -> tuple[float | None, int]:
    """Run ``argv`` in a pseudo-terminal of ``size`` (columns, rows): seconds until the first judged
    row (``✓ OK`` / ``✗ FAIL``) is on screen (None: not within ``timeout``) and the bytes it wrote
    (with ``drain``, the rest of its start-up output too); then ``q`` quits it.  ``cpu`` receives the
    CPU seconds the process (every thread) had used when that row was seen: a figure the load
    hardly moves, where the wall clock at load 18 is mostly other processes' time."""
    import fcntl
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen, first = b"", None
    while first is None and time.perf_counter() - start < timeout:
        if select.select([master], [], [], 0.05)[0]:
            seen, alive = _read_more(master, seen)
            if not alive:
                break
            if "✓ OK".encode() in seen or "✗ FAIL".encode() in seen:
                first = time.perf_counter() - start
                if cpu is not None:
                    cpu.append(_cpu_seconds(proc.pid))
    while drain and select.select([master], [], [], 0.3)[0]:
        seen, alive = _read_more(master, seen)
        if not alive:
            break
    os.write(master, b"q")
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    os.close(master)
    return first, len(seen)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far, every thread (``/proc/PID/stat``); NaN
    where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (fields 14, 15)


def _read_more(master: int, seen: bytes) -> tuple[bytes, bool]:
    """What the terminal shows so far, and False once the child closed it."""
    try:
        return seen + os.read(master, 65536), True
    except OSError:
        return seen, False


def _cold_start(rows: int) -> dict[str, float]:
    """Spawn `dumpscope open` on a saved 10k comparison in a pty; time to the first row on screen."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cmp.parquet"
        _comparison(rows).save(path)
        env = {**os.environ, "TERM": "xterm-256color", "DUMPSCOPE_CONFIG_DIR": tmp}
        first, seen = first_row_in_pty(
            [sys.executable, "-m", "dumpscope", "open", str(path)], env, SIZE, 30, drain=True
        )
    return {
        "rows": rows,
        "cold_start_s": first if first is not None else float("nan"),
        "startup_kb": seen / 1024,
    }


#: The end of both app children: run the ``Timed`` app headless on the pair until it exits.
RUN_UNTIL_EXIT = r"""
async def main():
    app = Timed(CompareRequest(Path(sys.argv[1]), Path(sys.argv[2])))
    async with app.run_test(size=(160, 50)):
        while app.is_running:
            await asyncio.sleep(0.05)

asyncio.run(main())
"""

FILL_CHILD = (
    r"""
import asyncio, sys
from pathlib import Path
from dumpscope.tui.cli.main import one_blas_thread
one_blas_thread()  # as `dumpscope GOLDEN TARGET` does before anything loads numpy
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest

import dumpscope.tui.app.app as explorer

class Timed(DumpscopeApp):
    CSS_PATH = str(Path(explorer.__file__).with_name("app.tcss"))
    # Done when the complete table has been taken in (no polling: Pilot's own wake-ups would
    # compete with the comparison for the GIL, which a real terminal does not).  Textual calls
    # the handler of every class in the MRO, so DumpscopeApp's own runs after this one: calling
    # super() here would take every streamed table in twice (it did, until issue 14's last round).
    def on_dumpscope_app_progressed(self, message):
        if message.done >= message.total and not message.comparison.meta.preview:
            self.call_after_refresh(self.exit, 0)

"""
    + RUN_UNTIL_EXIT
)

#: The TUI filling the pair headless: seconds from the child's start (argv[3], epoch) to the first table
#: with a judged row and to the complete table, as JSON.
FIRST_ROW_CHILD = (
    r"""
import asyncio, json, sys, time
from pathlib import Path
from dumpscope.tui.cli.main import one_blas_thread
one_blas_thread()
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
import dumpscope.tui.app.app as explorer

started, out = float(sys.argv[3]), {}
if sys.argv[4:] == ["no-preview"]:  # as before the preview: the first rows wait for the whole dumps
    from dumpscope.core.comparison import pipeline
    pipeline.HEAD_FROM = 1 << 62

class Timed(DumpscopeApp):
    CSS_PATH = str(Path(explorer.__file__).with_name("app.tcss"))

    def on_dumpscope_app_progressed(self, message):
        frame = message.comparison.frame
        if "first_row_s" not in out and frame.height and (frame["health"] != "pending").any():
            out["first_row_s"] = time.time() - started
            out["first_rows"] = int((frame["health"] != "pending").sum())
            out["preview"] = bool(message.comparison.meta.preview)
        if message.done >= message.total and not message.comparison.meta.preview:
            out["complete_s"], out["rows"] = time.time() - started, frame.height
            print(json.dumps(out), flush=True)
            self.call_after_refresh(self.exit, 0)

"""
    + RUN_UNTIL_EXIT
)


BREAKDOWN_CHILD = (
    r"""
import asyncio, gc, json, sys, threading, time
from pathlib import Path
from dumpscope.tui.cli.main import one_blas_thread
one_blas_thread()
start_cpu = time.thread_time()
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
import dumpscope.tui.app.app as explorer
import textual.screen

out = {"import_cpu_s": time.thread_time() - start_cpu, "gc_full_passes": 0, "gc_full_s": 0.0,
       "gc_young_s": 0.0,
       "layout_passes": 0, "layout_cpu_s": 0.0}
started = [0.0]

def on_gc(phase, info):  # every pass, whichever thread triggers it
    if phase == "start":
        started[0] = time.perf_counter()
        return
    spent = time.perf_counter() - started[0]
    key = "gc_full" if info["generation"] == 2 else "gc_young"
    out[key + "_s"] += spent
    out["gc_full_passes"] += info["generation"] == 2

gc.callbacks.append(on_gc)
layout = textual.screen.Screen._refresh_layout

def timed_layout(self, *args, **kwargs):  # a layout pass and the repaint it causes (main thread)
    t = time.thread_time()
    try:
        return layout(self, *args, **kwargs)
    finally:
        out["layout_passes"] += 1
        out["layout_cpu_s"] += time.thread_time() - t

textual.screen.Screen._refresh_layout = timed_layout

class Timed(DumpscopeApp):
    CSS_PATH = str(Path(explorer.__file__).with_name("app.tcss"))

    def on_mount(self):
        out["mount_cpu_s"] = time.thread_time()

    def on_dumpscope_app_progressed(self, message):
        if message.done >= message.total and not message.comparison.meta.preview:
            out["ui_cpu_s"] = time.thread_time()
            self.call_after_refresh(self.exit, 0)

"""
    + RUN_UNTIL_EXIT
    + r"""
# the comparison's, the tensor pane's reads
out["other_threads_cpu_s"] = time.process_time() - time.thread_time()
out["ui_cpu_s"] -= out["mount_cpu_s"]
print(json.dumps(out))
"""
)

CLI_GC_CHILD = r"""
import gc, json, sys, time
out = {"gc_full_passes": 0, "gc_full_s": 0.0, "gc_young_s": 0.0}
started = [0.0]
def on_gc(phase, info):
    if phase == "start":
        started[0] = time.perf_counter()
        return
    key = "gc_full" if info["generation"] == 2 else "gc_young"
    out[key + "_s"] += time.perf_counter() - started[0]
    out["gc_full_passes"] += info["generation"] == 2
gc.callbacks.append(on_gc)
from dumpscope.tui.cli.main import main
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    main(["compare", sys.argv[1], sys.argv[2]])
out["cpu_s"] = time.thread_time()
print(json.dumps(out))
"""


def _breakdown(layers: int) -> None:
    """Where the TUI process's time goes while it fills ``layers`` tensors (one instrumented run
    each, the box's load included): CPU of the UI thread before the first frame and until the
    table is complete, of the comparison thread, the collector's passes, the layout passes; and
    the CLI's collector passes for comparison."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_compare import make_layers

    with tempfile.TemporaryDirectory(prefix="bench-tui-breakdown-") as tmp:
        root = Path(tmp)
        make_layers(root, layers, 256, np.float16, seed=7)
        pair = [str(root / "golden"), str(root / "target")]
        tui = json.loads(
            subprocess.run(
                [sys.executable, "-c", BREAKDOWN_CHILD, *pair], capture_output=True, text=True, check=True
            )
            .stdout.strip()
            .splitlines()[-1]
        )
        cli = json.loads(
            subprocess.run(
                [sys.executable, "-c", CLI_GC_CHILD, *pair], capture_output=True, text=True, check=False
            )
            .stdout.strip()
            .splitlines()[-1]
        )
    print(f"breakdown {layers} tensors (CPU s; the UI and comparison threads share one GIL):")
    print(
        f"  UI thread: {tui['mount_cpu_s']:.3f} from the start to the app's mount (the app's imports "
        f"{tui['import_cpu_s']:.3f}), "
        f"{tui['ui_cpu_s']:.3f} from mount to the complete table ({tui['layout_passes']} layout passes, "
        f"{tui['layout_cpu_s']:.3f})"
    )
    print(
        f"  other threads (the comparison, the tensor pane's reads): {tui['other_threads_cpu_s']:.3f}   "
        f"CLI main thread until the table is printed: {cli['cpu_s']:.3f}"
    )
    print(
        f"  collector: TUI {tui['gc_full_passes']} full passes {tui['gc_full_s']:.3f} s + young "
        f"{tui['gc_young_s']:.3f} s; "
        f"CLI {cli['gc_full_passes']} full passes {cli['gc_full_s']:.3f} s + young {cli['gc_young_s']:.3f} s"
    )


def _timed(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the worker processes included) of ``cmd``."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env={**os.environ, "COLUMNS": "200"})
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            err.seek(0)
            raise SystemExit(f"{cmd[:4]} failed: {err.read()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def _fill(layers: int, repeat: int) -> dict[str, float]:
    """Wall time, as subprocesses of the same interpreter: `dumpscope compare` vs the TUI filling
    the same pair (headless, until no row is pending).  Best of ``repeat`` each, interleaved.
    CPU seconds (best of the same runs) are printed too: on a shared box they move less than wall."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_compare import make_layers

    with tempfile.TemporaryDirectory(prefix="bench-tui-fill-") as tmp:
        root = Path(tmp)
        make_layers(root, layers, 256, np.float16, seed=7)
        cli = [sys.executable, "-m", "dumpscope", "compare", str(root / "golden"), str(root / "target")]
        tui = [sys.executable, "-c", FILL_CHILD, str(root / "golden"), str(root / "target")]
        runs: dict[str, list[tuple[float, float]]] = {"cli": [], "tui": []}
        for _ in range(repeat):
            runs["cli"].append(_timed(cli))
            runs["tui"].append(_timed(tui))
    best = {k: (min(w for w, _ in v), min(c for _, c in v)) for k, v in runs.items()}
    return {
        "layers": layers,
        "cli_s": best["cli"][0],
        "tui_s": best["tui"][0],
        "ratio": best["tui"][0] / best["cli"][0],
        "cli_cpu_s": best["cli"][1],
        "tui_cpu_s": best["tui"][1],
    }


def _print_fill(fill: dict[str, float]) -> None:
    print(
        f"fill {fill['layers']:>6} tensors: dumpscope compare {fill['cli_s']:.2f} s, TUI until complete "
        f"{fill['tui_s']:.2f} s  ->  {fill['ratio']:.2f}x   target <= 1.2x   "
        f"(CPU {fill['cli_cpu_s']:.2f} s vs {fill['tui_cpu_s']:.2f} s)"
    )


def _first_row(tensors: int) -> None:
    """Time to the first judged row of the TUI on ``tensors`` tiny tensors a side, no cache (npy folders
    with and without a manifest, as bench_scale.py makes them): headless (first table with a judged row,
    complete table) and in a pty (first OK/FAIL on screen), with `dumpscope compare`'s time in the same
    run and the load (`uptime`) before and after."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_scale import make_side, with_manifest

    print(f"load before: {_load()}")
    with tempfile.TemporaryDirectory(prefix="bench-tui-first-") as tmp:
        root = Path(tmp)
        make_side(root / "g", tensors, 2, 0.0)
        make_side(root / "t", tensors, 2, 1e-3)
        with_manifest(root / "g", root / "gm")
        with_manifest(root / "t", root / "tm")
        env = {**os.environ, "TERM": "xterm-256color", "DUMPSCOPE_CONFIG_DIR": tmp}
        for label, g, t in (("npy", "g", "t"), ("npy+manifest", "gm", "tm")):
            golden, target = str(root / g), str(root / t)
            cli, _cpu = _timed([sys.executable, "-m", "dumpscope", "compare", golden, target])
            child = [sys.executable, "-c", FIRST_ROW_CHILD, golden, target, repr(time.time())]
            ran = subprocess.run(child, capture_output=True, text=True, check=True)
            headless = json.loads(ran.stdout.strip().splitlines()[-1])
            child[-1] = repr(time.time())
            unpreviewed = json.loads(
                subprocess.run([*child, "no-preview"], capture_output=True, text=True, check=True)
                .stdout.strip()
                .splitlines()[-1]
            )
            argv = [sys.executable, "-m", "dumpscope", golden, target]
            cpu: list[float] = []
            on_screen, _seen = first_row_in_pty(argv, env, SIZE, 300, cpu=cpu)
            print(
                f"{tensors} tensors, {label:<13}: first judged row {headless['first_row_s']:.2f} s headless "
                f"({headless['first_rows']} rows{', a preview' if headless['preview'] else ''}), "
                f"{on_screen if on_screen is not None else float('nan'):.2f} s on screen (pty, "
                f"{cpu[0] if cpu else float('nan'):.2f} CPU s by then); "
                f"complete {headless['complete_s']:.2f} s; `dumpscope compare` {cli:.2f} s   target <= 2 s; "
                f"without the preview: first row {unpreviewed['first_row_s']:.2f} s, "
                f"complete {unpreviewed['complete_s']:.2f} s"
            )
    print(f"load after: {_load()}")


def _load() -> str:
    """The load averages (`uptime`'s)."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def _one(kind: str, rows: int) -> None:
    if kind == "app":
        result = asyncio.run(_measure_app(rows))
    elif kind == "datatable":
        result = asyncio.run(_measure_datatable(rows))
    else:
        result = _cold_start(rows)
    print(json.dumps(result))


def _spawn(kind: str, rows: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--one", kind, "--rows", str(rows)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="skip the DataTable baseline")
    parser.add_argument(
        "--fill",
        action="store_true",
        help="only the fill benchmark: TUI vs `dumpscope compare` on 3k and 10k tensors (target <= 1.2x)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="fill runs per contender (best of)")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="only where the TUI's fill time goes: UI and comparison thread CPU, collector and layout passes",
    )
    parser.add_argument(
        "--first-row",
        type=int,
        metavar="TENSORS",
        nargs="?",
        const=100_000,
        help="only the time to the first judged row on TENSORS (100k) tiny tensors a side, no cache",
    )
    parser.add_argument("--one", choices=("app", "datatable", "cold"), help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=int, default=10_000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        _one(args.one, args.rows)
        return 0
    if args.first_row:
        _first_row(args.first_row)
        return 0
    if args.breakdown:
        for layers in (3_000, args.rows):
            _breakdown(layers)
        return 0
    for layers in (3_000, args.rows):
        _print_fill(_fill(layers, args.repeat))
    if args.fill:
        return 0
    small, big = _spawn("app", 10_000), _spawn("app", 100_000)
    cold = _spawn("cold", 10_000)
    print(f"{'measure':<38}{'10k':>10}{'100k':>10}   target")
    print(
        f"{'first paint, headless (s)':<38}{small['first_paint_s']:>10.3f}{big['first_paint_s']:>10.3f}   "
        "<= 0.1 @100k"
    )
    print(f"{'CPU per j (ms, minus unbound key)':<38}{small['j_ms']:>10.1f}{big['j_ms']:>10.1f}   <= 10")
    print(f"{'tensor pane refresh, when it rests (ms)':<38}{small['pane_ms']:>10.1f}{big['pane_ms']:>10.1f}")
    print(f"{'CPU per page (ms)':<38}{small['page_ms']:>10.1f}{big['page_ms']:>10.1f}   <= 30")
    print(
        f"{'sort by cosine + repaint (CPU ms)':<38}{small['sort_cos_ms']:>10.1f}{big['sort_cos_ms']:>10.1f} "
        "  <= 50"
    )
    print(
        f"{'sort, next keys, mean (CPU ms)':<38}{small['sort_name_ms']:>10.1f}{big['sort_name_ms']:>10.1f}  "
        " <= 50"
    )
    print(
        f"{'filter op:+health:+word (CPU ms)':<38}{small['filter_ms']:>10.1f}{big['filter_ms']:>10.1f}   <= "
        "50"
    )
    print(
        f"{'filter, name word (CPU ms)':<38}{small['filter_word_ms']:>10.1f}{big['filter_word_ms']:>10.1f}  "
        " <= 50"
    )
    print(
        f"{'RSS added by the UI (MB)':<38}{small['rss_ui_mb']:>10.1f}{big['rss_ui_mb']:>10.1f}   <= 50 @100k"
    )
    print(
        f"{'Pilot cost of an unbound key (ms)':<38}"
        f"{small['key_baseline_ms']:>10.1f}{big['key_baseline_ms']:>10.1f}"
    )
    print(
        f"cold start to first frame, pty 160x50, `dumpscope open` 10k: {cold['cold_start_s']:.2f} s "
        f"({cold['startup_kb']:.0f} KB written)   target <= 1.0 s"
    )
    if not args.quick:
        base = _spawn("datatable", 10_000)
        print(
            f"baseline DataTable @10k: first paint {base['first_paint_s']:.2f} s, down {base['j_ms']:.1f} ms"
            f"  ->  line-API list is {base['first_paint_s'] / small['first_paint_s']:.0f}x faster to first "
            "paint, "
            f"{base['j_ms'] / max(small['j_ms'] + small['key_baseline_ms'], 1e-3):.1f}x cheaper per key "
            "(both including Pilot's own cost)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
