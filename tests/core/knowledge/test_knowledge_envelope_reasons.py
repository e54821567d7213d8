"""Where an envelope or a card hides the real reason (issue 23's hand-draw classes, s29f).

* onnxruntime's run-time envelope ('Non-zero status code returned while running X node. Name:'...' Status
  Message: <reason>') with no entry for its reason: the reason leads, whole (its pattern stops at 120
  characters), and the node stays named (:func:`.clauses.envelope_reason_answered`);
* a TensorRT plugin's own assertion (its file under plugin/) is the plugin's, not the ONNX parser's;
* a GPU delegate's platform failure (EGL, OpenCL) leads over the generic 'Init failed' card;
* a traceback that ends in an exception with no message names the frame that raised it;
* a default that says a part is missing ('node not named in the message') is said only where the whole
  message holds no such part (:func:`.kb.absent_parts_filled`).

Each example is a dev message or a vendor's own format with made-up values."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.clauses import (
    MAX_REASON,
    envelope_reason_answered,
    reason_ends_pattern,
    whole_reason,
)
from dumpscope.core.knowledge.kb import (
    ABSENCE,
    KIND_FINDERS,
    PART_KINDS,
    Match,
    absent_parts_filled,
    fill,
    found_in_message,
)


def _top(kb: KnowledgeBase, text: str) -> Match:
    return kb.lookup(text, top=1)[0]


# --- an envelope's reason, whole ---------------------------------------------------------------------------

# dev round31.jsonl:11 (onnxruntime's CoreML EP; the reason runs past the pattern's 120 characters)
COREML_EP = (
    "2024-11-15 15:24:47.055665 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status "
    "code returned while running CoreML_8352120247314976988_6 node. Name:'CoreMLExecutionProvider_CoreML_"
    "8352120247314976988_6_6' Status Message: Exception: /Users/runner/work/1/s/onnxruntime/core/providers/"
    "coreml/model/model.mm:66 InlinedVector<int64_t> onnxruntime::coreml::(anonymous namespace)::"
    "GetStaticOutputShape(gsl::span<const int64_t>, gsl::span<const int64_t>, const logging::Logger &) "
    "inferred_shape.size() == coreml_static_shape.size() was false. CoreML static output shape "
    "({1,1,1,512,1}) and inferred shape ({3200,1}) have different ranks."
)


def test_an_onnxruntime_envelope_leads_with_its_reason_whole_and_names_its_node(kb: KnowledgeBase) -> None:
    top = _top(kb, COREML_EP)
    assert top.entry.id == "onnxruntime-non-zero-status-code-returned+envelope-inner-reason"
    assert top.cause.startswith("The failure's own reason")
    assert "({1,1,1,512,1}) and inferred shape ({3200,1}) have different ranks" in top.cause
    assert "CoreMLExecutionProvider_CoreML_8352120247314976988_6_6" in top.cause
    assert "CoreMLExecutionProvider_CoreML_8352120247314976988_6_6" in top.fix
    assert "reason" not in dict(top.captures)  # the reason is read out as the answer's detail


def test_an_entry_for_the_envelope_s_reason_still_leads(kb: KnowledgeBase) -> None:
    """dev round15.jsonl:7: the reason has its own entry, which answers instead of the envelope."""
    text = (
        "Non-zero status code returned while running Concat node. Name:'/Concat_4' Status Message: "
        "input_rank == reference_rank was false. Ranks of input data are different, cannot concatenate "
        "them. expected rank: 1 got: 2"
    )
    top = _top(kb, text)
    assert top.entry.id.endswith("+ort-concat-rank")
    assert "/Concat_4" in top.cause


def test_a_card_that_quotes_its_reason_quotes_it_whole(kb: KnowledgeBase) -> None:
    long_reason = "input name cannot be empty " + "and the input list has a hole at position 3 " * 5
    text = f"Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:InvalidArgument] {long_reason.strip()}"
    top = _top(kb, text)
    assert top.entry.id == "onnxruntime-s24g-csharp-exception-envelope"
    assert long_reason.strip() in top.cause


def _envelope(cause: str, i: str = "env", **kw: object) -> Entry:
    return Entry(
        i,
        "T",
        "run",
        cause,
        "fix it at {op|the node}",
        "s",
        pattern=r"Message: (?P<reason>[^\n]{1,20})",
        family="onnx",
        **kw,
    )  # type: ignore[arg-type]


def test_envelope_reason_answered_leaves_other_answers_alone() -> None:
    text = "Status Message: a reason that goes on well past where the pattern stopped reading it."
    cut = "a reason that goes on"
    plain = Match(_envelope("c"), 50.0, "pattern", (("op", "n1"), ("reason", cut)))
    out = envelope_reason_answered([plain], text)[0]
    assert (
        dict(out.captures)["detail"] == "a reason that goes on well past where the pattern stopped reading it"
    )
    assert "n1" in out.fix
    quoting = Match(_envelope("failed: {reason}"), 50.0, "pattern", (("reason", cut),))
    assert envelope_reason_answered([quoting], text)[0].cause.endswith("stopped reading it")
    # A code card, a generic entry, a match found by wording or one already answered keeps its text.
    for other in (
        plain._replace(reason="words"),
        plain._replace(entry=_envelope("c", code="1", keys=("onnx:1",))),
        plain._replace(entry=_envelope("c", generic=True)),
        plain._replace(entry=_envelope("c", "env+clause")),
        plain._replace(captures=(("op", "n1"),)),
    ):
        assert envelope_reason_answered([other], text) == [other]


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=900), st.integers(0, 899))
def test_whole_reason_reads_on_the_reason_s_own_line_only(text: str, at: int) -> None:
    reason = text[at : at + 20]
    whole = whole_reason(reason, text) if reason else reason
    if not reason:
        return
    assert "\n" not in whole or whole == reason
    assert len(whole) <= MAX_REASON + 4 or whole == reason
    start = text.find(reason)
    if "\n" not in reason and not whole.endswith(" ..."):
        assert text[start:].startswith(whole) or whole == reason


# --- a TensorRT plugin's assertion --------------------------------------------------------------------------


def test_a_plugin_s_assertion_is_answered_as_the_plugin_s(kb: KnowledgeBase) -> None:
    text = (
        "[TRT] [E] Assertion failed: inputs[0].nbDims == 4\n"
        "/workspace/TensorRT/plugin/efficientNMSPlugin/efficientNMSPlugin.cpp:198\nAborting..."
    )
    top = _top(kb, text)
    assert top.entry.id == "tensorrt-s29f-plugin-assertion-at-source"
    assert "'inputs[0].nbDims == 4'" in top.cause and "efficientNMSPlugin.cpp, line 198" in top.cause


def test_a_parser_or_builder_assertion_is_not_the_plugin_s(kb: KnowledgeBase) -> None:
    parser = "ERROR: builtin_op_importers.cpp:241 In function importConv:\n"
    parser += "[8] Assertion failed: nbSpatialDims == 2"
    assert _top(kb, parser).entry.family == "tensorrt"
    assert "plugin-assertion" not in _top(kb, parser).entry.id
    builder = "Assertion failed: a.size() > 0\n../builder/zzPlanner.cpp:12\nAborting..."
    assert _top(kb, builder).entry.id == "tensorrt-s22-builder-assertion-at-source"


# --- a GPU delegate's platform failure ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "api", "clause"),
    [
        ("eglGetDisplay returned nullptr", "eglGetDisplay", "egl"),
        ('OpenCL library not loaded - dlopen failed: library "libOpenCL.so" not found', "OpenCL", "opencl"),
        ("Unable to create EGL context: EGL_BAD_MATCH", "EGL", "egl"),
    ],
)
def test_a_gpu_delegate_s_platform_failure_leads_over_the_init_card(
    kb: KnowledgeBase, reason: str, api: str, clause: str
) -> None:
    top = _top(kb, f"ERROR: TfLiteGpuDelegate Init: {reason}")
    assert reason in top.cause
    if top.entry.id == "tflite-s29c-gpu-gl-backend-unavailable":  # the GL backend's own entry (EGL set-up)
        assert clause == "egl"
        return
    assert top.entry.id == f"tflite-gpu-delegate-init+tflite-gpu-delegate-platform-{clause}"
    assert dict(top.captures)["api"] == api


def test_a_gpu_delegate_s_model_failure_keeps_the_init_card_with_its_reason(kb: KnowledgeBase) -> None:
    top = _top(kb, "TfLiteGpuDelegate Init: ADD: Node 3 has input 1 with dims mismatch")
    assert top.entry.id == "tflite-gpu-delegate-init+envelope-inner-reason"
    assert '"ADD: Node 3 has input 1 with dims mismatch"' in top.cause


# --- an exception with no message ---------------------------------------------------------------------------


def test_a_bare_exception_names_the_frame_that_raised_it(kb: KnowledgeBase) -> None:
    text = (
        "E build: Catch exception when building RKNN model!\n"
        "E build: Traceback (most recent call last):\n"
        'E build:   File "rknn/api/rknn_base.py", line 1977, in rknn.api.rknn_base.RKNNBase.build\n'
        'E build:   File "/opt/venv/lib/python3.8/site-packages/rknn/api/npu_compiler.py", line 88, in '
        "compile_model\nE build: RuntimeError"
    )
    top = _top(kb, text)
    assert top.entry.id.endswith("+python-traceback-bare-exception")
    assert "compile_model" in top.cause and "line 88" in top.cause and "npu_compiler.py" in top.fix
    assert "no message" in top.cause


def test_an_exception_with_a_message_keeps_the_last_exception_clause(kb: KnowledgeBase) -> None:
    text = (
        "E build: Catch exception when building RKNN model!\n"
        "E build: Traceback (most recent call last):\n"
        'E build:   File "/opt/venv/lib/python3.8/site-packages/rknn/api/npu_compiler.py", line 88, in '
        "compile_model\nE build: RuntimeError: tensor shape mismatch at layer 12"
    )
    top = _top(kb, text)
    assert not top.entry.id.endswith("+python-traceback-bare-exception")


# --- a default that claims a part is absent -----------------------------------------------------------------

LABELLED = {
    "node": ("Node (conv_block_7) Op (Conv) failed", "conv_block_7"),
    "op_type": ("Node (conv_block_7) Op (Conv) failed", "Conv"),
    "shape": ("the input was [1, 3, 224, 224] here", "[1, 3, 224, 224]"),
    "path": ("while reading /data/models/yolo_v8.onnx now", "/data/models/yolo_v8.onnx"),
}


def test_every_kind_the_renderer_reads_back_has_a_labelled_example() -> None:
    assert set(PART_KINDS.values()) == set(KIND_FINDERS) == set(LABELLED)
    for kind, (line, value) in LABELLED.items():
        assert found_in_message(kind, line) == value


def test_a_path_of_the_tools_own_code_is_not_read_back_as_the_file_a_message_names() -> None:
    """A traceback's frames and libraries are the tool's code: 'the model file /usr/lib/.../x.py' would be
    false; the first path that is not code is the one read back, and none when there is none."""
    frames = 'File "/opt/venv/lib/python3.10/site-packages/onnx/checker.py", line 54, in check\n'
    assert found_in_message("path", frames + "loading /usr/lib/libonnxruntime.so failed") == ""
    assert found_in_message("path", frames + "while reading /data/m/yolo.onnx now") == "/data/m/yolo.onnx"


def _absence_claims(kb: KnowledgeBase) -> list[tuple[Entry, str]]:
    """Every entry's parts whose words, with the part missing, claim the message did not carry it."""
    out = []
    for e in kb.entries:
        template = f"{e.cause}\n{e.fix}"
        for name in sorted(set(re.findall(r"\{([a-z][a-z0-9_]{0,20})[|}]", template))):
            if name.rstrip("0123456789") not in PART_KINDS:
                continue
            said = len(ABSENCE.findall(fill(template, ())))
            if said > len(ABSENCE.findall(fill(template, ((name, "\x01"),)))):
                out.append((e, name))
    return out


