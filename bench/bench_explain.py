"""Speed of the error knowledge base: load, one lookup, and a whole-log scan.

    /work/venv/bin/python bench/bench_explain.py [--mb 200]

Prints figures; baselines are measured in the same run: a plain ``for line in f: pass``
read of the same log, and a naive "every pattern on every line" loop on a slice of it.
Goals (issue 5): a lookup <= 10 ms against the whole KB; a log scan >= 50 MB/s.
Issue 12: start-up, each in a fresh interpreter, against ``python -c pass`` measured in the
same run: import + load + first lookup of the knowledge side, and ``dumpscope explain`` end
to end (goal < 60 ms; the CLI part belongs to tui/cli/main.py).  ``--startup-only`` skips the log.
Issue 23: medians over 20 interleaved runs, the installed ``dumpscope`` command itself, three
messages, and the load average printed beside them.  Every child runs with its bytecode cached (a
``PYTHONPYCACHEPREFIX`` in a temporary folder, filled by one untimed run of each command first), as an
installed package has it: with ``PYTHONDONTWRITEBYTECODE`` set and no ``__pycache__`` in an editable
checkout, each start would compile dumpscope's sources again (about 15 ms that no user pays).
``--worst N`` adds the N dev messages of ``tests/data/explain/*.jsonl`` whose first lookup in a fresh KB
takes the longest in this process (the least of three tries each, so a burst of load rarely picks one; a
count of entries parsed would miss a long paste, whose cost is its length), each then timed end to end
like the three above, with their median and max.
Issue 23 (s27g): every start-up figure twice, for the two ways the package is installed.  *editable*: the
``dumpscope`` script of this interpreter's venv, an editable install (``pip install -e``), whose import hook
(``__editable___dumpscope_*_finder``) runs at every interpreter start and imports pathlib, urllib.parse,
ipaddress, fnmatch and re before ``python -c pass`` does anything (~16 ms of CPU here, in the baseline too).
*regular*: a fresh venv made here with ``python -m venv --without-pip`` whose site-packages holds
``dumpscope`` as a link to this tree, found by the plain path finder as a wheel's files would be, and a
console script written as pip writes one: what a user who ran ``pip install dumpscope`` starts.  Each figure
is against the ``python -c pass`` of its own venv.
``--stages`` (issue 23, latency by stage): for the same messages, the CPU time of each stage of an explain in
a fresh process (import of the CLI and knowledge modules, loading the KB as ``explain MESSAGE`` does, the
answer, the printing), medians over ``--runs`` processes, interleaved; CPU, not wall, so that a busy machine
does not move them much.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STARTUP_MESSAGE = "E RKNN: failed to open rknpu module, need to insmod rknpu dirver!"
KNOWLEDGE_FIRST_LOOKUP = (
    "import sys\n"
    "from dumpscope.core.knowledge import load_kb\n"
    f"load_kb().lookup({STARTUP_MESSAGE!r})\n"
    "heavy = [m for m in ('numpy', 'polars', 'onnx', 'textual', 'rich') if m in sys.modules]\n"
    "assert not heavy, heavy\n"
)
CLI = (
    "import sys\nfrom dumpscope.tui.cli.main import main\nsys.argv = ['dumpscope', 'explain', "
    f"{STARTUP_MESSAGE!r}]\nmain()\n"
)


STAGES = (
    "import json, sys, time\n"
    "clock = time.process_time\n"
    "t0 = clock()\n"
    "import gc\n"
    "gc.disable()  # as explain MESSAGE runs\n"
    "from dumpscope.tui.cli.commands import explain\n"
    "import dumpscope.tui.cli.main\n"
    "from dumpscope.core.knowledge import load_kb\n"
    "from dumpscope.core.knowledge import answer\n"
    "t1 = clock()\n"
    "try:\n"
    "    kb = load_kb(mapped=True)\n"
    "except TypeError:  # a tree before the mapped load (an A/B run)\n"
    "    kb = load_kb()\n"
    "t2 = clock()\n"
    "found = kb.answer(sys.argv[1], top=5)\n"
    "t3 = clock()\n"
    "import contextlib, io\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    explain._print_answer(found, False)\n"
    "t4 = clock()\n"
    "print(json.dumps([(b - a) * 1000 for a, b in ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t0, t4))]))\n"
)
"""One explain in stages, in a fresh process: CPU ms of the imports, the load, the answer, the print, all."""

EXPLAIN_MESSAGES = (
    STARTUP_MESSAGE,
    "E19010: No parser is registered for Op [Conv_0, optype [ai.onnx::11::Conv]].",
    "E10001: Value [1,3,224] for parameter [--input_shape] is invalid. Reason: the shape is not 4-D.",
)
"""Messages timed end to end through the installed ``dumpscope`` command (issue 23: an RKNN line, an
Ascend E19010 line and an E10001 line, the two the issue measured)."""


DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "explain"


def worst_dev_messages(n: int) -> list[tuple[float, str]]:
    """The ``n`` dev messages whose first lookup in a fresh KB takes the longest (CPU ms, the least of
    three tries), with that time, longest first.  Only ``dev`` messages: held-out texts are never shown."""
    from dumpscope.core.knowledge import load_kb

    work: list[tuple[float, int, str]] = []
    for path in sorted(DATA.glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        for record in records:
            if record.get("split") == "dev":
                tries = []
                for _ in range(3):
                    kb = load_kb(user_dir=Path("/nonexistent"))
                    t0 = time.process_time()
                    kb.lookup(record["message"])
                    tries.append((time.process_time() - t0) * 1000)
                work.append((-min(tries), len(work), record["message"]))
    return [(-cost, message) for cost, _, message in sorted(work)[:n]]


def _fresh_ms(argv: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system, ms) of one fresh process running ``argv``.

    The CPU time is what the wall time would be on an idle machine (one thread): on a loaded one the
    wall time also counts the waits for a core."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=False, capture_output=True, env=_CHILD_ENV)
    wall = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def _command() -> list[str]:
    """The installed console script beside this interpreter, else the CLI's main through ``-c``."""
    script = Path(sys.executable).with_name("dumpscope")
    return [str(script)] if script.exists() else [sys.executable, "-c", CLI.split("sys.argv")[0] + "main()"]


_CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


CONSOLE_SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from dumpscope.tui.cli.main import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""
"""The console script pip writes for ``dumpscope = "dumpscope.tui.cli.main:main"`` (pip 23/24)."""

ROOT = Path(__file__).resolve().parent.parent


def regular_install(folder: Path) -> tuple[str, str]:
    """A venv in ``folder`` with this tree installed as a regular (not editable) install would lay it out:
    ``dumpscope`` in site-packages (a link to this tree, which holds the built extension modules) and pip's
    console script.  Returns its python and its ``dumpscope`` script."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "dumpscope").symlink_to(ROOT, target_is_directory=True)
    script = venv / "bin" / "dumpscope"
    script.write_text(CONSOLE_SCRIPT.format(python=python), encoding="utf-8")
    script.chmod(0o755)
    return str(python), str(script)


INSTALLS = ("editable", "regular")


def startup(runs: int = 20, worst: int = 0) -> None:
    """Print start-up figures (median of ``runs`` fresh processes, runs interleaved so that a change of
    load hits every command alike), each against the bare interpreter of the same run and install, and the
    load."""
    load_before = os.getloadavg()
    worst_messages = worst_dev_messages(worst)
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as folder:
        regular_python, regular_script = regular_install(Path(folder))
        pythons = {"editable": (sys.executable, _command()), "regular": (regular_python, [regular_script])}
        commands: dict[str, list[str]] = {}
        worst_names: dict[str, list[str]] = {install: [] for install in INSTALLS}
        for install, (python, command) in pythons.items():
            commands[f"[{install}] baseline `python -c pass`"] = [python, "-c", "pass"]
            commands[f"[{install}] knowledge import + load_kb + first lookup"] = [
                python,
                "-c",
                KNOWLEDGE_FIRST_LOOKUP,
            ]
            for message in EXPLAIN_MESSAGES:
                commands[f"[{install}] `dumpscope explain {message[:28]}...`"] = [
                    *command,
                    "explain",
                    message,
                ]
            for rank, (cost, message) in enumerate(worst_messages, 1):
                name = f"[{install}] worst dev #{rank} (first lookup {cost:.1f} ms in-process) "
                name += f"`{message[:40]!r}...`"
                commands[name] = [*command, "explain", message]
                worst_names[install].append(name)
        _CHILD_ENV["PYTHONPYCACHEPREFIX"] = cache
        for argv in commands.values():  # untimed: fills the bytecode cache
            _fresh_ms(argv)
        times = _interleaved(commands, runs)
    _report(times, runs)
    for install, names in worst_names.items():
        if names:
            medians = [statistics.median(w for w, _ in times[name]) for name in names]
            cpus = [statistics.median(c for _, c in times[name]) for name in names]
            print(
                f"[{install}] worst {len(names)} dev messages: wall median of medians "
                f"{statistics.median(medians):.0f} ms, max {max(medians):.0f} ms; "
                f"CPU median {statistics.median(cpus):.0f} ms, max {max(cpus):.0f} ms"
            )
    load_after = os.getloadavg()
    print(
        f"load average (1/5/15 min) before {load_before[0]:.1f}/{load_before[1]:.1f}/{load_before[2]:.1f}, "
        f"after {load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} on {os.cpu_count()} cores "
        "(goal: explain < 60 ms end to end, median)"
    )


def stages(runs: int = 20, worst: int = 0) -> None:
    """Print the median CPU ms of each stage of an explain (:data:`STAGES`) for the three messages and the
    ``worst`` costliest dev messages, ``runs`` fresh processes each, interleaved."""
    messages = [(message[:28], message) for message in EXPLAIN_MESSAGES]
    messages += [
        (f"worst dev #{rank}", message) for rank, (_, message) in enumerate(worst_dev_messages(worst), 1)
    ]
    times: dict[str, list[list[float]]] = {name: [] for name, _ in messages}
    with tempfile.TemporaryDirectory() as cache:
        _CHILD_ENV["PYTHONPYCACHEPREFIX"] = cache
        for _, message in messages:  # untimed: fills the bytecode cache
            subprocess.run(
                [sys.executable, "-c", STAGES, message], capture_output=True, env=_CHILD_ENV, check=True
            )
        for _ in range(runs):
            for name, message in messages:
                done = subprocess.run(
                    [sys.executable, "-c", STAGES, message], capture_output=True, env=_CHILD_ENV, check=True
                )
                times[name].append(json.loads(done.stdout))
    print(f"explain by stage, CPU ms, median of {runs} fresh processes: import / load / answer / print = all")
    for name, rows in times.items():
        medians = [statistics.median(column) for column in zip(*rows, strict=True)]
        print(f"  {name:28s} " + " / ".join(f"{m:.1f}" for m in medians[:4]) + f" = {medians[4]:.1f}")


def _interleaved(commands: dict[str, list[str]], runs: int) -> dict[str, list[tuple[float, float]]]:
    """``runs`` timings of every command, one of each in turn."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(_fresh_ms(argv))
    return times


