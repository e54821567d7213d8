"""Reason kinds for the bare quotes GENERIC dev answers still left (issue 23, s32a).

A family card or a code card that quotes the message's reason line (:func:`.clauses.reason_line_answered`,
:func:`.clauses.code_reason_answered`) answers with a kind's cause and steps where
:data:`.reason_kinds.REASON_KINDS` reads the line with every value it names.  These kinds read the shapes
that GENERIC dev answers (full KB or leave-source-out) only quoted: a Python name not defined, a method
called on a null object, a target not enabled in the build, a library refused for its executable stack, a
crash inside a named library, an op not registered at an opset, an op not in a plugin's registry, an object
of another type than the call takes, a node's count of inputs a converter does not expect, the only case a
step supports, a value an option refuses.

Each positive example is a dev message (file and line named) or a vendor's own wording with made-up
values; each kind also has a line of its wording without the values it names (it must not speak) and a
line of neighbouring wording it must not read."""

from __future__ import annotations

import re

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.clauses import REASON_LINE_ID
from dumpscope.core.knowledge.kb import fill
from dumpscope.core.knowledge.reason_kinds import NEW_KINDS, REASON_KINDS, reason_hint, reason_kind

READ = [
    # dev round30.jsonl:32, round28.jsonl:39
    ("NameError: name 'exit' is not defined", "name-not-defined", {"name": "exit"}),
    (
        "NameError: name '_interpreter_wrapper' is not defined",
        "name-not-defined",
        {"name": "_interpreter_wrapper"},
    ),
    # dev round12.jsonl:5 (SNPE on Android)
    (
        "java.lang.NullPointerException: Attempt to invoke interface method 'java.util.Set "
        "com.qualcomm.qti.snpe.NeuralNetwork.getInputTensorsNames()' on a null object reference",
        "null-object",
        {"owner": "com.qualcomm.qti.snpe.NeuralNetwork", "method": "getInputTensorsNames"},
    ),
    # dev round36.jsonl:15, round34.jsonl:19 (TVM built without LLVM, without CUDA)
    (
        "/tvm/src/codegen/codegen.cc:27: Check failed: bf != nullptr Target llvm is not enabled",
        "not-enabled",
        {"what": "Target llvm"},
    ),
    ("Check failed: bf != nullptr Target cuda is not enabled", "not-enabled", {"what": "Target cuda"}),
    # dev round24.jsonl:40
    (
        "Error Code 6: API Usage Error (Unable to load library: libnvinfer_builder_resource.so.10.7.0: "
        "libnvinfer_builder_resource.so.10.7.0: cannot enable executable stack as shared object requires: "
        "Invalid argument)",
        "executable-stack",
        {"problem": "cannot enable executable stack", "path": "libnvinfer_builder_resource.so.10.7.0"},
    ),
    # dev round13.jsonl:18
    (
        "Exception thrown at 0x00007FF98C667E50 (directml.dll) in ONNXPlayground.exe: 0xC0000005: Access "
        "violation writing location 0x00007FF971E74950.",
        "access-violation",
        {"module": "directml.dll"},
    ),
    # dev round13.jsonl:17 (cut in the thread), tuning_ort.jsonl:16
    (
        "This is an invalidMul with domain_version of 13",
        "op-at-opset-not-registered",
        {"op": "Mul", "version": "13"},
    ),
    (
        "This is an invalid model. Error in Node: : No Op registered for Comm with domain_version of 12",
        "op-at-opset-not-registered",
        {"op": "Comm", "version": "12"},
    ),
    # dev round28.jsonl:36 (OpenVINO's NVIDIA plugin)
    (
        "subgraph.cpp:59(initExecuteSequence): Node: name = Sqrt_4372, description = Sqrt; Is not found in "
        "OperationRegistry",
        "op-unsupported",
        {"op": "Sqrt"},
    ),
    # dev messages.jsonl:156 (TVM)
    (
        "TVMError: Check failed: ObjectTypeChecker: :Check(ptr): Expect relay.Expr but get IRModule",
        "object-type-pair",
        {"want": "relay.Expr", "got": "IRModule"},
    ),
    # dev round20.jsonl:41 (coremltools)
    (
        "CoreML export failure: unexpected number of inputs for node x.2 (_convolution): 13",
        "count-unexpected",
        {"what": "inputs", "node": "x.2 (_convolution)", "count": "13"},
    ),
    # dev round33.jsonl:9 (rknn runtime)
    (
        "E RKNN: [12:17:25.781] only support input n_dims == 4 when batch_size > 1",
        "only-supported",
        {"what": "input n_dims == 4", "when": "batch_size > 1"},
    ),
    # dev round24.jsonl:6 (onnxruntime-node under transformers.js)
    (
        "Error: Invalid argument: sessionOptions.executionProviders[1] is unsupported: 'wasm'.",
        "value-unsupported",
        {"what": "sessionOptions.executionProviders[1]", "value": "wasm"},
    ),
]