def test_every_default_that_claims_a_part_absent_is_filled_where_the_message_holds_one(
    kb: KnowledgeBase,
) -> None:
    """Over every entry: a part whose default says it is missing ('node not named in the message'), with
    the message holding a value of that kind on another line, is filled from there; the claim is gone."""
    claims = _absence_claims(kb)
    assert any(e.id == "onnxruntime-non-zero-status-code-returned" for e, _ in claims)
    for e, name in claims:
        line, value = LABELLED[PART_KINDS[name.rstrip("0123456789")]]
        text = f"{line}\n{e.id}"
        filled = absent_parts_filled(Match(e, 50.0, "pattern", ()), text)
        assert (name, value) in filled.captures, e.id
        template = f"{e.cause}\n{e.fix}"
        assert len(ABSENCE.findall(fill(template, filled.captures))) < len(
            ABSENCE.findall(fill(template, ()))
        ), e.id


def test_an_absent_part_stays_absent_when_the_message_holds_none(kb: KnowledgeBase) -> None:
    text = (
        "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running BatchNormalization node."
    )
    top = _top(kb, text)
    assert "not named in the message" in top.cause
    named = "Node (bn_3) Op (BatchNormalization) failed\n" + text
    top = _top(kb, named)
    assert "not named" not in top.cause and "'bn_3'" in top.cause


