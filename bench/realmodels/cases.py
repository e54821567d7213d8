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
import re
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
    "overflow": (
        "overflow",
        "clamped",
        "constant-range",
    ),  # a value beyond the target dtype, constants included
    "nan": ("nan-inf", "nan-origin", "nan"),
    "quantisation": ("quantisation", "quantization"),
    "drift": ("drift", "accumulated-precision-drift", "precision-drift"),
    "weights": ("weights-differ",),
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
    model_flag: str | None = None  # corpus model passed as --model, when not ``model`` ("": no --model)
    quick: bool = False
    slices: bool = False  # judge the truth tensor per channel slice too
    text_must_not: tuple[str, ...] = ()  # regexes the plain-text diagnose (run only when set) may not print
    flags: tuple[str, ...] = ()  # more options for compare and diagnose (e.g. --preset int8)
    also: tuple[str, ...] = ()  # other CLASS_ALIASES keys a right rank 1 may have
    truth_of: Callable[[Path, Path], tuple[str, ...]] | None = None
    """Truth read from the built case (original model, case directory) when it cannot be listed by hand."""


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
    """Target = onnxruntime's optimised det graph with one fused HardSigmoid alpha 0.2 (Paddle's slope)
    for 1/6.

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
    model = faults.quantise_output(
        model_path(case.model), b.case_dir(case.name) / "model.onnx", "output0", value
    )
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


def _plain(inner: Build, spell: Callable[[str], str] | None = None) -> Build:
    """The pair ``inner`` builds, both re-stored as plain ``{tensor}.npy`` folders (no manifest;
    names spelled as ``spell`` says, by default '/' -> '_')."""

    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        pair = inner(b, case)
        outs = []
        for side, src in zip(("golden-npy", "target-npy"), pair, strict=False):
            out = b.case_dir(case.name) / side
            if not b.fresh(out):
                faults.plain_npy(src, out, *([spell] if spell else []))
                b.mark(out)
            outs.append(out)
        return outs[0], outs[1]

    return build


def _build_unrelated(other: str) -> Build:
    """Golden of ``case.model`` against the golden of another model."""

    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        return b.golden(case.model), b.golden(other)

    return build


def _ort_optimised(level: str) -> Build:
    """Target = onnxruntime's own optimised graph of the model (``optimized_model_filepath`` at
    ``level``), dumped as a model of its own with the golden's inputs: numerically the golden."""

    def target(b: Builder, case: Case, golden: Path) -> Path:
        out = b.case_dir(case.name) / "target"
        if b.fresh(out):
            return out
        opt = faults.optimised_model(
            model_path(case.model), b.case_dir(case.name) / f"ort-{level}.onnx", level
        )
        return b.dump(opt, out, MODELS[case.model].shapes, b.inputs_of(golden))

    return _golden_and(target)


def _ascend_spelling(name: str) -> str:
    """A tensor name as Ascend-style tools spell file names: '.', '/', '\\' and space -> '_'."""
    return re.sub(r"[./\\ ]", "_", name)


FUSED_NODE = "p2o.Conv.23"  # FusedConv(Conv + HardSigmoid) in ORT's optimised PP-OCRv4 det
LN_EPS, LN_ADD, LN_SQRT = "p2o.helper.constant.154", "p2o.Add.233", "p2o.Sqrt.1"
VAD = "/encoder/feature_extractor/"

# ------------------------------------------------------------------ the corpus

FP32_TARGET = (NOT_ASCEND, KEEP_FP32)

