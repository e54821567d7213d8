"""The shareable Markdown report of a diagnosis (``dumpscope diagnose --markdown``)."""

from __future__ import annotations

import math
from pathlib import Path

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.engine import Diagnosis, RootCause
from dumpscope.core.names import printable
from dumpscope.core.report.writers import relative_path, worst_rows


def _md(text: object) -> str:
    return printable(str(text)).replace("|", "\\|")


def _metric(v: object) -> str:
    """A metric cell: empty for None, floats to 6 significant digits."""
    if v is None:
        return ""
    return _float_cell(v) if isinstance(v, float) else str(v)


def _float_cell(v: float) -> str:
    """A float to 6 significant digits; ``NaN``, and ``inf`` for either infinity."""
    if math.isnan(v):
        return "NaN"
    return "inf" if math.isinf(v) else f"{v:.6g}"


def markdown(
    cmp: Comparison, diag: Diagnosis, command: str | None = None, worst: int = 10, base: Path | None = None
) -> str:
    """Verdict, root causes with evidence, first divergent layer, worst rows, overflow
    findings, unmatched tensors and the command that reproduces the report.  Paths are
    relative to ``base`` (the report's folder) or, without it, to the current directory."""
    sections = (
        _header(cmp, diag, base),
        _warnings(diag),
        _root_causes(diag),
        _first_divergent(cmp, diag),
        _worst(cmp, diag, worst),
        _overflow(diag),
        _quantisation(diag),
        _unmatched(cmp),
        _reproduce(command),
    )
    return "\n".join(line for section in sections for line in section)


def _header(cmp: Comparison, diag: Diagnosis, base: Path | None) -> list[str]:
    meta = cmp.meta
    where = "this report's folder" if base is not None else "the folder the command ran in"
    return [
        "# dumpscope diagnosis",
        "",
        f"Paths are relative to {where}.",
        "",
        f"- golden: `{_md(relative_path(meta.golden, base))}` ({meta.golden_format})",
        f"- target: `{_md(relative_path(meta.target, base))}` ({meta.target_format})",
        f"- graph edges from: {diag.edges_source}",
        "",
        f"**Verdict: {'healthy' if diag.healthy else 'unhealthy'}.** {_md(diag.summary)}",
        "",
    ]


def _warnings(diag: Diagnosis) -> list[str]:
    if not diag.warnings:
        return []
    return ["## Warnings", ""] + [f"- {_md(w)}" for w in diag.warnings[:20]] + [""]


def _root_causes(diag: Diagnosis) -> list[str]:
    lines = ["## Root causes", ""]
    if not diag.root_causes:
        lines += [
            "No node introduces an error." if diag.healthy else "No candidate found (no input edges known).",
            "",
        ]
    return lines + [line for k, c in enumerate(diag.root_causes, 1) for line in _cause_lines(k, c)]


def _cause_lines(k: int, c: RootCause) -> list[str]:
    """The ``k``-th root cause: its heading, evidence, advice and patch commands."""
    lines = [
        f"### {k}. `{_md(c.name)}` ({c.op_type or '?'}, node `{_md(c.node_name or '?')}`, #{c.index}) - "
        f"{c.cause}, score {c.score:.2f}",
        "",
    ]
    lines += [f"- {_md(e)}" for e in c.evidence]
    lines += ["", f"**Advice:** {_md(c.advice.split(' Patch and verify:')[0])}", ""]
    if c.commands:
        lines += ["```"] + list(c.commands) + ["```", ""]
    return lines


def _first_divergent(cmp: Comparison, diag: Diagnosis) -> list[str]:
    lines = ["## First divergent layer", ""]
    fd = diag.first_divergent
    if fd is None:
        lines.append("None: every compared tensor is within its band.")
    else:
        lines.append(
            f"#{fd['index']} `{_md(fd['name'])}` ({fd['op_type'] or '?'}) is **{fd['health']}** "
            f"({fd['origin']}): {_md(fd['message'] or '')}"
        )
    return lines + ["", f"Trend: {_md(diag.trend.sentence(cmp.frame))}.", ""]


def _worst(cmp: Comparison, diag: Diagnosis, worst: int) -> list[str]:
    bad = worst_rows(cmp, worst)
    if not bad.height:
        return []
    origin = diag.classification["origin"]
    lines = [
        f"## Worst rows (up to {worst})",
        "",
        "| # | name | op | health | origin | cosine | rel. distance | NaN/Inf (t) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    return lines + [_worst_row(r, origin[r["_row"]]) for r in bad.iter_rows(named=True)] + [""]


def _worst_row(r: dict[str, object], origin: str) -> str:
    """One table row of the worst rows."""
    return (
        f"| {r['index']} | `{_md(r['name'])}` | {r['op_type'] or ''} | {r['health']} | {origin} | "
        f"{_metric(r['cosine_similarity'])} | {_metric(r['relative_euclidean_distance'])} | "
        f"{r['nan_target'] or 0}/{r['inf_target'] or 0} |"
    )


def _overflow(diag: Diagnosis) -> list[str]:
    if not diag.overflow:
        return []
    return ["## Overflow and range findings", ""] + [f"- {_md(o)}" for o in diag.overflow] + [""]


def _quantisation(diag: Diagnosis) -> list[str]:
    if not diag.quantisation:
        return []
    lines = [
        "## Quantisation loss",
        "",
        "| # | name | op | SQNR dB | lost dB | golden range | scale | INT16? |",
        "|---|---|---|---|---|---|---|---|",
    ]
    return lines + [_quantisation_row(q) for q in diag.quantisation] + [""]


def _quantisation_row(q: dict[str, object]) -> str:
    """One table row of the quantisation losses."""
    return (
        f"| {q['row']} | `{_md(q['name'])}` | {q['op_type'] or ''} | {_metric(q['sqnr_db'])} | "
        f"{_metric(q['sqnr_lost_db'])} | [{_metric(q['golden_min'])}, {_metric(q['golden_max'])}] | "
        f"{_metric(q['scale'])} | {'yes' if q['int16_advised'] else ''} |"
    )


def _unmatched(cmp: Comparison) -> list[str]:
    unmatched = cmp.unmatched()
    if not unmatched.height:
        return []
    lines = [f"## Unmatched tensors ({unmatched.height})", ""]
    for r in unmatched.head(20).iter_rows(named=True):
        lines.append(f"- {r['side']}: `{_md(r['name'])}` ({r['kind']}): {_md(r['reason'])}")
    if unmatched.height > 20:
        lines.append(f"- ... and {unmatched.height - 20} more")
    return lines + [""]


def _reproduce(command: str | None) -> list[str]:
    return ["## Reproduce", "", "```", command, "```", ""] if command else []
