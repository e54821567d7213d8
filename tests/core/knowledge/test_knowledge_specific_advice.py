"""Issue 23's specific advice: forms that got only a tool's family card, a code's general text or an
envelope, answered from the vendor's own text (each test's message is a vendor-source or dev-like text)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase

KB_FILE = Path(__file__).resolve().parents[3] / "core" / "knowledge" / "kb.jsonl"


# --- OpenVINO's assertion form: "Check '<condition>' failed at <file>:<line>:" (except.cpp) ----------------
@pytest.mark.parametrize(
    ("path", "clause", "component"),
    [
        ("src/plugins/intel_cpu/src/nodes/reduce.cpp", "openvino-plugin-check", ("device", "cpu")),
        ("src/core/shape_inference/include/utils.hpp", "openvino-core-check", None),
        ("src/frontends/onnx/frontend/src/op/reshape.cpp", "openvino-frontend-check", ("frontend", "onnx")),
        (
            "src/common/transformations/src/transformations/op_conversions/convert_gather.cpp",
            "openvino-transformation-check",
            ("pass", "transformations"),
        ),
        ("src/inference/src/dev/plugin.cpp", "openvino-check-any-component", ("line", "123")),
        (
            "src/bindings/python/src/pyopenvino/core/common.cpp",
            "openvino-check-any-component",
            ("line", "123"),
        ),
    ],
)
def test_a_bare_openvino_check_is_read_by_its_component(
    kb: KnowledgeBase, path: str, clause: str, component: tuple[str, str] | None
) -> None:
    """No tool name in the message: the check's own form names OpenVINO, its file the part that failed."""
    text = f"Check 'false' failed at {path}:123:\nunsupported layout for node r"
    top = kb.lookup(text, top=1)[0]
    # answered by the clause, under the family card or (for an inference path) the frames-only card it refines
    assert top.entry.family == "openvino" and top.entry.id.endswith("+" + clause), top.entry.id
    found = dict(top.captures)
    assert found["path"] == path and found["value"] == "false"
    assert found["detail"] == "unsupported layout for node r"
    assert path in top.cause and "unsupported layout for node r" in top.cause
    if component:
        assert found[component[0]] == component[1]
    assert specific(top) == (True, "")