FAULT_CASES: tuple[Case, ...] = (
    Case(
        "vad-pad-mode",
        "silero-vad",
        "operator",
        "culprit",
        _modified_model(lambda s, d: faults.set_attribute(s, d, f"{VAD}padding/Pad", {"mode": "edge"})),
        "Silero VAD: the STFT's reflect Pad implemented as edge padding",
        truth=(f"{VAD}padding/Pad_output_0", f"{VAD}padding/Pad"),
        must=(r"(?i)implement|kernel|mode|attribute",),
        must_not=FP32_TARGET,
        quick=True,
    ),
    Case(
        "det-resize-mode",
        "ppocr-det",
        "operator",
        "culprit",
        _modified_model(lambda s, d: faults.set_attribute(s, d, "p2o.Resize.0", {"mode": "linear"})),
        "PP-OCRv4 det: the first FPN Resize implemented as linear instead of nearest",
        truth=("nearest_interp_v2_0.tmp_0", "p2o.Resize.0"),
        must=(r"(?i)implement|kernel|mode|attribute",),
        must_not=FP32_TARGET,
    ),
    Case(
        "yolo-resize-mode",
        "yolov8n",
        "operator",
        "culprit",
        _modified_model(lambda s, d: faults.set_attribute(s, d, "/model.10/Resize", {"mode": "linear"})),
        "YOLOv8n: the first neck Resize implemented as linear instead of nearest",
        truth=("/model.10/Resize_output_0", "/model.10/Resize"),
        must=(r"(?i)implement|kernel|mode|attribute",),
        must_not=FP32_TARGET,
    ),
    Case(
        "det-resize-nhwc",
        "ppocr-det",
        "operator",
        "culprit",
        _nhwc_of(
            _modified_model(lambda s, d: faults.set_attribute(s, d, "p2o.Resize.0", {"mode": "linear"}))
        ),
        "det-resize-mode with the target dump stored NHWC: the layout must not hide (or fake) the fault",
        truth=("nearest_interp_v2_0.tmp_0", "p2o.Resize.0"),
        must=(r"(?i)implement|kernel|mode|attribute",),
        must_not=FP32_TARGET,
    ),
    Case(
        "det-layout-input",
        "ppocr-det",
        "layout",
        "culprit",
        _modified_input(lambda x: x.transpose(0, 1, 3, 2), "x"),
        "PP-OCRv4 det fed its image with H and W swapped (same shape, 64x64)",
        truth=("x",),
        must=(r"(?i)layout|transpos|permut|NHWC|axis",),
        must_not=FP32_TARGET,
    ),
    Case(
        "rec-bgr",
        "ppocr-rec",
        "preprocessing",
        "culprit",
        _modified_input(lambda x: x[:, ::-1], "x"),
        "PP-OCRv4 rec fed BGR instead of RGB",
        truth=("x",),
        must=(r"(?i)pre-?processing|normali[sz]|BGR|RGB|channel order",),
        must_not=FP32_TARGET,
    ),
    Case(
        "yolo-bgr",
        "yolov8n",
        "preprocessing",
        "culprit",
        _modified_input(lambda x: x[:, ::-1], "images"),
        "YOLOv8n fed BGR instead of RGB",
        truth=("images",),
        must=(r"(?i)pre-?processing|normali[sz]|BGR|RGB|channel order",),
        must_not=FP32_TARGET,
    ),
    Case(
        "cls-normalise",
        "ppocr-cls",
        "preprocessing",
        "culprit",
        _modified_input(lambda x: x * np.float32(0.5) + np.float32(0.5), "x"),
        "PP-OCR cls fed x*0.5+0.5 ([0,1] instead of [-1,1] normalisation)",
        truth=("x",),
        must=(r"(?i)pre-?processing|normali[sz]|mean|std",),
        must_not=FP32_TARGET,
        quick=True,
    ),
    Case(
        "det-fusion-hardsigmoid",
        "ppocr-det",
        "fusion",
        "culprit",
        _build_fusion,
        "PP-OCRv4 det, ORT-optimised: FusedConv p2o.Conv.23 with HardSigmoid alpha 0.2 instead of 1/6",
        truth=("hardsigmoid_4.tmp_0", FUSED_NODE),
        must=(r"(?i)fus",),
        must_not=FP32_TARGET,
        quick=True,
    ),
    Case(
        "vad-overflow-fp16",
        "silero-vad",
        "overflow",
        "culprit",
        _scaled_pair(10.0, "input", "fp16"),
        "Silero VAD fed audio x10 (unnormalised), fp16 target: the STFT power (Pow) exceeds 65504",
        truth=(f"{VAD}Pow_output_0", f"{VAD}Pow_1_output_0", f"{VAD}Pow", f"{VAD}Pow_1"),
        must=(r"(?i)clip|fp32|scale|65504|overflow",),
        quick=True,
    ),
    Case(
        "rec-matmul-overflow-fp16",
        "ppocr-rec",
        "overflow",
        "culprit",
        _model_pair(lambda s, d: faults.scale_constant(s, d, "p2o.helper.constant.169", 3e4), "fp16"),
        "PP-OCRv4 rec whose first attention scale is x3e4 (both runs), fp16 target: q.k^T MatMul exceeds "
        "65504 "
        "(its inputs stay below)",
        truth=("p2o.MatMul.3", "p2o.MatMul.2"),
        must=(r"(?i)clip|fp32|scale|65504|overflow",),
    ),
    Case(
        "rec-nan-eps",
        "ppocr-rec",
        "nan",
        "culprit",
        _build_nan,
        "PP-OCRv4 rec: the first LayerNorm's eps constant set to -1, Sqrt of a negative gives NaN",
        truth=(LN_EPS, LN_ADD, LN_SQRT, "p2o.Add.232", "p2o.Sqrt.0"),
        must=(r"(?i)nan|negative|sqrt|eps|constant",),
        must_not=FP32_TARGET,
        also=("weights",),
    ),  # the Add reading the changed eps: its constant differs (issue 20 item 3)
    Case(
        "yolo-int8-head",
        "yolov8n",
        "quantisation",
        "culprit",
        _build_quant_head,
        "YOLOv8n: int8 Q/DQ with one per-tensor scale on the head Concat (boxes 0-160, scores 0-1)",
        truth=("output0", "/model.22/Concat_25"),
        must=(r"(?i)int16|per[- ]channel|separate|own (scale|range)|split",),
        slices=True,
    ),
)

