"""The knowledge tests of the smaller converters and runtimes: MNN, ncnn, TVM, paddle2onnx, SigmaStar: each
case is a vendor's own wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From edge_converter_forms (was test_knowledge_edge_converter_forms.py):

Issue 23: the most frequent failures of OpenVINO's AUTO/MULTI plugin, MNN's converter, ncnn's binary param
loader and Paddle2ONNX's abort lines, answered with their cause and fix instead of the family card.

Each message is written from the vendor's own format string (openvino src/plugins/auto/src/plugin.cpp,
plugin_config.cpp and auto_schedule.cpp; MNN tools/converter/source/onnx/onnxOpConverter.cpp and
onnxConverter.cpp, express/Executor.cpp; ncnn src/net.cpp load_param_bin; Paddle2ONNX
paddle2onnx/mapper/exporter.cc and select_input.cc) with names and values of our own.

From h23u2 (was test_knowledge_edge_vendor_wording_h23u2.py):

Issue 23 (h23u2): Core ML, Qualcomm, RKNN/RKLLM, MNN, TFLite and ncnn named by their own wording, and
entries for failures those tools print that had none.  Each marker is tested on the vendor's own line (a
string of its binaries or a line of its source, with our own names and values filled in).

From round10 (was test_knowledge_round10.py).

From round18 (was test_knowledge_round18.py):

Issue 23, round 18 (OpenVINO, Core ML, TFLite, MNN, ncnn, TVM, Paddle2ONNX, torch.onnx): what its dev
answers taught, each written from the tool's own source with values of our own (never an evaluation message).

* entries for NNCF's HW-config constraint conflict, Model Optimizer's reshape element-count check,
  coremltools' "ERROR - converting 'op'" log line, Core ML's "Error computing NN outputs" and "Error in
  declaring network", TVM's CUDA driver call failures;
* TVM's ``Check failed: (cond) is false: reason`` is read into the TVM card (a reason clause).

From round21_forms (was test_knowledge_round21_forms.py).

From round22_forms (was test_knowledge_round22_forms.py).

From round23_forms (was test_knowledge_round23_forms.py):

Round 23's dev forms that got no entry, another tool's or only a family card, each given its cause and fix
from the tool's own source (issue 23), and the rule that protobuf's own decoding sentence names SigmaStar's
converter only where the message names SigmaStar.

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): ncnn's glslang built-ins and Vulkan
results printed by name.

From s20g (was test_knowledge_round25_dev_s20g.py):

Issue 23, round 25's dev forms answered at their cause (s20g): MNN's model-buffer check.

From h23b3 (was test_knowledge_tvm_checks_h23b3.py):

Issue 23 (h23b3): TVM's checks and frontend errors answered with what failed, from apache/tvm's sources
(logging.h's comparison checks, the Relax ONNX frontend's ValueErrors and tvm.error.OpAttributeInvalid,
Relay's get_relay_op, VMShapeLower's check), each tested on the source's own wording with names and values
of our own, never on a held-out message.

From s21d (was test_knowledge_openvino_tflite_mnn_source_checks.py):

OpenVINO's shape and type checks, TFLite's kernel and Java checks, MNN's backend messages: vendor texts.

MNN (alibaba/MNN): source/core/Schedule.cpp ("Can't Find type=%d backend, use %d instead") and the OpenCL
backend's allocation failures (source/backend/opencl/core/OpenCLBackend.cpp).

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name.
From s23f: MNNConvert's Extra-op rewrite, TF constant-input and model-file texts, pymnn's argument checks,
the runtime's constant folding (alibaba/MNN tools/converter, pymnn/src, source/geometry); pnnx's reshape
to more than 4 ncnn dimensions (Tencent/ncnn tools/pnnx/src/pass_ncnn).
From s25e: MNNConvert's CHECK/LOG/MNN_ERROR texts (alibaba/MNN tools/converter onnx, tflite, tensorflow,
onnxextra) and express/module/StaticModule.cpp; onnx2ncnn's Upsample wording (Tencent/ncnn tools/onnx) and
ncnn's layers built without NCNN_INT8 / NCNN_WEIGHT_QUANT (src/layer).

From s29e (was test_knowledge_s29e_sources.py):

Branch s29e: onnx shape/type inference per check, TVM's Relax importer and memory verification,
Paddle2ONNX's mapper checks, CANN's aclnn kernel-binary lookup, torch_npu's HCCL process group and onnxsim's
unused-output option, each case written from the vendor's format string with names and values of our own
(never an evaluation message).

Vendor files read: onnx/onnx onnx/defs/tensor/defs.cc (Reshape), onnx/defs/shape_inference.h
(multidirectionalBroadcastShapeInference), onnx/defs/math/utils.cc (MatMul), onnx/defs/nn/defs.cc
(convPoolShapeInference), onnx/defs/shape_inference.cc (input type); apache/tvm
python/tvm/relax/frontend/onnx/onnx_frontend.py, src/relax/op/tensor/unary.cc,
src/tirx/analysis/verify_memory.cc; Ascend/pytorch torch_npu/csrc/distributed/ProcessGroupHCCL.cpp;
PaddlePaddle/Paddle2ONNX paddle2onnx/mapper/mapper.h (``Error()``'s ``[ERROR][Paddle2ONNX] [op: output]``
prefix), mapper/nn/conv2d.cc, instance_norm.cc, tensor/flip.cc; hicann/opbase
src/nnopbase/individual_op/executor/indv_collecter.cpp (NnopbaseCollecterWork); daquexian/onnx-simplifier
onnxsim/onnx_simplifier.py (remove_unused_output).

From s31e (was test_knowledge_s31e_sources.py):

Branch s31e: install and version failures users hit often that got only a family card, a bare quote of the
message or no confident answer: TFLite's Keras 3 model through from_keras_model, onnxsim's source build, the
RKNN wheel for another Python/CPU, TVM without its built libraries, Paddle2ONNX's parameter file. Each case
is written from the tool's format string (or pip's wording naming the package) with values of our own.

Sources read: google-ai-edge/LiteRT tflite/python/lite.py and tflite_keras_util.py (_get_save_spec);
daquexian/onnx-simplifier setup.py; airockchip/rknn-toolkit2 rknn-toolkit2/packages and
rknn-toolkit-lite2/packages; apache/tvm python/tvm/libinfo.py (before and after ebc9348bd7);
PaddlePaddle/Paddle2ONNX paddle2onnx/parser/parser.cc (LoadParams) and utils/utils.h (P2OLogger's prefix).

Also from s28e_sources (test_knowledge_ascend.py), s30f_specific and s31f_specific
(test_knowledge_onnxruntime.py), s29g_specific (test_knowledge_tensorrt.py), s29c_sources
(test_knowledge_tflite.py) and s30e_sources (test_knowledge_torch_onnx.py): their notes stand in the
docstrings named.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.answer import answer
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import (
    Case,
    answer_ids,
    answered_by_entry,
    answered_with_captures,
    answers_first,
    answers_first_above,
    assert_advice,
    assert_answered,
    first_with_values,
    in_top3_with_values,
    not_among_answers,
    pattern_ids,
)

CASES = [
    # ---- h23u2 (test_knowledge_edge_vendor_wording_h23u2.py) ----
    (
        "Not Support OpType [MyCustomDeconv]",
        "mnn-not-support-optype",
        ("MyCustomDeconv", "MNNConvert"),
    ),
    # ---- round22_forms (test_knowledge_round22_forms.py) ----
    (
        "CL ERROR CODE : -5, info:ConvExecution",
        "mnn-opencl-cl-error-code",
        ("-5", "ConvExecution", "CL_OUT_OF_RESOURCES", "MNN_FORWARD_CPU"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        'Error converting operator BitShift, with inputs: [R.const(1, "int64"), lv7]',
        "tvm-relax-onnx-error-converting-operator",
        ("BitShift", "_get_convert_map"),
    ),
    (
        "AttributeError: module 'tvm.relax.frontend' has no attribute 'onnx'",
        "tvm-relax-frontend-no-attribute-onnx",
        ("from tvm.relax.frontend.onnx import from_onnx", "pip install onnx"),
    ),
    # ---- s21d (test_knowledge_openvino_tflite_mnn_source_checks.py) ----
    # MNN source/core/Schedule.cpp
    (
        "Can't Find type=7 backend, use 0 instead",
        "mnn-s21d-backend-not-found",
        ("type 7", "backend 0", "MNN_SEP_BUILD"),
    ),
    # MNN source/backend/opencl/core/OpenCLBackend.cpp
    (
        "OpenCL alloc image failed (STATIC), 4096x8192",
        "mnn-s21d-opencl-alloc-failed",
        ("image", "size 4096x8192", "Precision_Low"),
    ),
    # ---- s23f: alibaba/MNN tools/converter/source/optimizer/*extra/*ExtraManager.cpp, tfextra/*.cpp,
    # onnx/onnxConverter.cpp, pymnn/src/util.h, source/geometry/GeometryComputerUtils.cpp ----
    (
        "Convert Onnx's Op /head/Expand_4 , type = Expand, failed, may be some node is not const",
        "mnn-s23f-extra-op-rewrite-failed",
        ("/head/Expand_4", "Expand", "Onnx", "onnxsim"),
    ),
    (
        "Converte Tflite's Op tower/Tile , type = Tile, failed, may be some node is not const",
        "mnn-s23f-extra-op-rewrite-failed",
        ("tower/Tile", "Tflite"),
    ),
    (
        "Don't support not const meanNode node",
        "mnn-s23f-tf-input-not-const",
        ("meanNode", "fold_constants"),
    ),
    (
        "For net/block2/conv_b/Conv2D convolution weight is not const",
        "mnn-s23f-tf-conv-weight-not-const",
        ("net/block2/conv_b/Conv2D", "convert_variables_to_constants"),
    ),
    (
        "[ERROR] Model file is not caffe model.",
        "mnn-s23f-model-file-not-parsed",
        ("caffe", "--prototxt"),
    ),
    (
        "[ERROR] Invalid ONNX Model:/tmp/exports/empty_graph.onnx",
        "mnn-s23f-model-file-not-parsed",
        ("/tmp/exports/empty_graph.onnx", "onnx.checker"),
    ),
    (
        "TypeError: concat require args: ([Var], int)",
        "mnn-s23f-pymnn-require-args",
        ("concat", "([Var], int)", "MNN.expr.const"),
    ),
    (
        "Const Folder Error in geometry for /encoder/Slice_12",
        "mnn-s23f-const-folder-error",
        ("/encoder/Slice_12", "geometry transform returned false"),
    ),
    # Tencent/ncnn tools/pnnx/src/pass_ncnn/Tensor_reshape.cpp, torch_flatten.cpp
    (
        "reshape to 6-rank physical tensor is not supported by ncnn runtime yet",
        "ncnn-s23f-pnnx-rank-too-high",
        ("reshape", "6 dimensions", "at most 4"),
    ),
    # ---- lead s23: Tencent/ncnn tools/pnnx/src/save_ncnn.cpp ("ignore %s %s param %s=") ----
    (
        "ignore torch.roll torch.roll_7 param shifts=(1,2)",
        "ncnn-s23-pnnx-param-ignored",
        ("torch.roll (torch.roll_7)", "shifts=(1,2)", "not exists or registered"),
    ),
    # ---- s25e: alibaba/MNN tools/converter (logkit.h CHECK forms, front ends, onnxextra), express ----
    # tools/converter/source/onnx/ROIAlignOnnx.cpp: DCHECK(attributeProto.type() == ..._INT)
    (
        "[09:08:07] /opt/MNN/tools/converter/source/onnx/ROIAlignOnnx.cpp:52: Check failed: "
        "attributeProto.type() == ::onnx::AttributeProto_AttributeType_INT ==> Node Attribute ERROR",
        "mnn-s25e-converter-attribute-type",
        ("ROIAlign", "INT", "ROIAlignOnnx.cpp", "opset_version"),
    ),
    # tools/converter/source/tflite/ConvolutionTflite.cpp: DCHECK(!quantizedModel)
    (
        "[09:08:07] /opt/MNN/tools/converter/source/tflite/ConvolutionTflite.cpp:233: Check failed: "
        "!quantizedModel ==> TransposeConv not support quantized model",
        "mnn-s25e-converter-tflite-quantized",
        ("!quantizedModel", "TransposeConv not support quantized model", "--weightQuantBits 8"),
    ),
    # tools/converter/source/onnx/MatMulOnnx.cpp: DCHECK(2 == onnxNode->input_size())
    (
        "[09:08:07] /opt/MNN/tools/converter/source/onnx/MatMulOnnx.cpp:31: Check failed: 2 == "
        "onnxNode->input_size() ==> ONNX Matmul input error!",
        "mnn-s25e-converter-input-count",
        ("MatMul", "2 == onnxNode->input_size()", "onnxsim"),
    ),
    # tools/converter/source/tensorflow/tfOpConverter.cpp: CHECK(isSupport) << ... << dataType
    (
        "[09:08:07] /opt/MNN/tools/converter/source/tensorflow/tfOpConverter.cpp:62: Check failed: "
        "isSupport ==> Const Data Type Not Supported!!!==> 14",
        "mnn-s25e-converter-tf-const-dtype",
        ("DataType 14", "DT_BFLOAT16 14", "--fp16"),
    ),
    # tools/converter/source/optimizer/onnxextra/OnnxDeQuantizeLinear.cpp
    (
        "Onnx QuantizeLinear input error: inputs size<2",
        "mnn-s25e-converter-qdq-scale-missing",
        ("QuantizeLinear", "y_scale", "QuantFormat.QDQ"),
    ),
    # tools/converter/source/onnx/ResizeOnnx.cpp: LOG(ERROR) << "Don't support " << nearestMode << ...
    (
        "[09:08:07] /opt/MNN/tools/converter/source/onnx/ResizeOnnx.cpp:41: Don't support floor nearest "
        "mode, use round_prefer_floor instead",
        "mnn-s25e-converter-resize-mode-replaced",
        ("mode=floor", "testMNNFromOnnx.py"),
    ),
    # tools/converter/source/optimizer/onnxextra/OnnxUpsample.cpp: "Unsupported Upsample mode! ==> %s"
    (
        "Unsupported Upsample mode! ==> bicubic",
        "mnn-s25e-converter-resize-mode-replaced",
        ("mode=bicubic",),
    ),
    # express/module/StaticModule.cpp after Session::createPipelineBackend
    (
        "[MNN:Express] Create Backend Error",
        "mnn-s25e-express-create-backend-error",
        ("-DMNN_OPENCL=ON", "MNN_FORWARD_CPU"),
    ),
    # Tencent/ncnn src/layer/innerproduct.cpp (#if !NCNN_WEIGHT_QUANT NCNN_LOGE(...))
    (
        "please build ncnn with NCNN_WEIGHT_QUANT enabled for weight quantized inference",
        "ncnn-s25e-build-option-disabled",
        ("-DNCNN_WEIGHT_QUANT=ON", "weight quantized inference"),
    ),
    # s26g: Tencent/ncnn src/net.cpp (Net::load_param's magic; Extractor::set_vulkan_compute)
    (
        "W/ncnn: parse magic failed",
        "ncnn-s26g-parse-magic-failed",
        ("7767517", "load_param_bin"),
    ),
    (
        "W/ncnn: set_vulkan_compute failed, network use_vulkan_compute disabled",
        "ncnn-s26g-set-vulkan-compute-disabled",
        ("net.opt.use_vulkan_compute = true", "get_gpu_count"),
    ),
    (
        "tvm._ffi.base.TVMError: CUDAError: Check failed: ret == 0 (-1 vs. 0) : "
        "cuModuleLoadData(&(module_[device_id]), data_.c_str()) failed with error: "
        "CUDA_ERROR_NOT_INITIALIZED",
        "tvm-s31f-cuda-driver-no-context",
        ("cuModuleLoadData", "CUDA_ERROR_NOT_INITIALIZED", "nvidia-smi", "spawn"),
    ),
    (
        "tvm.error.InternalError: CUDAError: cuModuleGetFunction(&(func), module_[device_id], "
        "func_name.c_str()) failed with error: CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
        "tvm-s31f-cuda-driver-kernel-image",
        ("cuModuleGetFunction", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "driver"),
    ),
    (
        "tvm._ffi.base.TVMError: CUDAError: cuLaunchKernel(p.Func, a, b, c) failed with error: "
        "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
        "tvm-cuda-driver-call-failed",
        ("cuLaunchKernel", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "CUDA_LAUNCH_BLOCKING"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


def test_onnx2ncnn_and_mnn_upsample_wordings_are_told_apart(kb: KnowledgeBase) -> None:
    """onnx2ncnn prints 'Unsupported Upsample mode !' (tools/onnx/onnx2ncnn.cpp); MNN's OnnxUpsample.cpp
    prints 'Unsupported Upsample mode! ==> <mode>' and goes on with bilinear: each is its own tool's entry."""
    assert kb.lookup("Unsupported Upsample mode !", top=1)[0].entry.id == "onnx2ncnn-unsupported-attribute"
    mnn = kb.lookup("Unsupported Upsample mode! ==> area", top=1)[0]
    assert mnn.entry.id == "mnn-s25e-converter-resize-mode-replaced"
    assert ("value3", "area") in mnn.captures


