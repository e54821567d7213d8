"""Issue 23 (h23u2): Core ML, Qualcomm, RKNN/RKLLM, MNN, TFLite and ncnn named by their own wording, and
entries for failures those tools print that had none.  Each marker is tested on the vendor's own line (a
string of its binaries or a line of its source, with our own names and values filled in); each entry on a
message of its form with its captured value; none is a held-out message."""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.answer import answer
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import assert_answered

# (the tool's own line, the family it names)
MARKED = [
    # rknn-toolkit2 2.5.0 rknn/api/lib/linux-x86_64/librknn_api.so
    (
        "I NPUTransfer(5123): Starting NPU Transfer Client, Transfer version 2.2.2 (12abf2a@2024-09-02)",
        "rknn",
    ),
    ("E NPUTransfer(5123): Alloc buffer failed!, size = 4096", "rknn"),
    # qualcomm/fastrpc inc/adsp_*.h: the skel URI a failed open quotes
    (
        "Error 0x80000406: remote_handle64_open failed for file:///libggml-htp-v79.so?htp_iface_skel_handle_invoke"
        "&_modver=1.0&_dom=cdsp",
        "qualcomm",
    ),
    ("uri file:///libmy_npu_skel_v73.so?my_npu_skel_handle_invoke&_modver=1.0", "qualcomm"),
    # onnxruntime-qnn 2.7.0 QnnHtp.dll / QnnHtpPrepare.dll
    ("opt.cc:2837::ERROR:Graph prepare failed during optimization with err: 17, Fatal Optimize", "qualcomm"),
    # the QAIRT converters' package as a path
    (
        '  File "/sdk/2.40.0/lib/python/qti/aisw/converters/onnx/onnx_to_ir.py", line 643, in convert\n'
        "    raise RuntimeError('bad input')",
        "qualcomm",
    ),
    (
        '  File "C:\\sdk\\lib\\python\\qti\\aisw\\converters\\onnx\\onnx_to_ir.py", line 12, in convert',
        "qualcomm",
    ),
    # llama.cpp ggml/src/ggml-hexagon
    ("ggml-hex: HTP0 dspqueue_create failed: 0x0000000e", "qualcomm"),
    # ai-edge-litert 2.3.0 libLiteRt.so
    (
        "An older version of this builtin might be supported. Are you using an old binary?",
        "tflite",
    ),
    (
        "Select TensorFlow op(s), included in the given model, is(are) not supported by this interpreter.",
        "tflite",
    ),
    # alibaba/MNN tools/converter/source
    ("Check failed: (notSupportOps.size()) == (0). Convert Failed", "mnn"),
    ("ReductionTflite.cpp:67: Check failed: false ==> Not Supported!!! Reduction Op: 12", "mnn"),
    ("Not Support This Pooling Type: FractionalMaxPool", "mnn"),
    ("Const Data Type Not Supported!!!==> 19", "mnn"),
    ("Framework Input ERROR or Not Support This Model Type Now!", "mnn"),
    # Tencent/ncnn src/net.cpp: the Extractor's hint
    ('find_blob_index_by_name img failed\nTry\n    ex.input("in0", in0);', "ncnn"),
    ('find_blob_index_by_name score failed\nTry\n    ex.extract("out0", out0);', "ncnn"),
    # Core ML's runtime log, Apple's BNNS Graph compile error
    ("[coreml] Failure in -executePlan:error:.", "coreml"),
    ("BNNS Graph Compile: Function main has tensor x as both an input and output.", "coreml"),
]


@pytest.mark.parametrize(("line", "family"), MARKED, ids=[f"{f}-{i}" for i, (_, f) in enumerate(MARKED)])
def test_the_tool_s_own_line_names_it(line: str, family: str) -> None:
    assert detect_families(line)[:1] == [family]


def test_ascend_s_op_type_check_is_not_mnn_s() -> None:
    """CANN's "does not support opType [...]" holds MNN's words lower-cased; no MNN marker takes it."""
    assert "mnn" not in detect_families("socVersion [ascend910b] does not support opType [MyOp]")


