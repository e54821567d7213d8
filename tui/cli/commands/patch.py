"""``dumpscope patch MODEL.onnx -o OUT.onnx``: apply the fixes diagnose advises."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dumpscope.tui.cli.dispatch import read_options
from dumpscope.tui.cli.errors import EXIT_OK, UsageError

if TYPE_CHECKING:
    from dumpscope.core.onnx.patch import PatchResult

HELP = "write a patched model: Clip after a node or on an input, keep nodes or inputs in fp32, int8 options"
DESCRIPTION = (
    "Write a copy of MODEL with fixes applied: --clip NODE=LO,HI inserts a Clip after NODE (its output "
    "keeps its name, so dumps still pair; -inf/inf or an empty side leaves a bound open; opset aware), "
    "--keep-fp32 NODE marks NODE to stay in float32 (model metadata 'dumpscope.keep_fp32', read by the fp16 "
    "target recipe; list the same nodes in ATC --keep_dtype or onnxconverter-common's node_block_list).  "
    "--clip INPUT=LO,HI clips a graph input (a Clip first in the graph, read by its consumers); "
    "--keep-fp32-input INPUT leaves a graph input unrounded in the fp16/bf16 target; --int8-per-channel NODE "
    "quantises NODE's weight per channel and --int8-range TENSOR=LO,HI sets TENSOR's calibration range in "
    "the int8 target (metadata 'dumpscope.int8', onnxruntime's TensorQuantOverrides).  "
    "NODE is a node name or one of its output tensor names.  Verify with `dumpscope dump --target` on the "
    "patched model and `dumpscope compare` against the ORIGINAL golden dump (of the unpatched model)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", metavar="MODEL.onnx", help="the ONNX model to patch (not modified)")
    p.add_argument(
        "-o", "--output", required=True, metavar="OUT.onnx", help="where to write the patched model"
    )
    p.add_argument(
        "--keep-fp32",
        nargs="+",
        action="extend",
        default=[],
        metavar="NODE",
        help="keep these nodes in float32 when an fp16 target is made",
    )
    p.add_argument(
        "--clip",
        nargs="+",
        action="extend",
        default=[],
        metavar="NODE=LO,HI",
        help="insert Clip(LO, HI) after NODE, or on a graph input (e.g. attn/scale=-inf,11)",
    )
    p.add_argument(
        "--keep-fp32-input",
        nargs="+",
        action="extend",
        default=[],
        metavar="INPUT",
        help="keep these graph inputs in float32 when an fp16/bf16 target is made",
    )
    p.add_argument(
        "--int8-per-channel",
        nargs="+",
        action="extend",
        default=[],
        metavar="NODE",
        help="quantise these nodes' weights per channel when an int8 target is made",
    )
    p.add_argument(
        "--int8-range",
        nargs="+",
        action="extend",
        default=[],
        metavar="TENSOR=LO,HI",
        help="calibrate TENSOR to [LO, HI] when an int8 target is made",
    )


@dataclass(frozen=True)
class Options:
    model: str
    output: str
    keep_fp32: list[str]
    """Nodes kept in float32."""
    clip: list[str]
    """``NODE=LO,HI`` as given (parsed by :func:`_checked_clips`)."""
    keep_fp32_input: list[str]
    int8_per_channel: list[str]
    int8_range: list[str]
    """``TENSOR=LO,HI`` as given (finite bounds)."""


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


class _PatchParser(argparse.ArgumentParser):
    """A bad patch command line is a :class:`UsageError`, as everywhere else."""

    def error(self, message: str):  # type: ignore[no-untyped-def]
        raise UsageError(f"{self.prog}: {message}")


def parse(argv: Sequence[str]) -> Options:
    """The options of ``dumpscope patch ARGV`` (for callers holding a patch command line)."""
    parser = _PatchParser(prog="dumpscope patch", add_help=False)
    add_arguments(parser)
    return read_options(Options, parser.parse_args(list(argv)))


def run(cmd: Options) -> int:
    """Check the command line, write the patched model, then say what changed and how to verify it."""
    from dumpscope.core.onnx.patch import patch_file

    clips = _checked_clips(cmd)
    ranges = _parsed(cmd.int8_range, "--int8-range", finite=True)
    result = patch_file(
        cmd.model,
        cmd.output,
        keep_fp32=cmd.keep_fp32,
        clip=clips,
        keep_inputs=cmd.keep_fp32_input,
        per_channel=cmd.int8_per_channel,
        ranges=ranges,
    )
    _print_result(result, cmd.output)
    return EXIT_OK


def _checked_clips(cmd: Options) -> list[tuple[str, float, float]]:
    """The parsed ``--clip`` values, once there is something to do and ``-o`` is no folder (usage errors)."""
    import os

    if not (cmd.keep_fp32 or cmd.clip or cmd.keep_fp32_input or cmd.int8_per_channel or cmd.int8_range):
        raise UsageError(
            "nothing to do: give --clip NODE=LO,HI, --keep-fp32 NODE, --keep-fp32-input INPUT, "
            "--int8-per-channel NODE or --int8-range TENSOR=LO,HI"
        )
    if os.path.isdir(cmd.output):
        raise UsageError(f"-o {cmd.output}: is a folder; give the file to write (e.g. -o patched.onnx)")
    return _parsed(cmd.clip, "--clip")


def _parsed(values: list[str], option: str, finite: bool = False) -> list[tuple[str, float, float]]:
    """``NAME=LO,HI`` values (:func:`~dumpscope.core.onnx.patch.parse_clip`); a usage error names the bad
    one (``finite``: both bounds must be numbers)."""
    import math

    from dumpscope.core.onnx.patch import parse_clip

    out = []
    for v in values:
        try:
            name, lo, hi = parse_clip(v)
        except ValueError as exc:
            raise UsageError(str(exc).replace("--clip", option, 1)) from None
        if finite and not (math.isfinite(lo) and math.isfinite(hi)):
            raise UsageError(f"{option} {v!r}: both bounds must be finite numbers")
        out.append((name, lo, hi))
    return out


def _print_result(result: PatchResult, output: str) -> None:
    """Each inserted Clip, the nodes kept in fp32, and the commands that verify the fix."""
    import shlex

    from dumpscope.core.names import display

    for node, tensor, lo, hi in result.clipped:
        whose = "graph input" if tensor in result.clipped_inputs else f"output of {display(node)!r}"
        print(f"clip: {display(tensor)!r} ({whose}) to [{lo:.7g}, {hi:.7g}]")
    if result.kept:
        print(f"keep fp32: {', '.join(repr(display(n)) for n in result.kept)}")
    if result.kept_inputs:
        print(f"keep fp32 inputs: {', '.join(repr(display(n)) for n in result.kept_inputs)}")
    if result.per_channel:
        print(f"int8 per channel: {', '.join(repr(display(n)) for n in result.per_channel)}")
    for tensor, lo, hi in result.ranges:
        print(f"int8 range: {display(tensor)!r} calibrated to [{lo:.7g}, {hi:.7g}]")
    out = shlex.quote(output)
    print(
        f"wrote {output}; verify against the original golden: dumpscope dump {out} -o target_patched "
        "--target fp16 [--input ... the golden dump's inputs] && dumpscope compare GOLDEN target_patched "
        "(GOLDEN: the dump of the unpatched model; a golden dumped from the patched model shows only that "
        "the target follows the patch)"
    )
