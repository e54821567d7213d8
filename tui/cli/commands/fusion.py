"""``dumpscope fusion GRAPH``: which target ops stand for which original ops."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dumpscope.core.names import json_safe
from dumpscope.tui.cli.errors import EXIT_OK
from dumpscope.tui.cli.safe import markup, plain

if TYPE_CHECKING:
    from rich.table import Table

    from dumpscope.core.vendor.fusion import FusionMap, FusionSource

HELP = "show fused <-> original op mapping from an ATC graph JSON or an optimised-target manifest"
DESCRIPTION = (
    "Read an Ascend graph JSON (atc --mode=1 for an .om, --mode=5 for a GE build graph) or a "
    "dumpscope manifest of an onnxruntime-optimised target, and list each fused op with the "
    "original ops it replaces, the relation (one-to-one, many-to-one, one-to-many, many-to-many), "
    "the fusion passes, and the target-only ops (layout casts, TransData) that have no golden "
    "counterpart.  --outputs also lists which golden tensor each target output is compared with."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "graph", metavar="GRAPH", help="graph JSON, manifest.json, or a dump directory with one"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--outputs", action="store_true", help="also list target output -> golden tensor")
    parser.add_argument(
        "--all",
        action="store_true",
        help="list plain one-to-one ops too (hidden unless a fusion pass touched them)",
    )


@dataclass(frozen=True)
class Options:
    graph: str
    json: bool
    outputs: bool
    all: bool


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


def run(cmd: Options) -> int:
    """Read the graph or manifest, report its problems, print JSON or the tables."""
    from dumpscope.core.vendor.fusion import load_source

    source = load_source(str(cmd.graph))
    for message in source.problems:
        print(f"dumpscope: {cmd.graph}: {plain(message)}", file=sys.stderr)
    shown = source.maps if cmd.all else _touched(source.maps)
    if cmd.json:
        _print_json(cmd, source, shown)
    else:
        _print(source.maps, shown, source.origins if cmd.outputs else None, source.kind)
    return EXIT_OK


def _touched(maps: list[FusionMap]) -> list[FusionMap]:
    """The groups shown without ``--all``: every one but the plain one-to-one ops no pass touched."""
    from dumpscope.core.vendor.fusion import ONE_TO_ONE

    return [m for m in maps if m.relation != ONE_TO_ONE or m.passes]


def _print_json(cmd: Options, source: FusionSource, shown: list[FusionMap]) -> None:
    """``--json``: the relation counts, the shown groups, the target-only ops (and ``--outputs``)."""
    import json

    from dumpscope.core.names import display
    from dumpscope.core.vendor import fusion

    maps = source.maps
    doc: dict[str, object] = {
        "graph": str(cmd.graph),
        "source": source.kind,
        "relations": fusion.relation_counts(maps),
        "maps": [m.to_json() for m in shown],
        "target_only": sorted(display(n) for m in maps if m.relation == fusion.TARGET_ONLY for n in m.fused),
    }
    if cmd.outputs:
        doc["outputs"] = {
            display(k): {"golden": display(v[0]), "output_index": v[1]} for k, v in source.origins.items()
        }
    # one write: json.dump writes per token
    sys.stdout.write(json_safe(json.dumps(doc, indent=2, ensure_ascii=False)))
    sys.stdout.write("\n")


def _print(
    maps: list[FusionMap], shown: list[FusionMap], origins: dict[str, tuple[str, int]] | None, kind: str
) -> None:
    """The summary line, the table of shown groups and (``--outputs``) target output -> golden tensor."""
    from dumpscope.tui.cli.render import output_console

    console = output_console()
    console.print(_summary_line(maps, kind))
    if len(shown) < len(maps):
        console.print(f"({len(maps) - len(shown)} plain one-to-one groups hidden; --all lists them)")
    if shown:
        console.print(_groups_table(shown))
    if origins:
        console.print(_origins_table(origins))


def _summary_line(maps: list[FusionMap], kind: str) -> str:
    """``N op groups from the ATC graph: 3 many-to-one, ...`` (markup escaped)."""
    from dumpscope.core.vendor.fusion import relation_counts

    counts = relation_counts(maps)
    summary = markup(", ".join(f"{n} {rel}" for rel, n in sorted(counts.items())) or "no fused ops")
    return f"{len(maps)} op groups from the {'manifest' if kind == 'manifest' else 'ATC graph'}: {summary}"


def _groups_table(shown: list[FusionMap]) -> Table:
    """One row per op group: relation, target op(s), types, original op(s), passes."""
    from rich.table import Table

    from dumpscope.core.vendor import fusion

    table = Table(show_lines=False)
    for col in ("relation", "target op(s)", "type", "original op(s)", "fusion passes"):
        table.add_column(col, overflow="fold")
    for m in shown:
        originals = "* (target only)" if m.relation == fusion.TARGET_ONLY else markup("\n".join(m.originals))
        table.add_row(
            markup(m.relation),
            markup("\n".join(m.fused)),
            markup("\n".join(m.op_types)),
            originals,
            markup("\n".join(m.passes)),
        )
    return table


def _origins_table(origins: dict[str, tuple[str, int]]) -> Table:
    """``--outputs``: which golden node output each target tensor is compared with."""
    from rich.table import Table

    table = Table(title="target output -> golden tensor")
    table.add_column("target tensor", overflow="fold")
    table.add_column("golden node", overflow="fold")
    table.add_column("output", justify="right")
    for name, (node, idx) in origins.items():
        table.add_row(markup(name), markup(node), str(idx))
    return table
