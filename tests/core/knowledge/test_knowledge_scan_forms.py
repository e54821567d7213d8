"""The knowledge tests of the log scan finding the forms above buried in a log: each case is a vendor's own
wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From round12 (was test_knowledge_round12.py):

* the SNPE/QAIRT converters' message keys (``ERROR_TF_*``, ``ERROR_CAFFE_*``, ``ERROR_CAFFE2_*`` of
  code_to_message.py) name Qualcomm: a converter's error line seldom repeats the tool's name, and the log
  scan did not report such a line at all;

From round13 (was test_knowledge_round13.py).

From round14 (was test_knowledge_round14.py): described in test_knowledge_rknn.py's docstring.

From round16 (was test_knowledge_round16.py):

* a process id in CANN's and MindSpore's log prefix (``[ERROR] LITE(108805,...)``) is no AscendCL code.

From s24b: lines whose only error word is a constraint or a misuse (coremltools/__init__.py, onnxruntime-web's
inference-session-impl.ts, OpenVINO's descriptor/tensor.cpp, pnnx's save_ncnn.cpp); a problem's ``--json``.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log

# ---- round12 (test_knowledge_round12.py) ----


def test_a_converter_error_line_is_found_by_the_log_scan(kb: KnowledgeBase) -> None:
    """The converter's ERROR line without the tool's name in it was not reported before its key named it."""
    log = [
        "INFO: loading weights",
        "2023-01-02 03:04:05,678 - 122 - ERROR - Conversion failed: ERROR_TF_NODE_NOT_FOUND_IN_GRAPH: Node "
        "not found in graph. Node name: input_1",
        "INFO: done",
    ]
    problems = scan_log(io.StringIO("\n".join(log)), kb)
    assert [p.first_line_no for p in problems] == [2]


# ---- round13, round14, round16 (test_knowledge_round13.py, _round14.py, _round16.py) ----


@pytest.mark.parametrize(
    "line",
    [
        # round13: OpenVINO's IR reader and legacy CPU plugin, coremltools' predict, TensorRT's engine header
        "[ ERROR ] Error reading network: cannot parse future versions: 11",
        "RuntimeError: unsupported primitive of type: Proposal name: proposal/rpn",
        "RuntimeError: value type not convertible",
        "coreReadArchive.cpp (38) - Serialization Error in verifyHeader: 0 (Magic tag does not match)",
        # round14: torch_npu's inner-error line, onnx's version converter range check
        "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the "
        "current working operator name is FooBarV3.",
        "RuntimeError: invalid version (must be between 1 and 18)",
        # round16: torch_npu's allocator, MindSpore's Ascend runtime init
        "NPU out of memory. Tried to allocate more than 1EB memory",
        "RuntimeError: Ascend kernel runtime initialization failed. The details refer to "
        "'Ascend Error Message'.",
    ],
)
def test_the_log_scan_reports_each_new_single_line_among_plain_lines(kb: KnowledgeBase, line: str) -> None:
    log = "step 1 done\nloading model\n" + line + "\nstep 2 done\n"
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [3]


# ---- s24b: error lines without an error word, selected by a constraint or misuse word ----
# coremltools/__init__.py (_OPSET), the Core ML runtime's conv stride check, onnxruntime-web's
# js/common/lib/inference-session-impl.ts, OpenVINO's src/core/src/descriptor/tensor.cpp, pnnx's
# tools/pnnx/src/save_ncnn.cpp; each buried among look-alike lines that carry the same words.

LOOKALIKES = [
    "[I] unknown layers: 0, missing weights: 0",
    "INFO: 2 calibration batches still needed (progress 40%)",
    "[W] Ignoring the optional attribute 'frob_hint' of node widget_7",
    "step 7 done: errors=0, missing=0, unknown=0, ignored=0",
    "epoch 3 |######    | 60% loss 0.213 (callback was called 12 times)",
]


@pytest.mark.parametrize(
    ("line", "entry"),
    [
        ("Unknown opset 'CoreML11'", "coreml-ctsrc-unknown-opset-coremlN"),
        (
            "Strides of ConvTranspose needs to be product of at most 3 interleave factors",
            "coreml-conv-stride-interleave-factors",
        ),
        ("input 'pixel_values' is missing in 'feeds'.", "onnxruntime-web-input-missing-in-feeds"),
        ("get_shape was called on a descriptor::Tensor with dynamic shape", "openvino-get-shape-dynamic"),
        ("ignore torch.roll torch.roll_3 param shifts=(1,2)", "ncnn-s23-pnnx-param-ignored"),
    ],
)
def test_a_line_whose_only_error_word_is_a_constraint_or_a_misuse_is_found(
    kb: KnowledgeBase, line: str, entry: str
) -> None:
    """``unknown``, ``missing``, ``needs``, ``was called``, ``ignore`` select the line for a lookup (before,
    no cue word was on it and the scan never read it); the look-alike lines with the same words match
    nothing specific and are not reported."""
    log = [*LOOKALIKES, line, *LOOKALIKES]
    problems = scan_log(io.BytesIO("\n".join(log).encode()), kb)
    assert [(p.first_line_no, p.matches[0].entry.id) for p in problems] == [(len(LOOKALIKES) + 1, entry)]


def test_a_problem_in_json_carries_what_the_single_message_answer_gives(kb: KnowledgeBase) -> None:
    """``explain --log --json``: each match of a problem says, as ``explain --json`` does, whether its line
    only follows from the first match's error (``follows_first``) or is a related entry (``related``), and the
    problem gives the first match's ``confidence`` and ``basis`` (TensorRT's runtime.cpp lines, made-up
    versions)."""
    log = [
        "[I] loading engine",
        "Traceback (most recent call last):",
        '  File "serve.py", line 12, in <module>',
        "    engine = load_engine(path)",
        "RuntimeError: [TRT] The engine plan file is not compatible with this version of TensorRT, expecting "
        "library version 10.3.0.26 got 10.0.1.6, please rebuild.",
        "  [TRT] Engine deserialization failed.",
        "[I] done",
    ]
    (problem,) = scan_log(io.BytesIO("\n".join(log).encode()), kb)
    got = problem.to_dict()
    matches = got["matches"]
    assert isinstance(matches, list)
    rows = {m["id"]: (m["follows_first"], m["related"]) for m in matches}
    assert matches[0]["id"] == "tensorrt-plan-library-version-mismatch"
    assert rows["tensorrt-plan-library-version-mismatch"] == (False, False)
    assert rows["tensorrt-engine-deserialization-failed"] == (True, False)  # follows, is no related entry
    assert all(related for follows, related in list(rows.values())[1:] if not follows)
    answer = kb.answer("\n".join(problem.block), top=3).to_dict()
    assert (got["confidence"], got["basis"]) == (answer["confidence"], answer["basis"]) == ("high", "pattern")
    shown = {m["id"]: (m["follows_first"], m["related"]) for m in answer["matches"]}
    assert all(shown[k] == v for k, v in rows.items() if k in shown)


def test_a_problem_no_entry_fits_says_so_in_json() -> None:
    problems = scan_log(
        io.BytesIO(b"[I] start\nRuntimeError: the widget frobnicator stopped\n"), KnowledgeBase([])
    )
    assert [(p.to_dict()["confidence"], p.to_dict()["basis"], p.to_dict()["matches"]) for p in problems] == [
        ("none", "", [])
    ]
