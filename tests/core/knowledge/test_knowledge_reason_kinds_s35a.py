"""Reason kinds for ten more reasons a line states (issue 23: specific advice, s35a).

Each kind reads a vendor's own wording, here with made-up values: TensorFlow Lite's converter refusing ops
its builtin runtime has no kernel for (toco's export.cc) and TensorFlow 1 control flow ops (the converter's
'currently doesn't support control flow ops'), the ONNX checker's IR version against opset_import
(onnx/checker.cc) and an attribute of another type than its schema's (onnx/defs/schema.cc), TensorRT's
invalid weights of a layer, a model converted for another target platform (rknn/rkllm runtimes), an adaptive
pool whose sizes do not divide (Paddle2ONNX's pool mapper), onnxruntime's NHWC node not taken by the provider
that asked for it (graph_partitioner.cc), SentencePiece asked for a special piece its model lacks
(sentencepiece_processor.cc's extra options) and onnxruntime's TensorRT provider building no engine for a
fused node (tensorrt_execution_provider.cc).  Lookalikes that state another reason read none of them."""

from __future__ import annotations

import re

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.clauses import REASON_LINE_ID
from dumpscope.core.knowledge.kb import fill
from dumpscope.core.knowledge.reason_kinds import LATE_KINDS, REASON_KINDS, reason_kind

NEW = (
    "ops-need-kernels",
    "control-flow-v1",
    "ir-version-opset-import",
    "weights-invalid",
    "target-platform-mismatch",
    "adaptive-pool-uneven",
    "attribute-type-mismatch",
    "nhwc-node-not-selected",
    "special-piece-undefined",
    "trt-ep-engine-not-built",
)

READ = [
    (
        "export.cc:386] Some of the operators in the model are not supported by the standard TensorFlow Lite "
        "runtime. Here is a list of operators for which you will need custom implementations: Zqop, Xqop.",
        "ops-need-kernels",
        {"runtime": "standard TensorFlow Lite runtime", "ops": "Zqop, Xqop"},
    ),
    (
        "TensorFlow Lite currently doesn't support control flow ops: Enter, Exit, LoopCond.",
        "control-flow-v1",
        {"ops": "Enter, Exit, LoopCond"},
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: model with IR version >= 3 must specify "
        "opset_import for ONNX",
        "ir-version-opset-import",
        {"bound": ">= 3", "rule": "must specify opset_import for ONNX"},
    ),
    (
        "Error Code 4: API Usage Error ([SCALE]-[zq_norm]: invalid `scale` weights, check IErrorRecorder)",
        "weights-invalid",
        {"weights": "scale"},
    ),
    (
        "E RKNN: The rknn model target_platform does not match the device!",
        "target-platform-mismatch",
        {"what": "target_platform"},
    ),
    (
        "Exception: Cannot convert adaptive pool with input_size: (1, 8, 50, 50), output_size: (1, 8, 7, 7)",
        "adaptive-pool-uneven",
        {"input": "(1, 8, 50, 50)", "output": "(1, 8, 7, 7)"},
    ),
    (
        "[Paddle2ONNX] Cannot convert adaptive pool with input_size: 50 50 output_size: 7 7",
        "adaptive-pool-uneven",
        {"input": "50 50", "output": "7 7"},
    ),
    (
        "ValidationError: Mismatched attribute type in 'node_zq : alpha'",
        "attribute-type-mismatch",
        {"attr": "alpha"},
    ),
    (
        "Node 'Resize_3' OpType:Resize with domain:com.ms.internal.nhwc was inserted using the NHWC format "
        "as requested by WebNNExecutionProvider, but was not selected by that EP.",
        "nhwc-node-not-selected",
        {"op": "Resize", "ep": "WebNNExecutionProvider"},
    ),
    (
        "sentencepiece_processor.cc(1055) [!IsUnknown(PieceToId(model_->eos_piece()))] id for `</zq>` is not "
        "defined.",
        "special-piece-undefined",
        {"piece": "</zq>"},
    ),
    (
        "EP_FAIL : TensorRT EP could not build engine for fused node: "
        "TensorrtExecutionProvider_TRTKernel_9_0",
        "trt-ep-engine-not-built",
        {"node": "TensorrtExecutionProvider_TRTKernel_9_0"},
    ),
]


