"""The corpus cases: how each pair of dumps is made and what the true answer is.

A case's ``truth`` lists the tensor names (or node names) any of which is a correct
rank-1 root cause; an empty ``truth`` means "no culprit".  ``expect`` says how the
answer is judged (see :mod:`bench.realmodels.judge`):

``culprit``   rank 1 names a truth tensor, with the case's class and fitting advice
``healthy``   compare and diagnose exit 0 (no FAIL row)
``drift``     no single culprit: no root cause, or rank 1 of class drift
``mismatch``  compare and diagnose exit non-zero with a message matching ``message``
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.realmodels import faults
from bench.realmodels.build import Builder
from bench.realmodels.models import LIGHT_MODELS, MODELS, WHEEL_MODELS, model_path

#: Cause strings a diagnosis may use for each corpus class (lower case, '-' for spaces).
#: Today's names come first; the others are the names issue 10 asks for.
CLASS_ALIASES: dict[str, tuple[str, ...]] = {
    "layout": ("layout", "layout-mismatch"),
    "operator": ("operator", "operator-implementation", "operator-implementation-differs", "implementation"),
    "preprocessing": ("input-mismatch", "pre-processing", "preprocessing"),
    "fusion": ("fusion",),
    "overflow": ("overflow", "clamped", "constant-range"),  # a value beyond the target dtype, constants included
    "nan": ("nan-inf", "nan-origin", "nan"),
    "quantisation": ("quantisation", "quantization"),
    "drift": ("drift", "accumulated-precision-drift", "precision-drift"),
    "none": (),
}

NOT_ASCEND = r"fusion_switch\.cfg"
KEEP_FP32 = r"(?i)--keep-fp32|keep (it|this node|the node|the op|this op|the layer)s? in fp32"
PARTNER = r"(?i)have a partner|same model"
ASKS_MODEL = r"give --model"  # item 6: asked for although --model was given
WRONG_MODEL = r"(?i)sha256|not the model|different model|same model|was dumped from"

Build = Callable[[Builder, "Case"], tuple[Path, Path]]


@dataclass(frozen=True)
class Case:
    """One corpus case: a golden/target pair with a known answer."""

    name: str
    model: str  # corpus model key (the --model given to compare/diagnose)
    cls: str  # a CLASS_ALIASES key
    expect: str  # culprit | healthy | drift | mismatch
    build: Build
    how: str  # how the target was made
    truth: tuple[str, ...] = ()
    must: tuple[str, ...] = ()  # regexes the rank-1 advice must match (all)
    must_not: tuple[str, ...] = (NOT_ASCEND,)  # regexes no cause's advice may match
    message: str = ""  # mismatch cases: regex of the error message
    model_flag: str | None = None  # corpus model passed as --model, when not ``model``
    quick: bool = False
    slices: bool = False  # judge the truth tensor per channel slice too
    text_must_not: tuple[str, ...] = ()  # regexes the plain-text diagnose (run only when set) may not print


# ------------------------------------------------------------------ builders


def _golden_and(target: Callable[[Builder, Case, Path], Path]) -> Build:
    """A builder whose golden is the model's plain golden dump."""
    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        golden = b.golden(case.model)
        return golden, target(b, case, golden)
    return build


def _recipe(target: str) -> Build:
    return _golden_and(lambda b, case, golden: b.recipe(case.model, target))


def _modified_model(make: Callable[[Path, Path], Path]) -> Build:
    """Target = a modified copy of the model fed the golden inputs."""
    def target(b: Builder, case: Case, golden: Path) -> Path:
        out = b.case_dir(case.name) / "target"
        if b.fresh(out):
            return out
        model = make(model_path(case.model), b.case_dir(case.name) / "model.onnx")
        return b.dump(model, out, MODELS[case.model].shapes, b.inputs_of(golden))
    return _golden_and(target)


def _modified_input(change: Callable[[np.ndarray], np.ndarray], name: str) -> Build:
    """Target = the unmodified model fed a changed copy of graph input ``name``."""
    def target(b: Builder, case: Case, golden: Path) -> Path:
        out = b.case_dir(case.name) / "target"
        if b.fresh(out):
            return out
        feeds = b.inputs_of(golden)
        arr = np.load(feeds[name], allow_pickle=False)
        feeds[name] = faults.save_input(change(arr), b.case_dir(case.name) / f"{name}.npy")
        return b.dump(model_path(case.model), out, MODELS[case.model].shapes, feeds)
    return _golden_and(target)


