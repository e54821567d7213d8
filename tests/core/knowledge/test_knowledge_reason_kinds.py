"""The kind of reason a line states, read with its own values (issue 23: specific advice, s31a).

A family card over a message with a reason line (:func:`.clauses.reason_line_answered`) and a code card over
a message that prints its reason with its code (:func:`.clauses.code_reason_answered`) both read that line
with one table, :data:`.reason_kinds.REASON_KINDS`:
two shapes or dims that differ, two data types, an opset or IR
version pair, a library or file that could not be used, an op with no implementation, a size or index of
zero or below, an index out of range, a value over a limit, memory with a size, a name the model lacks.  A
kind speaks only where it read every value it names; otherwise the line is only quoted, as before.

Each example is a dev message (file and line named) or a vendor's own wording with made-up values."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.clauses import REASON_LINE_ID
from dumpscope.core.knowledge.kb import fill
from dumpscope.core.knowledge.reason_kinds import (
    LATE_KINDS,
    REASON_KINDS,
    ReasonKind,
    path_near,
    reason_hint,
    reason_kind,
)
from tests.support.reason_kinds import assert_reads_and_says

READ = [
    # dev messages.jsonl:9 (rknn-toolkit's load_onnx)
    (
        "E load_onnx: ValueError: Unsupport onnx opset 19, need <= 12!",
        "version-pair",
        {"what": "opset", "version": "19", "version2": "12"},
    ),
    # onnx's checker (onnx/checker.cc: 'Your model ir_version N is higher than the checker's (M)')
    (
        "ValidationError: Your model ir_version 10 is higher than the checker's (9).",
        "version-pair",
        {"what": "ir_version", "version": "10", "version2": "9"},
    ),
    # dev messages.jsonl:13
    (
        "E load_onnx: ValueError: Invalid input_shape = [0, 3, 0, 0] for input 0!",
        "zero-or-negative-size",
        {"what": "input_shape", "value": "[0, 3, 0, 0]"},
    ),
    # dev round8.jsonl:19 (TensorRT's parameter check)
    (
        "call of getBindingDimensions with invalid bindingIndex -1",
        "zero-or-negative-size",
        {"what": "bindingIndex", "value": "-1"},
    ),
    # dev round32.jsonl:8
    ("/TopK: K exceeds the maximum value allowed (3840)", "over-limit", {"what": "K", "limit": "3840"}),
    # dev round24.jsonl:51 (onnxruntime's C# binding)
    (
        "OnnxRuntimeException: [ErrorCode:InvalidArgument] Tensor element data type discovered: Int64 "
        "metadata expected: Float",
        "dtype-pair",
        {"dtype": "Int64", "dtype2": "Float"},
    ),
    # onnxruntime's input check (inference_session.cc 'Unexpected input data type. Actual: ... expected: ...')
    (
        "INVALID_ARGUMENT : Unexpected input data type. Actual: (tensor(double)) , expected: (tensor(float))",
        "dtype-pair",
        {"dtype": "tensor(double)", "dtype2": "tensor(float)"},
    ),
    # dev round24.jsonl:39
    (
        "Unable to load library: nvinfer_builder_resource_10.dll",
        "library-not-loaded",
        {"problem": "Unable to load", "path": "nvinfer_builder_resource_10.dll"},
    ),
    # the dynamic loader's own wording (dlerror)
    (
        "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
        "library-not-loaded",
        {"path": "libcudart.so.11.0", "problem": "cannot open"},
    ),
    # dev round26.jsonl:19 (coremlc)
    (
        "coremlc: Error: unable to read document: /Users/me/Resources/model_FP16.mlmodel",
        "file-not-opened",
        {"problem": "unable to read", "path": "/Users/me/Resources/model_FP16.mlmodel"},
    ),
    # dev round22.jsonl:25: the file the step could not open, not the source file the line was printed at
    (
        "[backend_delegate.mm:288] [Core ML] Model init failed The file “model.mlmodelc” couldn’t be opened "
        "because there is no such file.",
        "file-not-opened",
        {"path": "model.mlmodelc", "problem": "couldn’t be opened"},
    ),
    # torch.onnx's refusal of an aten operator
    (
        "Exporting the operator 'aten::unflatten' to ONNX opset version 11 is not supported",
        "op-unsupported",
        {"op": "aten::unflatten"},
    ),
    (
        "Unsupported operator: aten::scaled_dot_product_attention",
        "op-unsupported",
        {"op": "aten::scaled_dot_product_attention"},
    ),
    (
        "ValueError: Expected input shape (1, 3, 640, 640) but got (1, 3, 320, 320)",
        "shape-expected-got",
        {"what": "shape", "want": "(1, 3, 640, 640)", "got": "(1, 3, 320, 320)"},
    ),
    ("mismatch in dimension 1: 3 vs 4", "shape-differ", {"what": "dimension", "value": "3", "value2": "4"}),
    (
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.79 GiB total capacity)",
        "out-of-memory",
        {"size": "2.00 GiB"},
    ),
    ("index 5 is out of bounds for axis 0 with size 3", "index-out-of-range", {"value": "5", "limit": "3"}),
    ("Input 'images' not found in the model", "name-not-found", {"what": "Input", "name": "images"}),
]


@pytest.mark.parametrize(("line", "kind", "values"), READ)
def test_each_kind_reads_its_values_from_the_line(line: str, kind: str, values: dict[str, str]) -> None:
    read = reason_kind(line)
    assert read is not None, line
    assert read[0].name == kind
    assert dict(read[1]) == values


NO_KIND = [
    "ggml_calloc: failed to allocate   0.00 MB",  # dev round25.jsonl:19: memory, but a size of zero
    "this layer is not supported",  # no op named
    "Some of the operators in the model are not supported by the standard TensorFlow Lite runtime.",
    # dev round24.jsonl:14: a Swift language version is no model version the kind's fix speaks of
    'coremlcompiler: Error: unrecognized Swift version "4.2".  Expected one of: 3.0, 3.1, 3.2 or 4.0',
    "expected shape (1, 3) but got (1, 3)",  # the same value twice: nothing differs
    "Assertion `size >= bsize` failed",
    # dev round12.jsonl:8: 'value' names nothing the fix could bring under the limit
    "E RKNN: REGTASK: The bit width of field value exceeds the limit, limit: 0x1fff, value: 0x31ff",
]


@pytest.mark.parametrize("line", NO_KIND)
def test_a_line_without_a_kinds_values_reads_as_no_kind(line: str) -> None:
    assert reason_kind(line) is None


_PLACEHOLDER = re.compile(r"\{([a-z_0-9]+)(?:\|[^{}]*)?\}")


@pytest.mark.parametrize("kind", [k for k in REASON_KINDS if k.cause], ids=lambda k: k.name)
def test_every_placeholder_of_a_kind_is_a_value_it_reads(kind: ReasonKind) -> None:
    """A kind fills its cause and fix only with what it reads: no placeholder is left unfilled."""
    used = set(_PLACEHOLDER.findall(kind.cause + kind.fix))
    assert used and used <= kind.reads(), (used, kind.reads())


def test_hint_rows_have_no_values_and_no_cause() -> None:
    hints = [k for k in REASON_KINDS if not k.cause]
    assert [k.name for k in hints] == ["assertion", "parameter-check", "limit", "not-supported"]
    assert all(not k.reads() and "{" not in k.fix for k in hints)
    # a line a kind reads with its values starts a code card's fix with that kind's fix
    assert reason_hint("Unsupported operator: aten::foo").startswith("replace {op} before this step")


_PIECES = [
    *"abcxyz019 -_.,:;=()[]'\"/<>!",
    *["shape", " vs ", "expected ", " got ", "opset ", " need <= ", "float16", "int64", "Unable to load "],
    *["lib.so", "size ", "invalid ", "index ", " out of range ", "op ", " not supported", "exceeds "],
    *[" limit ", "out of memory ", "MB", "input ", " not found", "'", "(1, 3)", "-1", " type "],
]
_LINES = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(line=_LINES)
def test_a_kind_never_speaks_without_its_values_nor_leaves_a_hole(line: str) -> None:
    """Property: on any line, a kind that speaks read every value it names, each value is text of the line,
    and its cause and fix filled with them hold no placeholder."""
    read = reason_kind(line)
    if read is None:
        return
    kind, values = read
    assert values and all(v and v in line for _, v in values), (line, values)
    text = fill(kind.cause + " " + kind.fix, values)
    assert not _PLACEHOLDER.search(text), (line, text)


# --- the answers that use the kinds -----------------------------------------------------------------------

TFLITE_LIBRARY = (
    "E/tflite: Failed to load library: libtensorflowlite_gpu_delegate.so: cannot open shared object file\n"
    "tflite interpreter init failed"
)


def test_a_family_card_answered_by_a_kind_gives_that_kinds_advice_with_the_lines_values(
    kb: KnowledgeBase,
) -> None:
    top = kb.lookup(TFLITE_LIBRARY, top=1)[0]
    assert top.entry.id == f"family-tflite+{REASON_LINE_ID}"
    assert "libtensorflowlite_gpu_delegate.so" in top.cause and "libtensorflowlite_gpu_delegate.so" in top.fix
    assert top.fix.startswith("Check that libtensorflowlite_gpu_delegate.so is installed")
    assert "kind 'library-not-loaded'" in top.entry.source
    assert top.cause.startswith("The message states its own reason in this line:")  # the quote stays first
    assert not _PLACEHOLDER.search(top.cause + top.fix)


def test_a_family_card_over_a_line_of_no_kind_keeps_the_quote(kb: KnowledgeBase) -> None:
    top = kb.lookup("E/tflite: ZeroDivisionError: division by zero\ntflite interpreter init failed", top=1)[0]
    assert top.entry.id == f"family-tflite+{REASON_LINE_ID}"
    assert "Start from that line" in top.fix and "reason kinds" not in top.entry.source


def test_a_code_card_reason_of_a_kind_leads_with_that_kinds_cause(kb: KnowledgeBase) -> None:
    # TensorRT's 'Error Code N: <Category> (<reason>)' layout with made-up values
    text = (
        "[TRT] [E] 4: [shapeContext.cpp::z::1] Error Code 4: Internal Error (/conv1/Conv: input shape "
        "(1, 3, 640, 640) vs (1, 3, 320, 320) mismatch)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+code-own-reason")
    assert (
        "two shape values side by side that should agree and do not: (1, 3, 640, 640) and (1, 3, 320, 320)"
        in top.cause
    )
    assert top.fix.startswith(
        "Start from that reason: find where (1, 3, 640, 640) and (1, 3, 320, 320) come from"
    )
    assert "trtb:4" in top.codes
    assert not _PLACEHOLDER.search(top.cause + top.fix)


_INT = st.integers(min_value=1, max_value=4096).map(str)
_DIMS = st.lists(st.integers(min_value=1, max_value=2048), min_size=2, max_size=4).map(
    lambda d: "(" + ", ".join(map(str, d)) + ")"
)
_TYPES = st.sampled_from(["float16", "float32", "int64", "int32", "tensor(float)", "tensor(int64)", "uint8"])
_NAME = st.from_regex(r"[a-z][a-z0-9_]{2,12}", fullmatch=True)
TEMPLATES = {
    "shape-expected-got": ("Expected input shape {a} but got {b}", _DIMS, _DIMS),
    "shape-differ": ("broadcast shape mismatch: {a} vs {b}", _DIMS, _DIMS),
    "dtype-pair": ("input data type {a} does not match {b}", _TYPES, _TYPES),
    "version-pair": ("model opset {a} is not supported, supports up to {b}", _INT, _INT),
    "library-not-loaded": ("Unable to load library: {a} (error {b})", _NAME.map("lib{}.so".format), _INT),
    "out-of-memory": ("out of memory: failed to allocate {a} MB on device {b}", _INT, _INT),
    "index-out-of-range": ("index {a} is out of range of size {b}", _INT, _INT),
    "name-not-found": ("input '{a}' not found; the model has {b} inputs", _NAME, _INT),
}


@settings(max_examples=120, deadline=None)
@given(
    kind=st.sampled_from(sorted(TEMPLATES)),
    data=st.data(),
    prefix=st.sampled_from(["", "E RKNN: ", "[E] ", "RuntimeError: ", "2025-01-01 12:00:00 ERROR: "]),
)
def test_a_kinds_wording_with_values_reads_them_and_without_them_reads_no_kind(
    kind: str, data: st.DataObject, prefix: str
) -> None:
    """Property: a kind's wording with any values reads that kind and those values (a pair that differs),
    its filled cause and fix hold no placeholder; the same wording with the values left out reads as no
    kind of values at all (the line is then only quoted)."""
    template, first, second = TEMPLATES[kind]
    a, b = data.draw(first), data.draw(second)
    line = prefix + template.format(a=a, b=b)
    read = reason_kind(line)
    if kind in ("shape-expected-got", "shape-differ", "dtype-pair", "version-pair") and a == b:
        assert read is None or read[0].name != kind  # the same value twice: nothing differs
        return
    assert read is not None and read[0].name == kind, line
    values = [v for _, v in read[1]]
    assert a in values or a in " ".join(values)
    assert not _PLACEHOLDER.search(fill(read[0].cause + " " + read[0].fix, read[1]))
    assert reason_kind(prefix + template.format(a="", b="")) is None


def test_a_path_is_the_token_nearest_to_the_wording_that_it_could_not_be_used() -> None:
    line = "[backend_delegate.mm:288] init failed The file “model.mlmodelc” couldn’t be opened"
    at = line.index("couldn’t")
    assert path_near(line, at, at + 8, "file") == "model.mlmodelc"  # not the source file it was printed at
    line = "OSError: libcudart.so.11.0: cannot open shared object file"
    at = line.index("cannot open")
    assert path_near(line, at, at + 11, "library") == "libcudart.so.11.0"
    assert path_near(line, at, at + 11, "file") == ""  # a library is no model or data file
    # dev round26.jsonl:19: a long path after the wording is read whole
    line = "coremlc: Error: unable to read document: /Users/me/" + "a" * 70 + "/model_FP16.mlmodel"
    at = line.index("unable to read")
    assert path_near(line, at, at + 14, "file") == line[line.index("/Users") :]
    far = "x.onnx " + "y" * 80 + " not found"
    assert path_near(far, far.index("not found"), len(far), "file") == ""  # too far from the wording


@settings(max_examples=200, deadline=None)
@given(
    text=st.lists(st.sampled_from([*"ab/.:_- 'x", ".so", ".onnx", " not found"]), max_size=60).map("".join)
)
def test_a_path_read_is_a_token_of_the_line(text: str) -> None:
    """Property: whatever the line, a path read is text of the line, near the wording, never empty-bodied."""
    for kind in ("library", "file"):
        path = path_near(text, len(text) // 2, len(text) // 2, kind)
        assert path == "" or (path in text and " " not in path and len(path) >= 2)


# s32a: Reason kinds for the bare quotes GENERIC dev answers still left (issue 23, s32a).
#
# A family card or a code card that quotes the message's reason line (:func:`.clauses.reason_line_answered`,
# :func:`.clauses.code_reason_answered`) answers with a kind's cause and steps where
# :data:`.reason_kinds.REASON_KINDS` reads the line with every value it names.  These kinds read the shapes
# that GENERIC dev answers (full KB or leave-source-out) only quoted: a Python name not defined, a method
# called on a null object, a target not enabled in the build, a library refused for its executable stack, a
# crash inside a named library, an op not registered at an opset, an op not in a plugin's registry, an object
# of another type than the call takes, a node's count of inputs a converter does not expect, the only case a
# step supports, a value an option refuses.
#
# Each positive example is a dev message (file and line named) or a vendor's own wording with made-up
# values; each kind also has a line of its wording without the values it names (it must not speak) and a
# line of neighbouring wording it must not read.

QUOTED_READ = [
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


@pytest.mark.parametrize(("line", "kind", "values"), QUOTED_READ)
def test_each_new_kind_reads_its_values_from_the_line(line: str, kind: str, values: dict[str, str]) -> None:
    assert_reads_and_says(line, kind, values)


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


def test_late_kinds_are_tried_after_the_value_kinds_and_before_the_hint_rows() -> None:
    """The older kinds keep every line they read (their answers are unchanged); the hint rows, which have
    no cause, stay last."""
    names = [k.name for k in REASON_KINDS]
    first_late = names.index(LATE_KINDS[0].name)
    assert names[first_late - 1] == "name-not-found"
    assert all(k.cause for k in LATE_KINDS)
    assert names[first_late + len(LATE_KINDS)] == "assertion"


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


# ------------------------------------------------------------ s35a's ten late kinds
# Reason kinds for ten more reasons a line states (issue 23: specific advice, s35a).  Each kind reads a
# vendor's own wording, here with made-up values: TensorFlow Lite's converter refusing ops its builtin
# runtime has no kernel for (toco's export.cc) and TensorFlow 1 control flow ops (the converter's 'currently
# doesn't support control flow ops'), the ONNX checker's IR version against opset_import (onnx/checker.cc)
# and an attribute of another type than its schema's (onnx/defs/schema.cc), TensorRT's invalid weights of a
# layer, a model converted for another target platform (rknn/rkllm runtimes), an adaptive pool whose sizes
# do not divide (Paddle2ONNX's pool mapper), onnxruntime's NHWC node not taken by the provider that asked
# for it (graph_partitioner.cc), SentencePiece asked for a special piece its model lacks
# (sentencepiece_processor.cc's extra options) and onnxruntime's TensorRT provider building no engine for a
# fused node (tensorrt_execution_provider.cc).  Lookalikes that state another reason read none of them.

S35A_KINDS = (
    "ops-need-kernels",
    "control-flow-v1",
    "ir-version-opset-import",
    "weights-invalid",
    "target-platform-mismatch",
    "adaptive-pool-uneven",
    "attribute-type-mismatch",
    "nhwc-node-not-selected",
    "special-piece-undefined",
    "trt-ep-engine-not-built",
)

S35A_READ = [
    (
        "export.cc:386] Some of the operators in the model are not supported by the standard TensorFlow Lite "
        "runtime. Here is a list of operators for which you will need custom implementations: Zqop, Xqop.",
        "ops-need-kernels",
        {"runtime": "standard TensorFlow Lite runtime", "ops": "Zqop, Xqop"},
    ),
    (
        "TensorFlow Lite currently doesn't support control flow ops: Enter, Exit, LoopCond.",
        "control-flow-v1",
        {"ops": "Enter, Exit, LoopCond"},
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: model with IR version >= 3 must specify "
        "opset_import for ONNX",
        "ir-version-opset-import",
        {"bound": ">= 3", "rule": "must specify opset_import for ONNX"},
    ),
    (
        "Error Code 4: API Usage Error ([SCALE]-[zq_norm]: invalid `scale` weights, check IErrorRecorder)",
        "weights-invalid",
        {"weights": "scale"},
    ),
    (
        "E RKNN: The rknn model target_platform does not match the device!",
        "target-platform-mismatch",
        {"what": "target_platform"},
    ),
    (
        "Exception: Cannot convert adaptive pool with input_size: (1, 8, 50, 50), output_size: (1, 8, 7, 7)",
        "adaptive-pool-uneven",
        {"input": "(1, 8, 50, 50)", "output": "(1, 8, 7, 7)"},
    ),
    (
        "[Paddle2ONNX] Cannot convert adaptive pool with input_size: 50 50 output_size: 7 7",
        "adaptive-pool-uneven",
        {"input": "50 50", "output": "7 7"},
    ),
    (
        "ValidationError: Mismatched attribute type in 'node_zq : alpha'",
        "attribute-type-mismatch",
        {"attr": "alpha"},
    ),
    (
        "Node 'Resize_3' OpType:Resize with domain:com.ms.internal.nhwc was inserted using the NHWC format "
        "as requested by WebNNExecutionProvider, but was not selected by that EP.",
        "nhwc-node-not-selected",
        {"op": "Resize", "ep": "WebNNExecutionProvider"},
    ),
    (
        "sentencepiece_processor.cc(1055) [!IsUnknown(PieceToId(model_->eos_piece()))] id for `</zq>` is not "
        "defined.",
        "special-piece-undefined",
        {"piece": "</zq>"},
    ),
    (
        "EP_FAIL : TensorRT EP could not build engine for fused node: "
        "TensorrtExecutionProvider_TRTKernel_9_0",
        "trt-ep-engine-not-built",
        {"node": "TensorrtExecutionProvider_TRTKernel_9_0"},
    ),
]


@pytest.mark.parametrize(("line", "kind", "values"), S35A_READ)
def test_each_s35a_kind_reads_its_values_and_says_them(line: str, kind: str, values: dict[str, str]) -> None:
    assert_reads_and_says(line, kind, values)


S35A_NOT_READ = [
    # lookalikes: another reason, or the kind's wording without its value (no new kind speaks)
    "Some of the operators in the model are not supported by TensorFlow Flex runtime: Zqop",  # custom ops
    # no op listed (test_knowledge_reason_kinds.py's NO_KIND holds the same line without the list)
    "Some of the operators in the model are not supported by the standard TensorFlow Lite runtime.",
    "TensorFlow Lite currently doesn't support control flow ops",  # no ops named
    "control flow ops: Merge, Switch",  # not a refusal
    "Your model ir_version 9 is higher than the checker's (8).",  # the version pair's wording
    "model with IR version cannot have opset_import specified",  # no bound
    "Invalid weights file: yolov4.weights",  # a file, not a layer's weights
    "invalid model weights",  # no TensorRT-quoted weights name
    "The target platform is rk3588",  # no mismatch
    "platform does not match",  # no target platform named
    "Cannot convert pool with ceil_model == True to ONNX Opset version < 10.",  # another pool limit
    "adaptive pool output_size: (1, 8, 7, 7)",  # no input size
    "Mismatched attribute type in ''",  # no attribute
    "Unrecognized attribute: alpha for operator Relu",
    "Node 'Conv' OpType:Conv with domain:com.ms.internal.nhwc was inserted",  # no provider named
    "TensorRT EP could not build engine for fused node:",  # no node
    "CUDA EP could not build engine for fused node: Zq_1",  # not the TensorRT provider
    "id for `` is not defined.",  # no piece
    'option "bos" is not available.',  # sentencepiece's other extra-option check
]


@pytest.mark.parametrize("line", S35A_NOT_READ)
def test_a_lookalike_reads_no_new_kind(line: str) -> None:
    read = reason_kind(line)
    assert read is None or read[0].name not in S35A_KINDS, (line, read)


def test_the_new_kinds_are_late_kinds_after_the_older_ones_and_before_the_hint_rows() -> None:
    names = [k.name for k in REASON_KINDS]
    late = [k.name for k in LATE_KINDS]
    start = late.index(S35A_KINDS[0])  # later sessions' kinds (s36o) follow the s35a block
    assert late[start : start + len(S35A_KINDS)] == list(S35A_KINDS)
    assert names.index("value-unsupported") < names.index(S35A_KINDS[0])


def test_a_family_card_over_control_flow_ops_says_to_build_with_control_flow_v2(kb: KnowledgeBase) -> None:
    top = kb.lookup("TensorFlow Lite currently doesn't support control flow ops: Switch, Zqmerge.", top=1)[0]
    assert top.entry.id == f"family-tflite+{REASON_LINE_ID}"
    assert "kind 'control-flow-v1'" in top.entry.source
    assert "(Switch, Zqmerge)" in top.cause
    assert top.fix.startswith(
        "Give the converter control flow v2: call tf.compat.v1.enable_control_flow_v2()"
    )


def test_a_code_card_over_invalid_weights_starts_from_the_layers_weights(kb: KnowledgeBase) -> None:
    text = (
        "[E] [TRT] ITensor::getDimensions: Error Code 4: API Usage Error ([SCALE]-[zq_bn]: invalid `power` "
        "weights, check IErrorRecorder for details.)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "tensorrt"
    assert "kind 'weights-invalid'" in top.entry.source
    assert "Start from that reason: compare that layer's power parameter" in top.fix
