"""onnxruntime and TensorRT entries written or widened from the tools' own texts (branch s28d).

The messages are written for these tests from the tools' format strings (onnxruntime's
provider_registration.cc and kernel_registry.cc, its input type check, the TensorRT Python
API) with made-up names and values; none is copied from the evaluation set."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.knowledge import load_kb

NO_USER_DIR = Path("/nonexistent-dumpscope-test")


@pytest.fixture(scope="module")
def kb():  # type: ignore[no-untyped-def]
    return load_kb(user_dir=NO_USER_DIR)


def _entry(kb, entry_id: str):  # type: ignore[no-untyped-def]
    return next(e for e in kb.entries if e.id == entry_id)


SOURCE_FORMS = [
    (
        "OnnxRuntimeException: [ErrorCode:InvalidArgument] Unknown provider name 'TensorRT'. Currently"
        " supported values are 'QNN'/'QNNExecutionProvider', and 'XNNPACK'/'XnnpackExecutionProvider'.",
        "onnxruntime-s28d-unknown-provider-name",
        {
            "value": "TensorRT",
            "allowed": "QNN'/'QNNExecutionProvider', and 'XNNPACK'/'XnnpackExecutionProvider",
        },
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Failed to add kernel for Inverse com.microsoft CPUExecutionProvider:"
        " Conflicting with a registered kernel with op versions.",
        "onnxruntime-s28d-kernel-registration-conflict",
        {"op": "Inverse", "domain": "com.microsoft", "provider": "CPUExecutionProvider"},
    ),
    (
        "Error: Failed to run the model: Unexpected input data type. Actual: (tensor(int32)) , expected:"
        " (tensor(int64))",
        "onnxruntime-INVALID-ARGUMENT-2",
        {"arg2": "tensor(int32)", "arg": "tensor(int64)"},
    ),
    (
        "AttributeError: 'NoneType' object has no attribute 'create_execution_context'",
        "tensorrt-python-engine-is-none",
        {"option": "create_execution_context"},
    ),
]


@pytest.mark.parametrize(("text", "entry_id", "captures"), SOURCE_FORMS)
def test_source_form_answered_with_its_captures(
    kb, text: str, entry_id: str, captures: dict[str, str]
) -> None:  # type: ignore[no-untyped-def]
    m = kb.lookup(text, top=5)[0]
    assert m.entry.id.split("+")[0] == entry_id
    got = dict(m.captures)
    for name, value in captures.items():
        assert got[name] == value


def test_none_engine_entry_needs_a_tensorrt_attribute(kb) -> None:  # type: ignore[no-untyped-def]
    entry = _entry(kb, "tensorrt-python-engine-is-none")
    other = "AttributeError: 'NoneType' object has no attribute 'shape'"
    assert entry.search(other) is None
    assert all(
        m.entry.id != entry.id for m in kb.lookup(other, top=5)
    )  # no partial match of any NoneType text


def test_actual_expected_form_needs_onnxruntimes_spacing(kb) -> None:  # type: ignore[no-untyped-def]
    entry = _entry(kb, "onnxruntime-INVALID-ARGUMENT-2")
    assert entry.search("Actual: (tensor(double)) , expected: (tensor(float))") is not None
    assert entry.search("Actual: 3, expected: 4") is None  # any tool's assertion wording is not onnxruntime's