_PAD_EDGE = _modified_model(lambda s, d: faults.set_attribute(s, d, f"{VAD}padding/Pad", {"mode": "edge"}))

PLAIN_CASES: tuple[Case, ...] = (
    Case(
        "vad-pad-mode-plain-npy",
        "silero-vad",
        "operator",
        "culprit",
        _plain(_PAD_EDGE),
        "vad-pad-mode stored as plain {tensor}.npy folders ('/' -> '_', no manifest), with --model",
        truth=(f"{VAD}padding/Pad_output_0", f"{VAD}padding/Pad"),
        must=(r"(?i)implement|kernel|mode|attribute",),
        must_not=FP32_TARGET,
        text_must_not=(ASKS_MODEL,),
    ),
    Case(
        "rec-bgr-plain-npy",
        "ppocr-rec",
        "preprocessing",
        "culprit",
        _plain(_modified_input(lambda x: x[:, ::-1], "x")),
        "rec-bgr stored as plain {tensor}.npy folders (no manifest), with --model",
        truth=("x",),
        must=(r"(?i)pre-?processing|normali[sz]|BGR|RGB|channel order",),
        must_not=FP32_TARGET,
        text_must_not=(ASKS_MODEL,),
    ),
)

RECIPE_CASES: tuple[Case, ...] = (
    Case(
        "rec-fp16-drift",
        "ppocr-rec",
        "drift",
        "drift",
        _recipe("fp16"),
        "PP-OCRv4 rec, dumpscope's fp16 recipe: rounding everywhere, no single culprit",
        must_not=(NOT_ASCEND,),
    ),
    Case(
        "det-fp16-bn-variance",
        "ppocr-det",
        "overflow",
        "culprit",
        _recipe("fp16"),
        "PP-OCRv4 det, dumpscope's fp16 recipe: the first BatchNorm's running variance (max 9.8e7) "
        "is clamped to 65504 (found by this corpus; not injected)",
        truth=("batch_norm_0.tmp_3", "p2o.BatchNormalization.1", "batch_norm_0.w_2"),
        must=(r"(?i)fp32|rescale|fold",),
    ),
    Case(
        "yolo-fp16-drift",
        "yolov8n",
        "drift",
        "drift",
        _recipe("fp16"),
        "YOLOv8n, dumpscope's fp16 recipe",
        must_not=(NOT_ASCEND,),
    ),
    Case(
        "cls-int8-drift",
        "ppocr-cls",
        "drift",
        "drift",
        _recipe("int8"),
        "PP-OCR cls, dumpscope's int8 recipe (QDQ per tensor)",
        must_not=(NOT_ASCEND,),
    ),
    Case(
        "yolo-int8-recipe",
        "yolov8n",
        "quantisation",
        "culprit",
        _recipe("int8"),
        "YOLOv8n, dumpscope's int8 recipe: the head Concat shares one scale across boxes and scores",
        truth=("output0", "/model.22/Concat_25"),
        slices=True,
    ),
)