def _scaled_pair(scale: float, name: str, target: str) -> Build:
    """Golden and ``target`` recipe both fed input ``name`` times ``scale`` (e.g. unnormalised audio)."""
    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        base = b.inputs_of(b.golden(case.model))
        feeds = dict(base)
        arr = np.load(base[name], allow_pickle=False)
        feeds[name] = faults.save_input(arr * np.float32(scale), b.case_dir(case.name) / f"{name}.npy")
        shapes = MODELS[case.model].shapes
        golden = b.dump(model_path(case.model), b.case_dir(case.name) / "golden", shapes, feeds)
        return golden, b.dump(model_path(case.model), b.case_dir(case.name) / "target", shapes, feeds, target)
    return build


def _model_pair(make: Callable[[Path, Path], Path], target: str) -> Build:
    """Golden and ``target`` recipe both of a modified model (a model that is itself hard for the target)."""
    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        work = b.case_dir(case.name)
        golden_out, target_out = work / "golden", work / "target"
        if b.fresh(golden_out) and b.fresh(target_out):
            return golden_out, target_out
        feeds = b.inputs_of(b.golden(case.model))
        model = make(model_path(case.model), work / "model.onnx")
        shapes = MODELS[case.model].shapes
        return b.dump(model, golden_out, shapes, feeds), b.dump(model, target_out, shapes, feeds, target)
    return build


def _nhwc_of(inner: Build) -> Build:
    """The pair ``inner`` builds, with the target re-stored NHWC (a vendor's layout; same numbers)."""
    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        golden, target = inner(b, case)
        out = b.case_dir(case.name) / "target-nhwc"
        if not b.fresh(out):
            faults.nhwc_copy(target, out)
            b.mark(out)
        return golden, out
    return build


def _build_fusion(b: Builder, case: Case) -> tuple[Path, Path]:
    """Target = onnxruntime's optimised det graph with one fused HardSigmoid alpha 0.2 (Paddle's slope) for 1/6.

    Its tensors are dumped by running the modified optimised graph; its manifest is the
    real ``--target optimized`` manifest of the unmodified model (same graph, same names),
    so ``fused_from`` maps the fused nodes to their originals.
    """
    golden = b.golden(case.model)
    reference = b.recipe(case.model, "optimized")
    out = b.case_dir(case.name) / "target"
    if b.fresh(out):
        return golden, out
    work = b.case_dir(case.name)
    opt = faults.optimised_model(model_path(case.model), work / "optimized.onnx")
    bad = faults.fused_activation_param(opt, work / "model.onnx", FUSED_NODE, [0.2, 0.5])
    b.dump(bad, out, MODELS[case.model].shapes, b.inputs_of(golden))
    mine = {e["name"] for e in json.loads((out / "manifest.json").read_text())["tensors"]}
    ref = json.loads((reference / "manifest.json").read_text())
    if mine != {e["name"] for e in ref["tensors"]}:
        raise RuntimeError("the re-made optimised graph does not match the --target optimized dump's tensors")
    (out / "manifest.json").write_text(json.dumps(ref, indent=1))
    b.mark(out)
    return golden, out


def _build_quant_head(b: Builder, case: Case) -> tuple[Path, Path]:
    """Target = YOLOv8n with int8 Q/DQ (one per-tensor scale) on the head's output Concat."""
    golden = b.golden(case.model)
    out = b.case_dir(case.name) / "target"
    if b.fresh(out):
        return golden, out
    manifest = json.loads((golden / "manifest.json").read_text())
    entry = next(e for e in manifest["tensors"] if e["name"] == "output0")
    value = np.load(golden / entry["file"], allow_pickle=False)
    model = faults.quantise_output(model_path(case.model), b.case_dir(case.name) / "model.onnx", "output0", value)
    return golden, b.dump(model, out, MODELS[case.model].shapes, b.inputs_of(golden))


def _build_nan(b: Builder, case: Case) -> tuple[Path, Path]:
    """Target = PP-OCRv4 rec whose first LayerNorm eps constant is -1: Sqrt of a negative variance."""
    eps = faults.layernorm_eps(model_path(case.model))[0]
    return _modified_model(lambda src, dst: faults.set_constant(src, dst, eps, -1.0))(b, case)


def _build_nhwc(b: Builder, case: Case) -> tuple[Path, Path]:
    """Target = the golden dump stored NHWC (a vendor's layout; same numbers)."""
    golden = b.golden(case.model)
    out = b.case_dir(case.name) / "target"
    if not b.fresh(out):
        faults.nhwc_copy(golden, out)
        b.mark(out)
    return golden, out