def _report(times: dict[str, list[tuple[float, float]]], runs: int) -> None:
    """Median wall and CPU time of each command, against the bare interpreter's."""
    for name, ts in times.items():
        install = name[1 : name.index("]")]
        base = statistics.median(w for w, _ in times[f"[{install}] baseline `python -c pass`"])
        base_cpu = statistics.median(c for _, c in times[f"[{install}] baseline `python -c pass`"])
        med = statistics.median(w for w, _ in ts)
        cpu = statistics.median(c for _, c in ts)
        extra = "" if "baseline" in name else f" = +{med - base:.0f} ms over the baseline"
        extra_cpu = "" if "baseline" in name else f" (+{cpu - base_cpu:.0f} ms)"
        print(
            f"{name}: wall median {med:.0f} ms, min {min(w for w, _ in ts):.0f} ms over {runs} runs{extra}; "
            f"CPU median {cpu:.0f} ms{extra_cpu}, max {max(c for _, c in ts):.0f} ms"
        )


NOISE = (
    "[INFO] GE({pid},atc.bin):{ts} [graph_prepare.cc:{n}]{pid} Prepare graph {n} of {m} nodes done",
    "[INFO] RUNTIME({pid},python3):{ts} [stream.cc:{n}] stream_id={n} task_id={m} launched",
    "{ts} epoch {n} step {m} loss={f:.5f} lr=0.000{n} throughput={m} img/s",
    "[DEBUG] TEFUSION({pid}):{ts} compile op conv2d_{n} with tiling key {m}",
    "I{ts} onnxruntime: Session options: intra_op_num_threads={n}, graph_optimization_level={m}",
    "    at layer /model.{n}/conv/Conv output shape [1,{m},80,80] dtype float16",
)


