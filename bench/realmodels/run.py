"""Build every case, judge dumpscope's answer, print the table and save the JSON."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from bench.realmodels.build import Builder, BuildError
from bench.realmodels.cases import BY_NAME, CASES, QUICK, Case
from bench.realmodels.judge import Outcome, judge
from bench.realmodels.models import ModelUnavailable, cache_root, model_path


def run_case(case: Case, builder: Builder) -> Outcome:
    """Build one case (cached) and judge it; a case that cannot be built is one failed row."""
    try:
        golden, target = case.build(builder, case)
        if case.truth_of is not None:
            case = replace(case, truth=case.truth_of(model_path(case.model), builder.case_dir(case.name)))
    except (BuildError, ModelUnavailable, RuntimeError, KeyError, OSError) as exc:
        out = Outcome(case.name, case.cls, case.expect, list(case.truth), case.how)
        out.error = f"{type(exc).__name__}: {exc}"
        out.reasons = [f"not built: {exc}"]
        return out
    return judge(case, golden, target)


def _short(text: str | None, width: int) -> str:
    text = "-" if text is None else text
    return text if len(text) <= width else "…" + text[-(width - 1) :]


def table(outcomes: Sequence[Outcome]) -> str:
    """The corpus table, one line per case."""
    head = (
        f"{'case':26} {'class':13} {'truth':30} {'rank 1 (dumpscope)':30} {'its cause':14} {'replay':10} "
        f"{'ok':4} {'cmp':>3} {'dia':>3} {'t_cmp':>6} {'t_dia':>6}"
    )
    lines = [head, "-" * len(head)]
    for o in outcomes:
        truth = o.truth[0] if o.truth else ("none" if o.expect != "drift" else "drift")
        lines.append(
            f"{o.case:26} {o.cls:13} {_short(truth, 30):30} {_short(o.rank1, 30):30} "
            f"{_short(o.rank1_cause, 14):14} {_replay(o):10} "
            f"{'PASS' if o.passed else 'FAIL':4} {_code(o.compare_code):>3} {_code(o.diagnose_code):>3} "
            f"{o.compare_s:6.2f} {o.diagnose_s:6.2f}"
        )
    passed = sum(o.passed for o in outcomes)
    lines.append(f"{passed} of {len(outcomes)} cases pass")
    lines.append(layout_line(outcomes))
    return "\n".join(lines)


def layout_line(outcomes: Sequence[Outcome]) -> str:
    """The corpus-wide count of layouts chosen by values, and of those not decisive (must be 0)."""
    chosen = sum(o.layout_by_values for o in outcomes)
    bad = sum(o.layout_not_decisive for o in outcomes)
    return f"layouts chosen by values: {chosen} rows, not decisive: {bad}"


def _truth_text(o: Outcome) -> str:
    if o.truth:
        return ", ".join(f"`{t}`" for t in o.truth[:2])
    return {"drift": "drift (no culprit)", "mismatch": "an error"}.get(o.expect, "none (no FAIL)")


def markdown(outcomes: Sequence[Outcome]) -> str:
    """The corpus table in Markdown, with the runner's reasons for each failing case."""
    lines = [
        "| case | class | truth (rank 1 must be one of) | dumpscope rank 1 | its cause | replay of rank 1 | "
        "ok "
        "| exit cmp/diag | s cmp / diag |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        rank1 = f"`{o.rank1}`" if o.rank1 else "-"
        lines.append(
            f"| {o.case} | {o.cls} | {_truth_text(o)} | {rank1} | {o.rank1_cause or '-'} | {_replay(o)} "
            f"| {'PASS' if o.passed else 'FAIL'} | {_code(o.compare_code)}/{_code(o.diagnose_code)} "
            f"| {o.compare_s:.2f} / {o.diagnose_s:.2f} |"
        )
    lines += ["", layout_line(outcomes), "", "| case | why it fails |", "|---|---|"]
    lines += [
        f"| {o.case} | " + "; ".join(o.reasons).replace("|", "\\|") + " |" for o in outcomes if not o.passed
    ]
    return "\n".join(lines) + "\n"


def false_fail_rows(outcomes: Sequence[Outcome]) -> dict[str, int | None]:
    """Issue 20: FAIL/ERR rows of ``compare`` on the numerically identical (fp32-equivalent) cases, per
    case (None when compare gave no rows); every one is false."""
    return {o.case: o.fail_rows for o in outcomes if o.expect == "healthy"}


def false_fail_line(per_case: dict[str, int | None]) -> str:
    """The corpus-wide count of false FAIL rows, with the cases that have any."""
    total = sum(n or 0 for n in per_case.values())
    unknown = [c for c, n in per_case.items() if n is None]
    bad = ", ".join(f"{c}: {n}" for c, n in per_case.items() if n)
    return (
        f"false FAIL/ERR rows on identical (fp32-equivalent) runs: {total} in {len(per_case)} case(s)"
        + (f" ({bad})" if bad else "")
        + (f"; no rows from {unknown}" if unknown else "")
    )


def _replay(o: Outcome) -> str:
    """What the independent replay of the rank-1 node says (see :mod:`bench.realmodels.replay`)."""
    rep = o.independent.get("rank1_replay") or {}
    return str(rep.get("says", "-" if not rep else "n/a"))


def _code(code: int | None) -> str:
    return "-" if code is None else str(code)


def select(names: Sequence[str], quick: bool) -> list[Case]:
    """The cases to run: named ones, the quick set, or all."""
    if names:
        unknown = [n for n in names if n not in BY_NAME]
        if unknown:
            raise SystemExit(f"unknown case(s) {unknown}; known: {', '.join(BY_NAME)}")
        return [BY_NAME[n] for n in names]
    return list(QUICK if quick else CASES)


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; exit 0 when every selected case passes, 1 otherwise."""
    ap = argparse.ArgumentParser(prog="python -m bench.realmodels", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="only the few small cases the tests run")
    ap.add_argument("--case", action="append", default=[], help="run this case (repeatable)")
    ap.add_argument("--work", type=Path, default=None, help="where dumps are built (default: the cache)")
    ap.add_argument(
        "-o", "--output", type=Path, default=None, help="JSON results (default: WORK/results.json)"
    )
    ap.add_argument("--reasons", action="store_true", help="print why each failing case fails")
    ap.add_argument(
        "--markdown", type=Path, default=None, help="also write the table as Markdown to this file"
    )
    args = ap.parse_args(argv)
    builder = Builder(args.work or cache_root() / "corpus")
    start = time.perf_counter()
    outcomes = []
    for case in select(args.case, args.quick):
        outcomes.append(run_case(case, builder))
        print(f"  {case.name}: {'pass' if outcomes[-1].passed else 'FAIL'}", file=sys.stderr, flush=True)
    print(table(outcomes))
    if args.reasons:
        for o in outcomes:
            if not o.passed:
                print(f"{o.case}: " + "; ".join(o.reasons))
    total = time.perf_counter() - start
    false_fail = false_fail_rows(outcomes)
    print(false_fail_line(false_fail))
    print(f"total {total:.1f} s (dumping {builder.dump_seconds:.1f} s)")
    if args.markdown is not None:
        args.markdown.write_text(markdown(outcomes))
    path = args.output or builder.root / "results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                "seconds": total,
                "dump_seconds": builder.dump_seconds,
                "false_fail_rows": false_fail,
                "layout_by_values": sum(o.layout_by_values for o in outcomes),
                "layout_not_decisive": sum(o.layout_not_decisive for o in outcomes),
                "cases": [o.to_json() for o in outcomes],
            },
            indent=1,
            default=str,
        )
    )
    print(f"results: {path}")
    return 0 if all(o.passed for o in outcomes) else 1
