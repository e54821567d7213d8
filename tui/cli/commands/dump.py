"""``dumpscope dump MODEL.onnx -o DIR``: golden or hardware-free target dumps with onnxruntime."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from dumpscope.tui.cli.errors import EXIT_OK
from dumpscope.tui.cli.safe import plain

HELP = "run an ONNX model with onnxruntime and dump every tensor (golden, or an fp16/int8/optimized target)"
DESCRIPTION = (
    "Run MODEL on the CPU with onnxruntime (graph optimisation off) and write every node output, "
    "graph input and constant as .npy files plus DIR/manifest.json (true tensor names, producing "
    "node, topological index).  Inputs not given with --input are generated from --seed and saved "
    "in DIR/inputs/, so a target dump made with the same options sees the very same data.  "
    "--target makes a hardware-free target to compare with the golden: fp16 (float16 storage "
    "emulation, overflow to inf as on fp16 hardware), int8 (static QDQ quantisation calibrated on "
    "the inputs) or optimized (onnxruntime's fused graph, with the original nodes of each fused node)."
)


def _seed(text: str) -> int:
    """A non-negative integer seed (numpy refuses negative seeds)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0 (got {value})")
    return value


def _megabytes(text: str) -> float:
    """A positive, finite number of MB (``nan`` and ``inf`` are refused)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of MB (got {text!r})")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", metavar="MODEL.onnx", help="the ONNX model")
    parser.add_argument(
        "-o", "--out", required=True, metavar="DIR", help="output directory (new, empty, or a previous dump)"
    )
    parser.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="data for a graph input (repeat for several inputs; a bare FILE.npy for a one-input model)",
    )
    parser.add_argument(
        "-is",
        "--input-shape",
        metavar='"x:1,3,224,224;y:1,16"',
        help="shapes of inputs with dynamic dims (msit / ATC syntax)",
    )
    parser.add_argument("--seed", type=_seed, default=0, help="seed for generated inputs (default 0)")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list every constant the fp16 recipe clamped or flushed (default: one summary line)",
    )
    parser.add_argument(
        "--target",
        choices=(
            "fp16",
            "int8",
            "optimized",
            "rknn-int8",
            "rknn-fp16",
            "openvino-int8",
            "openvino-fp16",
            "ncnn",
        ),
        help="make a hardware-free target dump; rknn-int8/rknn-fp16 (RKNN-Toolkit2's rk3588 "
        "simulator), openvino-int8 (OpenVINO + NNCF), openvino-fp16 (refused on a CPU without FP16, "
        "where OpenVINO would silently run f32) and ncnn (pnnx + ncnn, blobs paired by the "
        "graph's structure) drive the vendor's own toolkit, an optional extra (pip install "
        "'dumpscope[rknn]' / 'dumpscope[openvino]' / 'dumpscope[ncnn]')",
    )
    parser.add_argument(
        "--max-memory",
        type=_megabytes,
        default=128,  # = core.onnx.runner.DEFAULT_MAX_MEMORY_MB (not imported: the CLI starts without onnx)
        metavar="MB",
        help="fetch tensors in groups of at most this many MB per onnxruntime run (default 128)",
    )


#: fp16 clamp-record action -> what it did to the values (the summary line's words).
_CLAMP_MEANING = {"clamp": "clamped to +-65504", "flush": "flushed to 0 (below the fp16 subnormal range)"}


def clamp_lines(clamped: list[dict[str, object]], verbose: bool) -> list[str]:
    """What the fp16 recipe did to constants: one summary line per action, or every record with
    ``verbose``."""
    from dumpscope.core.names import display

    if verbose:
        return [
            f"dumpscope: fp16: {rec['action']} {rec['count']} value(s) of constant {display(rec['name'])!r} "
            f"(largest |x| {rec['max_abs']:.6g})"
            for rec in clamped
        ]
    by_action = {action: [r for r in clamped if r["action"] == action] for action in _CLAMP_MEANING}
    return [_clamp_summary(recs, _CLAMP_MEANING[action]) for action, recs in by_action.items() if recs]


def _clamp_summary(recs: list[dict[str, object]], meaning: str) -> str:
    """One action's summary line: how many values in how many constants, and what was done to them."""
    values = sum(int(r["count"]) for r in recs)  # type: ignore[call-overload]
    return f"dumpscope: fp16: {values} value(s) in {len(recs)} constant(s) {meaning}; --verbose lists them"


@dataclass(frozen=True)
class Options:
    model: str
    out: str
    input: list[str]
    """``NAME=FILE.npy`` per given input."""
    input_shape: str | None
    seed: int
    verbose: bool
    target: str | None
    """None: the golden dump."""
    max_memory: float
    """MB."""


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


def run(cmd: Options) -> int:
    """Dump the model (progress on a terminal), then print its notes, clamps and a summary line."""
    import sys

    from dumpscope.core.onnx.vendor_targets import VENDOR_TARGETS

    if cmd.target in VENDOR_TARGETS:
        return _vendor(cmd)
    from dumpscope.core.onnx.runner import dump_model

    manifest = dump_model(
        cmd.model,
        cmd.out,
        inputs=cmd.input,
        input_shapes=cmd.input_shape,
        seed=cmd.seed,
        target=cmd.target,
        max_memory_mb=cmd.max_memory,
        progress=_progress if sys.stderr.isatty() else None,
    )
    for note in manifest["notes"]:
        print(f"dumpscope: note: {plain(note)}", file=sys.stderr)
    for line in clamp_lines(manifest["clamped"], cmd.verbose):
        print(line, file=sys.stderr)
    print(_summary(manifest, cmd))
    return EXIT_OK


def _vendor(cmd: Options) -> int:
    """A target made by the vendor's own toolkit (its notes on stderr, one summary line)."""
    import sys

    from dumpscope.core.onnx.vendor_targets import dump_vendor

    record = dump_vendor(
        cmd.model,
        cmd.out,
        target=cmd.target,
        inputs=cmd.input,
        input_shapes=cmd.input_shape,
        seed=cmd.seed,
    )
    for note in record.get("notes", []):
        print(f"dumpscope: note: {plain(str(note))}", file=sys.stderr)
    how = f"compare it with `dumpscope GOLDEN_DUMP {cmd.out}`"
    if cmd.target.startswith("rknn-"):
        how += f", or with the toolkit's own golden: `dumpscope {cmd.out}`"
    print(f"{cmd.target} dump of {cmd.model} by {record.get('toolkit')} -> {cmd.out}; {how}")
    return EXIT_OK


def _progress(done: int, total: int) -> None:
    """One self-overwriting stderr line per onnxruntime run (a terminal only)."""
    import sys

    end = "\n" if done == total else ""
    print(f"\rdumpscope: onnxruntime run {done}/{total}", end=end, file=sys.stderr, flush=True)


def _summary(manifest: dict[str, Any], cmd: Options) -> str:
    """``fp16 dump of M: N activations, N inputs (N generated, seed S), N constants in N run(s) -> DIR``."""
    kinds = [t["kind"] for t in manifest["tensors"]]
    what = manifest["target"] or "golden"
    generated = sum(1 for i in manifest["inputs"] if i["generated"])
    return (
        f"{what} dump of {cmd.model}: {kinds.count('activation')} activations, {kinds.count('input')} "
        "inputs "
        f"({generated} generated, seed {manifest['seed']}), {kinds.count('constant')} constants "
        f"in {manifest['ort_runs']} onnxruntime run(s) -> {cmd.out}"
    )
