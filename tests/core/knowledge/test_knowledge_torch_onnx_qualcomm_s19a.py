"""Branch s19a: torch.onnx's and Qualcomm's common failures, from their own sources.

* torch.onnx, dynamo exporter (pytorch/pytorch torch/onnx/_internal/exporter: _dispatching.py, _core.py,
  _building.py; the FX exporter's fx/analysis/unsupported_nodes.py): DispatchError, ConversionError,
  GraphConstructionError, the decomposition step, 'Unsupported FX nodes';
* torch.onnx, TorchScript exporter and its tracer (symbolic_helper.py _parse_arg; csrc/jit/serialization/
  export.cpp; csrc/jit/passes/onnx/constant_fold.cpp; csrc/jit/frontend/tracer.h; csrc/jit/ir/constants.cpp;
  torch/_tensor.py): constants expected, Python operators, leftover ATen ops, pack/pad pairs, complex
  and unknown scalar types, Resize/Upsample before opset 11, the tracer's warnings;
* onnxruntime's QNN execution provider (microsoft/onnxruntime onnxruntime/core/providers/qnn/builder/
  qnn_backend_manager.cc): the backend library that does not load, a library that is not a backend,
  ADSP_LIBRARY_PATH already set;
* ExecuTorch's QNN delegate runtime (pytorch/executorch backends/qualcomm/runtime: QnnImplementation.cpp,
  QnnExecuTorchBackend.cpp): the QNN library that does not open, its missing provider symbol, QnnManager init;
* FastRPC (quic/fastrpc src/fastrpc_apps_user.c): the signed shell that does not open; the QNN HTP backend's
  unknown SoC at startup; GenieX's model manager (qualcomm/GenieX sdk/model-manager/crates/core/src/error.rs):
  a chipset without a published build, a quantization not there.

Every message is the vendor's string as its source prints it, with made-up names and values, not an eval
message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

TORCH_ONNX = [
    (
        "torch.onnx._internal.exporter._errors.DispatchError: No ONNX function found for "
        "<OpOverload(op='aten.zz_pool2d', overload='default')>. Failure message: No decompositions "
        "registered for the complex-valued input",
        "torch-onnx-s19a-dynamo-no-onnx-function",
        ("aten.zz_pool2d", "complex-valued", "custom_translation_table", "view_as_real"),
    ),
    (
        "<class 'torch.onnx._internal.exporter._errors.ConversionError'>: Error when translating node "
        "%zz_op : [num_users=1] = call_function[target=torch.ops.aten.zz_op.default](args = (%x,), "
        "kwargs = {}). See the stack trace for more information.",
        "torch-onnx-s19a-dynamo-translate-node",
        ("node zz_op", "torch.ops.aten.zz_op.default", "onnxscript"),
    ),
    (
        "<class 'torch.onnx._internal.exporter._errors.GraphConstructionError'>: Error when calling function "
        "'TracedOnnxFunction(<function aten_zz_like at 0x7f00aa12>)' with args '[SymbolicTensor('x')]' and "
        "kwargs '{'pin_memory': False}'",
        "torch-onnx-s19a-dynamo-graph-construction",
        ("aten_zz_like", "pip install -U onnxscript"),
    ),
    (
        "torch.onnx.OnnxExporterError: Failed to decompose the FX graph for ONNX compatibility. This is "
        "step 2/3 of exporting the model to ONNX.",
        "torch-onnx-s19a-dynamo-decompose-step",
        ("register_fake", "dynamo=False"),
    ),
    (
        "RuntimeErrorWithDiagnostic: Unsupported FX nodes: {'call_function': ['aten.zz_op.default', "
        "'aten.zz_other.Tensor']}. ",
        "torch-onnx-s19a-fx-unsupported-nodes",
        ("aten.zz_op.default", "dynamo=False", "OnnxRegistry"),
    ),
    (
        "TracerWarning: Converting a tensor to a Python integer might cause the trace to be incorrect. We "
        "can't record the data flow of Python values, so this value will be treated as a constant in the "
        "future.",
        "torch-onnx-s19a-tracer-python-value",
        ("Python integer", "dynamic_axes"),
    ),
    (
        "TracerWarning: torch.as_tensor results are registered as constants in the trace. You can safely "
        "ignore this warning if you use this function to create tensors out of constant variables that would "
        "be the same every time you call this function. In any other case, this might cause the trace to be "
        "incorrect.",
        "torch-onnx-s19a-tracer-constant-tensor",
        ("torch.as_tensor", "torch.full_like"),
    ),
    (
        "TracerWarning: Iterating over a tensor might cause the trace to be incorrect. Passing a tensor of "
        "different shape won't change the number of iterations executed (and might lead to errors or "
        "silently give incorrect results).",
        "torch-onnx-s19a-tracer-iterating-tensor",
        ("fixed count", "torch.unbind"),
    ),
    (
        "RuntimeError: Expected node type 'onnx::Constant' for argument 'zdim' of node 'zz_unsqueeze', got "
        "'prim::Param'.",
        "torch-onnx-s19a-parse-arg-not-constant",
        ("zdim", "zz_unsqueeze", "prim::Param"),
    ),
    (
        "RuntimeError: ONNX export failed: Couldn't export Python operator ZzRoundFunction\n\nDefined at:\n",
        "torch-onnx-s19a-python-operator",
        ("ZzRoundFunction", "symbolic(g, *inputs)"),
    ),
    (
        "RuntimeError: ONNX export failed: Couldn't export operator aten::zz_op\n\nDefined at:\n",
        "torch-onnx-s19a-couldnt-export-operator",
        ("aten::zz_op", "register_custom_op_symbolic('aten::zz_op'"),
    ),
    (
        "RuntimeError: Cannot insert a Tensor that requires grad as a constant. Consider making it a "
        "parameter or input, or detaching the gradient\nTensor:\n 0.1000\n[ torch.FloatTensor{1} ]",
        "torch-onnx-s19a-requires-grad-constant",
        ("register_buffer", "detach"),
    ),
    (
        "UserWarning: Only steps=1 can be constant folded for opset >= 10 onnx::Slice op. Constant folding "
        "not applied.",
        "torch-onnx-s19a-slice-step-not-folded",
        ("step-1 Slice", "Nothing needs doing"),
    ),
    (
        "RuntimeError: ONNX export failed: Cannot export individual pack_padded_sequence or "
        "pad_packed_sequence; these operations must occur in pairs.",
        "torch-onnx-s19a-pack-padded-pairs",
        ("pad_packed_sequence", "same exported forward"),
    ),
    (
        '  File "/zz/site-packages/torch/onnx/_internal/jit_utils.py", line 308, in _create_node\n'
        "RuntimeError: ScalarType ComplexDouble is an unexpected tensor scalar type",
        "torch-onnx-s19a-unexpected-scalar-type",
        ("ComplexDouble", "view_as_real", "dynamo=True"),
    ),
    (
        "UserWarning: You are trying to export the model with onnx:Upsample for ONNX opset version 9. This "
        "operator might cause results to not match the expected results by PyTorch.",
        "torch-onnx-s19a-resize-before-opset11",
        ("onnx:Upsample at opset 9", "opset_version=11"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), TORCH_ONNX, ids=[c[1] for c in TORCH_ONNX])
def test_torch_onnx_source_forms(kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_dispatch_error_without_failure_message_still_names_the_op(kb: KnowledgeBase) -> None:
    top = assert_answered(
        kb,
        "DispatchError: No ONNX function found for aten.zz_op.Tensor. Failure message: All overloads did not "
        "match the node `%zz_op`.",
        ("aten.zz_op.Tensor",),
        entry="torch-onnx-s19a-dynamo-no-onnx-function",
    )
    assert ("op_type", "aten.zz_op.Tensor") in top.captures


def test_coreml_unsupported_fx_node_is_not_torch_onnx(kb: KnowledgeBase) -> None:
    """coremltools' 'Unsupported fx node X, kind Y' stays coremltools' (its marker keeps a trailing space so
    torch.onnx's 'Unsupported FX nodes:' is not read as Core ML)."""
    top = kb.lookup("NotImplementedError: Unsupported fx node zz_gelu, kind zz_gelu.default", top=1)[0]
    assert top.entry.id == "coreml-unsupported-fx-node"


QUALCOMM = [
    (
        "2025-01-01 10:00:00.000 [E:onnxruntime:, qnn_execution_provider.cc:600 "
        "onnxruntime::QNNExecutionProvider::QNNExecutionProvider] QNN SetupBackend failed Unable to load "
        "backend, error: libQnnZz.so: cannot open shared object file: No such file or directory",
        "qualcomm-s19a-qnn-ep-load-backend",
        ("libQnnZz.so: cannot open shared object file", "backend_path", "QnnHtpPrepare"),
    ),
    (
        "QNN SetupBackend failed Unable to load backend, error: load library failed",
        "qualcomm-s19a-qnn-ep-load-backend",
        ("load library failed", "ARM64 Python"),
    ),
    (
        "QNN SetupBackend failed Failed to get QNN providers!",
        "qualcomm-s19a-qnn-ep-get-providers",
        ("QnnInterface_getProviders", "not at QnnSystem"),
    ),
    (
        "[W:onnxruntime:, qnn_backend_manager.cc:290 LoadBackend] Using existing ADSP_LIBRARY_PATH setting "
        "of /opt/zz/dsp, which may cause the HTP backend to fail.",
        "qualcomm-s19a-qnn-ep-adsp-library-path",
        ("/opt/zz/dsp", "Unset ADSP_LIBRARY_PATH"),
    ),
    (
        "[ERROR] [Qnn ExecuTorch]: Cannot Open QNN library /data/local/tmp/zz/libQnnHtp.so, with error: "
        'dlopen failed: library "libQnnHtpV99Stub.so" not found',
        "qualcomm-s19a-executorch-open-qnn-library",
        ("/data/local/tmp/zz/libQnnHtp.so", "libQnnHtpV99Stub.so", "ADSP_LIBRARY_PATH"),
    ),
    (
        "[ERROR] [Qnn ExecuTorch]: QnnImplementation::Load Cannot load symbol QnnInterface_getProviders : "
        "undefined symbol: QnnInterface_getProviders",
        "qualcomm-s19a-executorch-get-providers-symbol",
        ("libQnnHtp.so", "same QNN SDK"),
    ),
    (
        "E 00:00:00.123 executorch:QnnExecuTorchBackend.cpp:50] Fail to initialize Qnn Manager",
        "qualcomm-s19a-executorch-init-qnn-manager",
        ("soc_model", "[ERROR] [Qnn ExecuTorch]"),
    ),
    (
        "E zz-runner: vendor/qcom/proprietary/adsprpc/src/fastrpc_apps_user.c:3040: Error 0xd: open_shell "
        "failed for domain 3 search paths used are /zz/dsp/ (errno Permission denied)",
        "qualcomm-s19a-fastrpc-open-shell-failed",
        ("fastrpc_shell_unsigned_3", "/zz/dsp/", "Permission denied"),
    ),
    (
        "Error 0xd: open_shell failed for domain 3 (Permission denied)",
        "qualcomm-s19a-fastrpc-open-shell-failed",
        ("fastrpc_shell_3", "Successfully opened file"),
    ),
    (
        "QnnDsp <E> Dsp startup: SoC model (ZzChip) is unknown\nQnnDsp <E> Htp startup on load failed",
        "qualcomm-s19a-htp-soc-model-unknown",
        ("ZzChip", "soc_model"),
    ),
    (
        'Error: download model failed: SDKError(Unknown error code), chipset "Snapdragon Zz CRD" not '
        "available for this model; supported: Snapdragon X Elite CRD, Snapdragon 8 Elite QRD",
        "qualcomm-s19a-geniex-chipset-unavailable",
        ("Snapdragon Zz CRD", "Snapdragon X Elite CRD, Snapdragon 8 Elite QRD"),
    ),
    (
        "quantization 'zz_w4a16' exists but is not downloaded for model 'zz-org/zz-llm'",
        "qualcomm-s19a-geniex-quant-not-found",
        ("zz_w4a16", "zz-org/zz-llm", "pull"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), QUALCOMM, ids=[c[1] for c in QUALCOMM])
def test_qualcomm_source_forms(kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_executorch_init_envelope_ranks_under_the_cause(kb: KnowledgeBase) -> None:
    """'Fail to initialize Qnn Manager' is the envelope: with the library error above it, the library error
    answers."""
    log = (
        "[ERROR] [Qnn ExecuTorch]: Cannot Open QNN library libQnnHtp.so, with error: dlopen failed: library "
        '"libQnnHtp.so" not found\n'
        "E 00:00:00.123 executorch:QnnExecuTorchBackend.cpp:50] Fail to initialize Qnn Manager"
    )
    assert kb.lookup(log, top=1)[0].entry.id == "qualcomm-s19a-executorch-open-qnn-library"


def test_fastrpc_open_shell_errno_wrapped_onto_the_next_line(kb: KnowledgeBase) -> None:
    """A logcat line wrapped inside the errno parentheses still answers, with the errno text captured."""
    top = assert_answered(
        kb,
        "Error 0xd: open_shell failed for domain 3 search paths used are /zz/dsp/ "
        "(errno Permission\n denied)",
        ("fastrpc_shell_unsigned_3", "/zz/dsp/"),
        entry="qualcomm-s19a-fastrpc-open-shell-failed",
    )
    assert ("detail", "Permission\n denied") in top.captures