HEALTHY_CASES: tuple[Case, ...] = (
    *(
        Case(
            f"{m.key}-optimized",
            m.key,
            "none",
            "healthy",
            _recipe("optimized"),
            f"{m.key}: onnxruntime's extended-optimised graph (numerically the golden)",
            quick=m.key == "silero-vad",
        )
        for m in (*WHEEL_MODELS, *LIGHT_MODELS)
    ),
    Case(
        "det-nhwc-files",
        "ppocr-det",
        "none",
        "healthy",
        _build_nhwc,
        "PP-OCRv4 det golden dump re-stored NHWC (a vendor's layout, same numbers)",
    ),
)

MISMATCH_CASES: tuple[Case, ...] = (
    Case(
        "unrelated-dumps",
        "ppocr-det",
        "none",
        "mismatch",
        _build_unrelated("ppocr-cls"),
        "golden of PP-OCRv4 det against the golden of PP-OCR cls",
        message=PARTNER,
        quick=True,
    ),
    Case(
        "wrong-model",
        "silero-vad",
        "none",
        "mismatch",
        _recipe("optimized"),
        "Silero VAD dumps compared with --model PP-OCR cls",
        message=WRONG_MODEL,
        model_flag="ppocr-cls",
        quick=True,
    ),
)

LAYOUT = r"(?i)layout|transpos|permut|NHWC|axis"
_SHORT = {"ppocr-rec": "rec", "ppocr-cls": "cls", "yolov8n": "yolo", "light-shufflenet": "shufflenet"}

#: Issue 20: data in another axis order, at a graph input (an HWC image buffer handed over as
#: NCHW) and at a Reshape inside the graph (its NCHW input read as NHWC memory).
LAYOUT_CASES: tuple[Case, ...] = (
    *(
        Case(
            f"{_SHORT[key]}-nhwc-input",
            key,
            "layout",
            "culprit",
            _modified_input(faults.hwc_as_nchw, name),
            f"{key} fed its image as an HWC buffer declared NCHW (same shape, same values, another axis "
            "order)",
            truth=(name,),
            must=(LAYOUT,),
            must_not=FP32_TARGET,
        )
        for key, name in (("ppocr-rec", "x"), ("ppocr-cls", "x"), ("yolov8n", "images"))
    ),
    *(
        Case(
            f"{_SHORT[key]}-nhwc-reshape",
            key,
            "layout",
            "culprit",
            _modified_model(lambda s, d, node=node: faults.nhwc_reshape(s, d, node)),
            f"{key}: Reshape {node} reads its NCHW input as NHWC memory (a lost layout before a flatten)",
            truth=(output, node),
            must=(LAYOUT,),
            must_not=FP32_TARGET,
        )
        for key, node, output in (
            ("yolov8n", "/model.22/Reshape", "/model.22/Reshape_output_0"),
            ("ppocr-rec", "p2o.Reshape.68", "reshape2_26.tmp_0"),
            ("light-shufflenet", "n7", "r7"),
        )
    ),
)