def make_log(path: Path, megabytes: int, examples: list[str], seed: int = 5) -> int:
    """A log of mostly noise lines with about one known error line in 200."""
    rng = random.Random(seed)
    target = megabytes << 20
    written = 0
    with path.open("w", encoding="utf-8", errors="surrogateescape") as f:
        while written < target:
            lines = []
            for _ in range(2000):
                if rng.random() < 0.005:
                    lines.append(rng.choice(examples).replace("\n", " "))
                else:
                    lines.append(
                        rng.choice(NOISE).format(
                            pid=rng.randint(1000, 99999),
                            ts=f"2025-03-{rng.randint(1, 28):02d}-10:{rng.randint(0, 59):02d}:"
                            f"{rng.randint(0, 59):02d}.123.456",
                            n=rng.randint(0, 999),
                            m=rng.randint(0, 99999),
                            f=rng.random(),
                        )
                    )
            block = "\n".join(lines) + "\n"
            f.write(block)
            written += len(block.encode("utf-8", errors="surrogateescape"))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of the generated log in MB")
    parser.add_argument("--startup-only", action="store_true", help="only the start-up figures")
    parser.add_argument("--worst", type=int, default=5, help="how many of the costliest dev messages to time")
    parser.add_argument("--runs", type=int, default=20, help="fresh processes per command")
    parser.add_argument("--stages", action="store_true", help="only the CPU time of each stage of an explain")
    args = parser.parse_args()
    if args.stages:
        stages(args.runs, args.worst)
        return
    startup(args.runs, args.worst)
    if args.startup_only:
        return

    t0 = time.perf_counter()
    from dumpscope.core.knowledge import builtin_entries, load_kb, scan_log

    kb = load_kb(user_dir=Path("/nonexistent"))
    load_s = time.perf_counter() - t0
    examples = [e.example for e in builtin_entries() if e.example]

    t0 = time.perf_counter()
    kb.lookup(examples[0])
    first_ms = (time.perf_counter() - t0) * 1000
    times = []
    for text in examples:
        t0 = time.perf_counter()
        kb.lookup(text)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"import + load_kb: {load_s * 1000:.0f} ms for {len(kb)} entries")
    print(f"first lookup (compiles patterns lazily): {first_ms:.0f} ms")
    print(
        f"lookup over {len(times)} KB examples: median {statistics.median(times):.2f} ms, "
        f"p95 {sorted(times)[int(len(times) * 0.95)]:.2f} ms, max {max(times):.2f} ms (goal <= 10 ms)"
    )

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "mixed.log"
        t0 = time.perf_counter()
        size = make_log(log, args.mb, examples)
        mb = size / (1 << 20)
        print(f"generated {mb:.0f} MB log in {time.perf_counter() - t0:.1f} s")

        t0 = time.perf_counter()
        with log.open("rb") as f:
            for _line in f:
                pass
        read_s = time.perf_counter() - t0

        t0 = time.perf_counter()
        with log.open("rb") as f:
            problems = scan_log(f, kb)
        scan_s = time.perf_counter() - t0

        slice_bytes = 2 << 20
        with log.open("rb") as f:
            head = f.read(slice_bytes).decode("utf-8", errors="replace").splitlines()
        regexes = [e.regex for e in kb.entries if e.regex is not None]
        t0 = time.perf_counter()
        for line in head:
            for rx in regexes:
                rx.search(line)
        naive_s = (time.perf_counter() - t0) * (size / slice_bytes)

    from dumpscope.core.knowledge import finder

    compiled = "compiled finder" if finder.compiled is not None else "bytes.find per cue (not compiled)"
    print(f"baseline `for line in f: pass`: {mb / read_s:.0f} MB/s")
    print(f"baseline naive every-pattern-every-line (2 MB slice, extrapolated): {mb / naive_s:.2f} MB/s")
    print(
        f"scan_log: {mb / scan_s:.0f} MB/s ({scan_s:.1f} s, {len(problems)} distinct problems, "
        f"{sum(p.count for p in problems)} occurrences) = {read_s / scan_s:.2f}x the plain read, "
        f"{naive_s / scan_s:.0f}x the naive loop (goal >= 50 MB/s), {compiled}"
    )


if __name__ == "__main__":
    main()
