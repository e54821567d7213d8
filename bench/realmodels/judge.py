"""Run ``compare``/``diagnose`` on a case, check the answer, and check the truth independently.

The diagnosis is read from ``dumpscope diagnose --json``; the fields keyed on are
listed in :data:`DIAGNOSE_FIELDS` (keep them stable).  The independent check reloads
the dump files and recomputes, in float64 with numpy only, the error of the truth
tensor and of the node's inputs (introduced here, not inherited), the per-slice error
along axis 1 and, for same-size tensors, the axis permutation that aligns them.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.realmodels.build import dumpscope_cmd
from bench.realmodels.cases import CLASS_ALIASES, Case
from bench.realmodels.models import model_path
from bench.realmodels.numerics import (
    aligning_permutation,
    cosine,
    layout_is_decisive,
    rel_error,
    slice_errors,
)
from bench.realmodels.replay import replay

#: The ``diagnose --json`` fields this corpus reads.
DIAGNOSE_FIELDS = (
    "verdict",
    "summary",
    "counts.fail",
    "counts.error",
    "root_causes[].name",
    "root_causes[].node_name",
    "root_causes[].cause",
    "root_causes[].advice",
    "root_causes[].commands",
    "nan_origin",
)
#: The ``compare --format json`` fields this corpus reads (one object per row).
COMPARE_FIELDS = (
    "name",
    "health",
    "golden_file",
    "target_file",
    "dtype",
    "target_dtype",
    "band",
    "max_golden",
)
RUN_TIMEOUT_S = 300


@dataclass
class Run:
    """One CLI invocation: exit code, wall time, output."""

    code: int
    seconds: float
    stdout: str
    stderr: str

    def json(self) -> Any:
        """The parsed stdout, or None when it is not JSON."""
        try:
            return json.loads(self.stdout)
        except ValueError:
            return None


@dataclass
class Outcome:
    """The judged result of one case."""

    case: str
    cls: str
    expect: str
    truth: list[str]
    how: str
    passed: bool = False
    reasons: list[str] = field(default_factory=list)
    rank1: str | None = None
    rank1_cause: str | None = None
    verdict: str | None = None
    compare_code: int | None = None
    diagnose_code: int | None = None
    compare_s: float = 0.0
    diagnose_s: float = 0.0
    fail_rows: int | None = None
    summary: str = ""
    independent: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    layout_by_values: int = 0
    """Rows of compare whose layout was chosen (or found permuted) by values."""
    layout_not_decisive: int = 0
    """Of those, the rows whose permutation is not decisive when recomputed (must be 0)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def run_cli(args: list[str]) -> Run:
    """``dumpscope ARGS`` in a subprocess, timed."""
    start = time.perf_counter()
    done = subprocess.run(
        [*dumpscope_cmd(), *args], capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False
    )
    return Run(done.returncode, time.perf_counter() - start, done.stdout, done.stderr)


def _flags(case: Case) -> list[str]:
    model = [] if case.model_flag == "" else ["--model", str(model_path(case.model_flag or case.model))]
    return [*model, *case.flags]


def norm_cause(cause: str | None) -> str:
    """A cause string folded to lower case with '-' for spaces and underscores."""
    return re.sub(r"[\s_]+", "-", (cause or "").strip().lower())


def class_matches(cls: str, cause: str | None) -> bool:
    """Whether the diagnosis cause string names corpus class ``cls``."""
    return norm_cause(cause) in CLASS_ALIASES[cls]


def _names(cause: dict[str, Any]) -> set[str]:
    return {str(cause.get("name")), str(cause.get("node_name"))}


def _advice(cause: dict[str, Any]) -> str:
    return " ".join([str(cause.get("advice", "")), *map(str, cause.get("commands", []))])


def check_advice(case: Case, causes: list[dict[str, Any]]) -> list[str]:
    """Reasons the advice does not fit (empty when it does)."""
    reasons = []
    if case.must and causes:
        reasons += [
            f"rank-1 advice lacks /{rx}/" for rx in case.must if not re.search(rx, _advice(causes[0]))
        ]
    for rx in case.must_not:
        bad = [c.get("name") for c in causes if re.search(rx, _advice(c))]
        if bad:
            reasons.append(f"advice matching /{rx}/ on {bad[:3]}")
    return reasons


def _judge_culprit(case: Case, diag: dict[str, Any], out: Outcome) -> list[str]:
    causes = diag.get("root_causes") or []
    if not causes:
        return ["no root cause named"]
    reasons = []
    if not _names(causes[0]) & set(case.truth):
        reasons.append(f"rank 1 is {causes[0].get('name')!r}, not the truth")
    if not any(class_matches(cls, causes[0].get("cause")) for cls in (case.cls, *case.also)):
        reasons.append(f"rank-1 cause {causes[0].get('cause')!r} is not class {case.cls}")
    if out.diagnose_code != 1:
        reasons.append(f"diagnose exit {out.diagnose_code}, expected 1")
    return reasons + check_advice(case, causes)


