"""s36o (issue 23, specific advice for onnxruntime, coreml, tflite and openvino messages): what was added.

* two reason kinds (:data:`.reason_kinds.LATE_KINDS`, the s36o block at its end): an uncaught C++ exception
  as Windows reports it ('Unhandled exception at 0x... (in app.exe): Microsoft C++ exception: <type>'), and
  CPython's SystemError for a native method that returned a result with an exception set;
* a reason clause of onnxruntime (``ort-ep-exception-during-initialization``, before the clause that quotes
  any exception during initialisation): the exception was thrown in an execution provider's own source
  (``onnxruntime/core/providers/<ep>/...``), which it names with the file and line;
* entries: coremltools' torch_tensor_assign updates-shape check, TensorFlow Lite's legacy NNAPI path's
  'Op code N is currently not delegated to NNAPI';
* the Java and C# onnxruntime envelopes capture their error code as ``category`` (it is no op, node or
  argument of the message).

Examples are dev messages (file named) or the vendors' own wordings with made-up values."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.clauses import CLAUSES, REASON_LINE_ID
from dumpscope.core.knowledge.reason_kinds import LATE_KINDS, REASON_KINDS, reason_kind
from tests.support.reason_kinds import assert_reads_and_says

S36O_KINDS = ("uncaught-cpp-exception", "native-result-with-exception-set")

S36O_READ = [
    # dev heldout2.jsonl (openvino#5581, a translated Visual Studio dialog)
    (
        "Unhandled Exception at 0x00007FFCA55DD759 (in test_openvinin.exe) : Microsoft C++ Exception: "
        "InferenceEngine: : the details: : InferenceEngineException, located in the memory location 0x0.",
        "uncaught-cpp-exception",
        {"module": "test_openvinin.exe", "type": "InferenceEngine"},
    ),
    # Visual Studio's own wording, made-up module and type
    (
        "Unhandled exception at 0x00007FF8 in zqdemo.exe: Microsoft C++ exception: Ort::Exception at memory "
        "location 0x0000001F.",
        "uncaught-cpp-exception",
        {"module": "zqdemo.exe", "type": "Ort::Exception"},
    ),
    # dev round31.jsonl (litert-torch#446)
    (
        "SystemError: <built-in method CreateWrapperFromBuffer of PyCapsule object at 0x79e6d69f75d0> "
        "returned a result with an exception set",
        "native-result-with-exception-set",
        {"method": "CreateWrapperFromBuffer", "owner": "PyCapsule"},
    ),
]


@pytest.mark.parametrize(("line", "kind", "values"), S36O_READ)
def test_each_s36o_kind_reads_its_values_and_says_them(line: str, kind: str, values: dict[str, str]) -> None:
    assert_reads_and_says(line, kind, values)


S36O_NOT_READ = [
    # a first-chance exception (thrown, maybe caught): not an unhandled one
    "Exception thrown at 0x00007FFE09FF7F9A in Zq.exe: Microsoft C++ exception: ov::NotImplemented at memory "
    "location 0x000000A47D96DB00.",
    "Unhandled exception at 0x00007FF8 in zq.exe: 0xC0000005: Access violation reading location 0x0.",
    "SystemError: error return without exception set",
    "SystemError: <built-in method zq of PyCapsule object at 0x7f> returned NULL without setting an error",
]


@pytest.mark.parametrize("line", S36O_NOT_READ)
def test_a_lookalike_reads_no_s36o_kind(line: str) -> None:
    read = reason_kind(line)
    assert read is None or read[0].name not in S36O_KINDS, (line, read)


def test_the_s36o_kinds_are_late_kinds_before_the_hint_rows() -> None:
    late = [k.name for k in LATE_KINDS]
    names = [k.name for k in REASON_KINDS]
    assert set(S36O_KINDS) <= set(late)
    assert late.index(S36O_KINDS[0]) + 1 == late.index(S36O_KINDS[1])
    assert names.index(S36O_KINDS[1]) < names.index("assertion")


def test_a_family_card_over_an_unhandled_cpp_exception_says_to_catch_it_in_that_module(
    kb: KnowledgeBase,
) -> None:
    text = (
        "Unhandled exception at 0x00007FFB in zqdetect.exe: Microsoft C++ exception: Ort::Exception at "
        "memory location 0x00000096.\nonnxruntime"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == f"family-onnxruntime+{REASON_LINE_ID}"
    assert "kind 'uncaught-cpp-exception'" in top.entry.source
    assert "zqdetect.exe stopped on a C++ exception" in top.cause
    assert "Exception Settings can break where Ort::Exception is thrown" in top.fix
    assert "e.what()" in top.fix


EP_INIT = [
    # dev round24.jsonl (vision-at-a-clip#27), as the record holds it
    (
        "2024-08-24 14:39:07.422348500 [E:onnxruntime:, inference_session.cc:2105 operator()] Exception "
        "during initialization: /onnxruntime_src/onnxruntime/core/providers/tensorrt/"
        "tensorrt_execution_provider.cc:2220 SubGraphCollection_t "
        "onnxruntime::TensorrtExecutionProvider::GetSupportedList(SubGraphCollection_t, int, int, "
        "const onnxru",
        "tensorrt",
        "/onnxruntime_src/onnxruntime/core/providers/tensorrt/tensorrt_execution_provider.cc",
        "2220",
    ),
    # a Windows build's path (openvino#30977's form), made-up line
    (
        "Exception during initialization: D:\\Dev\\onnxruntime\\ort-1.22.0\\onnxruntime\\core\\providers\\"
        "openvino\\ov_interface.cc:98 class onnxruntime::openvino_ep::OVExeNetwork __cdecl "
        "onnxruntime::openvino_ep::OVCore::CompileModel(...) [OpenVINO-EP] zq",
        "openvino",
        "D:\\Dev\\onnxruntime\\ort-1.22.0\\onnxruntime\\core\\providers\\openvino\\ov_interface.cc",
        "98",
    ),
]


@pytest.mark.parametrize(("text", "ep", "path", "line"), EP_INIT)
def test_an_exception_in_a_providers_source_during_initialisation_names_that_provider(
    kb: KnowledgeBase, text: str, ep: str, path: str, line: str
) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+ort-ep-exception-during-initialization")
    assert f"the code of the {ep} execution provider, at {path}, line {line}" in top.cause
    assert "providers=['CPUExecutionProvider'] alone" in top.fix
    assert f"run the model without {ep} in the providers list" in top.fix


def test_an_exception_of_the_cpu_kernels_or_of_no_provider_is_left_to_the_quoting_clause(
    kb: KnowledgeBase,
) -> None:
    for text in (
        "Exception during initialization: /onnxruntime/onnxruntime/core/providers/cpu/tensor/"
        "reshape_helper.h:41 onnxruntime::ReshapeHelper zq",
        "[E:onnxruntime:, inference_session.cc:1458 operator()] Exception during initialization: IndexError: "
        "list index out of range",
    ):
        top = kb.lookup(text, top=1)[0]
        assert "ort-ep-exception-during-initialization" not in top.entry.id, text


def test_the_provider_clause_comes_before_the_quoting_clause() -> None:
    ids = [c.id for c in CLAUSES]
    first = ids.index("ort-ep-exception-during-initialization")
    assert first < ids.index("ort-exception-during-initialization")


def test_a_slice_assignment_of_another_shape_names_both_shapes(kb: KnowledgeBase) -> None:
    top = kb.lookup("ValueError: The updates tensor should have shape (1, 7, 64). Got (1, 64)", top=1)[0]
    assert top.entry.id == "coreml-s36o-tensor-assign-updates-shape"
    assert "the slice it writes has shape (1, 7, 64) while the value written has shape (1, 64)" in top.cause
    assert "to (1, 7, 64)" in top.fix


def test_an_op_code_the_legacy_nnapi_path_lacks_is_named_with_how_to_look_it_up(kb: KnowledgeBase) -> None:
    text = (
        "E/tflite: Op code 45 is currently not delegated to NNAPI\nE/tflite: Failed to build graph for NNAPI."
    )
    text = text.removesuffix(".")
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tflite-s36o-legacy-nnapi-op-not-delegated"
    assert "builtin operator code 45" in top.cause
    assert "Look up code 45 in the BuiltinOperator enum" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "ai.onnxruntime.OrtException: Error code - ORT_FAIL - message: zq reason",
        "Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:Fail] zq reason",
    ],
)
def test_the_bindings_error_code_is_captured_as_a_category(kb: KnowledgeBase, text: str) -> None:
    top = kb.lookup(text, top=1)[0]
    captures = dict(top.captures)
    assert "arg" not in captures
    assert captures.get("category") in ("ORT_FAIL", "Fail")
