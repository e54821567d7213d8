"""``dumpscope fusion GRAPH``: which target ops stand for which original ops."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from dumpscope.tui.cli.errors import EXIT_OK
from dumpscope.tui.cli.safe import markup, plain

if TYPE_CHECKING:
    from dumpscope.core.vendor.fusion import FusionMap

HELP = "show fused <-> original op mapping from an ATC graph JSON or an optimised-target manifest"
DESCRIPTION = (
    "Read an Ascend graph JSON (atc --mode=1 for an .om, --mode=5 for a GE build graph) or a "
    "dumpscope manifest of an onnxruntime-optimised target, and list each fused op with the "
    "original ops it replaces, the relation (one-to-one, many-to-one, one-to-many, many-to-many), "
    "the fusion passes, and the target-only ops (layout casts, TransData) that have no golden "
    "counterpart.  --outputs also lists which golden tensor each target output is compared with."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("graph", metavar="GRAPH", help="graph JSON, manifest.json, or a dump directory with one")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--outputs", action="store_true", help="also list target output -> golden tensor")
    parser.add_argument(
        "--all", action="store_true", help="list plain one-to-one ops too (hidden unless a fusion pass touched them)"
    )


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from dumpscope.core.vendor import fusion
    from dumpscope.core.names import display

    source = fusion.load_source(str(args.graph))
    kind, maps, origins, problems = source.kind, source.maps, source.origins, source.problems
    for message in problems:
        print(f"dumpscope: {args.graph}: {plain(message)}", file=sys.stderr)
    shown = maps if args.all else [m for m in maps if m.relation != fusion.ONE_TO_ONE or m.passes]
    if args.json:
        doc: dict[str, object] = {
            "graph": str(args.graph),
            "source": kind,
            "relations": fusion.relation_counts(maps),
            "maps": [m.to_json() for m in shown],
            "target_only": sorted(display(n) for m in maps if m.relation == fusion.TARGET_ONLY for n in m.fused),
        }
        if args.outputs:
            doc["outputs"] = {display(k): {"golden": display(v[0]), "output_index": v[1]} for k, v in origins.items()}
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    _print(maps, shown, origins if args.outputs else None, kind)
    return EXIT_OK


def _print(
    maps: list[FusionMap], shown: list[FusionMap], origins: dict[str, tuple[str, int]] | None, kind: str
) -> None:
    from rich.table import Table

    from dumpscope.core.vendor import fusion
    from dumpscope.tui.cli.render import output_console

    console = output_console()
    counts = fusion.relation_counts(maps)
    summary = markup(", ".join(f"{n} {rel}" for rel, n in sorted(counts.items())) or "no fused ops")
    console.print(f"{len(maps)} op groups from the {'manifest' if kind == 'manifest' else 'ATC graph'}: {summary}")
    if len(shown) < len(maps):
        console.print(f"({len(maps) - len(shown)} plain one-to-one groups hidden; --all lists them)")
    if shown:
        table = Table(show_lines=False)
        for col in ("relation", "target op(s)", "type", "original op(s)", "fusion passes"):
            table.add_column(col, overflow="fold")
        for m in shown:
            originals = "* (target only)" if m.relation == fusion.TARGET_ONLY else markup("\n".join(m.originals))
            table.add_row(
                markup(m.relation), markup("\n".join(m.fused)), markup("\n".join(m.op_types)), originals,
                markup("\n".join(m.passes)),
            )
        console.print(table)
    if origins:
        table = Table(title="target output -> golden tensor")
        table.add_column("target tensor", overflow="fold")
        table.add_column("golden node", overflow="fold")
        table.add_column("output", justify="right")
        for name, (node, idx) in origins.items():
            table.add_row(markup(name), markup(node), str(idx))
        console.print(table)