def _judge_healthy(case: Case, diag: dict[str, Any], out: Outcome) -> list[str]:
    reasons = [
        f"{what} exit {code}, expected 0"
        for what, code in (("compare", out.compare_code), ("diagnose", out.diagnose_code))
        if code != 0
    ]
    if out.fail_rows:
        reasons.append(f"{out.fail_rows} FAIL rows")
    return reasons + check_advice(case, diag.get("root_causes") or [])


def _judge_drift(case: Case, diag: dict[str, Any], out: Outcome) -> list[str]:
    causes = diag.get("root_causes") or []
    reasons = []
    if causes and not class_matches("drift", causes[0].get("cause")):
        reasons.append(
            f"rank 1 names a culprit {causes[0].get('name')!r} ({causes[0].get('cause')}), truth is drift"
        )
    return reasons + check_advice(case, causes)


def _judge_mismatch(case: Case, runs: tuple[Run, Run], out: Outcome) -> list[str]:
    reasons = []
    for what, run in zip(("compare", "diagnose"), runs, strict=False):
        if run.code == 0:
            reasons.append(f"{what} exit 0, expected an error")
        if not re.search(case.message, run.stdout + run.stderr):
            reasons.append(f"{what} output lacks /{case.message}/")
    if out.verdict == "healthy":
        reasons.append("diagnose verdict healthy")
    return reasons


def judge(case: Case, golden: Path, target: Path) -> Outcome:
    """Run both commands on a built case and judge the answer."""
    out = Outcome(case.name, case.cls, case.expect, list(case.truth), case.how)
    pair = [str(golden), str(target), *_flags(case)]
    cmp_run = run_cli(["compare", *pair, "--format", "json"])
    diag_run = run_cli(["diagnose", *pair, "--json"])
    out.compare_code, out.compare_s = cmp_run.code, round(cmp_run.seconds, 3)
    out.diagnose_code, out.diagnose_s = diag_run.code, round(diag_run.seconds, 3)
    rows, diag = cmp_run.json(), diag_run.json()
    out.fail_rows = (
        sum(1 for r in rows if r.get("health") in ("fail", "error")) if isinstance(rows, list) else None
    )
    diag = diag if isinstance(diag, dict) else {}
    _read_diagnosis(diag, out)
    if case.expect == "mismatch":
        out.reasons = _judge_mismatch(case, (cmp_run, diag_run), out)
    elif not diag:
        out.reasons = [f"diagnose gave no JSON (exit {diag_run.code}): {_tail(diag_run)}"]
    else:
        judges = {"culprit": _judge_culprit, "healthy": _judge_healthy, "drift": _judge_drift}
        out.reasons = judges[case.expect](case, diag, out)
        out.reasons += row_checks(case, rows if isinstance(rows, list) else [], target)
    out.reasons += noise((cmp_run, diag_run))
    out.layout_by_values, out.layout_not_decisive = layout_claims(rows if isinstance(rows, list) else [])
    if out.layout_not_decisive:
        out.reasons.append(f"{out.layout_not_decisive} row(s) with a layout chosen by values, not decisive")
    if case.text_must_not:
        text = run_cli(["diagnose", *pair]).stdout
        out.reasons += [f"diagnose text prints /{rx}/" for rx in case.text_must_not if re.search(rx, text)]
    try:
        out.independent = independent(case, golden, target)
        if isinstance(rows, list) and out.fail_rows:
            out.independent["fail_rows"] = fail_row_facts(rows)
        if out.rank1 is not None and case.expect != "mismatch":
            out.independent["rank1_replay"] = replay(model_path(case.model), golden, target, out.rank1)
    except (OSError, ValueError, KeyError) as exc:  # a check that cannot run is noted, not fatal
        out.independent["error"] = f"{type(exc).__name__}: {exc}"
    out.passed = not out.reasons
    return out


def _tail(run: Run) -> str:
    lines = (run.stderr or run.stdout).strip().splitlines()
    return lines[-1] if lines else ""


def _read_diagnosis(diag: dict[str, Any], out: Outcome) -> None:
    causes = diag.get("root_causes") or []
    out.verdict = diag.get("verdict")
    out.summary = str(diag.get("summary", ""))[:300]
    if causes:
        out.rank1, out.rank1_cause = str(causes[0].get("name")), str(causes[0].get("cause"))


