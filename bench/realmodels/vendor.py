"""Real vendor toolchains on real models (issue 27): RKNN int8/fp16, OpenVINO int8, ncnn.

    python -m bench.realmodels.vendor                 # every case whose toolkit venv exists
    python -m bench.realmodels.vendor --case rknn-int8:yolov8n -o results.json

Each toolkit lives in its own venv (RKNN-Toolkit2 pulls torch with CUDA wheels, ~5.6 GB), with
dumpscope installed there editable (``--no-deps``) plus its light dependencies; see the README's
"Vendor toolchains" section.  The venvs are found at ``$DUMPSCOPE_RKNN_VENV``,
``$DUMPSCOPE_OPENVINO_VENV``, ``$DUMPSCOPE_NCNN_VENV`` (default ``/work/envs/{rknn,openvino,ncnn}``);
a case whose venv is absent is skipped with that reason.  The target dump is built once by that
venv's ``dumpscope dump --target ...`` and cached in ``<cache>/vendor/<case>/``; the golden dump
(onnxruntime, same inputs) and every judgement run here, with the product's own API.

Judged per case (exit 1 when one fails):
* every vendor layer/blob is a row paired with an ONNX tensor, or a target-only row that says why;
* RKNN: on the snapshot's own golden/simulator, our cosine and distance agree with every row
  ``error_analysis.txt`` prints (counted; a disagreement is reported, not hidden), and for int8 builds
  ``diagnose``'s rank 1 is the layer RKNN's "single" column shows worst, class quantisation, with the
  hybrid-quantisation remedy naming it;
* OpenVINO / ncnn: counts of paired rows and what diagnose ranks first (reported); openvino-fp16
  must have run in f16 (its dump's notes), never f32 compared with f32;
* ncnn: the blobs counted by how each was paired or why not (``ncnn_kinds``: structure, values,
  name, split, reshape, pnnx-made, constant, unpaired), from the dump's manifest; a blob left
  unpaired fails the case.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from bench.realmodels.models import MODELS, ModelUnavailable, cache_root, model_path

TOOLKITS = {
    "rknn": "DUMPSCOPE_RKNN_VENV",
    "openvino": "DUMPSCOPE_OPENVINO_VENV",
    "ncnn": "DUMPSCOPE_NCNN_VENV",
}
#: (target, model) of every case: at least two real models per toolchain.
CASES = (
    ("rknn-int8", "ppocr-det"),
    ("rknn-int8", "yolov8n"),
    ("rknn-fp16", "ppocr-det"),
    ("rknn-fp16", "yolov8n"),
    ("openvino-int8", "ppocr-det"),
    ("openvino-int8", "yolov8n"),
    ("openvino-fp16", "ppocr-det"),
    ("openvino-fp16", "yolov8n"),
    ("ncnn", "ppocr-cls"),
    ("ncnn", "ppocr-det"),
    ("ncnn", "yolov8n"),
    ("ncnn", "ppocr-rec"),  # SVTR neck: LayerNorm, MultiHeadAttention, Gemm fused by pnnx
)
BUILD_TIMEOUT = 1800


def venv_of(target: str) -> Path:
    kit = target.split("-")[0]
    return Path(os.environ.get(TOOLKITS[kit], f"/work/envs/{kit}"))


@dataclass
class Outcome:
    case: str
    status: str  # pass / fail / skip
    facts: dict[str, Any]
    reasons: list[str]


def _build(target: str, key: str, model: Path, work: Path) -> tuple[Path, Path]:
    """(golden dump, target dump), built once and cached."""
    from dumpscope.core.onnx.runner import dump_model

    shapes = MODELS[key].shapes
    out = work / "target"
    if not (out / ("error_analysis.txt" if target.startswith("rknn") else "manifest.json")).is_file():
        exe = venv_of(target) / "bin" / "dumpscope"
        cmd = [str(exe), "dump", str(model), "-o", str(out), "--target", target, "-is", shapes]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False)
        (work / "build.log").write_text(done.stdout + done.stderr)
        if done.returncode != 0:
            raise RuntimeError(f"{target} build failed (exit {done.returncode}): see {work / 'build.log'}")
    golden = work / "golden"
    if not (golden / "manifest.json").is_file():
        saved = sorted((out / "inputs").glob("*.npy"))
        dump_model(model, golden, inputs=[f"{p.stem}={p}" for p in saved], input_shapes=shapes)
    return golden, out


def _pairing_facts(frame: pl.DataFrame) -> tuple[dict[str, int], list[str]]:
    rows = frame.filter(pl.col("side").is_in(["both", "target"]))
    only = rows.filter(pl.col("side") == "target")
    unexplained = only.filter(
        pl.col("message").is_null() | pl.col("message").str.contains("no golden tensor of this name")
    )
    facts = {"target_rows": rows.height, "paired": rows.height - only.height, "explained": only.height}
    return facts, [f"unexplained target row {n!r}" for n in unexplained["name"]]


def _rknn(target: str, snap: Path, facts: dict[str, Any], reasons: list[str]) -> None:
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.core.diagnosis.rknn import worst_single
    from dumpscope.core.vendor import rknn

    report = rknn.read_report(snap / rknn.REPORT)
    cmp = compare(snap / "golden", snap / "simulator", workers=1)
    f = cmp.frame
    printed = f.filter(pl.col("name").is_in([r.name for r in report.rows if not r.blank]))
    agree = printed.filter(
        pl.col("rknn_cos_agrees").fill_null(False) & pl.col("rknn_euc_agrees").fill_null(False)
    )
    facts.update(vendor_layers=len(report.rows), printed_rows=printed.height, agreeing_rows=agree.height)
    facts["disagreeing"] = sorted(set(printed["name"]) - set(agree["name"]))
    worst = worst_single(f).row(0, named=True)
    facts["vendor_worst_single"] = [worst["name"], worst["rknn_single_cos"]]
    top = diagnose(cmp, replay=False).root_causes
    facts["diagnose_rank1"] = [top[0].name, top[0].cause] if top else None
    if target == "rknn-int8":
        if not top or top[0].name != worst["name"] or top[0].cause != "quantisation":
            reasons.append(
                f"rank 1 {facts['diagnose_rank1']} is not RKNN's worst single layer {worst['name']!r}"
            )
        elif "hybrid_quantization_step1" not in top[0].advice or f"'{worst['name']}'" not in top[0].advice:
            reasons.append("rank 1's advice does not name the layer in RKNN's hybrid quantisation")
    if agree.height < printed.height - 1:  # one row of the four runs differs (det fp16's Sigmoid distance)
        reasons.append(f"only {agree.height} of {printed.height} printed rows agree")


def _manifest_facts(target: str, out: Path, facts: dict[str, Any], reasons: list[str]) -> None:
    """What the target dump's own manifest records: ncnn's pairing kinds, OpenVINO's precision."""
    manifest = json.loads((out / "manifest.json").read_text())
    notes = manifest.get("notes") or []
    if target == "ncnn":
        kinds: dict[str, int] = {}
        for entry in manifest.get("tensors", []):
            kind = (entry.get("vendor") or {}).get("pairing_kind")
            if kind:
                kinds[kind] = kinds.get(kind, 0) + 1
        facts["ncnn_kinds"] = dict(sorted(kinds.items()))
        facts["ncnn_note"] = notes[0] if notes else None
        if kinds.get("unpaired"):
            reasons.append(f"{kinds['unpaired']} ncnn blobs left unpaired")
    elif target == "openvino-fp16":
        facts["precision_note"] = next((n for n in notes if "INFERENCE_PRECISION_HINT" in n), None)
        if not facts["precision_note"] or "reports f16" not in facts["precision_note"]:
            reasons.append("the OpenVINO fp16 dump does not say it ran in f16")


