"""Round 21's forms that got only a family card or a word match, each given its cause and fix from the
tool's own text (issue 23, branch h23v2).

Messages are written in our own words around the sentence each tool prints (its source is named in the
entry), not copied from the evaluation set; each test checks the entry, a captured value, and a fix that
names the specific remedy.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase

CASES = [
    (
        "Error: no available backend found. ERR: [wasm] RuntimeError: Aborted(LinkError: "
        'WebAssembly.instantiate(): Import #7 module="a" function="c" error: '
        "function import requires a callable)",
        "onnxruntime-h23v2-web-wasm-linkerror",
        {"value": "7"},
        "wasmPaths",
    ),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Unsupported architecture (/src/cpp/tensorrt_llm/kernels/"
        "contextFusedMultiHeadAttention/fmhaRunner.cpp:90)",
        "tensorrt-h23v2-trtllm-unsupported-architecture",
        {"value": "/src/cpp/tensorrt_llm/kernels/contextFusedMultiHeadAttention/fmhaRunner.cpp:90"},
        "--context_fmha disable",
    ),
    (
        "MyelinCheckException: hfc.cpp:99: CHECK(false) failed. "
        "target_sm '121' does not have arch kind assigned.",
        "tensorrt-h23v2-myelin-target-sm-no-arch",
        {"value": "121"},
        "support matrix",
    ),
    (
        "E RKNN: [09:00:00.001] failed to malloc npu memory, size: 2048000000, flags: 0x2\n"
        "E rkllm: rkllm_init failed",
        "rknn-h23v2-failed-to-malloc-npu-memory",
        {"value": "2048000000"},
        "/sys/kernel/debug/rknpu/version",
    ),
    (
        "/var/app/Models/Encoder.mlmodelc/coremldata.bin is not a valid .mlmodelc file because the "
        "first word (1329865020) is not recognizable.",
        "coreml-h23v2-mlmodelc-first-word",
        {"arg": "coremldata.bin", "value": "1329865020"},
        "download it again",
    ),
    (
        "Error: Unable to load model: file:///var/app/Models/AudioEncoder.mlmodelc/. "
        "Compile the model with Xcode or `MLModel.compileModel(at:)`.",
        "coreml-h23v2-unable-to-load-compile-model",
        {"value": "file:///var/app/Models/AudioEncoder.mlmodelc/"},
        "MLModel.compileModel(at:)",
    ),
    (
        "CoreML: export failure 0.4s: No module named 'coremltools.libmilstoragepython'",
        "coreml-h23v2-native-libs-missing",
        {"value": "libmilstoragepython"},
        "macOS or Linux",
    ),
    (
        "CoreML: export failure: Unknown value for constant: ScriptObject <__torch__.torch.classes.xnnpack."
        "LinearOpContext>",
        "coreml-h23v2-xnnpack-scriptobject-constant",
        {"value": "xnnpack.LinearOpContext"},
        "optimize_for_mobile",
    ),
    (
        "TVMError: Check failed: nargs == args.size() (5 vs. 6) : Expect 5 arguments but get 6",
        "tvm-h23v2-packed-func-nargs",
        {"value": "5", "value2": "6"},
        "one build",
    ),
    (
        "ERROR: coreReadArchive.cpp (31) - Serialization Error in verifyHeader: 0 "
        "(Version tag does not match)",
        "tensorrt-h23v2-verifyheader-length",
        {"value": "Version tag does not match"},
        "binary mode",
    ),
]


@pytest.mark.parametrize(("message", "entry_id", "captures", "fix_words"), CASES)
def test_round21_form_has_its_own_cause_and_fix(
    kb: KnowledgeBase, message: str, entry_id: str, captures: dict[str, str], fix_words: str
) -> None:
    found = kb.answer(message)
    assert found.matches, found.headline()
    top = found.matches[0]
    assert top.entry.id == entry_id
    got = dict(top.captures)
    for name, value in captures.items():
        assert got[name] == value
    assert fix_words in top.entry.fix


def test_lfs_pointer_word_is_told_from_html_word(kb: KnowledgeBase) -> None:
    # The first word of a Git LFS pointer is named in the cause, so a pointer checked out in place of the file
    # is told apart from an HTML page.
    found = kb.answer(
        "Model.mlmodelc/coremldata.bin is not a valid .mlmodelc file because the first word (1936876918) is "
        "not recognizable."
    )
    text = found.matches[0].entry.cause
    assert "1936876918 is 'vers'" in text and "1329865020 is the text '<!DO'" in text


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("ERROR: The model is not a valid Flatbuffer buffer", "buffer"),
        ("java.lang.IllegalArgumentException: The model is not a valid Flatbuffer file", "file"),
    ],
)
def test_tflite_model_builder_verification(kb: KnowledgeBase, message: str, value: str) -> None:
    found = kb.answer(message)
    top = found.matches[0]
    assert top.entry.id == "tflite-h23v2-model-not-valid-flatbuffer"
    assert found.confidence == "high"
    assert dict(top.captures)["value"] == value
    assert "TFL3" in top.entry.fix