# ------------------------------------------------------------------ independent check (float64)


def _tensors(dump: Path) -> dict[str, dict[str, Any]]:
    """Name -> manifest entry; for a plain folder, file stem -> {"file"} ('/' is '_' there)."""
    if not (dump / "manifest.json").is_file():
        return {p.stem: {"file": p.name} for p in sorted(dump.glob("*.npy"))}
    manifest = json.loads((dump / "manifest.json").read_text())
    return {e["name"]: e for e in [*manifest.get("tensors", []), *manifest.get("inputs", [])] if "file" in e}


def _load(dump: Path, entry: dict[str, Any]) -> np.ndarray:
    return np.load(dump / entry["file"], allow_pickle=False).astype(np.float64)


def _find(entries: dict[str, dict[str, Any]], name: str) -> dict[str, Any] | None:
    """The entry of tensor ``name``, also under its plain-folder spelling ('/' -> '_')."""
    return entries.get(name) or entries.get(name.replace("/", "_"))


def _inputs_error(golden: Path, target: Path, entry: dict[str, Any], gt: dict, tt: dict) -> float | None:
    """The worst relative error among a node's non-constant inputs (None when it has none)."""
    errs = []
    for name in entry.get("node_inputs") or []:
        ge, te = gt.get(name), tt.get(name)
        if ge and te and ge.get("kind") != "constant" and ge.get("shape") == te.get("shape"):
            errs.append(rel_error(_load(golden, ge), _load(target, te)))
    return max(errs) if errs else None


def independent(case: Case, golden: Path, target: Path) -> dict[str, Any]:
    """What numpy float64 says about the case's truth tensor, read straight from the dump files."""
    if case.expect == "mismatch":
        return {}
    gt, tt = _tensors(golden), _tensors(target)
    if case.expect != "culprit":
        return _permuted_share(golden, target, gt, tt)
    name = next((n for n in case.truth if _find(gt, n) and _find(tt, n)), None)
    if name is None:
        return {"note": "no truth tensor in both dumps"}
    g, t = _load(golden, _find(gt, name)), _load(target, _find(tt, name))
    facts: dict[str, Any] = {"tensor": name, "nonfinite_target": int((~np.isfinite(t)).sum())}
    if g.shape != t.shape:
        facts["permutation"] = aligning_permutation(g, t)
        if t.ndim != 4 or t.transpose(0, 3, 1, 2).shape != g.shape:
            return facts
        t = t.transpose(0, 3, 1, 2)  # an NHWC target file: judge its values in the golden's layout
        facts["read_as"] = "NHWC"
    facts.update(
        cosine=cosine(g, t),
        rel_error=rel_error(g, t),
        permutation=aligning_permutation(g, t),
        inputs_rel_error=_inputs_error(golden, target, _find(gt, name), gt, tt),
    )
    if case.slices and g.ndim >= 2:
        facts["slices"] = slice_errors(g, t)
    return facts


def _permuted_share(golden: Path, target: Path, gt: dict, tt: dict) -> dict[str, Any]:
    """How many paired tensors differ only by an axis permutation (exactly), in float64."""
    permuted = 0
    for name in set(gt) & set(tt):
        if gt[name].get("shape") != tt[name].get("shape") and len(gt[name].get("shape", [])) == len(
            tt[name].get("shape", [])
        ):
            permuted += (
                aligning_permutation(_load(golden, gt[name]), _load(target, tt[name]), tol=1e-5) is not None
            )
    return {"paired": len(set(gt) & set(tt)), "exact_permutations": permuted}


def _fail_label(golden_file: str, target_file: str) -> str:
    """Why a FAIL row's two files differ, from the files alone (float64)."""
    g = np.load(golden_file, allow_pickle=False)
    t = np.load(target_file, allow_pickle=False)
    if g.size == 0 or t.size == 0:
        return "empty tensor"
    if g.ndim == 1 and t.ndim == 1 and g.dtype.kind in "iu" and t.dtype.kind in "iu":
        return "integer shape/index tensor"
    g64, t64 = g.astype(np.float64), t.astype(np.float64)
    if g.shape != t.shape and aligning_permutation(g64, t64, tol=1e-5) is not None:
        return "axis permutation of the golden"
    return "values differ"