def judge(target: str, key: str) -> Outcome:
    name = f"{target}:{key}"
    if not (venv_of(target) / "bin" / "dumpscope").is_file():
        why = f"no {target.split('-')[0]} venv at {venv_of(target)} (set {TOOLKITS[target.split('-')[0]]})"
        return Outcome(name, "skip", {}, [why])
    try:
        model = model_path(key)
    except ModelUnavailable as exc:
        return Outcome(name, "skip", {}, [str(exc)])
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.diagnosis.engine import diagnose

    work = cache_root() / "vendor" / name.replace(":", "-")
    work.mkdir(parents=True, exist_ok=True)
    try:
        golden, out = _build(target, key, model, work)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return Outcome(name, "fail", {}, [str(exc)])
    cmp = compare(golden, out, model=model, workers=1)
    facts, reasons = _pairing_facts(cmp.frame)
    if target.startswith("rknn"):
        _rknn(target, out, facts, reasons)
    else:
        top = diagnose(cmp, replay=False).root_causes
        facts["diagnose_rank1"] = [top[0].name, top[0].cause] if top else None
        facts["health"] = {r["health"]: r["count"] for r in cmp.frame["health"].value_counts().to_dicts()}
        _manifest_facts(target, out, facts, reasons)
    return Outcome(name, "fail" if reasons else "pass", facts, reasons)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.realmodels.vendor", description=__doc__.split("\n")[0])
    ap.add_argument("--case", action="append", help="TARGET:MODEL (default: every case)")
    ap.add_argument("-o", "--output", type=Path, help="write the outcomes as JSON")
    args = ap.parse_args(argv)
    cases = [tuple(c.split(":", 1)) for c in args.case] if args.case else list(CASES)
    outcomes = [judge(t, m) for t, m in cases]
    for o in outcomes:
        print(f"{o.status:4} {o.case:28} {json.dumps(o.facts, default=str)}")
        for r in o.reasons:
            print(f"       {r}")
    if args.output:
        args.output.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1, default=str))
    return 1 if any(o.status == "fail" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