def test_a_more_specific_check_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    """The ONNX frontend's convert failure keeps its own entry (it says what the lines after it hold)."""
    text = (
        "openvino._pyopenvino.GeneralFailure: Check 'false' failed at "
        "src/frontends/onnx/frontend/src/frontend.cpp:144:"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "openvino-onnx-frontend-convert-failed"


# --- Ascend aclnn 561000: what the aclnn return-code table says, with the kernel-package fix
def test_aclnn_561000_says_its_inner_causes_and_the_kernel_package(kb: KnowledgeBase) -> None:
    top = kb.lookup("call aclnnMatmul failed, error code is 561000 ACLNN_ERR_INNER", top=1)[0]
    assert top.entry.id == "ascend-aclnn-561000"
    assert "561003" in top.cause and "binary" in top.cause
    assert "Ascend-cann-kernels" in top.fix and "dtype" in top.fix


# --- float16 keep_io_types: the failure, not the parameter's name
def test_keep_io_types_in_a_call_line_is_no_answer(kb: KnowledgeBase) -> None:
    text = (
        'Traceback (most recent call last):\n  File "convert.py", line 12, in <module>\n'
        "    model_fp16 = float16.convert_float_to_float16(model, keep_io_types=True)\n"
        "ValueError: Message onnx.ModelProto exceeds maximum protobuf size of 2GB: 2200000000"
    )
    assert all(m.entry.id != "float16-keep-io-types" for m in kb.lookup(text, top=5))


def test_keep_io_types_answers_a_float32_feed_of_a_float16_input(kb: KnowledgeBase) -> None:
    text = "Unexpected input data type. Actual: (tensor(float)) , expected: (tensor(float16))"
    found = {m.entry.id: m for m in kb.lookup(text, top=5)}
    assert "keep_io_types=True" in found["float16-keep-io-types"].fix
    assert "float16" in found["float16-keep-io-types"].cause


# --- no placeholder text where a capture is empty
def test_expected_constant_arg_reads_without_its_capture(kb: KnowledgeBase) -> None:
    text = "RuntimeError: ONNX symbolic expected a constant value of the argument but got a Tensor"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "torch-onnx-expected-constant-arg"
    assert "(named" not in top.cause and "needs its argument as a compile-time constant" in top.cause
    named = kb.lookup("ONNX symbolic expected a constant value of the dim argument, got 'd'", top=1)[0]
    assert "needs its dim argument" in named.cause and "Make the dim argument" in named.fix


PLACEHOLDER = re.compile(r"\{[a-z][a-z0-9_]{0,20}\|\((?=[^(){}|]*(?:named|printed|message))[^(){}|]*\)\}")


def test_no_entry_falls_back_to_a_placeholder() -> None:
    """A part the message did not carry is said in words or left out, never '(named in the message)'."""
    for line in KB_FILE.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        for field in ("cause", "fix"):
            assert not PLACEHOLDER.search(entry[field]), (entry["id"], field)


def test_an_option_without_its_name_loses_its_dashes(kb: KnowledgeBase) -> None:
    """ATC's E10003 found by its code alone: 'ATC option was given', not 'ATC option --(named ...)'."""
    top = next(
        m for m in kb.lookup("ATC run failed, E10003 see the log", top=5) if m.entry.id == "ascend-E10003"
    )
    assert "--" not in top.cause.split(" was given")[0] and "(named" not in top.cause


# --- onnxruntime-web
def test_missing_feed_names_the_input(kb: KnowledgeBase) -> None:
    top = kb.lookup("Error: input 'attention_mask' is missing in 'feeds'.", top=1)[0]
    assert top.entry.id == "onnxruntime-web-input-missing-in-feeds"
    assert dict(top.captures) == {"input": "attention_mask"}
    assert "'attention_mask'" in top.fix and "session.inputNames" in top.fix


def test_ort_web_run_and_create_without_a_reason(kb: KnowledgeBase) -> None:
    run = kb.lookup(
        "Uncaught Error: failed to call OrtRun(). error code = 1.\n    at e.run (wasm-core-impl.ts:392:19)"
    )
    assert run[0].entry.id == "onnxruntime-web-failed-to-call-ortrun"
    assert "executionProviders: ['wasm']" in run[0].fix
    create = kb.lookup(
        "Uncaught (in promise) Error: Can't create a session\n    at t.createSession (x.ts:48:1)"
    )
    assert create[0].entry.id == "onnxruntime-web-cant-create-session"
    assert "externalData" in create[0].fix


# --- TensorRT's ONNX parser: convertAxis
def test_convert_axis_assertion_says_the_axis_and_rank(kb: KnowledgeBase) -> None:
    text = (
        "ERROR: /TensorRT/parsers/onnx/onnx2trt_utils.cpp:188 In function convertAxis:\n"
        "[8] Assertion failed: axis >= 0 && axis < nbDims"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "tensorrt" and top.entry.id.endswith("+onnx-trt-axis-range")
    assert "convertAxis" in top.cause and "batch" in top.cause
    assert "--fold-constants" in top.fix


GARBLED = re.compile(
    r"\bthe the\b|\bnp\.the\b|\b(?:[Tt]he|TVM) (?:\w+ )?the (?:value|operator type|part the message names)\b"
)


def test_no_entry_reads_garbled_when_found_without_its_captures() -> None:
    """An entry found by its code, a partial phrase or its wording has no captures: its default words must
    still make a sentence ('The TVM frontend has no converter for the operators it lists', not 'The TVM the
    value frontend ...'; 'could not get more bytes', not 'could not get the value more bytes')."""
    from dumpscope.core.knowledge.kb import fill

    for line in KB_FILE.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        for field in ("cause", "fix"):
            assert not GARBLED.search(fill(entry[field], ())), (entry["id"], field)


#: Punctuation an emptied placeholder leaves dangling: ``(loader error:)``, ``structs (, size)``, ``input(;``,
#: ``( ``, `` )``, a space before a comma or colon, and a default name pluralised into ``namess``.
DANGLING = re.compile(r":\s*\)|\(\s*[,;:]|(?<![\w.\]])\(\s*\)|\(\s+|\s+\)|\s[,;:]|namess\b")


def test_no_placeholder_left_out_leaves_dangling_punctuation() -> None:
    """Rendered without its captures, an entry's text has no more dangling punctuation than with every part
    captured: a part the message did not carry must not leave ``(the node referring to it:)`` or
    ``here the code is).`` behind (the entry's ``{name|words}`` says what stands there instead)."""
    from dumpscope.core.knowledge.kb import _PLACEHOLDER, fill

    for line in KB_FILE.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        for field in ("cause", "fix"):
            text = entry[field]
            if "{" not in text:
                continue
            names = {m.group(3) for m in _PLACEHOLDER.finditer(text)}
            full = fill(text, tuple((name, "X") for name in names))
            empty = fill(text, ())
            assert len(DANGLING.findall(empty)) <= len(DANGLING.findall(full)), (entry["id"], field, empty)
