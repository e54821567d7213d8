"""``dumpscope fix`` side by side with a layer-range bisection and onnxconverter-common (issue 28).

    python bench/bench_fix.py                 # every case (a few minutes on 2 loaded cores)
    python bench/bench_fix.py --case squeezenet-fp16 --json out.json

Real models of the corpus (``bench/realmodels``, cached) with real fp16 or int8 trouble, each made by
running a modified model or input through onnxruntime (never by editing numbers).  For each case, in
one run and on the same golden and inputs:

* **fix**: ``dumpscope fix`` (seeded by the diagnosis, greedy, 1-minimised): set size, trials, seconds,
  whether the set is proven 1-minimal;
* **bisect**: a layer-range bisection on the product's own recipe, step for step as Polygraphy
  ``debug precision --mode bisect`` does on TensorRT (see :func:`_bisect`), forward and reverse: the
  smallest k such that keeping the first (last) k nodes in float32 meets the tolerance;
* **acmp**: onnxconverter-common's ``auto_convert_mixed_precision`` with a validation function at the
  same tolerance (its own numerics: onnxruntime's CPU provider runs many float16 ops in float32); its
  final block list is then judged on the product's faithful fp16 recipe.  A crash is reported with its
  message; it is stopped at the same trial budget.  int8 cases have no acmp column.

Each trial of every method is judged the same way (:class:`dumpscope.core.fix.search.FixSearch`): every
model output within the relative-distance tolerance of the ORIGINAL golden.  Seconds are wall-clock on
this machine, for information only (the search itself never reads the clock).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.realmodels import faults  # noqa: E402
from bench.realmodels.models import MODELS, model_path  # noqa: E402


@dataclass(frozen=True)
class FixCase:
    name: str
    model: str
    target: str
    what: str
    make_model: Callable[[Path, Path], Path] | None = None
    scale_input: tuple[str, float] | None = None
    hot_pixel: float | None = None
    """The first element of the first input set to this value (one saturated sensor pixel): int8 calibration
    on that input stretches the first layer's range and destroys its resolution."""


CASES = (
    FixCase(
        "squeezenet-fp16",
        "light-squeezenet",
        "fp16",
        "SqueezeNet (onnx light model): intermediates reach 9e9, beyond fp16's 65504",
    ),
    FixCase(
        "vad-x10-fp16",
        "silero-vad",
        "fp16",
        "Silero VAD fed audio x10 (unnormalised): the STFT power exceeds 65504",
        scale_input=("input", 10.0),
    ),
    FixCase(
        "vad-x100-fp16",
        "silero-vad",
        "fp16",
        "Silero VAD fed audio x100 (unnormalised): the STFT power and the first conv exceed 65504",
        scale_input=("input", 100.0),
    ),
    FixCase(
        "det-bn-fp16",
        "ppocr-det",
        "fp16",
        "PP-OCRv4 det: a BatchNorm running variance (9.8e7) clamped to 65504 by fp16 storage; the input "
        "itself rounded to fp16 moves the final Sigmoid 0.044 even with every node in fp32",
    ),
    FixCase(
        "cls-int8-hot-pixel",
        "ppocr-cls",
        "int8",
        "PP-OCR cls int8 (QDQ, MinMax calibrated on its input) with one input pixel at 1000",
        hot_pixel=1000.0,
    ),
    FixCase(
        "rec-int8-hot-pixel",
        "ppocr-rec",
        "int8",
        "PP-OCRv4 rec int8 (QDQ, MinMax calibrated on its input) with one input pixel at 1000",
        hot_pixel=1000.0,
    ),
    FixCase(
        "yolo-int8-hot-pixel",
        "yolov8n",
        "int8",
        "YOLOv8n int8 (QDQ, MinMax calibrated on its input) with one input pixel at 1000",
        hot_pixel=1000.0,
    ),
    FixCase(
        "vad5-decoder-int8-hot",
        "silero-vad5-decoder",
        "int8",
        "Silero VAD v5 decoder (an LSTM cell written out) int8 (QDQ, MinMax calibrated on its input) with "
        "one input feature at 1000",
        hot_pixel=1000.0,
    ),
    FixCase(
        "yolo-x255-fp16",
        "yolov8n",
        "fp16",
        "YOLOv8n fed 0-255 pixels where it expects 0-1 (a missing /255): its second conv exceeds 65504",
        scale_input=("images", 255.0),
    ),
    FixCase(
        "vad-int8-click",
        "silero-vad",
        "int8",
        "Silero VAD int8 (QDQ, MinMax calibrated on its input) with one audio sample at 1000 (a click)",
        hot_pixel=1000.0,
    ),
    FixCase(
        "rec-attn-fp16",
        "ppocr-rec",
        "fp16",
        "PP-OCRv4 rec whose first attention scale is x3e4: q.k^T exceeds 65504",
        make_model=lambda s, d: faults.scale_constant(s, d, "p2o.helper.constant.169", 3e4),
    ),
)