#: Issue 20, item 7: onnxruntime's own optimised graphs (inlined activations: Conv+HardSigmoid as
#: FusedConv, SiLU as QuickGelu; at ORT_ENABLE_ALL the NCHWc blocked copies that keep their node's
#: name) are numerically the golden: 0 FAIL rows, exit 0, no row twice.
OPTIMISED_CASES: tuple[Case, ...] = (
    *(
        Case(
            f"{key}-ort-{level}",
            key,
            "none",
            "healthy",
            _ort_optimised(level),
            f"{key}: onnxruntime's own {level.upper()}-optimised graph "
            "(SessionOptions.optimized_model_filepath) "
            "dumped as a model, golden inputs",
            quick=(key, level) == ("ppocr-cls", "all"),
        )
        for key in ("ppocr-det", "ppocr-cls", "ppocr-rec", "yolov8n")
        for level in ("all", "extended")
    ),
    *(
        Case(
            f"{key}-ort-all-ascend-npy",
            key,
            "none",
            "healthy",
            _plain(_ort_optimised("all"), _ascend_spelling),
            f"{key}-ort-all stored as plain folders with Ascend-style file names ('.' and '/' -> '_', no "
            "manifest), "
            "with --model (the original model)",
        )
        for key in ("ppocr-det", "ppocr-cls")
    ),
)


def _weights(tensor: str, change: Callable[[Path, Path, str], Path]) -> Build:
    """Target = the model with one weight constant changed (a converter that mishandled the weights)."""
    return _modified_model(lambda src, dst: change(src, dst, tensor))


def _scaled(factor: float) -> Callable[[Path, Path, str], Path]:
    return lambda src, dst, tensor: faults.scale_constant(src, dst, tensor, factor)


def _flipped(count: int) -> Callable[[Path, Path, str], Path]:
    return lambda src, dst, tensor: faults.flip_channels(src, dst, tensor, count)


#: A weight that differs is no kernel fault: "weights differ" at the node reading it, the constant named.
WEIGHTS_ADVICE = (r"(?i)weight|constant", r"(?i)transpos|fold|quantis|convert")

