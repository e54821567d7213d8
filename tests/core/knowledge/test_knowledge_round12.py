"""Issue 23, round 12: what round 12's dev answers taught (family cards where the vendor's wording names the
failure), each written from the tool's own wording with values of our own (never an evaluation message).

* the SNPE/QAIRT converters' message keys (``ERROR_TF_*``, ``ERROR_CAFFE_*``, ``ERROR_CAFFE2_*`` of
  code_to_message.py) name Qualcomm: a converter's error line seldom repeats the tool's name, and the log
  scan did not report such a line at all;
* entries: the converter's node-name check, the graph pruned empty by output names it does not have, the HTP
  convolution filter/channel check, FastRPC refusing to open a skel, qnn-model-lib-generator's missing model
  source and failed compile, and the RKNN compiler's register field overflow.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.family import detect_families


@pytest.mark.parametrize(
    "text",
    [
        "2023-01-02 03:04:05,678 - 183 - ERROR - Conversion failed: ERROR_TF_INVALID_INPUT_DIMS: Invalid "
        "input dimensions: 1,a,3",
        "ERROR_CAFFE_LAYER_TYPE_NOT_SUPPORTED: Cannot resolve Foo layer of type Bar which is not yet "
        "supported",
        "ERROR_CAFFE2_SNPE_OP_SUPPORT_ERR: Cannot resolve op type Baz",
    ],
)
def test_a_converter_message_key_names_qualcomm(text: str) -> None:
    assert detect_families(text)[:1] == ["qualcomm"]


def test_a_key_like_word_elsewhere_is_no_marker() -> None:
    """Only the converters' prefixes: an upper-case constant of another tool is not theirs."""
    assert "qualcomm" not in detect_families("ValueError: ERROR_INVALID_ARGUMENT in my_tf_loader")


def test_the_node_name_check_names_the_node(kb: KnowledgeBase) -> None:
    text = (
        "2023-01-02 03:04:05,678 - 122 - ERROR - Conversion failed: ERROR_TF_NODE_NOT_FOUND_IN_GRAPH: Node "
        "not found in graph. Node name: net/logits:0"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-converter-node-not-found-in-graph"
    assert dict(top.captures)["node"] == "net/logits:0"
    assert "net/logits:0" in top.fix


def test_the_output_node_check_of_the_tf_loader(kb: KnowledgeBase) -> None:
    top = kb.lookup("ERROR_TF_OUTPUT_NODE_NOT_WITHIN_GRAPH: Output node heads/box not within graph.", top=1)[
        0
    ]
    assert top.entry.id == "qualcomm-converter-node-not-found-in-graph"
    assert dict(top.captures)["node"] == "heads/box"


def test_an_output_node_warning_is_the_pruning_entry_not_the_node_check(kb: KnowledgeBase) -> None:
    """The ONNX frontend's warning has no "not within graph": it belongs to the pruned-empty failure."""
    text = (
        "2024-05-06 07:08:09,101 - 240 - WARNING - Output node 512, specified via command line, does not "
        "exist in graph.\nEncountered Error: After pruning disconnected nodes, this model is empty."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-converter-model-empty-after-pruning"
    assert dict(top.captures)["node"] == "512"
    assert "--out_node" in top.fix


def test_the_htp_convolution_filter_check_says_which_count_disagrees(kb: KnowledgeBase) -> None:
    text = "QnnDsp <E> Filters in[1] dimension 8 at index 2 not equal to channel_in 96 / groups 1."
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-htp-conv-filter-channels"
    assert "96" in top.cause and "8" in top.cause
    assert "channel_in" in top.cause


def test_the_transposed_convolution_form(kb: KnowledgeBase) -> None:
    text = "Filters in[1] dimension 4 at index 3 not equal to channel_out 64 / groups 2."
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-htp-conv-filter-channels"
    assert "channel_out 64" in top.cause


def test_fastrpc_refusing_a_skel_names_the_library(kb: KnowledgeBase) -> None:
    text = (
        "Error 0x80000406: remote_handle64_open failed for file:///libQnnHtpV68Skel.so?qnn_skel_handle_invoke"
        "&_modver=1.0&_dom=cdsp (errno Success)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-fastrpc-skel-open-failed"
    assert "libQnnHtpV68Skel.so" in top.fix
    assert "ADSP_LIBRARY_PATH" in top.fix


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "FileNotFoundError: Unable to find the model source file, invalid path: /tmp/build/net.cpp",
            "qualcomm-model-lib-generator-source-missing",
        ),
        (
            '  File "/opt/qairt/2.30.0/bin/x86_64-linux-clang/qnn-model-lib-generator", line 140\n'
            "RuntimeError: Failed to compile model library for target: aarch64-android",
            "qualcomm-model-lib-generator-compile-failed",
        ),
    ],
)
def test_the_model_library_generators_own_failures(kb: KnowledgeBase, text: str, entry: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == entry
    assert top.entry.family == "qualcomm"


def test_the_rknn_register_field_overflow_quotes_value_and_limit(kb: KnowledgeBase) -> None:
    text = (
        "E RKNN: [08:09:10.111] REGTASK: The bit width of field value exceeds the limit, target: v2, offset: "
        "0x4020, shift = 0, limit: 0xffff, value: 0x12000"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "rknn-regtask-field-bit-width-exceeded"
    assert "0x12000" in top.cause and "0xffff" in top.cause


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