def _inputs(case: FixCase, model: Path, work: Path) -> list[str]:
    """The case's inputs as NAME=FILE.npy: generated (seed 0) at the corpus shapes, one maybe scaled."""
    from dumpscope.core.onnx.graph import graph_facts
    from dumpscope.core.onnx.inputs import parse_input_shapes, resolve_inputs

    proto = onnx.load(str(model), load_external_data=False)
    shapes = parse_input_shapes(MODELS[case.model].shapes or None)
    feeds = resolve_inputs(proto.graph, graph_facts(proto.graph), {}, shapes, 0)
    out = []
    for i, f in enumerate(feeds):
        arr = f.array
        if case.scale_input and f.name == case.scale_input[0]:
            arr = arr * np.float32(case.scale_input[1])
        if case.hot_pixel is not None and i == 0:
            arr = arr.copy()
            arr.reshape(-1)[0] = case.hot_pixel
        path = work / f"input{i}.npy"
        np.save(path, arr, allow_pickle=False)
        out.append(f"{f.name}={path}")
    return out


def _fix(model: Path, case: FixCase, inputs: list[str], budget: int) -> dict[str, object]:
    from dumpscope.core.fix import find_fix

    t0 = time.perf_counter()
    r = find_fix(model, case.target, inputs=inputs, budget=budget)
    baseline = sum(t.step == "baseline" for t in r.trials)
    return {
        "set": len(r.changes),
        "trials": len(r.trials),
        # runs of a modified model (the bisection's count); the unmodified target is run once more by
        # the diagnosis (its target dump) and once as trial 1 (the proof's "before")
        "modified_trials": len(r.trials) - baseline,
        "unmodified_runs": baseline + 1,
        "seconds": time.perf_counter() - t0,
        "found": r.found,
        "minimal": r.minimal,
        "changes": [c.text(case.target) for c in r.changes],
        "before": r.before.worst_output[1] if r.before and r.before.worst_output else None,
        "after": r.after.worst_output[1] if r.after and r.after.worst_output else None,
        # where the trials go: each one's step, the size of its set and whether it met the tolerance
        "log": [f"{t.step} {len(t.changes)} {'pass' if t.passed else 'fail'}" for t in r.trials],
        "notes": list(r.notes),
    }