def _plain(inner: Build) -> Build:
    """The pair ``inner`` builds, both re-stored as plain ``{tensor}.npy`` folders (no manifest)."""
    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        pair = inner(b, case)
        outs = []
        for side, src in zip(("golden-npy", "target-npy"), pair):
            out = b.case_dir(case.name) / side
            if not b.fresh(out):
                faults.plain_npy(src, out)
                b.mark(out)
            outs.append(out)
        return outs[0], outs[1]
    return build


def _build_unrelated(other: str) -> Build:
    """Golden of ``case.model`` against the golden of another model."""
    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        return b.golden(case.model), b.golden(other)
    return build


FUSED_NODE = "p2o.Conv.23"  # FusedConv(Conv + HardSigmoid) in ORT's optimised PP-OCRv4 det
LN_EPS, LN_ADD, LN_SQRT = "p2o.helper.constant.154", "p2o.Add.233", "p2o.Sqrt.1"
VAD = "/encoder/feature_extractor/"

# ------------------------------------------------------------------ the corpus

FP32_TARGET = (NOT_ASCEND, KEEP_FP32)

FAULT_CASES: tuple[Case, ...] = (
    Case("vad-pad-mode", "silero-vad", "operator", "culprit",
         _modified_model(lambda s, d: faults.set_attribute(s, d, f"{VAD}padding/Pad", {"mode": "edge"})),
         "Silero VAD: the STFT's reflect Pad implemented as edge padding",
         truth=(f"{VAD}padding/Pad_output_0", f"{VAD}padding/Pad"),
         must=(r"(?i)implement|kernel|mode|attribute",), must_not=FP32_TARGET, quick=True),
    Case("det-resize-mode", "ppocr-det", "operator", "culprit",
         _modified_model(lambda s, d: faults.set_attribute(s, d, "p2o.Resize.0", {"mode": "linear"})),
         "PP-OCRv4 det: the first FPN Resize implemented as linear instead of nearest",
         truth=("nearest_interp_v2_0.tmp_0", "p2o.Resize.0"),
         must=(r"(?i)implement|kernel|mode|attribute",), must_not=FP32_TARGET),
    Case("yolo-resize-mode", "yolov8n", "operator", "culprit",
         _modified_model(lambda s, d: faults.set_attribute(s, d, "/model.10/Resize", {"mode": "linear"})),
         "YOLOv8n: the first neck Resize implemented as linear instead of nearest",
         truth=("/model.10/Resize_output_0", "/model.10/Resize"),
         must=(r"(?i)implement|kernel|mode|attribute",), must_not=FP32_TARGET),
    Case("det-resize-nhwc", "ppocr-det", "operator", "culprit",
         _nhwc_of(_modified_model(lambda s, d: faults.set_attribute(s, d, "p2o.Resize.0", {"mode": "linear"}))),
         "det-resize-mode with the target dump stored NHWC: the layout must not hide (or fake) the fault",
         truth=("nearest_interp_v2_0.tmp_0", "p2o.Resize.0"),
         must=(r"(?i)implement|kernel|mode|attribute",), must_not=FP32_TARGET),
    Case("det-layout-input", "ppocr-det", "layout", "culprit",
         _modified_input(lambda x: x.transpose(0, 1, 3, 2), "x"),
         "PP-OCRv4 det fed its image with H and W swapped (same shape, 64x64)",
         truth=("x",), must=(r"(?i)layout|transpos|permut|NHWC|axis",), must_not=FP32_TARGET),
    Case("rec-bgr", "ppocr-rec", "preprocessing", "culprit",
         _modified_input(lambda x: x[:, ::-1], "x"),
         "PP-OCRv4 rec fed BGR instead of RGB", truth=("x",),
         must=(r"(?i)pre-?processing|normali[sz]|BGR|RGB|channel order",), must_not=FP32_TARGET),
    Case("yolo-bgr", "yolov8n", "preprocessing", "culprit",
         _modified_input(lambda x: x[:, ::-1], "images"),
         "YOLOv8n fed BGR instead of RGB", truth=("images",),
         must=(r"(?i)pre-?processing|normali[sz]|BGR|RGB|channel order",), must_not=FP32_TARGET),
    Case("cls-normalise", "ppocr-cls", "preprocessing", "culprit",
         _modified_input(lambda x: x * np.float32(0.5) + np.float32(0.5), "x"),
         "PP-OCR cls fed x*0.5+0.5 ([0,1] instead of [-1,1] normalisation)", truth=("x",),
         must=(r"(?i)pre-?processing|normali[sz]|mean|std",), must_not=FP32_TARGET, quick=True),
    Case("det-fusion-hardsigmoid", "ppocr-det", "fusion", "culprit", _build_fusion,
         "PP-OCRv4 det, ORT-optimised: FusedConv p2o.Conv.23 with HardSigmoid alpha 0.2 instead of 1/6",
         truth=("hardsigmoid_4.tmp_0", FUSED_NODE), must=(r"(?i)fus",), must_not=FP32_TARGET, quick=True),
    Case("vad-overflow-fp16", "silero-vad", "overflow", "culprit", _scaled_pair(10.0, "input", "fp16"),
         "Silero VAD fed audio x10 (unnormalised), fp16 target: the STFT power (Pow) exceeds 65504",
         truth=(f"{VAD}Pow_output_0", f"{VAD}Pow_1_output_0", f"{VAD}Pow", f"{VAD}Pow_1"),
         must=(r"(?i)clip|fp32|scale|65504|overflow",), quick=True),
    Case("rec-matmul-overflow-fp16", "ppocr-rec", "overflow", "culprit",
         _model_pair(lambda s, d: faults.scale_constant(s, d, "p2o.helper.constant.169", 3e4), "fp16"),
         "PP-OCRv4 rec whose first attention scale is x3e4 (both runs), fp16 target: q.k^T MatMul exceeds 65504 "
         "(its inputs stay below)",
         truth=("p2o.MatMul.3", "p2o.MatMul.2"), must=(r"(?i)clip|fp32|scale|65504|overflow",)),
    Case("rec-nan-eps", "ppocr-rec", "nan", "culprit", _build_nan,
         "PP-OCRv4 rec: the first LayerNorm's eps constant set to -1, Sqrt of a negative gives NaN",
         truth=(LN_EPS, LN_ADD, LN_SQRT, "p2o.Add.232", "p2o.Sqrt.0"),
         must=(r"(?i)nan|negative|sqrt|eps|constant",), must_not=FP32_TARGET),
    Case("yolo-int8-head", "yolov8n", "quantisation", "culprit", _build_quant_head,
         "YOLOv8n: int8 Q/DQ with one per-tensor scale on the head Concat (boxes 0-160, scores 0-1)",
         truth=("output0", "/model.22/Concat_25"), must=(r"(?i)int16|per[- ]channel|separate|own (scale|range)|split",),
         slices=True),
)