WEIGHT_CASES: tuple[Case, ...] = (
    Case(
        "rec-matmul-weight-x1.5",
        "ppocr-rec",
        "weights",
        "culprit",
        _weights("linear_78.w_0", _scaled(1.5)),
        "PP-OCRv4 rec: the weight of the first attention output projection (MatMul) x1.5",
        truth=("p2o.MatMul.7", "p2o.MatMul.6"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "cls-matmul-weight-x1.5",
        "ppocr-cls",
        "weights",
        "culprit",
        _weights("fc_0.w_0", _scaled(1.5)),
        "PP-OCR cls: the classifier's fully connected weight (MatMul) x1.5",
        truth=("linear_1.tmp_0", "MatMul@0"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "det-conv-weight-x1.5",
        "ppocr-det",
        "weights",
        "culprit",
        _weights("conv2d_397.w_0", _scaled(1.5)),
        "PP-OCRv4 det: a pointwise Conv weight x1.5",
        truth=("conv2d_452.tmp_0", "p2o.Conv.4"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "yolo-conv-weight-x1.5",
        "yolov8n",
        "weights",
        "culprit",
        _weights("model.4.cv1.conv.weight", _scaled(1.5)),
        "YOLOv8n: a Conv weight x1.5",
        truth=("/model.4/cv1/conv/Conv_output_0", "/model.4/cv1/conv/Conv"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "det-conv-signflip",
        "ppocr-det",
        "weights",
        "culprit",
        _weights("conv2d_397.w_0", _flipped(24)),
        "PP-OCRv4 det: 24 of 48 output channels of a pointwise Conv weight sign-flipped",
        truth=("conv2d_452.tmp_0", "p2o.Conv.4"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "yolo-conv-signflip",
        "yolov8n",
        "weights",
        "culprit",
        _weights("model.6.cv2.conv.weight", _flipped(48)),
        "YOLOv8n: 48 of 128 output channels of a Conv weight sign-flipped",
        truth=("/model.6/cv2/conv/Conv_output_0", "/model.6/cv2/conv/Conv"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "vad-lstm-recurrence-x1.5",
        "silero-vad",
        "weights",
        "culprit",
        _weights("onnx::LSTM_210", _scaled(1.5)),
        "Silero VAD v6: the LSTM's recurrence weight R x1.5",
        truth=("/decoder/rnn/LSTM_output_0", "/decoder/rnn/LSTM"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "vad5-recurrence-x1.5",
        "silero-vad5-decoder",
        "weights",
        "culprit",
        _weights("rnn.weight_hh", _scaled(1.5)),
        "Silero VAD v5 decoder (an LSTM cell as Gemms): the recurrence weight weight_hh x1.5",
        truth=("/rnn/Gemm_output_0", "/rnn/Gemm"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
)


def _quantised(make: Callable[[Builder, Case, Path, Path], Path]) -> Build:
    """Target = the model as onnxruntime's own quantiser made it (``make(builder, case, src, dst)``)."""

    def target(b: Builder, case: Case, golden: Path) -> Path:
        out = b.case_dir(case.name) / "target"
        if b.fresh(out):
            return out
        model = make(b, case, model_path(case.model), b.case_dir(case.name) / "model.onnx")
        return b.dump(model, out, MODELS[case.model].shapes, b.inputs_of(golden))

    return _golden_and(target)


_DYNAMIC = _quantised(lambda b, case, src, dst: faults.quantised_dynamic(src, dst))
_QDQ = _quantised(
    lambda b, case, src, dst: faults.quantised_static(src, dst, b.inputs_of(b.golden(case.model)))
)


def _quantised_truth(model: Path, work: Path) -> tuple[str, ...]:
    """Every output the quantiser rewrote is a right rank 1 (the class must be quantisation)."""
    return faults.quantised_outputs(model, work / "model.onnx")


#: A quantised target: recalibrate, per-channel scales, or a higher precision for the layer.
QUANT_ADVICE = (r"(?i)quanti[sz]|calibrat|int16|per[- ]channel|precision",)

QUANTISED_CASES: tuple[Case, ...] = (
    Case(
        "rec-quantize-dynamic",
        "ppocr-rec",
        "quantisation",
        "culprit",
        _DYNAMIC,
        "PP-OCRv4 rec through onnxruntime's quantize_dynamic (uint8 weights, DynamicQuantizeLinear, "
        "ConvInteger/MatMulInteger)",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "cls-quantize-dynamic",
        "ppocr-cls",
        "quantisation",
        "culprit",
        _DYNAMIC,
        "PP-OCR cls through onnxruntime's quantize_dynamic",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "rec-quantize-dynamic-int8-preset",
        "ppocr-rec",
        "quantisation",
        "culprit",
        _DYNAMIC,
        "rec-quantize-dynamic judged with --preset int8",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
        flags=("--preset", "int8"),
    ),
    # In the int8 band no quantised layer of cls breaks: the error first leaves the band at an unquantised
    # BatchNorm that computes faithfully what it is fed (as cls-int8-drift, dumpscope's own int8 recipe).
    Case(
        "cls-quantize-dynamic-int8-preset",
        "ppocr-cls",
        "drift",
        "drift",
        _DYNAMIC,
        "cls-quantize-dynamic judged with --preset int8",
        flags=("--preset", "int8"),
        must_not=(NOT_ASCEND,),
    ),
    Case(
        "rec-quantize-dynamic-plain-npy",
        "ppocr-rec",
        "quantisation",
        "culprit",
        _plain(_DYNAMIC),
        "rec-quantize-dynamic stored as plain {tensor}.npy folders (the _quantized uint8 tensors beside the "
        "floats, no manifest)",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "cls-quantize-static-qdq",
        "ppocr-cls",
        "quantisation",
        "culprit",
        _QDQ,
        "PP-OCR cls through onnxruntime's quantize_static, QDQ format, int8 per tensor, calibrated on the "
        "golden input",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "yolo-quantize-static-qdq",
        "yolov8n",
        "quantisation",
        "culprit",
        _QDQ,
        "YOLOv8n through onnxruntime's quantize_static, QDQ format",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "yolo-quantize-static-qdq-int8-preset",
        "yolov8n",
        "quantisation",
        "culprit",
        _QDQ,
        "yolo-quantize-static-qdq judged with --preset int8",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
        flags=("--preset", "int8"),
    ),
)


def _sigmastar(size: tuple[int, int], rest: str) -> Build:
    """float.sim / fixed.sim of bench/sigmastar_case.py on the case's model: SigmaStar-style fake
    quantisation computed by onnxruntime, one 8-bit layer whose range is too wide (``rest``: the
    others' type)."""

    def build(b: Builder, case: Case) -> tuple[Path, Path]:
        out = b.case_dir(case.name) / "sgs"
        if not b.fresh(out):
            from bench import sigmastar_case

            sigmastar_case.build(out, model_path(case.model), size, rest)
            b.mark(out)
        return out / "float_sim" / "sigma_outtensor_dump.bin", out / "fixed_sim" / "sigma_outtensor_dump.bin"

    return build


def _sigmastar_truth(model: Path, work: Path) -> tuple[str, ...]:
    """The 8-bit layer: its wide input or its output (the convolution's), as the case's truth.json says."""
    truth = json.loads((work / "sgs" / "truth.json").read_text())
    return (truth["root_cause"], truth["wide_input"], truth["conv"])


#: Seed 004: INT16 for that layer, with input_config.ini.
SGS_ADVICE = (r"INT16", r"input_config\.ini")
_SGS = {"model_flag": "", "truth": ("(the 8-bit layer)",), "truth_of": _sigmastar_truth, "must": SGS_ADVICE}

WIDE_QUANT_CASES: tuple[Case, ...] = (
    Case(
        "det-sgs-u8-wide",
        "ppocr-det",
        "quantisation",
        "culprit",
        _sigmastar((64, 64), "SGS_U8"),
        "PP-OCRv4 det, SigmaStar-style fixed.sim all UINT8 (calibrated on the image), one layer's range "
        "calibrated 32x too wide: float.sim vs fixed.sim",
        **_SGS,
    ),  # type: ignore[arg-type]
    Case(
        "det-sgs-u8-wide-seed",
        "ppocr-det",
        "quantisation",
        "culprit",
        _sigmastar((64, 64), "SGS_U8"),
        "det-sgs-u8-wide judged with --preset seed (COS < 0.99 or RMSE > 0.1)",
        flags=("--preset", "seed"),
        **_SGS,
    ),  # type: ignore[arg-type]
    Case(
        "yolo-sgs-u8-wide",
        "yolov8n",
        "quantisation",
        "culprit",
        _sigmastar((160, 160), "SGS_U8"),
        "YOLOv8n, SigmaStar-style fixed.sim all UINT8, one layer's range calibrated 32x too wide",
        **_SGS,
    ),  # type: ignore[arg-type]
    Case(
        "yolo-sgs-u8-wide-seed",
        "yolov8n",
        "quantisation",
        "culprit",
        _sigmastar((160, 160), "SGS_U8"),
        "yolo-sgs-u8-wide judged with --preset seed",
        flags=("--preset", "seed"),
        **_SGS,
    ),  # type: ignore[arg-type]
    Case(
        "yolo-sgs-one-u8",
        "yolov8n",
        "quantisation",
        "culprit",
        _sigmastar((160, 160), "SGS_S16"),
        "YOLOv8n, SigmaStar-style fixed.sim INT16 but one convolution whose input range is > 20 kept UINT8 "
        "(bench/sigmastar_case.py's proof case on another model)",
        **_SGS,
    ),  # type: ignore[arg-type]
)


FP16_MAX = 65504.0


def _saturated(
    tensor: str, scaled: tuple[str, float] | None = None, make: Callable[[Path, Path], Path] | None = None
) -> Build:
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
    Case(
        "vad-saturate-fp16",
        "silero-vad",
        "overflow",
        "culprit",
        _saturated(f"{VAD}Pow_output_0", ("input", 10.0)),
        "Silero VAD fed audio x10; the target clips the STFT power (Pow) at +-65504, where the golden "
        "reaches 9.7e4",
        truth=(f"{VAD}Pow_output_0", f"{VAD}Pow"),
        must=(SATURATION,),
        must_not=FP32_TARGET,
    ),
    Case(
        "rec-saturate-fp16",
        "ppocr-rec",
        "overflow",
        "culprit",
        _saturated(
            "p2o.MatMul.3", make=lambda s, d: faults.scale_constant(s, d, "p2o.helper.constant.169", 3e4)
        ),
        "PP-OCRv4 rec whose first attention scale is x3e4 (both runs); the target clips q.k^T (MatMul) at "
        "+-65504, where the golden reaches 1e5",
        truth=("p2o.MatMul.3",),
        must=(SATURATION,),
        must_not=FP32_TARGET,
    ),
)

#: Issue 20, robustness: the fault kinds above at other positions and on other models than the cases that
#: drove the fixes (a weight deep in the graph, saturation mid-graph on a third model, quantize_dynamic
#: on a convolutional detector, the INT16 + one UINT8 recipe on PP-OCRv4 det).
UNSEEN_CASES: tuple[Case, ...] = (
    Case(
        "yolo-head-conv-weight-x1.5",
        "yolov8n",
        "weights",
        "culprit",
        _weights("model.22.cv3.2.1.conv.weight", _scaled(1.5)),
        "YOLOv8n: a Conv weight of the detection head's last class branch x1.5 (deep in the graph)",
        truth=("/model.22/cv3.2/cv3.2.1/conv/Conv_output_0", "/model.22/cv3.2/cv3.2.1/conv/Conv"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "det-head-conv-signflip",
        "ppocr-det",
        "weights",
        "culprit",
        _weights("conv2d_159.w_0", _flipped(12)),
        "PP-OCRv4 det: 12 of 24 output channels of a 3x3 Conv weight in the DB head sign-flipped (node 662 "
        "of 672)",
        truth=("conv2d_497.tmp_0", "p2o.Conv.61"),
        must=WEIGHTS_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "det-quantize-dynamic",
        "ppocr-det",
        "quantisation",
        "culprit",
        _DYNAMIC,
        "PP-OCRv4 det through onnxruntime's quantize_dynamic (ConvInteger)",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "vad-quantize-dynamic",
        "silero-vad",
        "quantisation",
        "culprit",
        _DYNAMIC,
        "Silero VAD v6 through onnxruntime's quantize_dynamic (an LSTM, Convs, MatMuls)",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "det-quantize-static-qdq",
        "ppocr-det",
        "quantisation",
        "culprit",
        _QDQ,
        "PP-OCRv4 det through onnxruntime's quantize_static, QDQ format, calibrated on the golden input",
        truth=("(every rewritten output)",),
        truth_of=_quantised_truth,
        must=QUANT_ADVICE,
        must_not=FP32_TARGET,
    ),
    Case(
        "yolo-saturate-fp16",
        "yolov8n",
        "overflow",
        "culprit",
        _saturated("/model.2/cv1/conv/Conv_output_0", ("images", 1000.0)),
        "YOLOv8n fed its image x1000; the target clips a mid-graph Conv output at +-65504 where the golden "
        "goes beyond",
        truth=("/model.2/cv1/conv/Conv_output_0", "/model.2/cv1/conv/Conv"),
        must=(SATURATION,),
        must_not=FP32_TARGET,
    ),
    Case(
        "det-sgs-one-u8",
        "ppocr-det",
        "quantisation",
        "culprit",
        _sigmastar((64, 64), "SGS_S16"),
        "PP-OCRv4 det, SigmaStar-style fixed.sim INT16 but one convolution whose input range is > 20 kept "
        "UINT8 (bench/sigmastar_case.py's proof case as a corpus case)",
        **_SGS,
    ),  # type: ignore[arg-type]
)

CASES: tuple[Case, ...] = (
    *FAULT_CASES,
    *PLAIN_CASES,
    *RECIPE_CASES,
    *HEALTHY_CASES,
    *MISMATCH_CASES,
    *LAYOUT_CASES,
    *OPTIMISED_CASES,
    *WEIGHT_CASES,
    *QUANTISED_CASES,
    *WIDE_QUANT_CASES,
    *SATURATION_CASES,
    *UNSEEN_CASES,
)
BY_NAME: dict[str, Case] = {c.name: c for c in CASES}
QUICK: tuple[Case, ...] = tuple(c for c in CASES if c.quick)
