"""``dumpscope formats``: the inputs dumpscope reads, each with the rule that recognises it."""

from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass

HELP = "list the dump formats and side files dumpscope reads, with how each is recognised"
DESCRIPTION = (
    "List every dump format `compare`, `diagnose` and the UI accept (picked by sniffing the input), "
    "then the side files other commands read (graph JSON, Opdebug, result CSV, saved "
    "comparisons, ONNX models).  Each line is the format's name and its one-line sniff rule, taken from "
    "the reader itself."
)

#: Vendor modules that declare ``SIDE_FILE = (name, rule)``.
_SIDE_MODULES = ("atc_graph", "opdebug", "msaccucmp_csv", "rknn")
#: Side files read by dumpscope's own code (no sniffing: the command says which it expects).
_OWN_FILES = (
    ("dumpscope-parquet", "a .parquet file written by `compare --format parquet` or the UI export; for open"),
    ("onnx-model", "an .onnx model (protobuf, external data beside it); for dump, patch and compare --model"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def listing() -> dict[str, list[tuple[str, str]]]:
    """``{"dumps": [(name, rule)...], "side files": [...]}``, from the format modules."""
    from dumpscope.core.formats import describe

    side = [importlib.import_module(f"dumpscope.core.vendor.{m}").SIDE_FILE for m in _SIDE_MODULES]
    return {"dumps": describe(), "side files": [*side, *_OWN_FILES]}


@dataclass(frozen=True)
class Options:
    json: bool


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


def run(cmd: Options) -> int:
    groups = listing()
    if cmd.json:
        import json

        print(json.dumps({k: [{"name": n, "sniff": r} for n, r in v] for k, v in groups.items()}, indent=1))
        return 0
    width = max(len(n) for v in groups.values() for n, _r in v)
    for title, items in groups.items():
        print(f"{title.capitalize()}:")
        for name, rule in items:
            print(f"  {name:<{width}}  {rule}")
    return 0