# (message, entry, what the advice must name)
CASES = [
    (
        "RuntimeError: {\n\n NSLocalizedDescription = \"The size of the output layer 'scores_out' in the "
        'neural network does not match the number of classes in the classifier.";\n\n}',
        "coreml-nn-classifier-output-size-mismatch",
        ("scores_out", "ClassifierConfig", "predicted_probabilities_output"),
    ),
    (
        "ValueError: In op 'classify', number of classes must match the size of the tensor corresponding to "
        "'probabilities'.",
        "coreml-mil-classify-classes-mismatch",
        ("ClassifierConfig", "predicted_probabilities_output"),
    ),
    (
        "Not Support OpType [MyCustomDeconv]",
        "mnn-not-support-optype",
        ("MyCustomDeconv", "MNNConvert"),
    ),
    (
        "rkllm init start\nI rkllm: rkllm-runtime version: 1.0.1\n\nQuery platform error!\nrkllm init failed",
        "rkllm-query-platform-error",
        ("rknpu", "librkllmrt.so", "target_platform"),
    ),
    (
        "failed to malloc npu memory\nrkllm_init failed\nsecond rkllm_init ret=-1",
        "rkllm-npu-malloc-failed",
        ("max_context_len", "rkllm_destroy"),
    ),
    (
        "I rkllm: loading rkllm model from /data/qwen.rkllm\nE rkllm: max_context[8192] must be less than "
        "the model's max_context_limit[2048]",
        "rkllm-max-context-over-model-limit",
        ("8192", "2048", "max_context=N"),
    ),
    (
        "E rkllm: error: prompt gather than max context (prompt: 2100 tokens, max context: 2048)",
        "rkllm-prompt-over-max-context",
        ("2100 tokens", "2048", "keep_history"),
    ),
    (
        "rkllm init start\nI rkllm: rkllm-runtime version: 1.2.0, rknpu driver version: 0.9.8, "
        "platform: RK3576\nE RKNN: [10:01:02.003] invalid rknn llm model magic\n"
        "E RKNN: [10:01:02.003] load model file error!",
        "rkllm-invalid-model-magic",
        ("git lfs pull", "RKLLM-Toolkit"),
    ),
    (
        "Strides of Conv needs to be product of at most 2 interleave factors",
        "coreml-conv-stride-interleave-factors",
        ("CPU_ONLY", "ct.target.iOS15"),
    ),
    (
        "ggml-hex: failed to query HTP version (err -1) defaulting to v73\n"
        "ggml-hex: allocating new session: HTP0\nggml-hex: failed to open session 0 : error 0x72\n"
        "ggml-hex: failed to create device/session 0",
        "ggml-hexagon-open-session-failed",
        ("0x72", "AEE_ECONNREFUSED", "TESTSIGNING"),
    ),
    (
        "I rknn building ...\nE RKNN: [09:10:11.500] Unkown op target: 0\n"
        "E RKNN: [09:10:11.501] Unkown op target: 0",
        "rknn-unknown-op-target",
        ("target 0", "accuracy_analysis"),
    ),
    (
        "[ERROR] /src/mllm/backends/qnn/op/QNNLinearOp.cpp:135 Failed to cast to QNNLinearOp\n[ERROR] "
        "/src/mllm/backends/qnn/passes/QNNGraphBuildPass.cpp:160 Failed to add node for op type: Linear "
        "in graph 'decoder.3_2'",
        "mllm-qnn-graph-build-add-node-failed",
        ("Linear", "decoder.3_2", "AOT"),
    ),
    (
        "BNNS Graph Compile: Function main has tensor cache_in as both an input and output. \n"
        "Inputs and outputs must be distinct, please add an explicit identity op.",
        "coreml-bnns-graph-input-is-output",
        ("cache_in", "mb.identity", "cache_in_out"),
    ),
    (
        "CoreML export failure: unexpected number of inputs for node input.7 (_convolution): 13",
        "coreml-torch-node-input-count",
        ("_convolution", "input.7", "13 inputs"),
    ),
    (
        "ValueError: node out.1 (upsample_nearest2d) got 4 input(s), expected [3]",
        "coreml-torch-node-input-count",
        ("upsample_nearest2d", "out.1", "4 inputs"),
    ),
    (
        "E RKNNAPI: rknn_server version is too old, please update rknn_server to at least 2.3.0",
        "rknn-server-too-old",
        ("2.3.0", "librknnrt.so"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), CASES, ids=[c[1] for c in CASES])
def test_the_form_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_an_unnamed_gguf_magic_check_is_not_rkllm_s(kb: KnowledgeBase) -> None:
    """The RKLLM runtime reads its model with a GGUF-style header check whose wording llama.cpp also prints:
    the entry's pattern counts only where RKLLM is named."""
    shown = answer(kb, "gguf_init_from_file: invalid magic characters 'abcd'")
    assert not shown.matches or shown.matches[0].entry.id != "rkllm-invalid-model-magic"


def test_tensorrt_s_parser_node_line_is_not_coremltools_input_count(kb: KnowledgeBase) -> None:
    """coremltools' input-count check has two exact forms; another tool's "node N (name): M" is neither."""
    shown = answer(kb, "In node 3 (importConv): 4 inputs given")
    assert not shown.matches or shown.matches[0].entry.id != "coreml-torch-node-input-count"


def test_the_mnn_entry_captures_the_op(kb: KnowledgeBase) -> None:
    top = kb.lookup("Not Support OpType [Convolution2DTransposeBias]", top=1)[0]
    assert top.entry.id == "mnn-not-support-optype"
    assert dict(top.captures)["op_type"] == "Convolution2DTransposeBias"


@pytest.mark.parametrize(
    "message",
    [
        "socVersion [ascend910b] does not support opType [MyOp]",
        "binary_info_config.json of socVersion [ascend910_93] does not support opType [MyOp]",
    ],
)
def test_cann_s_op_type_check_gets_no_mnn_answer(kb: KnowledgeBase, message: str) -> None:
    """The MNN entry's pattern is MNN's capitalised wording; CANN's lower-case sentence is not answered by
    it."""
    shown = answer(kb, message)
    assert not shown.matches or shown.matches[0].entry.family != "mnn"


def test_a_log_scan_reports_the_rkllm_line(kb: KnowledgeBase) -> None:
    log = "rkllm init start\nI rkllm: loading model\nfailed to malloc npu memory\nrkllm_init failed\n"
    problems = scan_log(io.StringIO(log), kb)
    assert any(p.matches[0].entry.id == "rkllm-npu-malloc-failed" for p in problems)
