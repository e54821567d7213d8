"""Issue 23 (h23b3): TVM's checks and frontend errors answered with what failed, from apache/tvm's sources
(logging.h's comparison checks, the Relax ONNX frontend's ValueErrors and tvm.error.OpAttributeInvalid,
Relay's get_relay_op, VMShapeLower's check), each tested on the source's own wording with names and values
of our own, never on a held-out message."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

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
