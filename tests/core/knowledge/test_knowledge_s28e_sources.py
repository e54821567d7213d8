"""Branch s28e: Ascend's torch_npu error location, MNN's aborting MNN_ASSERT and its converter's release-build
log prefix, and torch.export's fake-tensor failures, each case written from the vendor's format string with
names and values of our own (never an evaluation message).

Vendor files read: hicann/ge graph_metadef/graph/refiner/shape_refiner.cc (infer-function lookup and call);
Ascend/pytorch torch_npu/csrc/core/npu/NPUException.h (NPU_CHECK_ERROR / OPS_CHECK_ERROR:
``__func__ ":" __FILE__ ":" __LINE__ " NPU function error: " ... ", error code is "``); alibaba/MNN
include/MNN/MNNDefine.h (``MNN_ASSERT``: ``int res = (x); ... assert(res)``) and tools/converter/include/
logkit.h before 1.2.0 (``[hh:mm:ss] file:line: ``, ``[hh:mm:ss] :line: `` under NDEBUG, ``throw Error``);
pytorch/pytorch torch/fx/experimental/symbolic_shapes.py (PendingUnbackedSymbolNotFound) and
torch/_dynamo/utils.py (``Failed running call_function ...`` on fake tensors); apache/tvm commit ccaa534b2c
(Relay, autotvm, auto_scheduler and tvmc removed before v0.20.0).
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import in_top3_with_values

CASES = [
    (
        "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 NPU function error: "
        "call aclnnFlashAttentionScore failed, error code is 561002",
        "ascend-s28e-torch-npu-error-location",
        {"call": "InnerRun", "line": "218", "api": "call aclnnFlashAttentionScore failed", "value": "561002"},
    ),
    (
        "RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:47 NPU function error: "
        "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507018",
        "ascend-s28e-torch-npu-error-location",
        {"call": "operator()", "line": "47", "value": "507018"},
    ),
    (
        "RuntimeError: copy_:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:91 OPS function error: "
        "InplaceCopy, error code is 500002",
        "ascend-s28e-torch-npu-error-location",
        {"call": "copy_", "api": "InplaceCopy", "value": "500002"},
    ),
    (
        "demo: /src/MNN-2.8.1/source/backend/vulkan/image/execution/VulkanRaster.cpp:411: virtual "
        "MNN::ErrorCode MNN::VulkanRaster::onEncode(const std::vector<MNN::Tensor*>&): "
        "Assertion `res' failed.",
        "mnn-s28e-assert-res-abort",
        {"path": "/src/MNN-2.8.1/source/backend/vulkan/image/execution/VulkanRaster.cpp", "line": "411"},
    ),
    (
        "app: /home/u/MNN/express/Executor.cpp:120: void MNN::Express::Executor::run(): "
        "Assertion `res' failed.",
        "mnn-s28e-assert-res-abort",
        {"path": "/home/u/MNN/express/Executor.cpp", "line": "120"},
    ),
    (
        # The old converter's release build prints the line number without the file.
        "terminate called after throwing an instance of 'Error'\n  what():  [21:07:13] :156: Check failed: "
        "(scope->lookupTensor(name)) ==> Can't find tensor",
        "mnn-s27c-converter-uncaught-error",
        {"line": "156"},
    ),
    (
        "torch._dynamo.exc.InternalTorchDynamoError: PendingUnbackedSymbolNotFound: Pending unbacked symbols "
        "{u3} not in returned outputs FakeTensor(..., size=(u3, 2), dtype=torch.int64) ((2, 1), 0).",
        "torch-onnx-s28e-export-pending-unbacked",
        {"value": "{u3}"},
    ),
    (
        "torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in method conv2d of type "
        "object at 0x7f00aa11>(*(FakeTensor(..., size=(2, 1, 64, 64)), Parameter(FakeTensor(..., "
        "size=(16, 3, 3, 3), requires_grad=True))), **{}):",
        "torch-onnx-s28e-fake-tensor-op-failed",
        {"op": "conv2d", "kind": "function"},
    ),
    (
        "torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::col2im' to ONNX opset "
        "version 17 is not supported. Support for this operator was added in version 18, try exporting with "
        "this version.",
        "torch-onnx-unsupported-operator",
        {"op_type": "aten::col2im", "version": "17", "value": "18"},
    ),
    (
        # A paste that starts mid-message: only the exporter's own ending is left.
        "    ...to ONNX opset\nversion 9 is not supported. Support for this operator was added in "
        "version 11, try exporting with this version.",
        "torch-onnx-s28e-unsupported-operator-tail",
        {"value": "11"},
    ),
    (
        "[09:30:12] :236: Check failed: (inputSize == 2) ==> Reshape need two inputs",
        "mnn-s28e-converter-release-log-check",
        {"line": "236", "detail": "Check failed: (inputSize == 2) ==> Reshape need two inputs"},
    ),
    (
        "E18888: Failed to Get InferFunc. Reason: ASCEND_OPP_PATH is not set or it's invalid; Or the infer "
        "func of RoiAlignRotated is not registered.",
        "ascend-s28e-ge-infer-func-not-registered",
        {"op_type": "RoiAlignRotated"},
    ),
    (
        "[ERROR] GE(77,atc.bin):2025-02-03-04:05:06.789.012 [shape_refiner.cc:825]77 InferShapeAndType: "
        "ErrorNo: 4294967295(failed) [Get][InferFunc] failed. type is GridSample3D",
        "ascend-s28e-ge-infer-func-not-registered",
        {"op_type": "GridSample3D"},
    ),
    (
        "[Call][InferFunction] failed, node:/head/Concat_2(ConcatD).",
        "ascend-s28e-ge-call-infer-function-failed",
        {"op": "/head/Concat_2", "op_type": "ConcatD"},
    ),
    (
        "EZ8888: Gather_41(GatherV2) call infer function failed.",
        "ascend-s28e-ge-call-infer-function-failed",
        {"op2": "Gather_41", "op_type2": "GatherV2"},
    ),
    (
        "AttributeError: module 'tvm' has no attribute 'autotvm'",
        "tvm-s28e-relay-removed",
        {},
    ),
    (
        "ModuleNotFoundError: No module named 'tvm.relay.frontend.onnx'",
        "tvm-s28e-relay-removed",
        {},
    ),
]


test_the_tools_own_text_gets_its_entry_with_the_values = in_top3_with_values(CASES)


def test_the_torch_npu_location_ranks_under_the_code_it_carries(kb: KnowledgeBase) -> None:
    """The location line is context: the error code's own entry answers first."""
    message = (
        "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 NPU function error: "
        "call aclnnConvolution failed, error code is 561103"
    )
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert ids[0] != "ascend-s28e-torch-npu-error-location"
    assert "ascend-s28e-torch-npu-error-location" in ids


