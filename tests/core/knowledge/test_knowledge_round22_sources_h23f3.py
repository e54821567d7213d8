"""Round 22's dev family-card answers given their cause from the tools' own sources (branch h23f3).

Messages are written in our own words around the text each tool prints (its source named in the entry):
whisper.cpp's Core ML encoder loading, MediaPipe's LLM calculators refusing a model converted for the other
backend, onnxruntime-web's backend resolution without a WebGPU backend, and the Linux kernel refusing the
RKNPU driver its register window.
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase


def _top(kb: KnowledgeBase, message: str):  # type: ignore[no-untyped-def]
    found = kb.answer(message)
    assert found.matches, found.headline()
    return found, found.matches[0]


def test_whisper_cpp_coreml_encoder_missing(kb: KnowledgeBase) -> None:
    message = (
        "whisper_init_state: loading Core ML model from '/opt/asr/ggml-medium-encoder.mlmodelc'\n"
        "whisper_init_state: failed to load Core ML model from '/opt/asr/ggml-medium-encoder.mlmodelc'\n"
        "error: failed to initialize whisper context"
    )
    found, m = _top(kb, message)
    assert m.entry.id == "coreml-h23f3-whisper-coreml-encoder-load"
    assert found.confidence == "high"
    assert dict(m.captures)["path"] == "/opt/asr/ggml-medium-encoder.mlmodelc"
    assert "generate-coreml-model.sh" in m.entry.fix and "WHISPER_COREML_ALLOW_FALLBACK" in m.entry.fix


def test_mediapipe_llm_model_for_other_backend(kb: KnowledgeBase) -> None:
    message = (
        "INVALID_ARGUMENT: CalculatorGraph::Run() failed:\n"
        'Calculator::Open() for node "LlmCpuCalculator" failed: Please use a tensorflow lite model with cpu '
        "backend type, while the current model's backend type is: gpu"
    )
    found, m = _top(kb, message)
    assert m.entry.id == "tflite-h23f3-mediapipe-llm-backend-mismatch"
    caps = dict(m.captures)
    assert (caps["value"], caps["arg"]) == ("cpu", "gpu")
    assert "ConversionConfig(backend='{value}'" in m.entry.fix


def test_onnxruntime_web_webgpu_backend_not_registered(kb: KnowledgeBase) -> None:
    message = (
        "Uncaught (in promise) Error: no available backend found. ERR: [webgpu] backend not found.\n"
        "    at resolveBackendAndExecutionProviders (backend-impl.js:120:15)"
    )
    found, m = _top(kb, message)
    assert m.entry.id == "onnxruntime-h23f3-web-webgpu-not-registered"
    assert dict(m.captures)["value"] == "webgpu"
    assert "onnxruntime-web/webgpu" in m.entry.fix and "navigator.gpu" in m.entry.fix


def test_web_wasm_linkerror_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    # the wasm backend's own failure is a different class, answered by its own entry
    _, m = _top(
        kb,
        "Error: no available backend found. ERR: [wasm] RuntimeError: Aborted(LinkError: "
        'WebAssembly.instantiate(): Import #3 module="a" function="c" '
        "error: function import requires a callable)",
    )
    assert m.entry.id == "onnxruntime-h23v2-web-wasm-linkerror"


def test_rknpu_probe_region_busy(kb: KnowledgeBase) -> None:
    message = "[ 4.201337] RKNPU fdab0000.npu: can't request region for resource [mem 0xfdab0000-0xfdabffff]"
    _, m = _top(kb, message)
    assert m.entry.id == "rknn-h23f3-rknpu-mem-region-busy"
    assert dict(m.captures)["value"] == "mem 0xfdab0000-0xfdabffff"
    assert "/proc/iomem" in m.entry.fix


def test_ultralytics_coreml_nms_pipeline_class_count(kb: KnowledgeBase) -> None:
    found, m = _top(kb, "CoreML: export failure ❌ 40.2s: 3 names found for nc=84")
    assert m.entry.id == "coreml-h23f3-ultralytics-nms-pipeline-names"
    assert found.confidence == "high"
    caps = dict(m.captures)
    assert (caps["value"], caps["arg"]) == ("3", "84")
    assert "nms=False" in m.entry.fix


def test_yolov5_training_names_check_is_not_the_export_pipeline(kb: KnowledgeBase) -> None:
    # train.py's check of the data yaml (names vs nc) is another class: the export entry does not claim it
    found = kb.answer("AssertionError: 3 names found for nc=4 dataset in data/custom.yaml")
    assert all(m.entry.id != "coreml-h23f3-ultralytics-nms-pipeline-names" for m in found.matches)


def test_other_web_backend_failures_are_not_the_webgpu_entry(kb: KnowledgeBase) -> None:
    # a backend that is registered but failed to start (here webgl) is no missing registration
    found = kb.answer("Error: no available backend found. ERR: [webgl] Error: Cannot create WebGL context")
    assert all(m.entry.id != "onnxruntime-h23f3-web-webgpu-not-registered" for m in found.matches[:1])