@pytest.mark.parametrize(("line", "kind", "values"), READ)
def test_each_kind_reads_its_values_and_says_them(line: str, kind: str, values: dict[str, str]) -> None:
    read = reason_kind(line)
    assert read is not None, line
    assert read[0].name == kind
    assert dict(read[1]) == values
    text = fill(read[0].cause + " " + read[0].fix, read[1])
    assert not re.search(r"\{[a-z_0-9]+\}", text), text
    for value in values.values():
        assert value in text, (value, text)


NOT_READ = [
    # lookalikes: another reason, or the kind's wording without its value (no new kind speaks)
    "Some of the operators in the model are not supported by TensorFlow Flex runtime: Zqop",  # custom ops
    # no op listed (test_knowledge_reason_kinds.py's NO_KIND holds the same line without the list)
    "Some of the operators in the model are not supported by the standard TensorFlow Lite runtime.",
    "TensorFlow Lite currently doesn't support control flow ops",  # no ops named
    "control flow ops: Merge, Switch",  # not a refusal
    "Your model ir_version 9 is higher than the checker's (8).",  # the version pair's wording
    "model with IR version cannot have opset_import specified",  # no bound
    "Invalid weights file: yolov4.weights",  # a file, not a layer's weights
    "invalid model weights",  # no TensorRT-quoted weights name
    "The target platform is rk3588",  # no mismatch
    "platform does not match",  # no target platform named
    "Cannot convert pool with ceil_model == True to ONNX Opset version < 10.",  # another pool limit
    "adaptive pool output_size: (1, 8, 7, 7)",  # no input size
    "Mismatched attribute type in ''",  # no attribute
    "Unrecognized attribute: alpha for operator Relu",
    "Node 'Conv' OpType:Conv with domain:com.ms.internal.nhwc was inserted",  # no provider named
    "TensorRT EP could not build engine for fused node:",  # no node
    "CUDA EP could not build engine for fused node: Zq_1",  # not the TensorRT provider
    "id for `` is not defined.",  # no piece
    'option "bos" is not available.',  # sentencepiece's other extra-option check
]


@pytest.mark.parametrize("line", NOT_READ)
def test_a_lookalike_reads_no_new_kind(line: str) -> None:
    read = reason_kind(line)
    assert read is None or read[0].name not in NEW, (line, read)


def test_the_new_kinds_are_late_kinds_after_the_older_ones_and_before_the_hint_rows() -> None:
    names = [k.name for k in REASON_KINDS]
    assert [k.name for k in LATE_KINDS[-len(NEW) :]] == list(NEW)
    assert names.index("value-unsupported") < names.index(NEW[0])
    assert names[names.index(NEW[-1]) + 1] == "assertion"


def test_a_family_card_over_control_flow_ops_says_to_build_with_control_flow_v2(kb: KnowledgeBase) -> None:
    top = kb.lookup("TensorFlow Lite currently doesn't support control flow ops: Switch, Zqmerge.", top=1)[0]
    assert top.entry.id == f"family-tflite+{REASON_LINE_ID}"
    assert "kind 'control-flow-v1'" in top.entry.source
    assert "(Switch, Zqmerge)" in top.cause
    assert top.fix.startswith(
        "Give the converter control flow v2: call tf.compat.v1.enable_control_flow_v2()"
    )


def test_a_code_card_over_invalid_weights_starts_from_the_layers_weights(kb: KnowledgeBase) -> None:
    text = (
        "[E] [TRT] ITensor::getDimensions: Error Code 4: API Usage Error ([SCALE]-[zq_bn]: invalid `power` "
        "weights, check IErrorRecorder for details.)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "tensorrt"
    assert "kind 'weights-invalid'" in top.entry.source
    assert "Start from that reason: compare that layer's power parameter" in top.fix