@pytest.mark.parametrize(
    "message",
    [
        # CMake's own build lines name CMakeFiles folders without a function prefix and line.
        'See also "/home/u/proj/build/CMakeFiles/CMakeOutput.log".',
        "make[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/main.cpp.o] Error 1",
    ],
)
def test_cmake_build_lines_are_not_torch_npu(kb: KnowledgeBase, message: str) -> None:
    """Shared words may rank the entry low in a lookup; it is never shown as an answer."""
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert "ascend-s28e-torch-npu-error-location" not in ids


@pytest.mark.parametrize(
    "message",
    [
        # A plain assert of another program: not MNN_ASSERT's 'res'.
        "app: /src/backend/cpu/conv.cpp:12: void f(): Assertion `x > 0' failed.",
        # 'res' asserted in a file outside MNN's source folders.
        "a.out: main.c:7: main: Assertion `res' failed.",
    ],
)
def test_other_assertions_are_not_mnn_assert(kb: KnowledgeBase, message: str) -> None:
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert "mnn-s28e-assert-res-abort" not in ids


def test_another_tools_failed_run_is_not_the_fake_tensor_entry(kb: KnowledgeBase) -> None:
    """Its core phrase is dynamo's 'Failed running call_', not any 'Failed running'."""
    message = "Failed running the model: out of memory"
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert "torch-onnx-s28e-fake-tensor-op-failed" not in ids


@pytest.mark.parametrize(
    "message",
    [
        # The same release-build prefix on an information line of a successful conversion.
        "[17:41:04] :40: ONNX Model ir version: 7",
        # dmlc's prefix always names the file (old TVM, MXNet).
        "[10:00:00] /tvm/src/relay/ir/expr.cc:10: Check failed: x",
    ],
)
def test_other_timestamped_lines_are_not_the_release_converter_check(kb: KnowledgeBase, message: str) -> None:
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert "mnn-s28e-converter-release-log-check" not in ids


def test_the_whole_unsupported_operator_message_answers_with_the_main_entry_first(kb: KnowledgeBase) -> None:
    message = (
        "Exporting the operator 'aten::tril' to ONNX opset version 13 is not supported. Support for this "
        "operator was added in version 14, try exporting with this version."
    )
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert ids[0] == "torch-onnx-unsupported-operator"


@pytest.mark.parametrize(
    "message",
    [
        "ModuleNotFoundError: No module named 'onnxsim'",  # any missing module: not TVM's removed stack
        # An old TVM without Relax: the opposite case.
        "AttributeError: module 'tvm' has no attribute 'relax'",
        "ModuleNotFoundError: No module named 'tvm.relax'",
    ],
)
def test_other_missing_modules_are_not_the_removed_relay_stack(kb: KnowledgeBase, message: str) -> None:
    matches = kb.answer(message, top=3).matches
    # never the answer, never by its pattern; it may show as a low wording match under the family card (an
    # old TVM without Relax shares 'module', 'tvm' and 'attribute' with it)
    assert matches[0].entry.id != "tvm-s28e-relay-removed"
    assert all(m.reason == "words" for m in matches if m.entry.id == "tvm-s28e-relay-removed")