_PAD_EDGE = _modified_model(lambda s, d: faults.set_attribute(s, d, f"{VAD}padding/Pad", {"mode": "edge"}))

PLAIN_CASES: tuple[Case, ...] = (
    Case("vad-pad-mode-plain-npy", "silero-vad", "operator", "culprit", _plain(_PAD_EDGE),
         "vad-pad-mode stored as plain {tensor}.npy folders ('/' -> '_', no manifest), with --model",
         truth=(f"{VAD}padding/Pad_output_0", f"{VAD}padding/Pad"),
         must=(r"(?i)implement|kernel|mode|attribute",), must_not=FP32_TARGET, text_must_not=(ASKS_MODEL,)),
    Case("rec-bgr-plain-npy", "ppocr-rec", "preprocessing", "culprit",
         _plain(_modified_input(lambda x: x[:, ::-1], "x")),
         "rec-bgr stored as plain {tensor}.npy folders (no manifest), with --model", truth=("x",),
         must=(r"(?i)pre-?processing|normali[sz]|BGR|RGB|channel order",), must_not=FP32_TARGET,
         text_must_not=(ASKS_MODEL,)),
)

RECIPE_CASES: tuple[Case, ...] = (
    Case("rec-fp16-drift", "ppocr-rec", "drift", "drift", _recipe("fp16"),
         "PP-OCRv4 rec, dumpscope's fp16 recipe: rounding everywhere, no single culprit", must_not=(NOT_ASCEND,)),
    Case("det-fp16-bn-variance", "ppocr-det", "overflow", "culprit", _recipe("fp16"),
         "PP-OCRv4 det, dumpscope's fp16 recipe: the first BatchNorm's running variance (max 9.8e7) "
         "is clamped to 65504 (found by this corpus; not injected)",
         truth=("batch_norm_0.tmp_3", "p2o.BatchNormalization.1", "batch_norm_0.w_2"),
         must=(r"(?i)fp32|rescale|fold",)),
    Case("yolo-fp16-drift", "yolov8n", "drift", "drift", _recipe("fp16"),
         "YOLOv8n, dumpscope's fp16 recipe", must_not=(NOT_ASCEND,)),
    Case("cls-int8-drift", "ppocr-cls", "drift", "drift", _recipe("int8"),
         "PP-OCR cls, dumpscope's int8 recipe (QDQ per tensor)", must_not=(NOT_ASCEND,)),
    Case("yolo-int8-recipe", "yolov8n", "quantisation", "culprit", _recipe("int8"),
         "YOLOv8n, dumpscope's int8 recipe: the head Concat shares one scale across boxes and scores",
         truth=("output0", "/model.22/Concat_25"), slices=True),
)

