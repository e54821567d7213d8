"""How many dev answers name the row of a code table (:mod:`dumpscope.core.knowledge.code_tables`).

    .venv/bin/python bench/eval_code_rows.py [--data FILE] [--list]

For the dev records of every data file (or ``--data``), the top answer when it is the record's tool's: a
*row answer* when its entry's cause has a ``{row@TABLE}`` placeholder and the captured value is a row of that
table (the symbolic name is shown); a *table answer without a row* when the entry has the placeholder but the
message gave no value or a value outside the table.  Counted twice: with the full knowledge base, and ranked
as ``eval_explain.py --leave-source-out`` ranks a record (the entries written from its own thread and the
markers that only its thread holds hidden).  Held-out records are dropped before anything is done with them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_explain import DATA, dev_records, lso_ranker  # noqa: E402


def row_kind(m: Any) -> tuple[str, str]:
    """``("row", NAME)``, ``("table", "")`` (a table card without a row) or ``("", "")``."""
    from dumpscope.core.knowledge.code_tables import row_named

    template = m.entry.cause
    if "{row@" not in template:
        return "", ""
    name = row_named(template, m.captures)
    return ("row", name) if name else ("table", "")


def right_top(r: dict[str, Any], matches: list[Any]) -> Any:
    """The top match when it is the record's tool's, else None."""
    if not matches or matches[0].entry.family not in (r["family"], *r.get("also", ())):
        return None
    return matches[0]


def count(kb: Any, paths: list[Path], listed: bool) -> None:
    all_dev = [r for p in sorted(DATA.parent.glob("*.jsonl")) for r in dev_records(p)]
    totals = {"full": [0, 0], "lso": [0, 0]}
    for path in paths:
        dev = [{**r, "file": path.name} for r in dev_records(path) if "family" in r]
        rankers = {"full": lambda r: kb.lookup(r["message"], top=1), "lso": lso_ranker(kb, dev, all_dev)}
        for r in dev:
            for mode, rank in rankers.items():
                m = right_top(r, rank(r))
                kind, name = row_kind(m) if m is not None else ("", "")
                if not kind:
                    continue
                totals[mode][0 if kind == "row" else 1] += 1
                if listed:
                    print(f"   [{mode}] {r['file']} {r['family']} {m.entry.id}: {kind} {name}")
    for mode, (rows, tables) in totals.items():
        print(
            f"{mode:5s} dev right-tool answers naming a table row: {rows}; "
            f"on a table card without a row: {tables}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--list", action="store_true", help="list each dev answer on a table card")
    args = parser.parse_args()
    from dumpscope.core.knowledge import load_kb

    kb = load_kb(user_dir=Path("/nonexistent"))
    paths = [args.data] if args.data else sorted(DATA.parent.glob("*.jsonl"))
    count(kb, paths, args.list)


if __name__ == "__main__":
    main()