def _bisect(model: Path, case: FixCase, inputs: list[str], budget: int) -> dict[str, object]:
    """Polygraphy ``debug precision --mode bisect`` (its ``BisectMarker``, tools/debug/subtool/precision.py),
    in both directions, on the product's own recipe: the first (forward) or last (reverse) k layers in
    float32, k starting at every layer, then halved towards the last failing count (floor after a success,
    ceil after a failure) until the passing and failing counts are 1 apart.  Like Polygraphy it makes no
    trial of the unmodified model (the user runs it because that fails) and marks no Constant.  The
    direction that keeps fewer nodes is reported, with the trials of both."""
    from dumpscope.core.fix import DEFAULT_TOLERANCE, Tolerance, open_evaluator
    from dumpscope.core.fix.search import Change, FixSearch, _OutOfBudget

    t0 = time.perf_counter()
    runs: dict[str, dict[str, object]] = {}
    with open_evaluator(model, case.target, inputs=inputs) as ev:
        layers = [n.name for n in ev.facts.nodes if n.op_type != "Constant"]
        for direction in ("forward", "reverse"):
            search = FixSearch(ev, Tolerance(DEFAULT_TOLERANCE[case.target]), budget)

            def passes(k: int, direction: str = direction, search: FixSearch = search) -> bool:
                chosen = layers[:k] if direction == "forward" else layers[len(layers) - k :]
                return search.trial([Change("keep", n) for n in chosen], "bisect").passed

            good, bad, k = len(layers) + 1, 0, len(layers)
            try:
                while True:
                    ok = passes(k)
                    if ok:
                        good = k
                    else:
                        bad = k
                    old, k = k, int((math.floor if ok else math.ceil)((good + bad) / 2.0))
                    if old == k or abs(good - bad) <= 1 or k > len(layers):
                        break
            except _OutOfBudget:
                pass
            found = good <= len(layers)
            runs[direction] = {"set": good if found else None, "trials": len(search.trials), "found": found}
    best = min(runs.values(), key=lambda r: (not r["found"], r["set"] or 0, r["trials"]))
    direction = next(d for d, r in runs.items() if r is best)
    return {
        **best,
        "of": len(layers),
        "direction": direction,
        "trials_both": {d: r["trials"] for d, r in runs.items()},
        "seconds": time.perf_counter() - t0,
    }


class _Budget(Exception):
    pass


def _acmp(model: Path, case: FixCase, inputs: list[str], budget: int, *, faithful: bool) -> dict[str, object]:
    """onnxconverter-common's auto_convert_mixed_precision at the same tolerance.

    ``faithful=False``: its own validation (onnxruntime's CPU provider on its fp16 model, which runs many
    float16 ops in float32 and so hides overflows); its final block list is then judged on the product's
    faithful fp16 recipe.  ``faithful=True``: its search, each attempt's block list judged on the product's
    faithful fp16 recipe instead (its validation function ignores its own fp16 results): the same numerics
    as ours, so the set sizes compare.  Trials: its fp16 conversions, each run once (the final
    re-validation included); its float32 reference runs are not counted."""
    try:
        from onnxconverter_common import auto_mixed_precision as amp
    except ImportError:
        return {"crashed": "onnxconverter-common is not installed (pip install dumpscope[fix])"}
    from dumpscope.core.fix import DEFAULT_TOLERANCE, Tolerance, open_evaluator
    from dumpscope.core.fix.search import Change, FixSearch
    from dumpscope.core.fix.trial import relative_distance
    from dumpscope.core.onnx.graph import graph_facts
    from dumpscope.core.onnx.patch import patch_model

    tol = DEFAULT_TOLERANCE[case.target]
    proto = onnx.load(str(model))
    # every node named as the product names it (an unnamed node cannot be put in a block list)
    named = patch_model(proto, keep_fp32=[n.name for n in graph_facts(proto.graph).nodes]).model
    del named.metadata_props[:]
    # An initializer also declared as a graph input (IR < 4 models): with keep_io_types=True the converter
    # keeps the input's declaration float32 and turns the initializer into float16, and onnxruntime refuses
    # the model ("Tensor element type mismatch. 10 != 1").  Dropping those declarations changes no value.
    weights = {t.name for t in named.graph.initializer}
    dropped = [i for i in named.graph.input if i.name in weights]
    for i in dropped:
        named.graph.input.remove(i)
    feeds = {s.split("=", 1)[0]: np.load(s.split("=", 1)[1], allow_pickle=False) for s in inputs}
    calls: list[list[str]] = []
    convert = amp.float16.convert_float_to_float16

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        if len(calls) >= budget:
            raise _Budget(f"stopped at the trial budget ({budget}) without a result")
        calls.append([n for n in kwargs.get("node_block_list") or [] if n])
        return convert(*args, **kwargs)

    with open_evaluator(model, case.target, inputs=inputs) as ev:
        judge = FixSearch(ev, Tolerance(tol), budget + 1)

        def on_faithful(block: list[str]) -> bool:
            return judge.trial([Change("keep", n) for n in block], "acmp").passed

        def validate(res0, res1) -> bool:  # type: ignore[no-untyped-def]
            if faithful:  # (before any conversion: its check that the float32 model meets itself)
                return on_faithful(calls[-1]) if calls else True
            return all(
                relative_distance(np.asarray(a), np.asarray(b)) <= tol
                for a, b in zip(res0, res1, strict=False)
            )

        t0 = time.perf_counter()
        amp.float16.convert_float_to_float16 = counting
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # float16.py warns for every truncated weight
                amp.auto_convert_mixed_precision(named, feeds, validate, keep_io_types=True)
        except _Budget as exc:
            return {"crashed": str(exc), "trials": len(calls), "seconds": time.perf_counter() - t0}
        except Exception as exc:  # noqa: BLE001 - report whatever the converter raises
            why = re.sub(r"^(\[ONNXRuntimeError\] : \d+ : \w+ : )?(\S+:\d+ .*?\) )?", "", str(exc).strip())
            return {
                "crashed": f"{type(exc).__name__}: {why.splitlines()[0][:200]}",
                "trials": len(calls),
                "seconds": time.perf_counter() - t0,
            }
        finally:
            amp.float16.convert_float_to_float16 = convert
        seconds = time.perf_counter() - t0
        block = calls[-1] if calls else []
        meets = on_faithful(block)
    return {
        "set": len(block),
        "trials": len(calls),
        "seconds": seconds,
        "meets_on_faithful_fp16": meets,
        "initializer_inputs_dropped": len(dropped),
    }


