"""The proof of a fix in words, one fact a line (``dumpscope fix`` and ``demo --fix`` print it)."""

from __future__ import annotations

from dumpscope.core.fix.search import FixResult, Trial
from dumpscope.core.names import display


def _at(pair: tuple[str, float] | None) -> str:
    return "-" if pair is None else f"{display(pair[0])!r} relative distance {pair[1]:.4g}"


def report_lines(result: FixResult) -> list[str]:
    """The proof, one fact a line: before/after, the trials, each change and what breaks without it."""
    tol = result.tolerance
    target = result.target
    where = f"outputs within {tol.output:g}"
    if tol.layer is not None and tol.layers:
        where += f", layers {', '.join(map(repr, tol.layers))} within {tol.layer:g}"
    lines = [f"fix for the {target} target against the ORIGINAL golden ({where}, relative distance):"]
    lines += [f"  note: {n}" for n in result.notes]
    lines += _trial_lines("before", result.before) + _trial_lines("after ", result.after)
    lines.append(
        f"  trials: {len(result.trials)} of a budget of {result.budget} "
        f"({', '.join(f'{s} {n}' for s, n in _steps(result.trials))})"
    )
    if not result.found:
        lines.append(
            "no set of changes within the budget meets the tolerance (the best trial is shown as after)"
        )
        return lines
    if not result.changes:
        return [*lines, "nothing to change"]
    proof = (
        "proven 1-minimal: removing any one change breaks it"
        if result.minimal
        else "meets the tolerance, NOT proven minimal (the budget ran out while minimising)"
    )
    lines.append(f"{len(result.changes)} change(s), {proof}:")
    needed = {n.change: n for n in result.needed}
    for c in result.changes:
        lines.append(f"  - {c.text(target)}")
        if c in result.reasons:
            lines.append(f"      why it was tried: {result.reasons[c]}")
        n = needed.get(c)
        if n is not None:
            why = n.error or "; ".join(f"{display(name)!r} at {d:.4g}" for name, d in n.breaks[:3])
            lines.append(f"      without it (trial {n.trial}): {why}")
    return lines


def _trial_lines(label: str, t: Trial | None) -> list[str]:
    if t is None:
        return []
    if t.error:
        return [f"  {label}: trial {t.number} could not run: {t.error}"]
    state = "meets the tolerance" if t.passed else f"{len(t.failing)} outside the tolerance"
    return [
        f"  {label}: trial {t.number}, {state}; worst output {_at(t.worst_output)}; "
        f"worst layer {_at(t.worst_layer)}"
    ]


def _steps(trials: list[Trial]) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for t in trials:
        counts[t.step] = counts.get(t.step, 0) + 1
    return list(counts.items())
