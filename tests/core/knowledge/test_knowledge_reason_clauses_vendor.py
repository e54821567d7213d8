"""Issue 23: reason clauses that follow the message's own reason where a card (a family card, TensorRT's
``Error Code 3``, onnxruntime's run-time envelope) answered it in general terms.

Each message is written from the vendor's own wording (onnxruntime's concat.cc and CoreML provider's
model.mm, OpenVINO's frontend check and GPU plugin's ``OCL_ERR_MSG_FMT``, TensorRT's parameter checks and
its Myelin compiler's assertions) with names and values of our own; none is a message
of the evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

_ORT = "Non-zero status code returned while running {op} node. Name:'{name}' Status Message: "

# (message, clause that answers, what the advice must name)
CASES = [
    (
        _ORT.format(op="Concat", name="/decoder/Concat_12")
        + "Ranks of input data are different, cannot concatenate them. expected rank: 3 got: 1",
        "ort-concat-rank",
        ("/decoder/Concat_12", "rank 3", "another has 1"),
    ),
    (
        "[E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] "
        + _ORT.format(op="CoreML_4411_0", name="CoreMLExecutionProvider_CoreML_4411_0_0")
        + "Error executing model: The model could not be loaded on the Neural Engine (error code: -7).",
        "ort-coreml-ep-prediction",
        (
            "CoreMLExecutionProvider_CoreML_4411_0_0",
            "could not be loaded on the Neural Engine",
            "-7",
            "MLComputeUnits",
        ),
    ),
    (
        "RuntimeError: Check 'creator_it != CREATORS_MAP.end()' failed at src/frontends/paddle/src/"
        "frontend.cpp:52:\nFrontEnd API failed with OpConversionFailure:\nNo creator found for "
        "roi_align_v9 node.",
        "openvino-frontend-no-creator",
        ("roi_align_v9", "ConversionExtension"),
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\nException from "
        "src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:88:\n[GPU] clCreateBuffer, error code: -4",
        "openvino-gpu-opencl-resources",
        ("-4", "clCreateBuffer", "CL_MEM_OBJECT_ALLOCATION_FAILURE", "num_streams"),
    ),
    (
        "Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_stream.cpp:401:\n"
        "[GPU] clEnqueueNDRangeKernel, error code: -55",
        "openvino-gpu-opencl-error",
        ("-55", "clEnqueueNDRangeKernel", "CL_INVALID_WORK_ITEM_SIZE"),
    ),
    (
        "[TRT] [E] 3: [executionContext.cpp::setInputShape::2013] Error Code 3: API Usage Error (Parameter "
        "check failed at: runtime/api/executionContext.cpp::setInputShape::2013, condition: "
        "engineDims.d[i] == dims.d[i])",
        "trt-parameter-check-context",  # s38c: the execution context's reading of the generic clause
        ("setInputShape", "engineDims.d[i] == dims.d[i]", "set_input_shape"),
    ),
    (
        "python3: /src/myelin/compiler/lower.cpp:77: void myelin::ir::lowering_t::fold_reshape(): "
        "Assertion `dims.size() == 4' failed.\nAborted (core dumped)",
        "trt-myelin-assertion",
        ("fold_reshape", "dims.size() == 4", "polygraphy debug reduce"),
    ),
    (
        "In function merge_slices -- /src/myelin/compiler/pass.cpp:311 ok == myelinSuccess -- assertion "
        "failed",
        "trt-myelin-assertion",
        ("merge_slices", "condition: not printed"),
    ),
]


@pytest.mark.parametrize(
    ("message", "clause", "named"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_the_card_is_answered_by_the_reason_the_message_states(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_an_opencl_code_of_the_resource_group_is_not_read_as_a_kernel_refusal(kb: KnowledgeBase) -> None:
    """-5 (CL_OUT_OF_RESOURCES) takes the memory clause; -50 is not -5 (the code ends at a word bound)."""
    base = "Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_stream.cpp:401:\n"
    base += "[GPU] clFinish, error code: "
    assert kb.lookup(base + "-5", top=1)[0].entry.id.endswith("+openvino-gpu-opencl-resources")
    assert kb.lookup(base + "-50", top=1)[0].entry.id.endswith("+openvino-gpu-opencl-error")


def test_the_clauses_need_their_own_wording(kb: KnowledgeBase) -> None:
    """Without the vendor's sentence the card keeps its own text: a Concat failure that states no rank, a
    GPU line without an OpenCL call, an assertion of no Myelin function."""
    for message in (
        _ORT.format(op="Concat", name="/Concat_1") + "Non concat axis dimensions must match: Axis 1 has "
        "mismatched dimensions of 4 and 8",
        "Exception from src/plugins/intel_gpu/src/plugin/plugin.cpp:10:\n[GPU] out of memory, error code: -5",
        "python3: engine.cpp:12: void builder::run(): Assertion `ok' failed.",
    ):
        for m in kb.lookup(message, top=3):
            assert not m.entry.id.endswith(
                (
                    "+ort-concat-rank",
                    "+openvino-gpu-opencl-resources",
                    "+openvino-gpu-opencl-error",
                    "+trt-myelin-assertion",
                )
            ), (message, m.entry.id)