HEALTHY_CASES: tuple[Case, ...] = (
    *(Case(f"{m.key}-optimized", m.key, "none", "healthy", _recipe("optimized"),
           f"{m.key}: onnxruntime's extended-optimised graph (numerically the golden)",
           quick=m.key == "silero-vad") for m in (*WHEEL_MODELS, *LIGHT_MODELS)),
    Case("det-nhwc-files", "ppocr-det", "none", "healthy", _build_nhwc,
         "PP-OCRv4 det golden dump re-stored NHWC (a vendor's layout, same numbers)"),
)

MISMATCH_CASES: tuple[Case, ...] = (
    Case("unrelated-dumps", "ppocr-det", "none", "mismatch", _build_unrelated("ppocr-cls"),
         "golden of PP-OCRv4 det against the golden of PP-OCR cls", message=PARTNER, quick=True),
    Case("wrong-model", "silero-vad", "none", "mismatch", _recipe("optimized"),
         "Silero VAD dumps compared with --model PP-OCR cls", message=WRONG_MODEL, model_flag="ppocr-cls", quick=True),
)

FP16_MAX = 65504.0


def _saturated(tensor: str, scaled: tuple[str, float] | None = None,
               make: Callable[[Path, Path], Path] | None = None) -> Build:
    """Golden: the model (or ``make``'s copy of it) fed the golden inputs, input ``scaled[0]`` times
    ``scaled[1]``; target: the same with ``tensor`` clipped at the float16 maximum (a target
    that saturates there, run in float32 by onnxruntime)."""
    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        work = b.case_dir(case.name)
        golden_out, target_out = work / "golden", work / "target"
        if b.fresh(golden_out) and b.fresh(target_out):
            return golden_out, target_out
        feeds = b.inputs_of(b.golden(case.model))
        if scaled is not None:
            name, factor = scaled
            arr = np.load(feeds[name], allow_pickle=False)
            feeds[name] = faults.save_input(arr * np.float32(factor), work / f"{name}.npy")
        model = model_path(case.model) if make is None else make(model_path(case.model), work / "golden.onnx")
        clipped = faults.clip_after(model, work / "model.onnx", tensor, -FP16_MAX, FP16_MAX)
        shapes = MODELS[case.model].shapes
        return b.dump(model, golden_out, shapes, feeds), b.dump(clipped, target_out, shapes, feeds)
    return build


SATURATION = r"(?i)saturat|clip|range|65504|rescale"

SATURATION_CASES: tuple[Case, ...] = (
    Case("vad-saturate-fp16", "silero-vad", "overflow", "culprit",
         _saturated(f"{VAD}Pow_output_0", ("input", 10.0)),
         "Silero VAD fed audio x10; the target clips the STFT power (Pow) at +-65504, where the golden "
         "reaches 9.7e4",
         truth=(f"{VAD}Pow_output_0", f"{VAD}Pow"), must=(SATURATION,), must_not=FP32_TARGET),
    Case("rec-saturate-fp16", "ppocr-rec", "overflow", "culprit",
         _saturated("p2o.MatMul.3",
                    make=lambda s, d: faults.scale_constant(s, d, "p2o.helper.constant.169", 3e4)),
         "PP-OCRv4 rec whose first attention scale is x3e4 (both runs); the target clips q.k^T (MatMul) at "
         "+-65504, where the golden reaches 1e5",
         truth=("p2o.MatMul.3",), must=(SATURATION,), must_not=FP32_TARGET),
)

CASES: tuple[Case, ...] = (*FAULT_CASES, *PLAIN_CASES, *RECIPE_CASES, *HEALTHY_CASES, *MISMATCH_CASES,
                           *SATURATION_CASES)
BY_NAME: dict[str, Case] = {c.name: c for c in CASES}
QUICK: tuple[Case, ...] = tuple(c for c in CASES if c.quick)