def fail_row_facts(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """For each FAIL/error row of ``compare --format json``: what its paired files really are."""
    labels: dict[str, list[str]] = {}
    for row in rows:
        if row.get("health") not in ("fail", "error"):
            continue
        try:
            label = _fail_label(str(row["golden_file"]), str(row["target_file"]))
        except (KeyError, OSError, ValueError, TypeError):
            label = "not loadable"
        labels.setdefault(label, []).append(str(row.get("name")))
    return {label: {"rows": len(names), "first": names[:4]} for label, names in labels.items()}


#: A compare row's claim that the values chose a layout ("layout chosen by values: target axes
#: permuted (0, 3, 1, 2)") or that a same-shape target is the golden permuted ("layout
#: mismatch: ... axes permuted (0, 1, 3, 2)").
_LAYOUT_CLAIM = re.compile(r"(?:layout chosen by values|layout mismatch)[^()]*?axes permuted \(([\d, ]+)\)")


def layout_claims(rows: list[dict[str, Any]]) -> tuple[int, int]:
    """(rows whose layout the values chose, of those the ones not decisive), recomputed from the
    files in float64 against the product's definition (``shapes.DECISIVE_*``, the numbers only)."""
    from dumpscope.core.comparison.shapes import DECISIVE_COSINE, DECISIVE_MARGIN

    claims = bad = 0
    for row in rows:
        found = _LAYOUT_CLAIM.search(str(row.get("message") or ""))
        if found is None:
            continue
        claims += 1
        perm = tuple(int(i) for i in found.group(1).split(","))
        try:
            g = np.load(str(row["golden_file"]), allow_pickle=False).astype(np.float64)
            t = np.load(str(row["target_file"]), allow_pickle=False).astype(np.float64)
        except (KeyError, OSError, ValueError):
            bad += 1
            continue
        bad += not layout_is_decisive(g, t, perm, DECISIVE_COSINE, DECISIVE_MARGIN)
    return claims, bad


def noise(runs: tuple[Run, ...]) -> list[str]:
    """Item 9: a traceback or a numpy RuntimeWarning on stderr is a defect whatever the verdict."""
    return [
        f"{what} printed {needle}"
        for what, run in zip(("compare", "diagnose"), runs, strict=False)
        for needle in ("Traceback", "RuntimeWarning")
        if needle in run.stderr
    ]


def _target_precision(target: Path) -> str | None:
    """The recipe the target dump records (None = a plain float run), '?' when unknown."""
    path = target / "manifest.json"
    return json.loads(path.read_text()).get("target") if path.is_file() else "?"


def band_violations(rows: list[dict[str, Any]], target: Path) -> int:
    """Item 8: float32-vs-float32 rows of an fp32 run (plain or optimized) judged in another band."""
    if not target.is_dir() or _target_precision(target) not in (None, "optimized"):
        return 0  # a vendor's one-file dump (SigmaStar fixed.sim) records its own types
    return sum(
        1
        for r in rows
        if r.get("dtype") == "float32"
        and r.get("target_dtype") == "float32"
        and r.get("band") not in (None, "fp32")
    )


def stats_hidden(case: Case, rows: list[dict[str, Any]]) -> list[str]:
    """Item 10: the truth row's golden min/max must describe the whole golden tensor (float64 from the
    file)."""
    reasons = []
    for row in rows:
        if row.get("name") not in case.truth or not row.get("golden_file") or row.get("max_golden") is None:
            continue
        if not str(row["golden_file"]).endswith(".npy"):  # a record inside a vendor's one-file dump
            continue
        g = np.load(str(row["golden_file"]), allow_pickle=False).astype(np.float64)
        finite = g[np.isfinite(g)]
        if finite.size and not np.isclose(float(row["max_golden"]), float(finite.max()), rtol=1e-6):
            reasons.append(
                f"row {row['name']!r} max_golden {row['max_golden']:.6g}, the file's max is "
                f"{finite.max():.6g}"
            )
    return reasons


def paired_twice(rows: list[dict[str, Any]]) -> list[str]:
    """Issue 20, item 7: golden tensors paired with more than one target tensor (a row listed twice)."""
    seen: dict[str, int] = {}
    for r in rows:
        if r.get("side", "both") == "both" and r.get("target_name") is not None:
            seen[str(r.get("name"))] = seen.get(str(r.get("name")), 0) + 1
    return sorted(n for n, k in seen.items() if k > 1)


def row_checks(case: Case, rows: list[dict[str, Any]], target: Path) -> list[str]:
    """Per-row facts of ``compare --format json`` checked against the files (items 8 and 10; issue 20
    item 7: no golden tensor paired twice)."""
    reasons = stats_hidden(case, rows)
    bad = 0 if "--preset" in case.flags else band_violations(rows, target)  # a preset chosen: its band
    if bad:
        reasons.append(f"{bad} float32/float32 rows of an fp32 target judged outside the fp32 band")
    twice = paired_twice(rows)
    if twice:
        reasons.append(f"{len(twice)} golden tensor(s) paired twice, e.g. {twice[:3]}")
    return reasons