@pytest.mark.parametrize(("line", "kind", "values"), READ)
def test_each_new_kind_reads_its_values_from_the_line(line: str, kind: str, values: dict[str, str]) -> None:
    read = reason_kind(line)
    assert read is not None, line
    assert read[0].name == kind
    assert dict(read[1]) == values
    text = fill(read[0].cause + " " + read[0].fix, read[1])
    assert not re.search(r"\{[a-z_0-9]+\}", text), text
    for value in values.values():  # every value read is said in the advice (cause or fix)
        assert value in text, (value, text)


REFUSED = [
    # the wording of a kind with a value it names left out or unusable: no kind speaks
    "NameError: name '' is not defined",
    "Attempt to invoke virtual method on a null object reference",  # no method named
    "Target is not enabled",  # no target named
    "cannot enable executable stack as shared object requires: Invalid argument",  # no library named
    "Exception thrown at 0x00007FF98C667E50: 0xC0000005: Access violation writing location 0x0",  # no module
    "No Op registered for Transpose with domain_version of 0",  # opset 0: no opset imported, no release's
    "No Op registered for  with domain_version of 12",  # no op
    "Node: name = x, description = ; Is not found in OperationRegistry",  # no op
    "Expect expr but get module",  # two plain words: no type named
    "Expected IRModule but got IRModule",  # the same type twice
    "unexpected number of inputs for node x.2 (_convolution)",  # no count
    "only support when batch_size > 1",  # nothing supported named
    "only support input n_dims == 4",  # no case it is tied to: one value
    "sessionOptions.executionProviders[1] is unsupported: ''",
]


@pytest.mark.parametrize("line", REFUSED)
def test_a_new_kinds_wording_without_its_values_reads_no_kind(line: str) -> None:
    assert reason_kind(line) is None, reason_kind(line)


NOT_READ = [
    # neighbouring wording that states another reason: each new kind stays out of it
    ("ImportError: cannot import name 'exit' from 'sys'", "name-not-defined"),
    ("NullPointerException at com.x.Net.init(Net.java:12)", "null-object"),
    ("CUDA is not available", "not-enabled"),
    ("OSError: libcudart.so.11.0: cannot open shared object file", "executable-stack"),
    ("Segmentation fault (core dumped) in libonnxruntime.so", "access-violation"),
    ("Unsupported onnx opset 19, need <= 12", "op-at-opset-not-registered"),
    ("Expected all tensors to be on the same device, but found at least two devices", "object-type-pair"),
    ("expected input shape (1, 3, 640, 640) but got (1, 3, 320, 320)", "count-unexpected"),
    ("the tool only supports it", "only-supported"),
    # dev round30.jsonl:25: a model file's format, not a value of an option's name
    ("[TRT]    model format 'custom' not supported by jetson-inference", "value-unsupported"),
    (
        "Some of the operators in the model are not supported by the standard TensorFlow Lite runtime.",
        "value-unsupported",
    ),
]


@pytest.mark.parametrize(("line", "kind"), NOT_READ)
def test_a_new_kind_does_not_read_a_neighbouring_reason(line: str, kind: str) -> None:
    read = reason_kind(line)
    assert read is None or read[0].name != kind, (line, read[0].name, read[1])


def test_new_kinds_are_tried_after_the_older_ones_and_before_the_hint_rows() -> None:
    """The older kinds keep every line they read (their answers are unchanged); the hint rows, which have
    no cause, stay last."""
    names = [k.name for k in REASON_KINDS]
    first_new = names.index(NEW_KINDS[0].name)
    assert names[first_new - 1] == "name-not-found"
    assert all(k.cause for k in NEW_KINDS)
    assert names[first_new + len(NEW_KINDS)] == "assertion"


def test_a_code_cards_fix_starts_from_the_new_kinds_steps() -> None:
    assert reason_hint("This is an invalidMul with domain_version of 13").startswith(
        "make the opset and the runtime meet: install a release of the runtime whose operator list has {op}"
    )


# --- the answers that use them ------------------------------------------------------------


def test_a_family_card_over_a_null_object_reference_names_the_object_to_check(kb: KnowledgeBase) -> None:
    text = (
        "java.lang.NullPointerException: Attempt to invoke virtual method 'void "
        "org.tensorflow.lite.Interpreter.run(java.lang.Object, java.lang.Object)' on a null object "
        "reference\n"
        "    at com.example.Zq.classify(Zq.java:12)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == f"family-tflite+{REASON_LINE_ID}"
    assert "kind 'null-object'" in top.entry.source
    assert "called run on a org.tensorflow.lite.Interpreter that is null" in top.cause
    assert top.fix.startswith(
        "Check the call that creates the org.tensorflow.lite.Interpreter whose run failed"
    )


def test_a_tvm_line_of_a_target_not_built_answers_with_the_build_option(kb: KnowledgeBase) -> None:
    text = (
        "tvm._ffi.base.TVMError: src/codegen/codegen.cc:27: "
        "Check failed: bf != nullptr Target zq is not enabled"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "tvm"
    assert "kind 'not-enabled'" in top.entry.source
    assert top.fix.startswith("Use a build that has Target zq:")
