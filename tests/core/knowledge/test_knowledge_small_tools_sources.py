"""Branch s27c: the small tools' own failure texts (MNN, TVM, Paddle2ONNX, onnxconverter-common's float16,
onnx-simplifier, ncnn/pnnx), each case written from the vendor's format string with names and values of our
own (never an evaluation message), and the markers added for their file and registry names.

Vendor files read: alibaba/MNN include/MNN/MNNDefine.h (MNN_ASSERT, FUNC_PRINT), tools/converter/include/
logkit.h (the old uncaught ``Error``), source/backend/opencl/core/BufferPool.cpp and ImagePool.cpp,
source/backend/cpu/CPUBackend.cpp; apache/tvm src/s_tir/schedule/error.cc and concrete_schedule.h,
src/runtime/device_api.cc, src/target/codegen.cc; PaddlePaddle/Paddle2ONNX paddle2onnx/utils/utils.h,
mapper/mapper.h, mapper/exporter.cc, mapper/tensor/concat.cc, mapper/nn/pool2d.cc; microsoft/
onnxconverter-common onnxconverter_common/float16.py and auto_mixed_precision*.py; onnxsim
onnxsim/onnx_simplifier.py; Tencent/ncnn tools/pnnx/src/load_torchscript.cpp, tools/onnx/onnx2ncnn.cpp,
tools/pnnx/src/pass_ncnn/F_interpolate.cpp.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import in_top3_with_values

CASES = [
    (
        "terminate called after throwing an instance of 'Error'\n  what():  [17:20:05] "
        "/opt/src/convert/tools/converter/source/caffe/caffeConverter.cpp:120: Check failed: "
        "layerParam ==> bad layer",
        "mnn-s27c-converter-uncaught-error",
        {"line": "120"},
    ),
    (
        "libc++abi: terminating with uncaught exception of type Error: [08:01:02] "
        "/Users/a/conv/src/onnx/onnxConverter.cpp:61: Check failed: model.ParseFromString(buf) ==> bad file",
        "mnn-s27c-converter-uncaught-error",
        {"line": "61"},
    ),
    (
        "Error for /work/MNN-2.9.0/source/backend/cpu/CPURaster.cpp, 733",
        "mnn-s27c-assert-error-for-file",
        {"path": "/work/MNN-2.9.0/source/backend/cpu/CPURaster.cpp", "line": "733"},
    ),
    ("code=4 in onResize, 211", "mnn-s27c-func-print-error-code", {"value": "4", "call": "onResize"}),
    ("setBiasPtr: Map error biasPtrCL == nullptr", "mnn-s27c-opencl-map-null", {"value": "biasPtrCL"}),
    ("Alloc Buffer 536870912 error, code:-4", "mnn-s27c-opencl-alloc-error-code", {"value": "-4"}),
    ("Alloc Image 16384 x 2 error, code:-40", "mnn-s27c-opencl-alloc-error-code", {"size": "16384 x 2"}),
    ("Input type not match session's tensor", "mnn-s27c-input-type-mismatch", {}),
    (
        "ScheduleError: An error occurred in the schedule primitive 'reverse-compute-at'.\n\n"
        "The IR with diagnostic is:",
        "tvm-s27c-schedule-error-primitive",
        {"call": "reverse-compute-at"},
    ),
    (
        "ValueError: The loop no longer exists in the IRModule",
        "tvm-s27c-schedule-rv-no-longer-exists",
        {"value": "loop"},
    ),
    (
        "Check failed: (allow_missing) is false: Device API vulkan is not enabled.",
        "tvm-s27c-device-api-not-enabled",
        {"value": "vulkan"},
    ),
    ("TVMError: target.build.cuda is not enabled", "tvm-s27c-target-build-not-enabled", {"value": "cuda"}),
    (
        "%5 = reshape(%4, newshape=[1, -1]) // an internal invariant was violated while typechecking your "
        "program [11:00:00] /tvm/src/relay/op/tensor/transform.cc:600: Check failed: x == y:",
        "tvm-s27c-relay-typecheck-invariant",
        {},
    ),
    (
        "[Paddle2ONNX] [unique: unique_0.tmp_0] Requires the minimal opset version of 11.",
        "paddle2onnx-s27c-op-requires-opset",
        {"op_type": "unique", "value": "11"},
    ),
    (
        "[ERROR][Paddle2ONNX] [argmax: argmax_0.tmp_0] While Attribute(axis)'s type is Tensor, it's not "
        "supported unless it's a constant tensor.",
        "paddle2onnx-s27c-attr-tensor-not-constant",
        {"arg": "axis"},
    ),
    (
        "[Paddle2ONNX] Detected there's control flow 'conditional_block/select_input' op in your model, this "
        "requires the minimal opset version of 11.",
        "paddle2onnx-s27c-control-flow-opset",
        {"value": "11"},
    ),
    (
        "[ERROR][Paddle2ONNX] [conv2d: conv2d_4.tmp_0] Cannot support input with NHWC format.",
        "paddle2onnx-s27c-data-format-nhwc",
        {"op_type": "conv2d", "value": "NHWC"},
    ),
    (
        "[ERROR][Paddle2ONNX] [pool2d: pool2d_1.tmp_0] Adaptive only support static input shape.",
        "paddle2onnx-s27c-adaptive-pool-static",
        {},
    ),
    (
        "ValueError: Expected model type is an ONNX ModelProto but got <class 'pathlib.PosixPath'>",
        "float16-s27c-expected-modelproto",
        {"value": "<class 'pathlib.PosixPath'>"},
    ),
    (
        "ValueError: Validation failed for final fp16 model.",
        "float16-s27c-amp-validation-failed",
        {"value": "final fp16 model"},
    ),
    (
        "ValueError: input_feed should be a dictionary such as {'modelInput': input_x.astype(np.float32)}",
        "float16-s27c-amp-path-args",
        {},
    ),
    (
        '  File "/usr/lib/python3/site-packages/onnxsim/onnx_simplifier.py", line 199, in simplify\n'
        "    model_opt_bytes = C.simplify(\n                      ^^^^^^^^^^^\n"
        "RuntimeError: Unsupported model: opset 25 is newer than this onnx",
        "onnxsim-s27c-c-simplify-raised",
        {"value": "RuntimeError"},
    ),
    (
        "RuntimeError: /src/third_party/onnx-optimizer/onnxoptimizer/passes/eliminate_nop_pad.h:52: "
        "runTransform: Assertion `pads.size() == 8` failed.",
        "onnxsim-optimizer-pass-assertion",
        {},
    ),
    (
        "############# pass_level1\nno attribute value in float list\n",
        "ncnn-s27c-pnnx-no-attribute-value",
        {"dtype": "float"},
    ),
    (
        "Where not supported yet!\nUnknown data type 9\n",
        "ncnn-s27c-onnx2ncnn-unknown-data-type",
        {"value": "9"},
    ),
    (
        "unsupported upsample scale_factor or size",
        "ncnn-s27c-pnnx-interpolate-unsupported",
        {"op": "upsample", "value": "scale_factor or size"},
    ),
]


test_the_tools_own_text_gets_its_entry_with_the_values = in_top3_with_values(CASES)


@pytest.mark.parametrize(
    "message",
    [
        # dmlc (old TVM, MXNet) throws a qualified dmlc::Error: not MNN's unqualified class.
        "terminate called after throwing an instance of 'dmlc::Error'\n  what():  [10:00:00] "
        "/tvm/src/relay/ir/expr.cc:10: Check failed: x",
        # An unqualified Error with no '[hh:mm:ss] file:line:' logkit prefix.
        "terminate called after throwing an instance of 'Error'\n  what():  invalid argument",
    ],
)
def test_other_uncaught_errors_are_not_mnn_s_converter(kb: KnowledgeBase, message: str) -> None:
    # MNN's pattern does not read them (a words-only near-tie far below the answer may rank it third: which of
    # two such entries does moves with the KB's size, s36t)
    found = [m for m in kb.lookup(message, top=3) if m.entry.id == "mnn-s27c-converter-uncaught-error"]
    assert all("pattern" not in m.reason and not m.captures for m in found)


@pytest.mark.parametrize(
    "message",
    [
        "Error for input tensor x.cpp, 3",  # no source folder: not MNN_ASSERT's __FILE__
        "Fatal Error for /home/u/app/main.cpp, 12",  # a source path outside MNN's folders
        "exit code=3 in main, 12",  # FUNC_PRINT's variable is 'code', its function MNN's
    ],
)
def test_look_alike_lines_of_other_programs_are_not_mnn_s_prints(kb: KnowledgeBase, message: str) -> None:
    ids = [m.entry.id for m in kb.lookup(message, top=3)]
    assert "mnn-s27c-assert-error-for-file" not in ids
    assert "mnn-s27c-func-print-error-code" not in ids


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("[09:00:00] /home/u/conv/source/onnx/onnxConverter.cpp:46: ONNX Model ir version: 8", "mnn"),
        ("[09:00:00] /src/tensorflow/tensorflowConverter.cpp:77: some node", "mnn"),
        ("[12:00:00] /w/src/s_tir/schedule/./concrete_schedule.h:287: ValueError: gone", "tvm"),
        ("ValueError: target.build.rocm is not enabled", "tvm"),
        ("auto_convert_mixed_precision(model, feed, rtol=0.01)", "float16"),
    ],
)
def test_the_tools_file_and_registry_names_are_markers(text: str, family: str) -> None:
    assert detect_families(text)[0] == family