@given(st.text(max_size=300))
def test_a_filled_part_is_always_text_of_the_message(text: str) -> None:
    e = Entry(
        "t", "T", "run", "node {op|not named in the message} failed", "f", "s", pattern="x", family="onnx"
    )
    filled = absent_parts_filled(Match(e, 50.0, "pattern", ()), text)
    for _, value in filled.captures:
        assert value in text


# --- the ONNX parser's assertion over the builder's parameter check --------------------------------------


def test_a_parser_assertion_on_an_add_call_is_read_with_the_builder_s_check(kb: KnowledgeBase) -> None:
    """dev round29.jsonl:33: the parser asserts that addInput gave a tensor; the line before says why not."""
    text = (
        "[E] [TRT] Parameter check failed at: ../builder/Network.cpp::addInput::465, condition: "
        "isValidDims(dims)\nERROR: ModelImporter.cpp:80 In function importInput:\n[8] Assertion failed: "
        "*tensor = importer_ctx->network()->addInput( input.name().c_str(), trt_dtype, trt_dims)\n"
        "[E] Failure while parsing ONNX file"
    )
    top = _top(kb, text)
    assert top.entry.id.endswith("+trt-parser-assert-over-parameter-check")
    assert "'isValidDims(dims)'" in top.cause and "addInput" in top.cause
    assert "EXPLICIT_BATCH" in top.fix
    alone = text.split("\n", 1)[1]  # without the check's line: the condition is pointed at, not invented
    top = _top(kb, alone)
    assert top.entry.id.endswith("+trt-parser-assert-over-parameter-check")
    assert "isValidDims(dims)" not in top.cause and "Parameter check failed" in top.cause