def run_case(case: FixCase, budget: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="dumpscope-bench-fix-") as tmp:
        work = Path(tmp)
        model = model_path(case.model)
        if case.make_model is not None:
            model = case.make_model(model, work / "model.onnx")
        inputs = _inputs(case, model, work)
        row: dict[str, object] = {"case": case.name, "target": case.target, "what": case.what}
        row["load_before"] = os.getloadavg()[0]
        row["fix"] = _fix(model, case, inputs, budget)
        row["bisect"] = _bisect(model, case, inputs, budget)
        fp16 = case.target == "fp16"
        row["acmp"] = _acmp(model, case, inputs, budget, faithful=False) if fp16 else None
        row["acmp_faithful"] = _acmp(model, case, inputs, budget, faithful=True) if fp16 else None
        row["load_after"] = os.getloadavg()[0]
    row["verdict"] = verdict(row)
    return row


def verdict(row: dict[str, object]) -> dict[str, object]:
    """The issue's done-when for one case, each part a comparison of measured figures:
    ``found`` and ``minimal`` (ours meets the tolerance, proven 1-minimal); ``fewer_trials`` (our runs of
    a modified model against the bisection's: neither counts the unmodified target's run); ``set_vs_acmp``
    (ours no larger than auto_convert_mixed_precision's set where both meet the tolerance on faithful fp16:
    its own-numerics set when that meets it, else its faithful-judged search's; None when neither
    finished, or int8)."""
    fix, bis = row["fix"], row["bisect"]
    assert isinstance(fix, dict) and isinstance(bis, dict)
    fewer = bool(fix["found"]) and (not bis.get("found") or fix["modified_trials"] < bis["trials"])
    # (a bisection that finds no fix counts as more trials: it spent them and has nothing)
    sets = [
        a["set"]
        for a in (row.get("acmp"), row.get("acmp_faithful"))
        if isinstance(a, dict) and "crashed" not in a and a.get("meets_on_faithful_fp16")
    ]
    no_larger = None if not sets or not fix["found"] else fix["set"] <= min(sets)
    return {
        "found": fix["found"],
        "minimal": fix["minimal"],
        "fewer_trials": fewer,
        "set_vs_acmp": no_larger,
        "met": bool(fix["found"] and fix["minimal"] and fewer and no_larger is not False),
    }


