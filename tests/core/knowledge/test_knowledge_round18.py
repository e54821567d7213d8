"""Issue 23, round 18 (OpenVINO, Core ML, TFLite, MNN, ncnn, TVM, Paddle2ONNX, torch.onnx): what its dev
answers taught, each written from the tool's own source with values of our own (never an evaluation message).

* NNCF's package frames, its logger (``INFO:nncf:``) and entry points name OpenVINO (NNCF is OpenVINO's);
* oneDNN's verbose error record (``onednn_verbose,...,primitive,error,...``) is an error line for the log
  scan, and its OpenCL out-of-resources form, like the GPU plugin's current ``[GPU] CL_OUT_OF_RESOURCES
  exception.`` text, has OpenVINO's cause and fix;
* entries for NNCF's HW-config constraint conflict, Model Optimizer's reshape element-count check,
  coremltools' "ERROR - converting 'op'" log line, Core ML's "Error computing NN outputs" and "Error in
  declaring network", TVM's CUDA driver call failures;
* TVM's ``Check failed: (cond) is false: reason`` is read into the TVM card (a reason clause).
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.family import detect_families


@pytest.mark.parametrize(
    "text",
    [
        '  File "/opt/venv/lib/python3.11/site-packages/nncf/torch/graph/tracer.py", line 12, in trace\n'
        "    out = self.fn(x)\nAttributeError: 'NoneType' object has no attribute 'shape'",
        '  File "C:\\\\py\\\\Lib\\\\site-packages\\\\nncf\\\\common\\\\factory.py", line 3, in create\n'
        "KeyError: 'weights'",
        "INFO:nncf:Collecting tensor statistics\nValueError: calibration dataset is empty",
        "quantized = nncf.quantize(model, dataset)\nRuntimeError: no supported layers",
    ],
)
def test_nncfs_own_frames_logger_and_api_name_openvino(kb: KnowledgeBase, text: str) -> None:
    assert detect_families(text)[:1] == ["openvino"]
    assert kb.lookup(text, top=1)[0].entry.family == "openvino"


def test_a_word_nncf_alone_names_no_tool() -> None:
    assert detect_families("the nncf option was ignored") == []


def test_nncf_hw_config_conflict_names_the_device_and_the_location(kb: KnowledgeBase) -> None:
    for gap in (" ", "             "):  # nncf's older one-line message and its newer f-string's indentation
        text = (
            "RuntimeError: Quantization parameter constraints specified in NNCF config are incompatible"
            f"{gap}with HW capabilities as specified in HW config type 'GPU'.{gap}First conflicting "
            "quantizer location: Model/NNCFConv2d[head]"
        )
        top = kb.lookup(text, top=1)[0]
        assert top.entry.id == "openvino-nncf-hw-config-conflict"
        assert ("value", "GPU") in top.captures
        assert ("op", "Model/NNCFConv2d[head]") in top.captures
        assert "'GPU'" in top.cause and "ignored_scopes" in top.fix


def test_mo_reshape_mismatch_fills_both_shapes_and_the_node(kb: KnowledgeBase) -> None:
    text = (
        "[ ERROR ]  Number of elements in input [2 3 4] and output [5, 6] of reshape node tail/Reshape "
        "mismatch"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "openvino-mo-reshape-elements-mismatch"
    assert {("shape", "2 3 4"), ("value", "5, 6"), ("op", "tail/Reshape")} <= set(top.captures)
    assert "[2 3 4] into [5, 6]" in top.cause
    assert "--input_shape" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "[GPU] CL_OUT_OF_RESOURCES exception.\n\tDue to a driver bug, any subsequent OpenCL API call may "
        "cause the application to hang, so the GPU plugin may be unable to finish correctly.",
        "onednn_verbose,v1,primitive,error,ocl,errcode -5,CL_OUT_OF_RESOURCES,src/gpu/intel/ocl/foo.cpp:9",
        "onednn_verbose,1732870000123.5,v1,primitive,error,ocl,errcode -5,CL_OUT_OF_RESOURCES,src/x.cpp:1",
    ],
)
def test_the_gpu_out_of_resources_forms_have_the_plugins_two_cases(kb: KnowledgeBase, text: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "openvino-gpu-cl-out-of-resources"
    assert "out-of-bounds" not in top.cause or "outside its GPU buffers" in top.cause
    assert "Shared GPU Memory Override" in top.fix


def test_the_force_exit_sentence_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    text = (
        "[GPU] force exit.\n\tDue to the driver bug any subsequent OpenCL API call will cause application "
        "hang, so GPU plugin can't finish correctly."
    )
    assert kb.lookup(text, top=1)[0].entry.id == "openvino-gpu-force-exit-driver-bug"


def test_a_onednn_verbose_error_record_is_found_in_a_log(kb: KnowledgeBase) -> None:
    log = (
        "step 1 done\n"
        "onednn_verbose,v1,primitive,exec,gpu:0,convolution,jit:ir,forward_inference,src:f16,,mb1,0.51\n"
        "onednn_verbose,v1,primitive,error,ocl,errcode -5,CL_OUT_OF_RESOURCES,src/gpu/intel/ocl/k.cpp:7\n"
        "step 2 done\n"
    )
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [3]


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("ERROR - converting 'pad' op (located at: 'backbone/stem/3'):", "pad"),
        ("\n\nERROR - converting 'int' op (located at: ''):\n", "int"),
    ],
)
def test_coremltools_op_conversion_log_names_the_op(kb: KnowledgeBase, text: str, op: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "coreml-torch-op-conversion-failed"
    assert ("op", op) in top.captures
    assert f"'{op}'" in top.cause and "register_torch_op" in top.fix


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("[coreml] Error computing NN outputs -5", "coreml-error-computing-nn-outputs"),
        (
            'Error Domain=com.apple.CoreML Code=0 "Error computing NN outputs." '
            "UserInfo={NSLocalizedDescription=Error computing NN outputs.}",
            "coreml-error-computing-nn-outputs",
        ),
        ("[coreml] Error in adding network -1.", "coreml-error-declaring-network"),
        (
            'MLModelAsset: load failed with error Error Domain=com.apple.CoreML Code=0 "Error in declaring '
            'network."',
            "coreml-error-declaring-network",
        ),
    ],
)
def test_core_ml_engine_failures_have_their_entries(kb: KnowledgeBase, text: str, entry: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == entry
    assert "CPU" in top.fix


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
    assert top.entry.id == "tvm-cuda-driver-call-failed"
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
