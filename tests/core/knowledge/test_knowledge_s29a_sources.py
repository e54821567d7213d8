"""Branch s29a: OpenVINO's and torch.export/Dynamo's own failure texts that got only a family card or no
answer, each case written from the vendor's format string with names and values of our own (never an
evaluation message).

Vendor files read: openvinotoolkit/openvino src/core/shape_inference/include/*_shape_inference.hpp (the
per-operation checks, printed "Check '<cond>' failed at <file>:<line>"), src/inference/src/dev/make_tensor.cpp
(set_shape beyond the tensor's capacity: "Could set new shape: "), src/common/util/src/os/*/*_shared_object_
loader.cpp ("Cannot load library '<path>': <dlerror>" / "<GetLastError> from cwd: <cwd>"), the 2021-2022.3
Inference Engine's status names (src/inference/include/ie/ie_common.h: "[ GENERAL_ERROR ]",
"[ NOT_FOUND ]"...) and MYRIAD plugin (src/plugins/intel_myriad/myriad_plugin/myriad_executor.cpp, its mvnc
ncDeviceOpen log);
pytorch/pytorch torch/_dynamo/exc.py with torch/_dynamo/graph_break_registry.json (graph breaks printed
"<type>\\n  Explanation: ...\\n  Hint: ..."), torch/_dynamo/variables/functions.py (unsupported builtin),
torch/_export/verifier.py (SpecViolationError) and torch/_functorch/aot_autograd.py (unknown output type).
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import Case, answered_by_entry, assert_advice, top_match

CASES: list[Case] = [
    (
        "RuntimeError: Exception from src/core/src/runtime/tensor.cpp:95:\n"
        "Check 'shape_size(new_shape) <= ov::shape_size(m_capacity)' failed at "
        "src/inference/src/dev/make_tensor.cpp:91:\nCould set new shape: [4,512]",
        "openvino-s29a-tensor-set-shape-capacity",
        ("4,512",),
    ),
    (
        "RuntimeError: Cannot load library "
        "'C:\\ov\\runtime\\bin\\intel64\\Release\\openvino_intel_npu_plugin.dll': 126 "
        "from cwd: C:\\work\\app",
        "openvino-s29a-shared-object-load",
        ("openvino_intel_npu_plugin.dll", "126"),
    ),
    (
        "RuntimeError: [ NOT_IMPLEMENTED ] Output blob with precision I64 is not supported on HDDL",
        "openvino-s29a-ie-not-implemented",
        ("Output blob with precision I64 is not supported on HDDL",),
    ),
    (
        "RuntimeError: [ NOT_FOUND ] Failed to find input or output with name: 'image_tensor'",
        "openvino-s29a-ie-not-found",
        ("image_tensor",),
    ),
    (
        "RuntimeError: [ PARAMETER_MISMATCH ] Can't set input blob with name: data, because model input "
        "(shape=[1,3,300,300]) and blob (shape=(1.300.300.3)) are incompatible",
        "openvino-s29a-ie-parameter-mismatch",
        ("data",),
    ),
    (
        "[ INFO ] Loading model to the plugin\nE: [ncAPI] [    812345] [detect] ncDeviceOpen:1013\t"
        "Failed to find booted device after boot\n[ ERROR ] Can not init Myriad device: NC_ERROR",
        "openvino-s29a-myriad-device-open",
        ("NC_ERROR",),
    ),
    (
        "RuntimeError: Failed to allocate graph: MYRIAD device is not opened.",
        "openvino-s29a-myriad-graph-allocate",
        ("MYRIAD device is not opened",),
    ),
    (
        "torch._dynamo.exc.Unsupported: Dynamic shape operator\n"
        "  Explanation: Operator `aten.masked_select.default`'s output shape depends on input Tensor data.",
        "torch-onnx-s29a-dynamo-dynamic-shape-operator",
        ("aten.masked_select.default",),
    ),
    (
        "torch._dynamo.exc.Unsupported: dynamic shape operator: aten.unique_consecutive.default; "
        "to enable, set torch._dynamo.config.capture_dynamic_output_shape_ops = True",
        "torch-onnx-s29a-dynamo-dynamic-shape-operator",
        ("aten.unique_consecutive.default",),
    ),
    (
        "torch._dynamo.exc.Unsupported: data dependent operator: aten._local_scalar_dense.default; "
        "to enable, set torch._dynamo.config.capture_scalar_outputs = True",
        "torch-onnx-s29a-dynamo-item-scalar-output",
        ("aten._local_scalar_dense.default",),
    ),
    (
        "torch._export.verifier.SpecViolationError: Operator 'aten.index_put_.default' is not functional",
        "torch-onnx-s29a-export-spec-violation",
        ("aten.index_put_.default",),
    ),
    (
        "RuntimeError: Found <class 'mymodels.heads.DetectionOutput'> in output, which is not a known type. "
        "If this type holds tensors, you need to register a pytree for it.",
        "torch-onnx-s29a-output-not-known-type",
        ("mymodels.heads.DetectionOutput",),
    ),
    (
        "torch._dynamo.exc.Unsupported: Graph break due to unsupported builtin mylib_ext.PyCapsule.nms. This "
        "function is either a Python builtin (e.g. _warnings.warn) or a third-party C/C++ Python extension "
        "(perhaps created with pybind).",
        "torch-onnx-s29a-dynamo-unsupported-builtin",
        ("mylib_ext.PyCapsule.nms",),
    ),
]

CASES += [
    (
        # pre-2023 normalize_axis (src/core/src/validation_util.cpp): the op name before the axis
        "Check '((axis >= axis_range_min) && (axis <= axis_range_max))' failed at "
        "core/src/validation_util.cpp:1012:\n"
        "VariadicSplit Parameter axis 7 out of the tensor rank range [-3, 2].",
        "openvino-axis-out-of-rank-range",
        ("VariadicSplit", "axis 7", "[-3, 2]"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)

#: Catch-all forms (generic entries): the status or the graph-break type says only what kind of failure it
#: was; their advice repeats the text after it, which the automatic judge does not count as specific.
GENERIC_CASES: list[Case] = [
    (
        "RuntimeError: [ GENERAL_ERROR ] AssertionFailed: outData->getTensorDesc().getDims().size() == 4",
        "openvino-s29a-ie-general-error",
        ("AssertionFailed: outData->getTensorDesc().getDims().size() == 4",),
    ),
    (
        "torch._dynamo.exc.Unsupported: Failed to trace builtin operator\n"
        "  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types "
        "['str'].\n"
        "  Hint: Avoid calling builtin `print` with argument types ['str'].",
        "torch-onnx-s29a-dynamo-graph-break-explained",
        ("Failed to trace builtin operator", "Avoid calling builtin `print`"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), GENERIC_CASES, ids=[c[1] for c in GENERIC_CASES])
def test_a_catch_all_form_is_answered_by_its_generic_entry_with_the_text_after_it(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    top = top_match(kb, message)
    assert top.entry.id == entry and top.entry.generic
    assert_advice(top, named, judged_specific=False)


NEAR_MISSES = [
    # a tokenizers extension keeps its own entry (s28a), not the generic loader's
    "Cannot load library '/home/u/.venv/lib/python3.11/site-packages/openvino_tokenizers/lib/"
    "libopenvino_tokenizers.so': undefined symbol: _ZN2ov4Node14get_input_sizeEv",
    # NPU's option check keeps its own entry (s24c)
    "[ NOT_FOUND ] Option 'NPU_COMPILER_TYPE' is not supported for current configuration",
    # a shape-inference header that is not one operation's
    "include/openvino/core/shape_inference.hpp",
]


@pytest.mark.parametrize("message", NEAR_MISSES)
def test_lookalikes_are_not_answered_by_the_new_entries(kb: KnowledgeBase, message: str) -> None:
    found = kb.lookup(message, top=1)
    assert not found or not found[0].entry.id.rsplit("+", 1)[-1].startswith(
        ("openvino-s29a-", "torch-onnx-s29a-")
    ), found[0].entry.id


def test_the_myriad_usb_library_log_names_openvino() -> None:
    assert detect_families(
        "E: [ncAPI] [    950632] [] ncDeviceOpen:859\tDevice doesn't appear after boot"
    ) == ["openvino"]
    assert detect_families("Can not init Myriad device: NC_ERROR") == ["openvino"]


@pytest.mark.parametrize(
    "message",
    [
        "AttributeError: 'NoneType' object has no attribute 'build_engine'",
        "AttributeError: module 'tvm.relay.frontend' has no attribute 'from_onnx'",
    ],
)
def test_a_bare_attribute_error_is_not_nncfs_hook_entry(kb: KnowledgeBase, message: str) -> None:
    """s24c's NNCF hook entry holds NNCF's own frame line; the AttributeError after it is a capture, so its
    words do not pull any AttributeError toward NNCF."""
    found = kb.lookup(message, top=3)
    assert all(m.entry.id != "openvino-s24c-nncf-torch-quantizer-hook-outside-forward" for m in found)


def test_nncfs_hook_entry_still_names_the_error_after_its_frame(kb: KnowledgeBase) -> None:
    message = (
        '  File "/venv/lib/python3.10/site-packages/nncf/torch/quantization/external_quantizer.py", '
        "line 39, in __call__\n    storage = getattr(replica.nncf, EXTERNAL_QUANTIZERS_STORAGE_NAME)\n"
        "AttributeError: 'NoneType' object has no attribute 'nncf'"
    )
    top = top_match(kb, message)
    assert top.entry.id == "openvino-s24c-nncf-torch-quantizer-hook-outside-forward"
    assert dict(top.captures)["detail"].startswith("AttributeError: 'NoneType' object has no attribute")
