"""``dumpscope fix MODEL.onnx --target fp16|bf16|int8``: the smallest verified fix, for each toolchain."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError

if TYPE_CHECKING:
    from dumpscope.core.fix import FixResult

HELP = "find the smallest set of changes (keep nodes/inputs in fp32, clip, int8 options) within tolerance"
DESCRIPTION = (
    "Search, trial by trial, for the smallest set of changes to MODEL that brings its fp16, bf16 or int8 "
    "target within tolerance of the ORIGINAL golden (the model as it is, float32) at the outputs and at "
    "every layer marked with --layer: seeded by the diagnosis' advice, grown greedily, then minimised "
    "until removing any one change breaks it (each proven by a trial).  Changes: a node kept in float32 "
    "(left out of int8), a Clip after a node, a graph input kept in float32 or clipped, an int8 node's "
    "weight per channel, an int8 tensor's calibration range (each proposed where a computed fact points "
    "at it, the fact printed).  fp16 trials round every "
    "intermediate to float16 as fp16 hardware stores it (bf16: to bfloat16); int8 trials quantise (QDQ) "
    "with the kept nodes left in float.  Bounded by --budget trials, never by the clock; progress on "
    "stderr.  --emit DIR writes the fix for each toolchain: the patched ONNX, onnxconverter-common "
    "node_block_list, ATC --keep_dtype and --modify_mixlist (and the atc command), SigmaStar "
    "input_config.ini, RKNN hybrid quantisation, NNCF ignored_scope, onnxruntime quantize_static options, "
    "Polygraphy/trtexec layer precisions; what a toolchain cannot express is said in a comment."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from dumpscope.core.fix import DEFAULT_BUDGET, FIX_TARGETS

    p.add_argument("model", metavar="MODEL.onnx", help="the ONNX model (not modified)")
    p.add_argument("--target", required=True, choices=FIX_TARGETS, help="the target to fix")
    p.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="input data (default: generated from --seed)",
    )
    p.add_argument("--input-shape", metavar="SHAPES", help='shapes of generated inputs, e.g. "x:1,3,224,224"')
    p.add_argument("--seed", type=int, default=0, help="seed of generated inputs (default 0)")
    p.add_argument(
        "--tolerance",
        nargs="+",
        action="extend",
        default=[],
        metavar="WHERE=REL",
        help="relative distance allowed: output=REL (default: what compare calls OK: fp16 0.01, "
        "bf16 0.03, int8 0.1), layer=REL for the --layer tensors",
    )
    p.add_argument(
        "--layer",
        action="append",
        default=[],
        metavar="TENSOR",
        help="a layer (tensor name) that must also be within layer=REL ('*': every layer)",
    )
    p.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        metavar="N",
        help=f"at most N trials (default {DEFAULT_BUDGET})",
    )
    p.add_argument("--no-diagnosis", action="store_true", help="do not seed the search with the diagnosis")
    p.add_argument("--emit", metavar="DIR", help="write the fix in each toolchain's terms into DIR")
    p.add_argument(
        "--rknn-cfg",
        metavar="FILE",
        help="the *.quantization.cfg rknn.hybrid_quantization_step1 wrote for MODEL: --emit names the "
        "layers it lists (RKNN fuses and folds nodes; step 2 refuses other names)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")


@dataclass(frozen=True)
class Options:
    model: str
    target: str
    input: list[str]
    input_shape: str | None
    seed: int
    tolerance: list[str]
    """``output=REL`` / ``layer=REL`` as given (parsed by :func:`_tolerance`)."""
    layer: list[str]
    budget: int
    no_diagnosis: bool
    emit: str | None
    json: bool
    rknn_cfg: str | None = None


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


def _tolerance(cmd: Options):  # type: ignore[no-untyped-def]
    from dumpscope.core.fix import DEFAULT_TOLERANCE, Tolerance

    given: dict[str, float] = {}
    for item in cmd.tolerance:
        key, sep, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not sep or key not in ("output", "layer") or not number >= 0:
            raise UsageError(f"--tolerance {item!r}: expected output=REL or layer=REL (a number >= 0)")
        given[key] = number
    if cmd.layer and "layer" not in given:
        given["layer"] = given.get("output", DEFAULT_TOLERANCE[cmd.target])
    output = given.get("output", DEFAULT_TOLERANCE[cmd.target])
    return Tolerance(output, given.get("layer"), tuple(cmd.layer))


def run(cmd: Options) -> int:
    import json
    import sys
    import time
    from pathlib import Path

    from dumpscope.core.fix import find_fix

    if cmd.budget < 1:
        raise UsageError("--budget must be at least 1")
    if cmd.emit and Path(cmd.emit).exists() and not Path(cmd.emit).is_dir():
        raise UsageError(f"--emit {cmd.emit}: is a file; give a folder")
    tol = _tolerance(cmd)
    rknn_tensors = _rknn_tensors(cmd)

    def progress(i: int, budget: int, what: str) -> None:
        print(f"fix: trial {i}/{budget} {what}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    result = find_fix(
        cmd.model,
        cmd.target,
        inputs=cmd.input,
        input_shapes=cmd.input_shape,
        seed=cmd.seed,
        tolerance=tol,
        budget=cmd.budget,
        progress=progress,
        use_diagnosis=not cmd.no_diagnosis,
    )
    # The time goes to stderr with the progress: stdout (text or JSON) stays the same from run to run.
    print(f"fix: {len(result.trials)} trial(s) in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    written = _emit(cmd, result, rknn_tensors) if cmd.emit and result.found else []
    if cmd.emit and not result.found:
        print(f"fix: nothing written to {cmd.emit}: no fix was found", file=sys.stderr)
    if cmd.json:
        data = result.to_json() | {"emitted": [str(p) for p in written]}
        print(json.dumps(data, indent=1, allow_nan=False))
    else:
        from dumpscope.core.fix.report import report_lines

        print("\n".join(report_lines(result)))
        for p in written:
            print(f"wrote {p}")
    return EXIT_OK if result.found else EXIT_UNHEALTHY


def _rknn_tensors(cmd: Options) -> dict[str, str] | None:
    """The tensors of ``--rknn-cfg`` (read before the search: a bad file is said at once)."""
    if cmd.rknn_cfg is None:
        return None
    from pathlib import Path

    from dumpscope.core.fix.emit import rknn_step1_tensors

    if not cmd.emit:
        raise UsageError("--rknn-cfg is read for --emit: give --emit DIR too")
    try:
        return rknn_step1_tensors(Path(cmd.rknn_cfg))
    except ValueError as exc:
        raise UsageError(f"--rknn-cfg {exc}") from exc


def _emit(cmd: Options, result: FixResult, rknn_tensors: dict[str, str] | None = None) -> list:  # type: ignore[type-arg]
    from pathlib import Path

    from dumpscope.core.fix.emit import emit
    from dumpscope.core.onnx.patch import _read_model

    return emit(_read_model(Path(cmd.model)), result.changes, Path(cmd.emit), result.target, rknn_tensors)
