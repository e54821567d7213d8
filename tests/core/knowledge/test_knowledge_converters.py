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
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.answer import answer
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import (
    answered_by_entry,
    answered_with_captures,
    assert_advice,
    assert_answered,
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
