"""Core ML, torch.onnx and onnx failure classes written from the vendors' own sources answer with their entry.

Each form is a format string of the tool's source, filled with made-up names, as the tool prints it:

* Core ML: apple/coremltools ``converters/mil/mil/ops/defs/iOS15/image_resizing.py``, ``iOS15/conv.py``,
  ``iOS15/tensor_transformation.py``, ``iOS18/transformers.py`` (type inference checks),
  ``converters/mil/frontend/torch/ops.py``, ``exir_utils.py``, ``dim_order_ops.py``, ``converter.py``,
  ``quantization_ops.py`` and ``converters/mil/mil/passes/pass_pipeline.py``, ``graph_pass.py``;
* onnx: onnx/onnx ``onnx/checker.cc``, ``onnx/defs/schema.cc``, ``onnx/defs/controlflow/utils.cc``,
  ``onnx/external_data_helper.py``, ``onnx/compose.py``;
* torch.onnx: pytorch/pytorch ``torch/onnx/utils.py`` and the ``torch.export`` failures that
  ``torch.onnx.export(..., dynamo=True)`` surfaces (``torch/fx/experimental/symbolic_shapes.py``,
  ``torch/export/dynamic_shapes.py``).

Each row: the text, the entry that must answer it, and the captured parts its advice must name."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

FORMS = [
    # Core ML (coremltools MIL op definitions, PyTorch frontend, passes)
    (
        'ValueError: input to the "resize_bilinear" op must have rank at least 3',
        "coreml-s21a-mil-op-input-spec",
        ("resize_bilinear",),
    ),
    (
        'ValueError: "crop_resize" op: input "boxes" must has shape [N, 4], but got (1, 7)',
        "coreml-s21a-mil-op-input-spec",
        ("crop_resize",),
    ),
    (
        'ValueError: input "transform_matrix" to the "affine" op must be a rank 2 tensor. Got '
        "rank 3 tensor of shape (1, 2, 6)",
        "coreml-s21a-mil-op-input-spec",
        ("affine",),
    ),
    (
        "ValueError: # of input channels 96 not divisible by groups 5",
        "coreml-s21a-mil-conv-channels",
        ("96", "5"),
    ),
    (
        "ValueError: C_in / groups = 64/2 != weight[1] (64)",
        "coreml-s21a-mil-conv-channels",
        (),
    ),
    (
        "ValueError: Reshape op supports only one dimension to be -1, but got 2 dimensions be -1.",
        "coreml-s21a-mil-reshape-target",
        (),
    ),
    (
        "ValueError: Invalid target shape in `reshape` op ((1, 512, 7, 7) to (1, 4096)).",
        "coreml-s21a-mil-reshape-target",
        ("(1, 4096)",),
    ),
    (
        "ValueError: query, key, value must have a same rank, got * query rank = 4 * key rank "
        "= 3 * value rank = 3",
        "coreml-s21a-mil-sdpa-qkv-shapes",
        ("query, key, value",),
    ),
    (
        "ValueError: key and mask must have a same sequence length, got * key sequence = 128 * "
        "mask sequence = 1",
        "coreml-s21a-mil-sdpa-qkv-shapes",
        ("key and mask", "sequence length"),
    ),
    (
        "ValueError: torchvision::deform_conv2d expects positive dilation.",
        "coreml-s21a-torchvision-op-form",
        ("deform_conv2d", "expects positive dilation"),
    ),
    (
        "ValueError: torchvision::roi_align currently expects boxes with shape [num_rois, 5].",
        "coreml-s21a-torchvision-op-form",
        ("roi_align", "[num_rois, 5]"),
    ),
    (
        "NotImplementedError: For symbolic shape input, the lowering for Torch `cumprod` op is not supported",
        "coreml-s21a-torch-lowering-static-only",
        ("cumprod",),
    ),
    (
        "NotImplementedError: For `_weight_int4pack_mm` op, we only support static case, where "
        "y_int4pack, group_size, y_scales_and_zeros are all known during compile time.",
        "coreml-s21a-torch-lowering-static-only",
        ("_weight_int4pack_mm",),
    ),
    (
        "NotImplementedError: Only 4 types of inputs handled yet: user input, parameter, "
        "constant, buffer. But got InputKind.TOKEN",
        "coreml-s21a-exir-element-not-handled",
        ("InputKind.TOKEN",),
    ),
    (
        "NotImplementedError: Core ML does not support non-contiguous dim order",
        "coreml-s21a-exir-element-not-handled",
        ("dim_order",),
    ),
    (
        "ValueError: The pass common::my_fusion is not registered.",
        "coreml-s21a-pass-pipeline-name",
        ("common::my_fusion",),
    ),
    (
        "NotImplementedError: The graph pass `common::const_elimination` doesn't support option `max_size`.",
        "coreml-s21a-pass-pipeline-name",
        ("common::const_elimination", "max_size"),
    ),
    (
        "ValueError: There are coreml compression related buffers registered in the torch "
        "model (with _COREML_ in the buffer's name) for dense1.weight, but the "
        "'compression_type' is not set. Please set it to indicate the type of compression used "
        "on the weight.",
        "coreml-s21a-torch-compression-buffers",
        ("dense1.weight", "finalize()"),
    ),
    (
        "ValueError: Missing lut in compression info. Please register a buffer for lut.",
        "coreml-s21a-torch-compression-buffers",
        ("lut",),
    ),
    (
        "ValueError: In encoder.fc1.weight, the `weight` should have same rank as `scale`, but "
        "got (64, 32) vs (64,)",
        "coreml-s21a-torch-compression-buffers",
        ("encoder.fc1.weight",),
    ),
    (
        "ValueError: Unsupported quantization range: -8 to 15.  CoreML only supports 4-bit and "
        "8-bit quantization.",
        "coreml-s21a-torch-quantized-op-params",
        ("-8", "15"),
    ),
    (
        "ValueError: quantization zero point must be const at compile time",
        "coreml-s21a-torch-quantized-op-params",
        ("zero point",),
    ),
    # onnx (checker, shape/type inference, external data, compose)
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: TensorProto (tensor name: "
        "conv1.weight) raw_data size (1024 bytes) is too small for the declared shape and type "
        "(3456 bytes required).",
        "onnx-s21a-checker-tensor-data-too-small",
        ("conv1.weight", "raw_data", "1024"),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Location of external TensorProto ( "
        "tensor name: w_0) should be a relative path, but it is an absolute path: "
        "/data/w_0.bin",
        "onnx-s21a-external-data-location",
        ("w_0", "save_as_external_data=True"),
    ),
    (
        "ValueError: External data offset (4096) exceeds file size (1024) for tensor 'embed.weight'",
        "onnx-s21a-external-data-location",
        ("save_as_external_data=True",),
    ),
    (
        "ValueError: Cant merge two graphs with overlapping names. Found repeated initializer "
        "names: bias_1, w_2\nConsider using ``onnx.compose.add_prefix`` to add a prefix to "
        "names in one of the graphs.",
        "onnx-s21a-compose-merge",
        ("initializer", "bias_1, w_2", "add_prefix"),
    ),
    (
        "ValueError: IR version mismatch 10 != 8. Both models should have the same IR version",
        "onnx-s21a-compose-merge",
        ("10 vs 8", "convert_version"),
    ),
    (
        "ValueError: Output feat_7 is not present in g1",
        "onnx-s21a-compose-merge",
        ("feat_7", "g1", "io_map"),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Graph output 'scores' is not an "
        "output of any node in graph.",
        "onnx-s21a-graph-output-not-produced",
        ("scores",),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: fc.bias initializer name is not unique",
        "onnx-s21a-initializer-name",
        ("fc.bias",),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Opset import version 25 is out of supported range",
        "onnx-s21a-opset-import-unsupported",
        ("25",),
    ),
    (
        "[TypeInferenceError] then_branch and else_branch produce different number of outputs. 2 != 1",
        "onnx-s21a-if-branches-differ",
        ("2 vs 1",),
    ),
    (
        "(op_type:If, node name: If_17): [TypeInferenceError] Mismatched tensor element type "
        "for output 0 then=1 else=7",
        "onnx-s21a-if-branches-differ",
        ("1 vs 7", "output 0"),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Node (Split_12) has more inputs (2) "
        "than declared (1) in op definition.",
        "onnx-s21a-node-io-vs-schema",
        ("Split_12", "2", "(1)"),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Node (Resize_5)'s input 1 is marked "
        "single but has an empty string in the graph",
        "onnx-s21a-node-io-vs-schema",
        ("Resize_5",),
    ),
    # torch.onnx, and torch.export failures surfaced through torch.onnx.export(..., dynamo=True)
    (
        "RuntimeError: number of input names provided (3) exceeded number of inputs (2)",
        "torch-onnx-s21a-io-names-exceed",
        ("3", "2", "input"),
    ),
    (
        "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: Could not guard on "
        "data-dependent expression Eq(u2, 1) (unhinted: Eq(u2, 1)).  (Size-like symbols: none)",
        "torch-onnx-s21a-data-dependent-guard",
        ("Eq(u2, 1)", "torch._check"),
    ),
    (
        "torch._dynamo.exc.UserError: Constraints violated (seq_len)! For more information, "
        'run with TORCH_LOGS="+dynamic".',
        "torch-onnx-s21a-constraints-violated",
        ("seq_len",),
    ),
    (
        "torch._dynamo.exc.UserError: When `dynamic_shapes` is specified as a dict, its "
        "top-level keys must be the arg names ['pixel_values'] of `inputs`, but here they are "
        "['images']. Alternatively, you could also ignore arg names entirely and specify "
        "`dynamic_shapes` as a list/tuple matching `inputs`.",
        "torch-onnx-s21a-dynamic-shapes-keys",
        ("pixel_values", "images"),
    ),
]


@pytest.mark.parametrize(
    ("text", "entry", "named"), FORMS, ids=[f"{i}-{e}" for i, (_, e, _) in enumerate(FORMS)]
)
def test_source_form_answered(kb: KnowledgeBase, text: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, text, named, entry=entry)
