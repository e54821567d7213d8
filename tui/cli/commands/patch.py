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

HELP = "write a patched model: Clip after a node, or keep nodes in fp32 for fp16 targets"
DESCRIPTION = (
    "Write a copy of MODEL with fixes applied: --clip NODE=LO,HI inserts a Clip after NODE (its output "
    "keeps its name, so dumps still pair; -inf/inf or an empty side leaves a bound open; opset aware), "
    "--keep-fp32 NODE marks NODE to stay in float32 (model metadata 'dumpscope.keep_fp32', read by the fp16 "
    "target recipe; list the same nodes in ATC --keep_dtype or onnxconverter-common's node_block_list).  "
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
        help="insert Clip(LO, HI) after NODE (e.g. attn/scale=-inf,11)",
    )


@dataclass(frozen=True)
class Options:
    model: str
    output: str
    keep_fp32: list[str]
    """Nodes kept in float32."""
    clip: list[str]
    """``NODE=LO,HI`` as given (parsed by :func:`_checked_clips`)."""


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
    result = patch_file(cmd.model, cmd.output, keep_fp32=cmd.keep_fp32, clip=clips)
    _print_result(result, cmd.output)
    return EXIT_OK


def _checked_clips(cmd: Options) -> list[tuple[str, float, float]]:
    """The parsed ``--clip`` values, once there is something to do and ``-o`` is no folder (usage errors)."""
    import os

    from dumpscope.core.onnx.patch import parse_clip

    if not cmd.keep_fp32 and not cmd.clip:
        raise UsageError("nothing to do: give --clip NODE=LO,HI and/or --keep-fp32 NODE")
    if os.path.isdir(cmd.output):
        raise UsageError(f"-o {cmd.output}: is a folder; give the file to write (e.g. -o patched.onnx)")
    try:
        return [parse_clip(c) for c in cmd.clip]
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _print_result(result: PatchResult, output: str) -> None:
    """Each inserted Clip, the nodes kept in fp32, and the commands that verify the fix."""
    import shlex

    from dumpscope.core.names import display

    for node, tensor, lo, hi in result.clipped:
        print(f"clip: {display(tensor)!r} (output of {display(node)!r}) to [{lo:.7g}, {hi:.7g}]")
    if result.kept:
        print(f"keep fp32: {', '.join(repr(display(n)) for n in result.kept)}")
    out = shlex.quote(output)
    print(
        f"wrote {output}; verify against the original golden: dumpscope dump {out} -o target_patched "
        "--target fp16 [--input ... the golden dump's inputs] && dumpscope compare GOLDEN target_patched "
        "(GOLDEN: the dump of the unpatched model; a golden dumped from the patched model shows only that "
        "the target follows the patch)"
    )
