"""OpenVINO's shape and type checks, TFLite's kernel and Java checks, MNN's backend messages: vendor texts.

OpenVINO (openvinotoolkit/openvino, and the strings of the openvino 2026.4 wheel's libopenvino.so): Reshape's
shape inference (src/core/shape_inference/include/reshape_shape_inference.hpp: "Requested output shape ... is
incompatible with input shape", "Non-'-1' output dimensions do not evenly divide the input dimensions"), the
element-type checks of MatMul, Concat and the elementwise ops (src/core/src/op/matmul.cpp, concat.cpp:
"Arguments do not have the same element type (arg0 element type: ...)", "Argument element types are
inconsistent."), Split and VariadicSplit (split_shape_inference.hpp, variadic_split_shape_inference.hpp),
Transpose (transpose_shape_inference.hpp: "Permutation ... is not valid for input shape ...") and the
asynchronous InferRequest's state check (src/inference/src/dev/iasync_infer_request.cpp: "Infer Request is
busy") and the PyTorch front end's recurrent layers (src/frontends/pytorch/src/op/lstm.cpp: "LSTM in train
mode is not supported.").
TFLite / LiteRT (google-ai-edge/LiteRT tflite/): the Java TensorImpl's type check ("Cannot convert between a
TensorFlowLite tensor with type %s and a Java object of type %s (which is compatible with the TensorFlowLite
type %s)."), kernel_util.cc's broadcast check ("Given shapes, %s and %s, are not broadcastable.") and
core/c/common.h's TF_LITE_ENSURE_TYPES_EQ ("%s:%d %s != %s (%s != %s)"), each as the Python interpreter
prints it with subgraph.cc's "Node number %d (%s) failed to prepare." after it.
MNN (alibaba/MNN): source/core/Schedule.cpp ("Can't Find type=%d backend, use %d instead") and the OpenCL
backend's allocation failures (source/backend/opencl/core/OpenCLBackend.cpp).

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

OV_NODE = (
    "Exception from src/core/src/node.cpp:95:\n"
    "Check '{check}' failed at src/core/shape_inference/include/{file}:{line}:\n"
)

ENTRIES = [
    (
        OV_NODE.format(
            check="backward_compatible_check || in_out_elements_equal",
            file="reshape_shape_inference.hpp",
            line=380,
        )
        + "While validating node 'opset1::Reshape my_net/Reshape_7 (opset1::Concat cat[0]:f32[1,84,8400], "
        "opset1::Constant c[0]:i64[3]) -> (f32[1,80,8400])' with friendly_name 'my_net/Reshape_7':\n"
        "Shape inference input shapes {[1,84,8400],[3]}\n"
        "Requested output shape [1,80,8400] is incompatible with input shape",
        "openvino-s21d-reshape-incompatible",
        ("my_net/Reshape_7", "1,80,8400", "x.reshape(x.shape[0], -1, h, w)"),
    ),
    (
        "While validating node 'opset1::Reshape flatten_2 (x[0]:f32[1,7,7,512], p[0]:i64[2]) -> (f32[?,?])' "
        "with friendly_name 'flatten_2':\nNon-'-1' output dimensions do not evenly divide the input "
        "dimensions",
        "openvino-s21d-reshape-incompatible",
        ("flatten_2", "model.reshape()"),
    ),
    (
        "While validating node 'opset1::Add blk/add_3 (a[0]:f16[1,64], b[0]:f32[1,64]) -> "
        "(dynamic[...])' with "
        "friendly_name 'blk/add_3':\nArgument element types are inconsistent.",
        "openvino-s21d-element-type-mismatch",
        ("blk/add_3", "Add", "model.float()"),
    ),
    (
        "RuntimeError: Check 'element::Type::merge(result_et, get_input_element_type(0), "
        "get_input_element_type(1))' failed at src/core/src/op/matmul.cpp:77:\n"
        "While validating node 'opset1::MatMul proj/MatMul (h[0]:f32[?,512], w[0]:f16[512,512]) -> "
        "(dynamic[...])' with friendly_name 'proj/MatMul':\n"
        "Arguments do not have the same element type (arg0 element type: f32, arg1 element type: f16).",
        "openvino-s21d-element-type-mismatch",
        ("proj/MatMul", "f32", "f16", "INFERENCE_PRECISION_HINT"),
    ),
    (
        "While validating node 'opset1::VariadicSplit heads/split (x[0]:f32[1,64,32], a[0]:i64[], "
        "l[0]:i64[3]) "
        "-> (f32[...])' with friendly_name 'heads/split':\n"
        "Total length of splits: 96 must match the length of the chosen axis: 64",
        "openvino-s21d-variadic-split-lengths",
        ("heads/split", "96", "64", "-1"),
    ),
    (
        "Dimension of data input shape along 'axis': 100 must be evenly divisible by 'num_splits' attribute "
        "value: 3",
        "openvino-s21d-split-lengths",
        ("100", "3 equal parts", "model.reshape()"),
    ),
    (
        "While validating node 'opset1::Transpose enc/Transpose_1 (r[0]:f32[1,3,224], o[0]:i64[4]) -> "
        "(f32[...])' with friendly_name 'enc/Transpose_1':\n"
        "Permutation [0,3,1,2] is not valid for input shape [1,3,224]",
        "openvino-s21d-transpose-permutation",
        ("enc/Transpose_1", "0,3,1,2", "1,3,224", "np.expand_dims"),
    ),
    (
        "Exception from src/inference/src/cpp/infer_request.cpp:223:\n"
        "Exception from src/inference/src/dev/iasync_infer_request.cpp:259:\nInfer Request is busy",
        "openvino-s21d-infer-request-busy",
        ("request.wait()", "ov.AsyncInferQueue"),
    ),
    (
        "OpConversionFailure: Check 'is_conversion_successful' failed at "
        "src/frontends/pytorch/src/frontend.cpp:171:\n"
        "FrontEnd API failed with OpConversionFailure:\nModel wasn't fully converted. Failed "
        "operations detailed log:\n"
        "-- aten::lstm with a message:\nException from src/frontends/pytorch/src/op/lstm.cpp:300:\n"
        "LSTM in train mode is not supported.\nSummary:\n-- Conversion is failed for: aten::lstm",
        "openvino-s21d-pytorch-rnn-train-mode",
        ("LSTM", "model.eval()"),
    ),
    (
        "java.lang.IllegalArgumentException: Cannot convert between a TensorFlowLite tensor with "
        "type INT8 and a "
        "Java object of type [[[F (which is compatible with the TensorFlowLite type FLOAT32).",
        "tflite-s21d-java-convert-type",
        ("INT8", "FLOAT32", "getInputTensor(i).dataType()"),
    ),
    (
        "RuntimeError: tensorflow/lite/kernels/kernel_util.cc:701 Given shapes, [1,8,8], [1,1,8] and "
        "[1,4,8], are "
        "not broadcastable.Node number 9 (SELECT_V2) failed to prepare.",
        "tflite-s21d-not-broadcastable",
        ("SELECT_V2", "1,8,8", "1,4,8", "shape_signature"),
    ),
    (
        "RuntimeError: tensorflow/lite/kernels/add.cc:118 input1->type != input2->type (INT16 != "
        "INT8)Node number "
        "2 (ADD) failed to prepare.",
        "tflite-s21d-kernel-type-mismatch",
        ("ADD", "INT16", "INT8", "kernels/add.cc", "representative_dataset"),
    ),
    (
        "Can't Find type=7 backend, use 0 instead",
        "mnn-s21d-backend-not-found",
        ("type 7", "backend 0", "MNN_SEP_BUILD"),
    ),
    (
        "OpenCL alloc image failed (STATIC), 4096x8192",
        "mnn-s21d-opencl-alloc-failed",
        ("image", "size 4096x8192", "Precision_Low"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), ENTRIES)
def test_vendor_text_is_answered(kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]) -> None:
    """The vendor's own text is answered by its entry, and the advice names the message's parts."""
    assert_answered(kb, message, named, entry=entry)
