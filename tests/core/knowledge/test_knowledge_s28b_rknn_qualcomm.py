"""Session s28b: RKNN's and Qualcomm's log forms as data, their new markers and entries.

* :data:`dumpscope.core.knowledge.markers.LOG_FORMS`: RKNN's forms (moved from a tuple in
  :mod:`.family`, answers unchanged) and two Qualcomm ones: the Hexagon libraries' ``<file>.cc:<line>:ERROR:``
  line (HtpPrepare.dll / libQnnHtpV*Skel.so of onnxruntime-qnn 2.7.0: ``%s:%d::ERROR:%s``) and FastRPC's
  ``<file>.c:<line>: Error 0x<status>:`` line (quic/fastrpc: src/*.c);
* the entries ``rknn-s28b-*`` / ``rkllm-s28b-*`` (the rknn-toolkit2 2.5.0 wheel's rknn_base string table and
  librknnc.so's strings; airockchip/rknn-llm's demos) and ``onnxruntime-s28b-*`` (onnxruntime's QNN EP and
  its CoreML/NNAPI helpers), each with a message in the source's format and made-up names and values;
  never an eval message.
"""

from __future__ import annotations

import re

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import _log_forms, detect_families, family_evidence
from dumpscope.core.knowledge.markers import LOG_FORMS, MEDIUM, STRONG, WEAK
from tests.support.advice import answered_by_entry


def test_every_log_form_is_lower_case_data_with_a_weight() -> None:
    """A form is tried on the lower-cased text after its literal is found there: the literal is lower case,
    the pattern compiles, and the weight is one of the marker weights."""
    for family, forms in LOG_FORMS.items():
        assert forms, family
        for literal, pattern, weight in forms:
            assert literal == literal.lower() and literal
            re.compile(pattern)
            assert weight in (WEAK, MEDIUM, STRONG)


@pytest.mark.parametrize(
    "text",
    [
        "fa_alloc.cc:3866:ERROR:graph requires estimated allocation of 2100000 KB, limit is 2097152 KB",
        "graph_prepare.cc:742:ERROR:error during serialize: memory usage too large",
        "prepare.cc:91::ERROR:op config file: 12: Bad line",
        "E  vendor/src/apps_mem_imp.c:216:Error 0x8000040d: unmap failed for size 753664",
        "mod_table.c:863: Error 0x8000040d: open_mod_table_handle_invoke failed for handle:0x3c105ea8",
    ],
)
def test_hexagon_and_fastrpc_lines_lean_to_qualcomm(text: str) -> None:
    """Each line counts as a MEDIUM marker of Qualcomm, wherever it starts in the text."""
    hits = _log_forms(text.lower())
    assert list(hits) == ["qualcomm"]
    assert MEDIUM in [w for w, _ in hits["qualcomm"]]
    assert family_evidence(text)["qualcomm"] >= MEDIUM


@pytest.mark.parametrize(
    "text",
    [
        "model.cc:12:5: error: expected ';' after expression",  # a compiler's line: column and a space
        "main.c:40: error: 'x' undeclared",
        "Error 0x80004005: unspecified failure",  # a Windows HRESULT without a file and line
        "handler.cpp:88:ERROR: something",  # a space after the level
    ],
)
def test_compiler_and_windows_lines_are_no_qualcomm_form(text: str) -> None:
    assert "qualcomm" not in _log_forms(text.lower())


def test_a_qairt_log_line_still_adds_to_a_hexagon_line() -> None:
    """The converters' Python log format adds its MEDIUM and WEAK marks to the Hexagon line's (it yields only
    to the command-line tools' STRONG line), so both name Qualcomm together."""
    text = (
        "2025-02-01 10:00:00,123 - 230 - ERROR - conversion failed\n"
        "graph_prepare.cc:742:ERROR:error during serialize: memory usage too large"
    )
    weights = sorted(w for w, _ in _log_forms(text.lower())["qualcomm"])
    assert weights == [WEAK, MEDIUM, MEDIUM]
    assert detect_families(text)[0] == "qualcomm"


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("D [14:05:56.085] >>>>>> start: OpEmit\nterminate called after throwing an instance of 'x'", "rknn"),
        ("<<<<<<<< end: AllocateConvCachePass", "rknn"),
        ("> /opt/qcom/aistack/qairt/2.31.0.250130/bin/python3 convert.py\nAssertionError", "qualcomm"),
        ("Executing python /opt/sdk-2.20/bin/x86_64-linux-clang/converter --graph model.pb", "qualcomm"),
        ("E  vendor/qcom/proprietary/android/src/loader.c:10: load failed", "qualcomm"),
        (
            "Loading driver C:\\Windows\\System32\\DriverStore\\FileRepository\\"
            "qcnspmcdm8380.inf_arm64_1\\x.dll",
            "qualcomm",
        ),
    ],
)
def test_new_path_and_trace_markers_name_their_tool(text: str, family: str) -> None:
    assert detect_families(text)[:1] == [family]


