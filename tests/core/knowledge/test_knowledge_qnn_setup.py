"""Issue 23, rounds 10-11's generic answers: onnxruntime's QNN execution provider failing to set up its
backend (backend, device, a precompiled EPContext binary) and QNN refusing a node's op config were answered
with the Qualcomm family card, and TensorRT's runtime destroyed before its engines with the generic "Error
Code 3" card.  Each case is written from the vendors' own wording (onnxruntime's qnn_backend_manager.cc and
qnn_execution_provider.cc, QNN's QnnGraph.h / QnnDevice.h, the strings of TensorRT's lean runtime) with values
of our own, never an evaluation message; the answer must name what the message carries and pass the bench's
judge.
"""

from __future__ import annotations

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase

ORT = "[E:onnxruntime:, qnn_execution_provider.cc:611 GetCapability] QNN SetupBackend failed "

CASES = [
    (
        "qualcomm-qnn-ep-initialize-backend-failed",
        ORT + "qnn_backend_manager.cc:301 InitializeBackend Failed to initialize backend",
        "",
    ),
    (
        "qualcomm-qnn-ep-initialize-backend-failed",
        ORT + "Failed to initialize backend. Error: QNN_COMMON_ERROR_PLATFORM_NOT_SUPPORTED",
        "QNN_COMMON_ERROR_PLATFORM_NOT_SUPPORTED",
    ),
    ("qualcomm-qnn-ep-create-device-failed", ORT + "Failed to create device. Error: 14001", "14001"),
    (
        "qualcomm-qnn-ep-create-device-failed",
        ORT + "Failed to create device. Error: QNN_DEVICE_ERROR_HARDWARE_UNAVAILABLE",
        "QNN_DEVICE_ERROR_HARDWARE_UNAVAILABLE",
    ),
    (
        "qualcomm-qnn-ep-context-from-binary-failed",
        "Failed to load from EpContext model. qnn_backend_manager.cc:702 "
        "onnxruntime::qnn::QnnBackendManager::LoadCachedQnnContextFromBuffer "
        "Failed to create context from binary.",
        "",
    ),
    (
        "qualcomm-graph-addnode-invalid-op-config",
        "[init] SNPE build failed: error_code=7005; error_message= QnnGraph_addNode() failed for layer: "
        "/encoder/Gather_7; QNN_GRAPH_ERROR_INVALID_OP_CONFIG: Some elements in the op config data "
        "are invalid; "
        "error_component=QNN",
        "/encoder/Gather_7",
    ),
    (
        "tensorrt-runtime-destroyed-before-engines",
        "[TRT] [E] 3: [runtime.cpp::~Runtime::401] Error Code 3: API Usage Error (Parameter check failed at: "
        "runtime/rt/runtime.cpp::~Runtime::401, condition: mEngineCounter.use_count() == 1. Destroying a "
        "runtime before destroying deserialized engines created by the runtime leads to undefined behavior.)",
        "",
    ),
]


def test_a_qnn_code_in_qnns_own_wording_keeps_its_code_entry(kb: KnowledgeBase) -> None:
    """QNN's own "Failed to create context from binary with err N" is answered by the code's entry; only
    onnxruntime's wording (LoadCachedQnnContextFromBuffer, an EPContext model) is the EPContext card."""
    top = kb.lookup("QnnDsp <E> Failed to create context from binary with err 5005", top=1)[0]
    assert top.entry.id != "qualcomm-qnn-ep-context-from-binary-failed"


@pytest.mark.parametrize(
    ("entry_id", "message", "value"), CASES, ids=[f"{i}:{c[0]}" for i, c in enumerate(CASES)]
)
def test_the_setup_failure_is_answered_specifically(
    kb: KnowledgeBase, entry_id: str, message: str, value: str
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == entry_id, (top.entry.id, top.reason)
    if value:
        assert value in top.cause + top.fix
    assert specific(top) == (True, "")


def test_a_vulkan_device_error_is_not_qnns(kb: KnowledgeBase) -> None:
    """Other libraries print "Failed to create device. Error: " too: only QNN's error names or codes count."""
    matches = kb.lookup("Failed to create device. Error: VK_ERROR_INITIALIZATION_FAILED", top=3)
    assert all(m.entry.id != "qualcomm-qnn-ep-create-device-failed" for m in matches)


def test_a_bare_invalid_op_config_still_says_which_error_it_is(kb: KnowledgeBase) -> None:
    """Without the layer's name the card reads as a sentence without it (no blank, no placeholder text)."""
    top = kb.lookup("QnnGraph_addNode failed: QNN_GRAPH_ERROR_INVALID_OP_CONFIG", top=1)[0]
    assert top.entry.id == "qualcomm-graph-addnode-invalid-op-config"
    assert "{layer" not in top.cause + top.fix
    assert "rejected a layer while the graph was built" in top.cause and "the message names" not in top.cause
