"""Issue 23 (h23a3): Qualcomm answers that name the cause.  onnxruntime's QNN execution provider logs why
an op builder refused a node ("<OpType> node `<name>` is not supported: <file>:<line> <function> <reason>",
qnn_execution_provider.cc IsNodeSupported); the reason is one of a few classes (a backend's limit, an input
that must be constant or static, quantisation layout, data type, axis, rank, an attribute or mode), each
answered by its clause with the node and the reason filled in.  ExecuTorch's Qualcomm backend's own errors
(no builder for an op, an unknown SoC model, a QNN library older than the build, a context binary it cannot
read) get entries.  Every message here is the vendor's own wording (its source's string, as the shipped
onnxruntime-qnn 2.7.0 and executorch 1.5.1 binaries print it) with made-up node and op names, not an eval
message."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_advice, assert_answered

_WARN = (
    "2025-01-07 10:00:00.1 [W:onnxruntime:, qnn_execution_provider.cc:231 "
    "onnxruntime::QNNExecutionProvider::IsNodeSupported] "
)
_NODE = "qualcomm-qnn-ep-node-not-supported"

CLAUSE_CASES = [
    # batch_norm_op_builder.cc: "QNN BatchNorm doesn't support dynamic scale."
    (
        _WARN + "BatchNormalization node `bn_zz1` is not supported: batch_norm_op_builder.cc:120 "
        "onnxruntime::qnn::BatchNormOpBuilder::IsOpSupported QNN BatchNorm doesn't support dynamic scale.",
        "qnn-ep-static-input",
        ("BatchNormalization node bn_zz1", "QNN BatchNorm doesn't support dynamic scale.", "initializer"),
    ),
    # clip_op_builder.cc: "QNN EP: Clip min/max must be a constant initializer."
    (
        _WARN + "Clip node `clip_zz2` is not supported: clip_op_builder.cc:60 "
        "onnxruntime::qnn::ClipOpBuilder::ExplicitOpCheck QNN EP: Clip min/max must be a constant "
        "initializer.",
        "qnn-ep-static-input",
        ("Clip node clip_zz2", "Clip min/max must be a constant initializer", "make_dynamic_shape_fixed"),
    ),
    # resize_op_builder.cc: "QNN EP: Resize on the NPU does not support nearest_mode "
    (
        _WARN + "Resize node `up_zz3` is not supported: resize_op_builder.cc:210 "
        "onnxruntime::qnn::ResizeOpBuilder::IsOpSupported QNN EP: Resize on the NPU does not support "
        "nearest_mode round_prefer_floor",
        "qnn-ep-backend-limit",
        ("Resize node up_zz3", "on the NPU does not support nearest_mode round_prefer_floor", "backend_path"),
    ),
    # conv_op_builder.cc: "Non-constant Conv inputs only support per-tensor quantization"
    (
        _WARN + "Conv node `conv_zz4` is not supported: conv_op_builder.cc:98 "
        "onnxruntime::qnn::ConvOpBuilder::IsOpSupported QNN EP: Non-constant Conv inputs only support "
        "per-tensor quantization",
        "qnn-ep-quantization",
        ("Conv node conv_zz4", "per-tensor quantization", "get_qnn_qdq_config"),
    ),
    # qnn_utils.cc GetQminQmax: "Qnn Data Type: %d not supported yet."
    (
        _WARN + "Gemm node `fc_zz5` is not supported: qnn_utils.cc:454 "
        "onnxruntime::qnn::utils::GetQminQmax Qnn Data Type: 1234 not supported yet.",
        "qnn-ep-data-type",
        ("Gemm op", "node fc_zz5", "Qnn Data Type: 1234 not supported yet.", "enable_htp_fp16_precision"),
    ),
    # layer_norm_op_builder.cc: "QNN LayerNorm: axis out of range after normalization."
    (
        _WARN + "LayerNormalization node `ln_zz6` is not supported: layer_norm_op_builder.cc:75 "
        "onnxruntime::qnn::LayerNormOpBuilder::IsOpSupported QNN LayerNorm: axis out of range after "
        "normalization.",
        "qnn-ep-axis",
        ("LayerNormalization node ln_zz6", "axis out of range after normalization", "Transpose"),
    ),
    # conv_op_builder.cc: "QNN Conv only supports 3D(rank 5), 2D (rank 4) or 1D (rank 3) inputs."
    (
        _WARN + "Conv node `conv_zz7` is not supported: conv_op_builder.cc:80 "
        "onnxruntime::qnn::ConvOpBuilder::IsOpSupported QNN Conv only supports 3D(rank 5), 2D (rank 4) or "
        "1D (rank 3) inputs.",
        "qnn-ep-rank",
        ("Conv op", "node conv_zz7", "QNN Conv only supports 3D(rank 5)", "Reshape"),
    ),
    # conv_transpose / conv_op_builder.cc: "QNN EP: QNN's TransposeConv2d operator only supports default
    # dilation values of 1."
    (
        _WARN + "ConvTranspose node `deconv_zz8` is not supported: conv_op_builder.cc:140 "
        "onnxruntime::qnn::ConvOpBuilder::IsOpSupported QNN EP: QNN's TransposeConv2d operator only supports "
        "default dilation values of 1.",
        "qnn-ep-unsupported-form",
        ("ConvTranspose node deconv_zz8", "only supports default dilation values of 1", "CPU execution"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES, ids=[c[1] for c in CLAUSE_CASES])
def test_a_qnn_ep_builder_reason_is_answered_by_its_class(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=f"{_NODE}+{clause}")


def test_a_reason_of_no_class_keeps_the_envelope_with_the_reason_quoted(kb: KnowledgeBase) -> None:
    # group_norm / instance_norm builders: "5 input expected per BatchNorm Onnx Spec." reads as none of the
    # classes: the envelope's own advice (the node falls back to the CPU provider) names node and reason.
    message = (
        _WARN + "BatchNormalization node `bn_zz9` is not supported: batch_norm_op_builder.cc:40 "
        "onnxruntime::qnn::BatchNormOpBuilder::IsOpSupported 5 input expected per BatchNorm Onnx Spec."
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == _NODE
    # an envelope that quotes the reason is not judged specific advice, and is not claimed to be
    assert_advice(top, ("BatchNormalization", "bn_zz9", "5 input expected per BatchNorm Onnx Spec"), False)


def test_a_bare_qnn_ep_reason_answers_the_onnxruntime_card(kb: KnowledgeBase) -> None:
    # The reason without the IsNodeSupported line (a compile-time 'Failed to add node' status) still reads.
    top = assert_answered(
        kb,
        "[E:onnxruntime:, inference_session.cc:2100 Initialize] Failed to add node: QNN EP: Clip min/max "
        "must be a constant initializer.",
        ("Clip min/max must be a constant initializer",),
        clause="qnn-ep-static-input-bare",
    )
    assert top.entry.family in ("onnxruntime", "qualcomm")


@pytest.mark.parametrize(
    ("message", "named"),
    [
        (_WARN + "FooBarOp node `foo_zz10` will not be assigned to QNN EP.", ("FooBarOp", "foo_zz10")),
        ("Operators of type `FooBarOp` are not supported by QNN EP.", ("FooBarOp",)),
        ("[QNN EP]: Missing OpBuilder for OpType FooBarOp", ("FooBarOp",)),
    ],
)
def test_an_op_type_qnn_ep_has_no_builder_for(
    kb: KnowledgeBase, message: str, named: tuple[str, ...]
) -> None:
    top = assert_answered(kb, message, named, entry="qualcomm-qnn-ep-op-type-not-assigned")
    assert "CPU execution provider" in top.fix


EXECUTORCH_CASES = [
    # backends/qualcomm/qnn_preprocess.py _build_op_wrappers
    (
        "RuntimeError: For aten_zz_op_default, call_function:aten.zz_op.default is not supported in Qnn "
        "Delegate",
        "qualcomm-executorch-op-not-supported-in-delegate",
        ("aten.zz_op.default", "aten_zz_op_default", "skip_node_op_set", "QnnPartitioner"),
    ),
    # backends/qualcomm/utils/utils.py generate_qnn_executorch_compiler_spec
    (
        "ValueError: unknown SoC model for QNN: SM0000",
        "qualcomm-executorch-unknown-soc-model",
        ("SM0000", "QcomChipset"),
    ),
    # runtime/backends/QnnBackendCommon.cpp VersionChecker (major differs: an error)
    (
        "[ERROR] [Qnn ExecuTorch]: Qnn API version 1.9.0 is not supported. The minimum supported version is "
        "2.25.0. Please make sure you have the correct backend library version.",
        "qualcomm-qnn-library-api-version-mismatch",
        ("Qnn API", "1.9.0", "2.25.0", "LD_LIBRARY_PATH"),
    ),
    # the same check, minor lower: a warning
    (
        "[WARNING] [Qnn ExecuTorch]: QNN_HTP version 5.20.0 is mismatched. The minimum supported version is "
        "5.28.0. Please make sure you have the correct backend library version.",
        "qualcomm-qnn-library-api-version-mismatch",
        ("QNN_HTP", "5.20.0", "5.28.0", "ADSP_LIBRARY_PATH"),
    ),
    # export_utils.py QnnConfig / debugger/utils.py: the SDK and NDK roots
    (
        "OSError: Environment variable QNN_SDK_ROOT must be set.",
        "qualcomm-executorch-sdk-root-unset",
        ("QNN_SDK_ROOT is not set", "envsetup.sh", "LD_LIBRARY_PATH"),
    ),
    (
        "EnvironmentError: ANDROID_NDK_ROOT was not found in environment variable",
        "qualcomm-executorch-sdk-root-unset",
        ("ANDROID_NDK_ROOT is not set", "export ANDROID_NDK_ROOT"),
    ),
    # partition/qnn_partitioner.py is_node_supported: an INFO line, the op stays on the CPU
    (
        "[QnnPartitioner] aten.zz_op.default | No node visitor, unsupported",
        "qualcomm-executorch-partitioner-no-node-visitor",
        ("aten.zz_op.default", "not an error", "CPU"),
    ),
    # export_utils.py build_executorch_binary
    (
        "RuntimeError: Currently GPU backend only supports online_prepare. Please add --online_prepare flag.",
        "qualcomm-executorch-backend-prepare-mode",
        ("GPU backend", "online_prepare", "--online_prepare"),
    ),
    # runtime/backends/QnnBackendCache.cpp GetQnnGraphInfoFromBinary
    (
        "[ERROR] [Qnn ExecuTorch]: Failed to retrieve backend binary info from QNN context binary.",
        "qualcomm-executorch-context-binary-info-unreadable",
        ("QNN_SDK_ROOT", ".pte"),
    ),
    (
        "[WARNING] [Qnn ExecuTorch]: Unknown QNN Htp hw blob info version 77.",
        "qualcomm-executorch-context-binary-info-unreadable",
        ("Htp hw blob info", "77"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), EXECUTORCH_CASES, ids=[c[1] for c in EXECUTORCH_CASES]
)
def test_an_executorch_qualcomm_error_is_answered(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_an_epcontext_binary_file_that_is_not_there(kb: KnowledgeBase) -> None:
    # qnn_backend_manager.cc GetFileSizeIfValid, as onnxruntime's status prints it
    message = (
        "qnn_backend_manager.cc:900 onnxruntime::qnn::QnnBackendManager::GetFileSizeIfValid Failed to "
        "retrieve size of file: /data/zz/model_ctx.bin, error: No such file or directory"
    )
    assert_answered(
        kb,
        message,
        (
            "/data/zz/model_ctx.bin",
            "No such file or directory",
            "ep_cache_context",
            "ep.context_embed_mode=1",
        ),
        entry="qualcomm-qnn-ep-context-binary-file-missing",
    )


@pytest.mark.parametrize(
    "message",
    [
        # QnnHtp library strings (QnnHtp.dll of onnxruntime_qnn 2.7.0), as QNN's logger prints them
        "QnnDsp <E> Failed to construct graph node as prepare lib is not loaded",
        "QnnDsp <E> RouterX86 cannot call gpeSerializeGraphToMem, PrepreLib not loaded",
        "QnnDsp <E> Failed to load prepare lib in contextCreateFromBinaryDeserialize: 7",
    ],
)
def test_the_htp_prepare_library_not_loaded(kb: KnowledgeBase, message: str) -> None:
    assert_answered(
        kb, message, ("libQnnHtpPrepare.so", "context binary"), entry="qualcomm-htp-prepare-lib-not-loaded"
    )


def test_a_lone_quantize_partition_is_a_warning_not_a_failure(kb: KnowledgeBase) -> None:
    # qnn_execution_provider.cc GetCapability: a partition of one QuantizeLinear/DequantizeLinear is dropped
    top = assert_answered(
        kb,
        _WARN.replace("IsNodeSupported", "GetCapability")
        + "QNN EP does not support a single Quantize/Dequantize node in a partition.",
        ("CPU execution provider", "is not supported: <reason>", "get_qnn_qdq_config"),
        entry="qualcomm-qnn-ep-does-not-support",
    )
    assert "still runs" in top.cause


def test_unsupported_nodes_listed_when_cpu_fallback_is_disabled(kb: KnowledgeBase) -> None:
    # qnn_execution_provider.cc GetCapability: the list goes to the ERROR log only without CPU fallback
    assert_answered(
        kb,
        "[E:onnxruntime:, qnn_execution_provider.cc:700 GetCapability] Unsupported nodes in QNN EP: "
        "ZzOp (zz_node_1)",
        ("ZzOp (zz_node_1)", "session.disable_cpu_ep_fallback"),
        entry="qualcomm-qnn-ep-unsupported-nodes-no-fallback",
    )
