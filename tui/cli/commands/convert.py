"""``dumpscope convert DUMP -o DIR [--type npy|txt]``: raw Ascend dumps to files numpy reads."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY

HELP = "convert raw Ascend dump files to .npy or .txt (msaccucmp convert's names)"
DESCRIPTION = (
    "Convert a raw Ascend dump file, or every dump file under a folder, like `msaccucmp.py convert -d DUMP "
    "-out DIR`: DIR/{dump file}.output.{i}.npy (and .input.{i}) in the device shape, or with --type txt one "
    "value per line (the flattened tensor, as np.savetxt writes it). Files that are not dumps are reported "
    "and skipped (exit 1 when any was)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dump", metavar="DUMP", help="an Ascend dump file or a folder of them")
    p.add_argument(
        "-o", "-out", "--out", dest="out", required=True, metavar="DIR", help="output directory (created)"
    )
    p.add_argument(
        "--type",
        "-t",
        dest="kind",
        choices=("npy", "txt"),
        default="npy",
        help="output file type (default npy)",
    )


@dataclass(frozen=True)
class Options:
    dump: str
    out: str
    kind: str
    """``npy`` or ``txt``."""


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


def run(cmd: Options) -> int:
    import sys

    from dumpscope.core.vendor.convert import convert_dump
    from dumpscope.tui.cli.safe import plain

    result = convert_dump(cmd.dump, cmd.out, cmd.kind)
    for problem in result.problems:
        print(f"dumpscope: {plain(problem)}", file=sys.stderr)
    print(f"wrote {len(result.written)} .{cmd.kind} file(s) to {plain(cmd.out)}")
    return EXIT_UNHEALTHY if result.problems else EXIT_OK
