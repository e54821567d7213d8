"""Session s29b: RKNN-Toolkit2's and QNN's failure texts as their tools print them.

* ``rknn-s29b-*``: the rknn-toolkit2 2.5.0 wheel's compiled modules (``rknn/api/rules/dims``, ``rknn_utils``,
  ``graph_optimizer``, ``rknn_platform``, ``quantizer``, ``rknn_base``, ``rknn_runtime``, ``ir_utils``), whose
  messages live only in the modules' compressed string tables, and the board runtime's batch check;
* ``qualcomm-s29b-*`` and the rewritten ``qualcomm-graph-prepare-failed``: the HTP backend's graph-prepare
  lines, the QNN sample app's / qnn-net-run's stage lines and qnn-context-binary-generator's finalize chain;
* :func:`bench.build_source_grams.cython_strings` reads those string tables again, without the report lines
  that made RKNN's accuracy-analysis output look like a failure.

Every message is the source's format with made-up names and values, never an eval message.
"""

from __future__ import annotations

import zlib

from hypothesis import given
from hypothesis import strategies as st

from bench.build_source_grams import CYTHON_COMPRESSED, cython_strings
from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import Case, answered_by_entry

CASES: list[Case] = [
    # rknn/api/rules/dims: "Only support constant '{}' in {} '{}'!"
    (
        "E load_onnx: Only support constant 'axes' in Slice '/head/Slice_7'!",
        "rknn-s29b-rule-const-input",
        ("'axes'", "Slice", "/head/Slice_7"),
    ),
    # rknn/api/rules/dims: "Not support 'roi' in Resize '{}' !"
    ("E load_onnx: Not support 'roi' in Resize 'up_2' !", "rknn-s29b-resize-roi", ("up_2",)),
    # rknn/api/rknn_utils: "Can not reshape from {} to {}"
    (
        "E build: Can not reshape from [1, 64, 40, 40] to [1, 2, 64, 400]",
        "rknn-s29b-reshape-shape-mismatch",
        ("1, 64, 40, 40", "1, 2, 64, 400"),
    ),
    # rknn/api/rknn_utils: "The two input shape {} and {} can not be broadcast!"
    (
        "E build: The two input shape [1, 8, 32] and [1, 9, 32] can not be broadcast!",
        "rknn-s29b-broadcast-shapes",
        ("1, 8, 32", "1, 9, 32"),
    ),
    # rknn/api/graph_optimizer: "Found Random node '{}', which is not supported, ..."
    (
        "E load_onnx: Found Random node 'RandomUniformLike_4', which is not supported, please remove it "
        "manually and try again!",
        "rknn-s29b-random-node",
        ("RandomUniformLike_4",),
    ),
    # rknn/api/rknn_platform: "Unsupport target_platform: {}!"
    ("E config: Unsupport target_platform: rk1808!", "rknn-s29b-unsupport-target-platform", ("rk1808",)),
    # rknn/api/rknn_platform: "Unsupport board system: {}!"
    ("E init_runtime: Unsupport board system: qnx!", "rknn-s29b-unsupport-board-os", ("system", "qnx")),
    # rknn/api/quantizer: "Quant algorithm='{}' is not supported!"
    (
        "E build: Quant algorithm='minmax' is not supported!",
        "rknn-s29b-quant-option-combination",
        ("minmax",),
    ),
    # rknn/api/graph_optimizer: "These outputs {} of model are constants, remove it from RKNN model!"
    (
        "W load_onnx: These outputs ['grid_0'] of model are constants, remove it from RKNN model!",
        "rknn-s29b-constant-io-removed",
        ("outputs", "grid_0"),
    ),
    # rknn/api/rknn_runtime: "Get performance detail Failed. Error code: {}"
    (
        "E eval_perf: Get performance detail Failed. Error code: -5",
        "rknn-s29b-board-query-failed",
        ("performance detail", "-5"),
    ),
    # rknn/api/rknn_runtime: "Target hardware platform need be pointed before get sdk version."
    (
        "E get_sdk_version: Target hardware platform need be pointed before get sdk version.",
        "rknn-s29b-sdk-version-needs-target",
        ("init_runtime(target=",),
    ),
    # rknn/api/rknn_base: "Inputs_yuv_fmt require inputs channel as 3,but got {}"
    ("E config: Inputs_yuv_fmt require inputs channel as 3,but got 4", "rknn-s29b-yuv-fmt", ("4",)),
    # rknn/api/rknn_base: "The '{}' in op_target is invalid! expect in {}!"
    (
        "E config: The 'dsp' in op_target is invalid! expect in ['cpu', 'npu']!",
        "rknn-s29b-op-target-config",
        ("dsp", "'cpu', 'npu'"),
    ),
    # rknn/api/quantizer: "Invalid operands name '{}' in custom_quantize_layers!"
    (
        "E hybrid_quantization_step2: Invalid operands name 'conv_out_9' in custom_quantize_layers!",
        "rknn-s29b-custom-quantize-layers",
        ("conv_out_9",),
    ),
    # rknn/api/ir_utils: "The Custom OP '{}' does not exist in the final RKNN model ..."
    (
        "W build: The Custom OP 'MyGelu' does not exist in the final RKNN model (may have been deleted by "
        "optimization),",
        "rknn-s29b-custom-op-removed",
        ("MyGelu",),
    ),
    # rknn/api/rknn_base: "Shape of input_initial_val[{}]={} is invalid!"
    (
        "E load_onnx: Shape of input_initial_val[1]=(3, 3) is invalid!",
        "rknn-s29b-input-initial-val",
        ("(3, 3)",),
    ),
    # the board runtime's batch check
    (
        "E RKNN: [09:01:02.345] only support input n_dims == 4 when batch_size > 1",
        "rknn-s29b-batch-input-ndims",
        ("rknn_batch_size",),
    ),
    # the HTP's initial_sequencer_dp.cc line
    (
        'initial_sequencer_dp.cc:149:ERROR:A single op, "q::Softmax" (Op ID: 2f00000041), requires 0x1800000 '
        "bytes of TCM, which is greater than the TCM size of 0x400000!",
        "qualcomm-s29b-htp-op-tcm-too-large",
        ("q::Softmax", "0x1800000", "0x400000"),
    ),
    # the HTP router's summary line
    ("QnnDsp <E> RouterX86 graph prepare failed 13", "qualcomm-graph-prepare-failed", ("13",)),
    # the backend extensions config reader
    (
        "[ ERROR ] Invalid key: graphs/0/fp16_relaxed",
        "qualcomm-s29b-backend-ext-config-key",
        ("graphs/0/fp16_relaxed",),
    ),
    # qai_hub/client.py: _handle_api_exception's connection error
    (
        "Could not connect to Qualcomm AI Hub. Please visit https://app.aihub.qualcomm.com/api/ to check the "
        "service's status.",
        "qualcomm-s29b-aihub-service-unreachable",
        ("HTTPS_PROXY",),
    ),
    # librknnmrt.so: "failed to open device, fd: %d"
    ("E RKNN: failed to open device, fd: -1", "rknn-s19d-runtime-open-device", ("/dev/dri/renderD129",)),
    # rknn/api/rknn_runtime: "Call rknn_get_sdk_version Failed. Error code: {}  DRV: {}"
    (
        "E get_sdk_version: Call rknn_get_sdk_version Failed. Error code: -3  DRV: 0",
        "rknn-s29b-board-query-failed",
        ("rknn_get_sdk_version", "-3"),
    ),
]
test_s29b_entries_answer_their_source_texts = answered_by_entry(CASES)


