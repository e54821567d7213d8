"""Branch s26e: onnxruntime's and Qualcomm's failures from their own sources.

* onnxruntime-genai (microsoft/onnxruntime-genai at a0c04eb: src/generators.cpp, src/models/model.cpp,
  src/models/kv_cache.cpp, src/dml/session_options.cpp, src/models/onnxruntime_api.h, src/config.cpp,
  src/models/session_options.cpp and the multimodal processors);
* onnxruntime's quantization tool (onnxruntime/python/tools/quantization: quantize.py, onnx_quantizer.py,
  shape_inference.py; onnxruntime/python/tools/symbolic_shape_infer.py);
* onnxruntime's core (session/inference_session.cc, common/logging, session/onnxruntime_c_api.cc) and its
  QNN execution provider's op builders (providers/qnn/builder/opbuilder).

Each message is written in the tool's format with names and values of our own, never an evaluation message;
the best answer must be the entry, name what the message carries and pass the bench's judge.
"""

from __future__ import annotations

from typing import Any

from tests.support.advice import answered_by_entry

CASES: list[tuple[str, str, tuple[str, ...]]] = [
    (
        'Traceback (most recent call last):\n  File "chat.py", line 41, in <module>\n'
        "    generator.set_inputs(inputs)\n"
        "RuntimeError: Please use generator.AppendTokens for qwen2. SetInputs is not supported for this "
        "model type.",
        "onnxruntime-s26e-genai-setinputs-llm",
        ("qwen2", "append_tokens"),
    ),
    (
        "onnxruntime_genai.RuntimeError: Model input type mismatch: attention_mask expected 7 got 6",
        "onnxruntime-s26e-genai-input-type-mismatch",
        ("attention_mask", "7", "6"),
    ),
    (
        "RuntimeError: DML provider requested, but the installed GenAI has not been built with DML support",
        "onnxruntime-s26e-genai-dml-not-built",
        ("onnxruntime-genai-directml",),
    ),
    (
        "OgaCreateModel failed: Onnxruntime is installed but is too old, please install a newer version",
        "onnxruntime-s26e-genai-ort-too-old",
        ("onnxruntime.dll",),
    ),
    (
        "RuntimeError: Running a model with multiple providers is not supported. Encountered CPU and CUDA",
        "onnxruntime-s26e-genai-multiple-providers",
        ("CPU", "CUDA", "clear_providers"),
    ),
    (
        "RuntimeError: Graph capture is not supported with past_present_share_buffer set to false.",
        "onnxruntime-s26e-genai-graph-capture-share-buffer",
        ("past_present_share_buffer", "num_beams"),
    ),
    (
        "RuntimeError: Continuous decoding is not supported on the selected device type (QNN). Please "
        "recreate the generator instance to avoid using continuous decoding.",
        "onnxruntime-s26e-genai-continuous-decoding-device",
        ("(QNN)", "new generator"),
    ),
    (
        "RuntimeError: RewindTo is currently not supported for phi3v.",
        "onnxruntime-s26e-genai-rewind-not-supported",
        ("phi3v",),
    ),
    (
        "RuntimeError: Prompt contained 3 image tokens but received 2 images.",
        "onnxruntime-s26e-genai-image-token-count",
        ("3 placeholders against 2 images",),
    ),
    (
        "RuntimeError: Number of audio tokens exceeds the number of audios. Please fix the prompt.",
        "onnxruntime-s26e-genai-image-token-count",
        ("audio placeholders",),
    ),
    (
        "RuntimeError: Unsupported hardware device type: accelerator",
        "onnxruntime-s26e-genai-hardware-device-type",
        ("'accelerator'", "npu"),
    ),
    (
        "RuntimeError: Provider options not found for provider: webgpu",
        "onnxruntime-s26e-genai-provider-options-missing",
        ("'webgpu'",),
    ),
    (
        '  File "/opt/venv/lib/python3.11/site-packages/onnxruntime/tools/symbolic_shape_infer.py", '
        'line 2932, in infer_shapes\n    raise Exception("Incomplete symbolic shape inference")\n'
        "Exception: Incomplete symbolic shape inference",
        "onnxruntime-s26e-quant-symbolic-shape-incomplete",
        ("skip_symbolic_shape=True",),
    ),
    (
        "ValueError: Expected conv2d_41.w_0 to be an initializer",
        "onnxruntime-s26e-quant-weight-not-initializer",
        ("conv2d_41.w_0", "quant_pre_process"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Unable to serialize model as it contains compiled nodes. Please "
        "disable any execution providers which generate compiled nodes.",
        "onnxruntime-s26e-serialize-compiled-nodes",
        ("optimized_model_filepath",),
    ),
    (
        "terminate called after throwing an instance of 'onnxruntime::OnnxRuntimeException'\n"
        "  what():  Attempt to use DefaultLogger but none has been registered.\nAborted (core dumped)",
        "onnxruntime-s26e-default-logger-missing",
        ("Ort::Env",),
    ),
    (
        "thread 'tests::load' panicked: Only one instance of LoggingManager created with "
        "InstanceType::Default can exist at any point in time.",
        "onnxruntime-s26e-second-default-environment",
        ("once per process",),
    ),
    (
        "Ort::Exception: not enough space: expected 4816896, got 1204224",
        "onnxruntime-s26e-create-tensor-buffer-too-small",
        ("4816896", "1204224"),
    ),
    (
        "[V:onnxruntime:, base_op_builder.cc:120 Validate] QNN EP: Data type tensor(uint8) is not supported "
        "for Resize operator in CPU backend.",
        "qualcomm-s26e-qnn-ep-cpu-backend-dtype",
        ("Resize", "tensor(uint8)", "backend_type"),
    ),
]

test_each_source_wording_is_answered_by_its_entry = answered_by_entry(CASES, confident=True)


def test_the_pre_processing_warning_is_context_under_the_failure_after_it(kb: Any) -> None:
    """The quantizer's reminder is context: when the quantization then fails, the failure is the answer."""
    warning = (
        "WARNING:root:Please consider to run pre-processing before quantization. Refer to example: "
        "https://github.com/microsoft/onnxruntime-inference-examples/blob/main/quantization/"
        "image_classification/cpu/ReadMe.md"
    )
    alone = kb.lookup(warning, top=1)[0]
    assert alone.entry.id == "onnxruntime-s26e-quant-preprocess-warning"
    assert alone.entry.level == "context"
    paste = warning + "\nValueError: Expected onnx::Conv_88 to be an initializer"
    assert kb.lookup(paste, top=1)[0].entry.id == "onnxruntime-s26e-quant-weight-not-initializer"


def test_a_genai_rewind_is_not_read_as_tflite(kb: Any) -> None:
    """Before s26e the rewind sentence was answered as a TFLite kernel's data type by wording alone."""
    found = kb.answer("RuntimeError: RewindTo is currently not supported for lfm2.")
    assert found.matches[0].entry.family == "onnxruntime"