# ---- edge_converter_forms (test_knowledge_edge_converter_forms.py) ----


def test_the_named_layer_type_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    """The text loader names the type: that is not the binary loader's index."""
    top = kb.lookup("layer pnnx.Expression not exists or registered", top=1)[0]
    assert top.entry.id == "ncnn-layer-not-registered"
    assert dict(top.captures)["op_type"] == "pnnx.Expression"


@pytest.mark.parametrize(
    ("message", "entry", "named"),
    [
        (
            "vkCreateInstance failed -9",
            "ncnn-h23o2-vulkan-call-failed",
            ("vkCreateInstance", "-9", "vulkaninfo"),
        ),
        (
            "[0 llvmpipe]  queueC=0[1]  queueG=0[1]  queueT=0[1]\nno vulkan device",
            "ncnn-h23o2-no-vulkan-device",
            ("get_gpu_count()", "vulkaninfo"),
        ),
        (
            "TfLiteGpuDelegate Invoke: GpuDelegate must run on the same thread where it was initialized.",
            "tflite-h23o2-gpu-delegate-thread",
            ("same thread", "EGL context"),
        ),
        (
            "TfLiteGpuDelegate Invoke: Odd buffer state 42Node number 9 (TfLiteGpuDelegateV2) failed to "
            "invoke.",
            "tflite-h23o2-gpu-delegate-invoke",
            ("'Odd buffer state 42'", "resize_input_tensor"),
        ),
        (
            "[ERROR] Cannot find output: Boxes in operator: my_fused_nms",
            "paddle2onnx-h23o2-cannot-find-output",
            ("Boxes", "my_fused_nms"),
        ),
    ],
)
def test_ncnn_vulkan_paddle2onnx_slot_and_tflite_gpu_delegate_forms(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    if entry == "tflite-h23o2-gpu-delegate-invoke":
        # the Invoke card frames the backend's status as its reason (s29c): it answers first, ahead of the
        # glued 'Node number N ... failed to invoke' that follows from it, quoting that status; the automatic
        # judge counts an envelope that quotes a reason no entry explains as not specific
        top = kb.lookup(message, top=1)[0]
        assert top.entry.id == entry
        assert_advice(top, named, judged_specific=False)
        return
    assert_answered(kb, message, named, entry=entry)


def test_a_log_scan_finds_mnnconvert_s_empty_input_notice(kb: KnowledgeBase) -> None:
    """The notice carries no error word: its own wording is a cue of the scan's prefilter."""
    log = (
        "INFO step 1\nStart to Convert Other Model Format To MNN Model..., target version: 3\n"
        "[10:00:01] /src/MNN/tools/converter/source/onnx/onnxConverter.cpp:46: ONNX Model ir version: 8\n"
        "[10:00:01] /src/MNN/tools/converter/source/onnx/onnxConverter.cpp:146: Check it out ==> "
        "/blk/Pad_output_0 has empty input, the index is 1\nINFO done\n"
    )
    problems = scan_log(io.StringIO(log), kb)
    assert [p.matches[0].entry.id for p in problems] == ["mnn-h23o2-empty-input-notice"]


# ---- h23u2 (test_knowledge_edge_vendor_wording_h23u2.py) ----


def test_ascend_s_op_type_check_is_not_mnn_s() -> None:
    """CANN's "does not support opType [...]" holds MNN's words lower-cased; no MNN marker takes it."""
    assert "mnn" not in detect_families("socVersion [ascend910b] does not support opType [MyOp]")


def test_the_mnn_entry_captures_the_op(kb: KnowledgeBase) -> None:
    top = kb.lookup("Not Support OpType [Convolution2DTransposeBias]", top=1)[0]
    assert top.entry.id == "mnn-not-support-optype"
    assert dict(top.captures)["op_type"] == "Convolution2DTransposeBias"


@pytest.mark.parametrize(
    "message",
    [
        "socVersion [ascend910b] does not support opType [MyOp]",
        "binary_info_config.json of socVersion [ascend910_93] does not support opType [MyOp]",
    ],
)
def test_cann_s_op_type_check_gets_no_mnn_answer(kb: KnowledgeBase, message: str) -> None:
    """The MNN entry's pattern is MNN's capitalised wording; CANN's lower-case sentence is not answered by
    it."""
    shown = answer(kb, message)
    assert not shown.matches or shown.matches[0].entry.family != "mnn"


# ---- round10 (test_knowledge_round10.py) ----


def test_tvms_own_frontend_line_is_not_answered_as_qualcomm(kb: KnowledgeBase) -> None:
    """The converters' entry needs their log wrapper ('ERROR - Encountered Error:'): TVM's own line stays
    TVM's."""
    text = "tvm.error.OpNotImplemented: The following operators are not supported in frontend TFLite: CUSTOM"
    assert kb.lookup(text, top=1)[0].entry.family == "tvm"


# ---- round18 (test_knowledge_round18.py) ----


@pytest.mark.parametrize(
    "text",
    [
        '  File "/workspace/tvm/src/runtime/cuda/cuda_module.cc", line 105\n'
        "CUDAError: cuModuleLoadData(&(module_[device_id]), data_.c_str()) failed with error: "
        "CUDA_ERROR_NO_BINARY_FOR_GPU",
        "tvm._ffi.base.TVMError: CUDAError: Check failed: ret == 0 (-1 vs. 0) : cuModuleGetFunction(&(func), "
        "module_[device_id], func_name.c_str()) failed with error: CUDA_ERROR_NO_BINARY_FOR_GPU",
    ],
)
def test_tvm_cuda_driver_calls_name_the_call_and_its_result(kb: KnowledgeBase, text: str) -> None:
    """TVM's CUDA_DRIVER_CALL text behind a TVM frame or error class (without either it names no tool, and
    the generic CUDA card answers it)."""
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tvm-s31f-cuda-driver-kernel-image"
    assert ("value", "CUDA_ERROR_NO_BINARY_FOR_GPU") in top.captures
    assert any(k == "op" and v.startswith("cuModule") for k, v in top.captures)
    assert "sm_XY" in top.fix


def test_tvms_check_failed_reason_is_read_into_its_card(kb: KnowledgeBase) -> None:
    text = (
        "tvm.error.InternalError: Check failed: (lhs->IsInstance<ShapeExprNode>()) is false: "
        "The argument `x` of relax.frob is expected to be a shape, but got relax.Tuple"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "tvm"
    assert "relax.frob is expected to be a shape" in top.cause
    assert "lhs->IsInstance<ShapeExprNode>()" in top.cause


# ---- round21_forms (test_knowledge_round21_forms.py) ----

CAPTURE_CASES = [
    (
        "TVMError: Check failed: nargs == args.size() (5 vs. 6) : Expect 5 arguments but get 6",
        "tvm-h23v2-packed-func-nargs",
        {"value": "5", "value2": "6"},
        "one build",
    ),
]


test_the_form_gets_its_entry_captures_and_fix_words = answered_with_captures(CAPTURE_CASES)


# ---- round22_forms (test_knowledge_round22_forms.py) ----


def test_a_signal_after_a_tools_own_line_ranks_under_it(kb: KnowledgeBase) -> None:
    """ncnn printed why it failed, then the process died: the ncnn line answers, the signal comes after."""
    text = "[0 Mali-G610] bugsbn1=0 bugbilz=0\nvkCreateDevice failed -3\nSegmentation fault (core dumped)"
    ranked = kb.lookup(text, top=5)
    assert ranked[0].entry.id == "ncnn-h23o2-vulkan-call-failed"
    assert "runtime-segfault" in [m.entry.id for m in ranked]


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


def test_ncnn_glslang_and_vulkan_by_name(kb: KnowledgeBase) -> None:
    glslang = (
        "Unable to parse built-ins\nERROR: 0:3: '' :  syntax error, unexpected "
        "SAMPLER2D\nINTERNAL ERROR: Unable to parse built-ins"
    )
    assert_answered(kb, glslang, ("NCNN_SYSTEM_GLSLANG",), entry="ncnn-glslang-builtins-parse")
    vulkan = "vkCreateDevice failed  VK_ERROR_INCOMPATIBLE_DRIVER"
    assert_answered(
        kb, vulkan, ("vkCreateDevice", "VK_ERROR_INCOMPATIBLE_DRIVER"), entry="ncnn-h23o2-vulkan-call-failed"
    )


# ---- s20g (test_knowledge_round25_dev_s20g.py) ----


def test_mnn_invalid_model_buffer(kb: KnowledgeBase) -> None:
    msg = "load ./models/llm.mnn ... Invalidate buffer to create MNN Module\nLoad Module Done!"
    assert_answered(kb, msg, ("MNNConvert", "git lfs"), entry="mnn-s20g-invalidate-buffer")


# ---- h23b3 (test_knowledge_tvm_checks_h23b3.py) ----

ENTRIES = [
    (
        '  File "/opt/tvm/python/tvm/relax/frontend/onnx/onnx_frontend.py", line 2805, in _impl_v13\n'
        "ValueError: Slice requires a statically known input rank.",
        "tvm-h23b3-relax-onnx-statically-known",
        ("converts Slice only when its input rank is known", "shape_dict="),
    ),
    (
        "ValueError: GroupNormalization-18 requires a statically known channel count",
        "tvm-h23b3-relax-onnx-statically-known",
        ("GroupNormalization", "channel count"),
    ),
    (
        "ValueError: Unsqueeze with dynamic axes requires a statically known input rank.",
        "tvm-h23b3-relax-onnx-statically-known",
        ("Unsqueeze", "input rank"),
    ),
    (
        'tvm.error.OpAttributeInvalid: Value SAME_MIDDLE in attribute "auto_pad" of operator ConvTranspose '
        "is invalid.",
        "family-tvm+tvm-op-attribute-invalid",
        ("SAME_MIDDLE as the auto_pad attribute of ConvTranspose", "ConvTranspose node's auto_pad"),
    ),
    (
        'tvm.error.OpAttributeInvalid: Value wrap in attribute "mode" is invalid for operator Pad.',
        "family-tvm+tvm-op-attribute-invalid",
        ("wrap as the mode attribute of Pad", "instead of wrap"),
    ),
    (
        "tvm.error.OpNotImplemented: Unable to map op_name nn.fancy_pool to relay",
        "tvm-h23b3-relay-unable-to-map-op",
        ("looked up nn.fancy_pool", "maps to nn.fancy_pool"),
    ),
    (
        "ValueError: Dynamic axes are not supported for Pad yet.",
        "tvm-h23b3-relax-dynamic-pads",
        ("Pad node's axes input", "Pad's axes constant"),
    ),
    # tvm.error.OpNotImplemented in any colon layout the message is copied with
    (
        "OpNotImplemented: The following operators are not supported for frontend ONNX : LpPoolX, Col2ImY",
        "tvm-op-not-implemented",
        ("LpPoolX, Col2ImY",),
    ),
]


CLAUSES = [
    (
        'tvm._ffi.base.TVMError: Traceback (most recent call last):\n  File "/opt/tvm/src/relay/op/tensor/'
        'transform.cc", line 812\nTVMError: Check failed: data_rank == indices_rank (3 vs. 4) : take expects '
        "inputs of equal rank",
        "family-tvm+tvm-check-binary-op",
        ("data_rank == indices_rank", "3 on the left against 4", "take expects inputs of equal rank"),
    ),
    (
        '  File "/opt/tvm/python/tvm/relax/frontend/onnx/onnx_frontend.py", line 927, in _normalize_axis\n'
        "ValueError: Softmax axis 5 is out of range for rank 4.",
        "family-tvm+tvm-axis-out-of-range-for-rank",
        ("axis 5 on the Softmax node", "rank 4", "[-4, 4 - 1]"),
    ),
    (
        "tvm.error.InternalError: Check failed: (slot->value_computed) is false: PrimExpr seq_n in function "
        "main has not been computed",
        "family-tvm+tvm-vm-shape-not-computed",
        ("symbolic shape seq_n (function main)", "R.match_cast", "look for seq_n"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"),
    ENTRIES + CLAUSES,
    ids=[f"{c[1]}-{i}" for i, c in enumerate(ENTRIES + CLAUSES)],
)
def test_the_tvm_form_is_answered(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_the_vm_shape_check_without_its_message_still_names_the_pass(kb: KnowledgeBase) -> None:
    top = kb.lookup("tvm.error.InternalError: Check failed: (slot->value_computed) is false", top=1)[0]
    assert top.entry.id == "family-tvm+tvm-vm-shape-not-computed"
    assert "VMShapeLower" in top.cause and "{" not in top.cause


def test_not_supported_yet_names_both_converters_that_print_it(kb: KnowledgeBase) -> None:
    """Tencent/ncnn tools/onnx/onnx2ncnn.cpp and tools/mxnet/mxnet2ncnn.cpp print the same '%s not supported
    yet!' line: the answer does not call an MXNet operator an ONNX one, and its fix covers both."""
    top = kb.lookup("MakeLoss not supported yet!", top=1)[0]
    assert top.entry.id == "onnx2ncnn-op-not-supported", top.entry.id
    text = top.entry.cause + " " + top.entry.fix
    assert "mxnet2ncnn" in text and "onnx2ncnn" in text and "MXNet model" in text


TOP3_VALUE_CASES = [
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
        "[09:30:12] :236: Check failed: (inputSize == 2) ==> Reshape need two inputs",
        "mnn-s28e-converter-release-log-check",
        {"line": "236", "detail": "Check failed: (inputSize == 2) ==> Reshape need two inputs"},
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

test_the_tools_own_text_gets_its_entry_with_the_values = in_top3_with_values(TOP3_VALUE_CASES)


CONFIDENT_CASES: list[Case] = [
    # ---- mnn: alibaba/MNN source/backend/vulkan, opencl; tools/converter/source/onnx/exec/OnnxClip.cpp ----
    (
        'Load vulkan library error: dlopen failed: library "libzzvulkan.so" not found',
        "mnn-s29c-vulkan-unavailable",
        ('library "libzzvulkan.so" not found', "vulkaninfo", "backupType"),
    ),
    (
        "Can't create vk device",
        "mnn-s29c-vulkan-unavailable",
        ("vkCreateDevice", "MNN_FORWARD_OPENCL"),
    ),
    (
        "OpenCL init error, fallback ... ",
        "mnn-s29c-opencl-unavailable",
        ("libOpenCL.so", "uses-native-library"),
    ),
    (
        "Can't find outputName zz_out in model, Failed",
        "mnn-s29c-clip-output-name-missing",
        ("zz_out", "graph.output"),
    ),
    # ---- ncnn: Tencent/ncnn tools/pnnx/src (pass_ncnn, load_torchscript.cpp), src (allocator, net, gpu) ----
    (
        "softmax along batch axis 0 is not supported",
        "ncnn-s29c-pnnx-batch-axis",
        ("'softmax'", "dimension 0", "inputshape"),
    ),
    (
        "logsumexp along batch axis is not supported yet",
        "ncnn-s29c-pnnx-batch-axis",
        ("'logsumexp'",),
    ),
    (
        "slice with dynamic end is not supported",
        "ncnn-s29c-pnnx-dynamic-slice",
        ("dynamic end", "Crop/Slice"),
    ),
    (
        "Load torchscript failed: PytorchStreamReader failed locating file constants.pkl: file not found",
        "ncnn-s29c-pnnx-load-torchscript",
        ("PytorchStreamReader failed locating file constants.pkl", "torch.jit.trace"),
    ),
    (
        "image dimension too large 9000 1 64 > 4096",
        "ncnn-s29c-vulkan-image-too-large",
        ("9000 1 64", "4096", "use_image_storage = false"),
    ),
    (
        "layer upload_model 57 zz_conv_57 failed",
        "ncnn-s29c-vulkan-upload-model-failed",
        ("layer 57 (zz_conv_57)", "use_fp16_storage"),
    ),
    (
        "compile spir-v module failed\nERROR: 0:42: 'zz_t' : undeclared identifier",
        "ncnn-s29c-vulkan-spirv-compile-failed",
        ("glslang", "use_fp16_arithmetic = false"),
    ),
    (
        "ValueError: Node /decoder/Where_2 cannot handle ShapeExpr inputs.",
        "tvm-s29e-relax-onnx-shape-expr-input",
        ("/decoder/Where_2",),
    ),
    (
        "Check failed: (max->IsInstance<PrimValueNode>()) is false: The argument `max` of relax.clip is "
        "expected to be a PrimExpr, but got relax.expr.Var",
        "tvm-s29e-relax-clip-bound-not-prim",
        ("max", "relax.expr.Var"),
    ),
    (
        "RuntimeError: Memory verification failed with the following errors:\n"
        "    Variable `compute_red` is directly accessed by host memory (it is not contained in a thread "
        "environment or in the function arguments.\n  Did you forget to bind?",
        "tvm-memory-verification-failed",
        ("compute_red",),
    ),
    (
        # The variable's line alone, as a paste that lost the header.
        "    Variable `T_multiply` is directly accessed by host memory (it is not contained in a thread "
        "environment or in the function arguments.",
        "tvm-s29e-host-memory-access",
        ("T_multiply",),
    ),
    (
        "[ERROR][Paddle2ONNX] [flip: flip_2.tmp_0] The dimension in axis of input must be fixed for flip "
        "operator, but now the input shape in axis is unkown.",
        "paddle2onnx-s29e-dimension-must-be-known",
        ("flip",),
    ),
    (
        "[ERROR][Paddle2ONNX] [depthwise_conv2d: depthwise_conv2d_5.tmp_0] While dilations != 1, cannot "
        "support padding = 'SAME'.",
        "paddle2onnx-s29e-dilation-same-padding",
        ("depthwise_conv2d",),
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
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


FIRST_VALUE_CASES = [
    (
        "RuntimeError: Cannot find libraries: ['libtvm.so', 'libtvm_runtime.so']\nList of candidates:\n"
        "/opt/src/tvm/build/libtvm.so",
        "tvm-s31e-libraries-not-found",
        {"value": "'libtvm.so', 'libtvm_runtime.so'"},
    ),
    ("RuntimeError: Cannot find libtvm_runtime", "tvm-s31e-libraries-not-found", {"value": "libtvm_runtime"}),
    (
        "[Paddle2ONNX] Cannot open file ./ppocr_det/inference.pdiparams to read.",
        "paddle2onnx-s31e-params-open-failed",
        {"path": "./ppocr_det/inference.pdiparams"},
    ),
    (
        "[Paddle2ONNX] Unexcepted situation happend, while reading the parameters of PaddlePaddle model.",
        "paddle2onnx-s31e-params-extra-tensors",
        {},
    ),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


test_other_assertions_and_timestamped_lines_are_not_the_mnn_entries = not_among_answers(
    [
        # A plain assert of another program: not MNN_ASSERT's 'res'.
        (
            "app: /src/backend/cpu/conv.cpp:12: void f(): Assertion `x > 0' failed.",
            "mnn-s28e-assert-res-abort",
        ),
        # 'res' asserted in a file outside MNN's source folders.
        ("a.out: main.c:7: main: Assertion `res' failed.", "mnn-s28e-assert-res-abort"),
        # The same release-build prefix on an information line of a successful conversion.
        ("[17:41:04] :40: ONNX Model ir version: 7", "mnn-s28e-converter-release-log-check"),
        # dmlc's prefix always names the file (old TVM, MXNet).
        ("[10:00:00] /tvm/src/relay/ir/expr.cc:10: Check failed: x", "mnn-s28e-converter-release-log-check"),
    ]
)


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


def test_the_upload_entry_reads_without_the_layer_name(kb: KnowledgeBase) -> None:
    """A build without NCNN_STRING prints the index alone; the cause still reads as a sentence."""
    top = kb.lookup("layer upload_model 12 failed", top=1)[0]
    assert top.entry.id == "ncnn-s29c-vulkan-upload-model-failed"
    assert "layer 12 (its name not printed)" in top.cause


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # A specific Paddle2ONNX check keeps its own entry ahead of the mapper's class entry.
        ("[ERROR][Paddle2ONNX] [pool2d: pool2d_7.tmp_0] NHWC format is not supported.", "paddle2onnx-s27c"),
        (
            "[ERROR][Paddle2ONNX] [conv2d: conv2d_1.tmp_0] While dilations != 1, cannot support "
            "padding = 'SAME'.",
            "paddle2onnx-s29e-dilation",
        ),
        # onnx's catch-all ShapeInferenceError entry stays under the check's own entry.
        (
            "[ShapeInferenceError] (op_type:Reshape, node name: r): [ShapeInferenceError] Target shape may "
            "not have multiple -1 dimensions.",
            "onnx-s29e-reshape",
        ),
    ],
)
def test_the_specific_check_leads_over_the_class_entry(kb: KnowledgeBase, message: str, entry: str) -> None:
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert ids[0].startswith(entry), ids


def test_a_mapper_check_without_its_own_entry_is_read_back_with_its_op(kb: KnowledgeBase) -> None:
    """Paddle2ONNX's Error() prefix names the op and its output: the class entry says which converter failed
    and reads the check back (an envelope for the automatic judge: its fix is not the check's own)."""
    message = (
        "[ERROR][Paddle2ONNX] [partial_sum: partial_sum_0.tmp_0] The input dim of partial_sum OP must be 2."
    )
    found = kb.answer(message, top=3)
    top = found.matches[0]
    assert top.entry.id == "paddle2onnx-s29e-mapper-check-failed"
    assert found.confidence == "high"
    captures = dict(top.captures)
    assert captures == {
        "op_type": "partial_sum",
        "output": "partial_sum_0.tmp_0",
        "reason": "The input dim of partial_sum OP must be 2",
    }
    assert "partial_sum_0.tmp_0" in top.cause and "must be 2. " in top.cause
    assert_advice(top, ("partial_sum",), judged_specific=False)


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # PyTorch's NCCL process group prints the same wait with its own variable: not torch_npu's.
        (
            "[Rank 1] Work WorkNCCL(SeqNum=3, OpType=ALLREDUCE) timed out in blocking wait "
            "(TORCH_NCCL_BLOCKING_WAIT=1).",
            "torch-npu-s29e-hccl-blocking-wait-timeout",
        ),
        # Another tool's broadcast check without onnx's shape-inference prefix.
        (
            "Error: Incompatible dimensions between input 0 and input 1",
            "onnx-s29e-broadcast-incompatible-dimensions",
        ),
        # Another tool's bracketed op tag without Paddle2ONNX's prefix.
        ("[ERROR] [conv2d: conv_out] kernel is too large", "paddle2onnx-s29e-mapper-check-failed"),
        # onnxsim's input-shape text is another check.
        ('RuntimeError: The model doesn\'t have input named "x"', "onnxsim-s29e-unused-output-missing"),
        # A device-side memory fault of another runtime.
        ("RuntimeError: CUDA error: an illegal memory access was encountered", "tvm-s29e-host-memory-access"),
    ],
)
def test_look_alikes_are_not_the_new_entries(kb: KnowledgeBase, message: str, entry: str) -> None:
    """Shared words may rank an entry low among the related ones; its pattern never matches these."""
    found = kb.answer(message, top=3).matches
    assert not any(m.entry.id == entry and "pattern" in m.reason for m in found)
    assert not found or found[0].entry.id != entry


def test_a_model_file_not_opened_answers_before_the_blob_lookups_that_follow(kb: KnowledgeBase) -> None:
    """ncnn's find_blob_index_by_name fails for every name once the .param was not loaded at all."""
    message = (
        "fopen models/nanodet.param failed\nfopen models/nanodet.bin failed\n"
        "find_blob_index_by_name data failed\nTry\n"
    )
    ids = answer_ids(kb, message)
    assert ids[0] == "ncnn-fopen-failed"
    assert "ncnn-find-blob-failed" in ids
    assert "models/nanodet.param" in kb.answer(message, top=1).matches[0].cause


test_mnn_not_resized_follows_the_line_that_says_why = answers_first_above(
    [
        (
            "Create execution error : 77\nCan't run session because not resized",
            "mnn-create-execution-error",
            "mnn-run-session-not-resized",
        )
    ]
)

#: A consequence line alone (a blob lookup after a model that was loaded, MNN's session not resized) still
#: answers.
test_the_consequence_line_alone_still_answers = answers_first(
    [
        ('find_blob_index_by_name in0 failed\nTry\n    ex.input("data", in0);', "ncnn-find-blob-failed"),
        ("Can't run session because not resized", "mnn-run-session-not-resized"),
    ]
)


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


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # pip's wording about another package's wheel or build: not these tools' entries
        (
            "ERROR: tensorrt-8.6.1-cp310-none-linux_x86_64.whl is not a supported wheel on this platform.",
            "rknn-s31e-wheel-tag-mismatch",
        ),
        ("ERROR: Failed building wheel for onnx", "onnxsim-s31e-wheel-build-failed"),
        ("ERROR: Failed building wheel for onnxsim-prebuilt-fork", "rknn-s31e-wheel-tag-mismatch"),
        # another tool's file that cannot be opened: no Paddle2ONNX prefix
        ("Cannot open file config.yaml to read.", "paddle2onnx-s31e-params-open-failed"),
        ("AttributeError: 'NoneType' object has no attribute 'shape'", "tflite-s31e-keras3-save-spec"),
        ("OSError: libtvm.so: cannot open shared object file", "tvm-s31e-libraries-not-found"),
    ],
)
def test_lookalikes_do_not_match_the_pattern(kb: KnowledgeBase, message: str, entry: str) -> None:
    assert all(m.entry.id != entry for m in kb.answer(message, top=3).matches if m.reason != "words")


@pytest.mark.parametrize(
    ("value", "entry"),
    [
        ("CUDA_ERROR_NOT_INITIALIZED", "tvm-s31f-cuda-driver-no-context"),
        ("CUDA_ERROR_NO_DEVICE", "tvm-s31f-cuda-driver-no-context"),
        ("CUDA_ERROR_NO_BINARY_FOR_GPU", "tvm-s31f-cuda-driver-kernel-image"),
        ("CUDA_ERROR_INVALID_PTX", "tvm-s31f-cuda-driver-kernel-image"),
        ("CUDA_ERROR_ILLEGAL_ADDRESS", "tvm-cuda-driver-call-failed"),
        ("CUDA_ERROR_OUT_OF_MEMORY", "tvm-cuda-driver-call-failed"),
    ],
)
def test_each_cuda_driver_result_has_one_tvm_entry(kb: KnowledgeBase, value: str, entry: str) -> None:
    """The CUresult name picks exactly one of TVM's CUDA driver entries (no two of them match one message)."""
    message = f"CUDAError: cuModuleLoadData(&(module_[0]), data_.c_str()) failed with error: {value}"
    ids = [i for i in pattern_ids(kb, message, top=8) if i.startswith("tvm-")]
    assert ids == [entry], ids