def test_a_parameter_check_condition_keeps_its_closing_bracket(kb: KnowledgeBase) -> None:
    text = "[E] [TRT] Parameter check failed at: ../builder/Network.cpp::addInput::465, condition: "
    text += "isValidDims(dims)"
    assert ("value", "isValidDims(dims)") in _top(kb, text).captures


def test_a_reason_is_read_on_only_where_the_pattern_s_bound_ended_it() -> None:
    """A reason a literal ends (Core ML's '... Domain:') is whole already: reading on would take that in."""
    assert reason_ends_pattern(r"Status Message:\s{0,8}(?P<reason>[^\n]{1,120}))?")
    assert reason_ends_pattern(r"x (?P<reason>[^\n]{0,120})")
    assert not reason_ends_pattern(r"details: (?P<reason>[^\n]{1,300}?)\s{1,3}Domain: (?P<value>\w+)")
    assert not reason_ends_pattern(r"no reason here")
    e = Entry(
        "c", "T", "run", "failed: '{reason}'", "f", "s", pattern=r"details: (?P<reason>[^\n]{1,30}?) Domain:"
    )
    text = "details: model not found Domain: com.apple.CoreML Code: 0"
    m = Match(e, 50.0, "pattern", (("reason", "model not found"),))
    assert envelope_reason_answered([m], text)[0].cause == "failed: 'model not found'"


def test_a_status_card_quotes_a_long_reason_whole(kb: KnowledgeBase) -> None:
    reason = "Compile failed for fused node CANNExecutionProvider_graph_0: " + "the backend rejects it; " * 20
    text = f"[ONNXRuntimeError] : 11 : EP_FAIL : {reason.strip()}"
    top = _top(kb, text)
    assert top.entry.id == "onnxruntime-11-EP-FAIL+code-own-reason"
    assert top.cause.index(reason.strip().rstrip(";").strip()) < top.cause.index("EP_FAIL")


def test_a_reason_its_class_ends_is_not_read_on() -> None:
    assert not reason_ends_pattern(r"because of (?P<reason>[^.\n]{1,120}))")