def test_the_qnn_tools_summary_lines_answer_alone_and_yield_to_their_cause(kb: KnowledgeBase) -> None:
    """The sample app's / qnn-net-run's stage line and qnn-context-binary-generator's finalize chain say where
    the tool stopped, not why: alone they are answered (a generic summary, medium confidence, the step
    named); after the backend's own lines, the entries keyed by the codes those lines print rank above
    them."""
    for line, entry, part in (
        ("[ ERROR ] Create From Binary failure", "qualcomm-s29b-qnn-app-stage-failure", "Create From Binary"),
        (
            "[ ERROR ] Finalize Graph for Idx = 2 failed with error = 6020",
            "qualcomm-s29b-context-binary-not-finalized",
            "6020",
        ),
    ):
        found = kb.answer(line)
        top = found.matches[0]
        assert top.entry.id == entry and top.entry.generic and top.entry.consequence
        assert found.confidence == "medium"
        assert part in top.cause
    paste = (
        "[ ERROR ] <E> Failed to load skel, error: 4000\n"
        "[ ERROR ] <E> Transport layer setup failed: 14001\n"
        "[ ERROR ] Device Creation failure"
    )
    ids = [m.entry.id for m in kb.lookup(paste, top=3)]
    assert "qualcomm-s29b-qnn-app-stage-failure" not in ids
    assert any("qnn:4000" in m.entry.keys or "qnn:14001" in m.entry.keys for m in kb.lookup(paste, top=3))


def _module(constants: list[str]) -> bytes:
    """A stand-in for a compiled Cython module: the marker and the constants end to end in one zlib stream."""
    table = "".join(constants).encode("utf-8")
    return b"\x7fELF padding " + CYTHON_COMPRESSED + b" more " + zlib.compress(table) + b" tail"


def test_cython_strings_reads_the_messages_and_leaves_report_lines_out() -> None:
    """The messages come out cut at their format fields; the accuracy-analysis header, an info line and a
    'results save to' line do not."""
    data = _module(
        [
            "Feed {} inputs, but the model has {} inputs!",
            "# simulator_error: calculate the output error of each layer of the simulator.",
            "I Quantizating {}",
            "The error analysis results save to: {}",
            "Unsupport target_platform: {}!",
        ]
    )
    found = cython_strings(data)
    assert "inputs, but the model has" in found
    assert "Unsupport target_platform:" in found
    assert not [p for p in found if "simulator_error" in p or "Quantizating" in p or "save to" in p]


def test_cython_strings_needs_the_marker() -> None:
    table = zlib.compress(b"Feed {} inputs, but the model has {} inputs!")
    assert cython_strings(b"no marker here " + table) == set()


_PRINTABLE = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=60)


@given(st.lists(_PRINTABLE, max_size=8), st.from_regex(r"[a-z]{6,10}", fullmatch=True), st.integers(0, 8))
def test_no_piece_holds_a_report_line_or_a_format_field(constants: list[str], tag: str, at: int) -> None:
    """Whatever else the table holds, a report header put among its lines gives no piece, and every piece is
    stripped, at least 12 characters and free of format fields."""
    lines = [*constants]
    lines.insert(min(at, len(lines)), f"# {tag}_error: calculate the output error of each layer")
    for piece in cython_strings(_module(["\n".join(lines)])):
        assert f"{tag}_error" not in piece
        assert piece == piece.strip() and len(piece) >= 12
        assert "{}" not in piece