def _cell(d: dict[str, object] | None, *, of: bool = False) -> str:
    if d is None:
        return "n/a (int8)"
    if "crashed" in d:
        return f"no result after {d.get('trials', 0)} trials: {d['crashed']}"
    if not d.get("found", True):
        return f"no fix in {d['trials']} trials"
    size = f"{d['set']}" + (f"/{d['of']}" if of and "of" in d else "")
    trials = f"{d['trials']} trials"
    extra = ""
    if "minimal" in d:
        trials = f"{d['modified_trials']} trials (+{d['unmodified_runs']} unmodified)"
        extra = ", 1-minimal" if d["minimal"] else ", not proven minimal"
    if "direction" in d:
        extra = f" ({d['direction']}; trials forward {d['trials_both']['forward']}, " + (
            f"reverse {d['trials_both']['reverse']})"
        )
    if "meets_on_faithful_fp16" in d:
        extra = ", meets on faithful fp16" if d["meets_on_faithful_fp16"] else ", FAILS on faithful fp16"
    return f"{size} kept, {trials}, {d['seconds']:.1f}s{extra}"


def _verdict_cell(v: dict[str, object]) -> str:
    parts = [
        "fewer trials" if v["fewer_trials"] else "NOT fewer trials",
        {True: "set <= acmp", False: "set > acmp", None: "no acmp set to compare"}[v["set_vs_acmp"]],  # type: ignore[index]
    ]
    return ("MET: " if v["met"] else "not met: ") + ", ".join(parts)


def _finite(v: object) -> object:
    """``v`` with non-finite floats as strings (JSON has no inf)."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_finite(x) for x in v]
    return v


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--case", action="append", choices=[c.name for c in CASES])
    p.add_argument("--budget", type=int, default=80)
    p.add_argument("--json", metavar="FILE")
    p.add_argument("--log", action="store_true", help="print our search's trials (step, set size, verdict)")
    args = p.parse_args(argv)
    rows = []
    for case in CASES:
        if args.case and case.name not in args.case:
            continue
        print(f"... {case.name}: {case.what}", file=sys.stderr, flush=True)
        rows.append(run_case(case, args.budget))
        r = rows[-1]
        print(
            f"{case.name:16} fix: {_cell(r['fix'])} | bisect: {_cell(r['bisect'], of=True)} | "
            f"acmp: {_cell(r['acmp'])} | acmp judged faithfully: {_cell(r['acmp_faithful'])} | "
            f"{_verdict_cell(r['verdict'])} | load {r['load_before']:.1f}-{r['load_after']:.1f}",
            flush=True,
        )
        if args.log:
            print("    trials: " + ", ".join(r["fix"]["log"]), flush=True)
            for note in r["fix"]["notes"]:
                print(f"    note: {note}", flush=True)
        if args.json:  # after every case: a long run cut short keeps what it measured
            Path(args.json).write_text(json.dumps(_finite(rows), indent=1))
    print(
        f"\nbudget {args.budget} trials; {os.cpu_count()} cores; trials: runs of a modified model (ours: "
        "+ unmodified runs, the diagnosis' target dump and the proof's baseline)"
    )
    print(
        "| case | target | fix (ours) | layer-range bisection | acmp, own numerics | "
        "acmp's search judged on faithful fp16 | done-when | load |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['case']} | {r['target']} | {_cell(r['fix'])} | {_cell(r['bisect'], of=True)} | "
            f"{_cell(r['acmp'])} | {_cell(r['acmp_faithful'])} | {_verdict_cell(r['verdict'])} | "
            f"{r['load_before']:.1f}-{r['load_after']:.1f} |"
        )
    met = [r["case"] for r in rows if r["verdict"]["met"]]
    print(f"\ndone-when met on {len(met)} of {len(rows)} cases: {', '.join(met) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
