"""Issue 23, round 17 (branch h23f2): the forms round 17's dev misses and family cards showed, written from
the tools' own sources (onnx's serialization.py and checker.cc, onnxruntime's provider_registration.cc and
its WebAssembly external data loader) with names and values of our own, never an evaluation message.  Each
is the top answer, carries what it captured into its advice and is judged specific by the evaluation's
judge."""

from __future__ import annotations

import io
import re

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.family import detect_families

CASES = [
    (
        "    s = _serialize(proto)\nValueError: Message onnx.ModelProto exceeds maximum protobuf size of "
        "2GB: 3100000000",
        "onnx-proto-exceeds-2gb",
        {"value": "ModelProto", "arg": "3100000000"},
    ),
    (
        "ValueError: The proto size is larger than the 2 GB limit. Please use save_as_external_data to save "
        "tensors separately from the model file.",
        "onnx-proto-exceeds-2gb",
        {},
    ),
    (
        "google.protobuf.message.DecodeError: Error parsing message with type 'onnx.ModelProto'",
        "onnx-load-protobuf-decode-error",
        {"value": "ModelProto"},
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Op registered for Scatter is deprecated in "
        "domain_version of 13",
        "onnx-op-deprecated-in-opset",
        {"op": "Scatter", "version": "13"},
    ),
    (
        "XNNPACK execution provider is not supported in this build. ",
        "onnxruntime-provider-not-in-this-build",
        {"value": "XNNPACK", "detail": "supported"},
    ),
    (
        "[ErrorCode:Fail] CUDA execution provider is not enabled in this build. ",
        "onnxruntime-provider-not-in-this-build",
        {"value": "CUDA", "detail": "enabled"},
    ),
    (
        "Error: Can't create a session. ERROR_CODE: 1, ERROR_MESSAGE: Deserialize tensor w_q failed.Failed "
        'to load external data file "weights/shard_2.bin", error: Out of bounds.',
        "onnxruntime-web-external-data-not-preloaded",
        {"path": "weights/shard_2.bin", "detail": "Out of bounds"},
    ),
]


@pytest.mark.parametrize(
    ("message", "entry_id", "found"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_form_gets_its_entry_with_the_captures_in_the_advice(
    kb: KnowledgeBase, message: str, entry_id: str, found: dict[str, str]
) -> None:
    top = kb.lookup(message, top=2)
    assert top[0].entry.id == entry_id
    captures = dict(top[0].captures)
    for name, value in found.items():
        assert captures.get(name) == value
    advice = f"{top[0].cause} {top[0].fix}"
    for name in ("value", "path", "op"):
        if name in found:
            assert found[name] in advice
    assert not re.search(r"\{[a-z][a-z0-9_]*(?:\|[^{}]*)?\}", advice)  # every placeholder filled
    assert specific(top[0]) == (True, "")


def test_an_execution_provider_named_by_onnxruntime_is_onnxruntime_speaking() -> None:
    """'<EP> execution provider is not supported in this build' is onnxruntime's registration error: the
    backend it names (QNN, a Qualcomm marker elsewhere) is onnxruntime's provider here, as in
    ``QNNExecutionProvider``; the backend's own log line still names its tool."""
    assert detect_families("QNN execution provider is not supported in this build")[0] == "onnxruntime"
    assert detect_families("QNN execution provider is not enabled in this build. ")[0] == "onnxruntime"
    assert detect_families("QnnDsp <E> Failed to create transport for device, error: 1002")[0] == "qualcomm"


def test_a_protobuf_error_of_another_message_type_is_not_onnx_s(kb: KnowledgeBase) -> None:
    """The onnx entries are keyed by onnx's own proto types: another format's message type is not theirs."""
    for text in (
        "google.protobuf.message.DecodeError: Error parsing message with type 'tensorflow.GraphDef'",
        "ValueError: Message tensorflow.GraphDef exceeds maximum protobuf size of 2GB: 2200000000",
    ):
        ids = [m.entry.id for m in kb.lookup(text, top=3) if m.reason != "words"]
        assert "onnx-load-protobuf-decode-error" not in ids and "onnx-proto-exceeds-2gb" not in ids


@pytest.mark.parametrize("index", [0, 3, 4, 6])
def test_the_log_scan_reports_each_form_buried_in_a_log(kb: KnowledgeBase, index: int) -> None:
    message, entry_id, _ = CASES[index]
    log = "step 1 ok\nloading weights\n" + message + "\nshutting down\n"
    found = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.matches[0].entry.id for p in found if p.matches] == [entry_id]
