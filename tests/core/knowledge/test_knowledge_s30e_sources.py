"""Branch s30e: texts of torch.onnx, coremltools, Paddle2ONNX, MNN, OpenVINO's Python API, LiteRT's Python
interpreter and the RKNPU runtime that users hit often and that got only a family card (or no confident
answer) before, each case written from the vendor's format string with names and values of our own (never
an evaluation message).

Vendor files read: pytorch/pytorch torch/onnx/errors.py (UnsupportedOperatorError),
torch/onnx/_internal/torchscript_exporter/symbolic_helper.py (_parse_arg, _onnx_unsupported),
torch/onnx/_internal/torchscript_exporter/utils.py (the opset ceiling warning), torch/onnx/_internal/exporter/
_compat.py (dynamic_axes to dynamic_shapes), torch/onnx/__init__.py (dynamic_shapes with dynamo=False);
apple/coremltools coremltools/converters/mil/input_types.py (Shape); PaddlePaddle/Paddle2ONNX
paddle2onnx/optimizer/paddle2onnx_optimizer.cc; alibaba/MNN
source/backend/*/ (onCreate's "Don't support type" and "The Creator Don't support type");
openvino's wheel openvino/tools/ovc/cli_parser.py and openvino/utils/data_helpers/data_dispatcher.py;
google-ai-edge/LiteRT tflite/python/interpreter_wrapper/interpreter_wrapper.cc and
tflite/core/model_builder.cc; airockchip/rknn-toolkit2 doc/rknn_server_proxy.md (the fd allocation FAQ).
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import Case, answered_by_entry

CASES: list[Case] = [
    # torch/onnx/_internal/torchscript_exporter/symbolic_helper.py (_parse_arg, a list of sizes)
    (
        "torch.onnx.errors.SymbolicValueError: Failed to export a node '%87 : Long(device=cpu) = "
        "onnx::Gather[axis=0](%85, %86)' (in list node %99 : int[] = prim::ListConstruct(%87, %98)) because "
        "it is not constant. Please try to make things (e.g. kernel sizes) static if possible.  [Caused by "
        "the value '99 defined in (%99 : int[] = prim::ListConstruct(%87, %98))' (type 'List[int]') in the "
        "TorchScript graph. The containing node has kind 'prim::ListConstruct'.]",
        "torch-onnx-s30e-list-node-not-constant",
        ("onnx::Gather",),
    ),
    # torch/onnx/symbolic_helper.py of 1.x releases (_parse_arg, an attribute)
    (
        "RuntimeError: Failed to export an ONNX attribute 'onnx::Cast', since it's not constant, please try "
        "to make things (e.g., kernel size) static if possible",
        "torch-onnx-attribute-not-constant",
        ("onnx::Cast",),
    ),
    # torch/onnx/errors.py: today's form names the op without quotes
    (
        "torch.onnx.errors.UnsupportedOperatorError: ONNX export failed on an operator with unrecognized "
        "namespace mmcv::modulated_deform_conv2d. If you are trying to export a custom operator, make sure "
        "you registered it with the right domain and version.",
        "torch-onnx-unrecognized-namespace",
        ("mmcv::modulated_deform_conv2d",),
    ),
    (
        "ONNX export failed on an operator with unrecognized namespace 'torchvision::roi_align'. If you are "
        "trying to export a custom operator, make sure you registered it with the right domain and version.",
        "torch-onnx-unrecognized-namespace",
        ("torchvision::roi_align",),
    ),
    (
        "torch.onnx.errors.OnnxExporterError: ONNX export failed on max_unpool2d, which is not implemented "
        "for opset 9. Try exporting with other opset versions.",
        "torch-onnx-s30e-not-implemented-for-opset",
        ("max_unpool2d", "9"),
    ),
    (
        "UserWarning: Exporting to ONNX opset version 21 is not supported. by 'torch.onnx.export()'. The "
        "highest opset version supported is 20. To use a newer opset version, consider "
        "'torch.onnx.export(..., dynamo=True)'.",
        "torch-onnx-s30e-opset-above-torchscript-max",
        ("21", "20"),
    ),
    (
        "RuntimeError: # Failed to convert 'dynamic_axes' to 'dynamic_shapes'. Please provide "
        "'dynamic_shapes' directly. Refer to the documentation for 'torch.export.export' for more "
        "information on dynamic shapes.",
        "torch-onnx-s30e-dynamic-axes-to-shapes",
        ("dynamic_shapes",),
    ),
    (
        "ValueError: The exporter only supports dynamic shapes through parameter dynamic_axes when "
        "dynamo=False.",
        "torch-onnx-s30e-dynamic-shapes-needs-dynamo",
        ("dynamic_axes",),
    ),
    # coremltools/converters/mil/input_types.py (Shape.__init__)
    (
        "ValueError: Dimension cannot be None or -1. Use ct.RangeDim for runtime determined dimension. "
        "Dim 2: None See https://coremltools.readme.io/docs/flexible-inputs",
        "coreml-s30e-dimension-none-or-minus-one",
        ("2", "ct.RangeDim"),
    ),
    # paddle2onnx/optimizer/paddle2onnx_optimizer.cc
    (
        "[Paddle2ONNX] [ERROR] Failed to reinfer shape for this model.",
        "paddle2onnx-s30e-reinfer-shape-failed",
        ("--opset_version",),
    ),
    # MNN source/backend/opencl/core/OpenCLBackend.cpp, cuda/core/CUDABackend.cpp (onCreate)
    (
        "The Creator Don't support type ScatterND, memObject:4, /decoder/ScatterND_2",
        "mnn-s30e-creator-dont-support-type",
        ("ScatterND", "/decoder/ScatterND_2"),
    ),
    (
        "CUDABackend The Creator Don't support type GridSample, /warp/GridSample",
        "mnn-s30e-creator-dont-support-type",
        ("GridSample", "CUDA"),
    ),
    # MNN source/backend/cpu/CPUBackend.cpp, metal/MetalBackend.mm (onCreate)
    (
        "Don't support type [LinearAttention], /blocks.3/attn/LinearAttention",
        "mnn-s30e-cpu-dont-support-type",
        ("LinearAttention",),
    ),
    # openvino/tools/ovc/cli_parser.py
    (
        'openvino.tools.ovc.error.Error: The "weights/detector.onnx" is not existing file or directory',
        "openvino-s30e-ovc-path-not-found",
        ("weights/detector.onnx",),
    ),
    # openvino/utils/data_helpers/data_dispatcher.py
    (
        "TypeError: Incompatible inputs of type: <class 'list'>",
        "openvino-s30e-incompatible-inputs",
        ("list",),
    ),
    (
        "TypeError: Incompatible inputs of type: <class 'torch.Tensor'> under pixel_values key!",
        "openvino-s30e-incompatible-inputs",
        ("torch.Tensor", "pixel_values"),
    ),
    # tflite/python/interpreter_wrapper/interpreter_wrapper.cc
    (
        "ValueError: Invalid tensor index 17 exceeds max tensor index 11",
        "tflite-s30e-python-tensor-index",
        ("17", "11"),
    ),
    # airockchip/rknn-toolkit2 doc/rknn_server_proxy.md: the runtime's form without errstr
    (
        "E RKNN: [03:12:45.101] failed to allocate fd, ret: -1, errno: 12",
        "rknn-s21b-npu-memory-alloc-failed",
        ("RkLunch-stop.sh",),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES, confident=True)


def test_the_list_node_check_leads_over_its_torchscript_context(kb: KnowledgeBase) -> None:
    """The SymbolicValueError's '[Caused by the value ...]' tail only says where the failure is: it is a
    context line of its tool, ranked under the check that states the failure."""
    message = CASES[0][0]
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert ids[0] == "torch-onnx-s30e-list-node-not-constant"
    assert "torch-onnx-caused-by-value" in ids
    alone = kb.answer(
        "[Caused by the value 'x.3 defined in (%x.3 : Float(*, strides=[1]) = aten::relu(%x))' "
        "(type 'Tensor') in the TorchScript graph. The containing node has kind 'aten::relu'.]",
        top=1,
    )
    assert alone.matches[0].entry.id == "torch-onnx-caused-by-value"


def test_a_binary_model_identifier_printed_as_escapes_is_still_read(kb: KnowledgeBase) -> None:
    """A zip or gzip file given as a .tflite: its first bytes are printed as escapes, longer than 4 chars."""
    found = kb.answer("ValueError: Model provided has model identifier 'PK\\x03\\x04', should be 'TFL3'")
    assert found.matches[0].entry.id == "tflite-model-identifier-not-tfl3"
    assert found.confidence == "high"


@pytest.mark.parametrize(
    "message",
    [
        # MNN's executor form has its own entry (a forward type number, no brackets)
        "Don't support 3",
        # a bare Python TypeError of another library: no 'Incompatible inputs of type: <class'
        "TypeError: incompatible function arguments. The following argument types are supported",
        # onnx's checker says the model path, not ovc's 'is not existing file or directory'
        "onnx.onnx_cpp2py_export.checker.ValidationError: Unable to open model file:model.onnx. Please check "
        "if it is a valid file.",
    ],
)
def test_lookalikes_are_not_taken_by_the_s30e_entries(kb: KnowledgeBase, message: str) -> None:
    """No s30e entry matches these by its pattern (wording alone may still rank one low)."""
    found = [(m.entry.id, m.reason) for m in kb.answer(message, top=3).matches]
    assert not any("-s30e-" in i and "pattern" in reason for i, reason in found), found