def test_the_fusing_progress_bar_leans_to_rknn_without_naming_it_alone() -> None:
    """``I OpFusing N :`` is a MEDIUM marker: evidence for RKNN, not a STRONG name by itself."""
    evidence = family_evidence("I OpFusing 1 : 100%|#####| 100/100 [00:01<00:00, 80.00it/s]")
    assert evidence["rknn"] == MEDIUM


test_s28b_entries_answer_their_source_texts = answered_by_entry(
    [
        (
            "E load_pytorch: Catch exception when loading pytorch model: ./weights/net.pt",
            "rknn-s28b-load-other-format",
            (),
        ),
        ("E load_onnx: Not support QAT model!", "rknn-s28b-qat-model", ()),
        (
            "W load_onnx: Onnx opset22 is not fully supported, it may cause convert fail,"
            " it is recommended to use opset19!",
            "rknn-s28b-onnx-opset-not-fully-supported",
            ("22", "19"),
        ),
        (
            "E load_onnx: The 'com.ms.internal.nhwc' opset = 20, and onnxruntime only support to 18!",
            "rknn-s28b-ms-nhwc-opset",
            ("20",),
        ),
        (
            "E inference: The RK2118 does not support inference with NPU by toolkit!",
            "rknn-s28b-toolkit-npu-unsupported-platform",
            ("RK2118",),
        ),
        (
            "E build: The 'rknn_batch_size' is conflict with model input!",
            "rknn-s28b-rknn-batch-size",
            (),
        ),
        (
            "E inference: Model has 3 inputs, but inputs_pass_through lenght is 2, NOT EQUAL",
            "rknn-s28b-inference-list-lengths",
            ("inputs_pass_through",),
        ),
        (
            "W load_onnx: Output[1] shape with str value may cause error, replace 'anchors' with 1.",
            "rknn-s28b-output-shape-str",
            ("anchors",),
        ),
        (
            "E RKNN: [08:01:02.003] Not Support Dtype: 9. please check precision!",
            "rknn-s28b-compiler-dtype-precision",
            ("9",),
        ),
        (
            "E RKNN: [08:01:02.003] Weight backbone.0.weight (32, 16, 3, 3) assume to be 4 sparse,"
            " but failed when check sparse shape",
            "rknn-s28b-compiler-sparse-weight",
            ("backbone.0.weight",),
        ),
        ("E RKNN: [08:01:02.003] Meet Unsupport Broadcast type", "rknn-s28b-compiler-broadcast", ()),
        (
            "E RKNN: [08:01:02.003] Mul: tensor(/head/Mul_output_0) zero_point must be 0, but get -3!",
            "rknn-s28b-compiler-mul-zero-point",
            ("/head/Mul_output_0",),
        ),
        (
            "E RKNN: [08:01:02.003] Allocate conv cache tensor failed",
            "rknn-s28b-compiler-conv-cache-alloc",
            (),
        ),
        ("W Not get any connection of Dropout_12:out0", "rknn-s28b-v1-no-connection", ("Dropout_12",)),
        (
            "Error: Please provide the correct lora_model path,"
            " and advise it is the absolute path on the board.",
            "rkllm-s28b-server-demo-args",
            ("lora_model",),
        ),
        (
            "onnxruntime.capi.onnxruntime_pybind11_state.EPFail: [ONNXRuntimeError] : 11 : EP_FAIL :"
            " Dynamic shape is not supported yet, for input: attention_mask",
            "onnxruntime-s28b-ep-dynamic-shape",
            ("attention_mask",),
        ),
        (
            "[E:onnxruntime:, qnn_execution_provider.cc:401 QNNExecutionProvider] [EP context generation:]"
            " HTP share resource optimization enabled conflict with EP context embed mode."
            " Inference will not work as expected!",
            "onnxruntime-s28b-qnn-ep-embed-mode-conflict",
            ("HTP share resource optimization",),
        ),
        (
            "[W:onnxruntime:, qnn_execution_provider.cc:88 ParseBackendTypeName] Invalid backend type name:"
            " dsp. Allowed backend type names: cpu, genie, gpu, htp, saver, ir",
            "onnxruntime-s28b-qnn-ep-option-invalid",
            ("backend type name", "dsp"),
        ),
        (
            "0.0ms [ ERROR ] graph_prepare.cc:6095:ERROR:Serialize error: memory usage too large",
            "qualcomm-htp-graph-allocation-limit",
            (),
        ),
    ]
)


def test_pre_compile_lines_are_no_openvino_compile_failure(kb: KnowledgeBase) -> None:
    """RKNN-Toolkit 1's "Generate pre-compile model data" holds "compile model": OpenVINO's AUTO entry is
    anchored on "compile model failed", so the line is no partial match of it."""
    found = kb.answer("D Generate pre-compile model data finished.")
    assert all(m.entry.id != "openvino-h23o2-auto-compile-failed" for m in found.matches)
    ov = kb.answer("[AUTO] compile model failed, GPU:Mock GPU Load Failed; CPU:Mock CPU Load Failed")
    assert ov.matches[0].entry.id == "openvino-h23o2-auto-compile-failed"
