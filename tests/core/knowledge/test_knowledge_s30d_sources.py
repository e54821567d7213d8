"""onnxruntime, TensorRT and Ascend (branch s30d): entries read from the tools' own sources.

* onnxruntime's quantization tool (onnxruntime 1.32.0 wheel: calibrate.py, onnx_quantizer.py, quantize.py,
  quant_utils.py), its start-up warnings (device_discovery.cc, constant_folding.cc, cpuid_info.cc) and the
  Android form of the Java binding's missing native library;
* TensorRT-LLM's runtime input checks (tllmRuntime.cpp), PyCUDA's context and copy errors around TensorRT's
  Python inference code, the Python constructors' ``factory function returned nullptr``, the driver stub
  and a missing libnvinfer;
* torch_npu's CPU fallback warning and error, and its import against another torch.

And the patterns widened for the wording of the same checks: onnxruntime's provider library load with a path
the message prints with spaces in it (or blanked), TensorRT's optimization-profile sentence cut after 'but'.

The messages are written for these tests from the tools' format strings with made-up names and values; none
is copied from the evaluation set."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.eval_explain import blank_markers
from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import in_top3_with_values

CASES = [
    (
        "ValueError: Unable to guess tensor type for tensor '/blocks.3/attn/Softmax_output_0', running shape "
        "inference before quantization may resolve this issue.",
        "onnxruntime-s30d-quant-cannot-guess-tensor-type",
        {"tensor": "/blocks.3/attn/Softmax_output_0"},
    ),
    (
        "RuntimeError: Invalid model with unknown initializers/tensors.['onnx::If_7']",
        "onnxruntime-s30d-quant-unknown-initializers",
        {"value": "'onnx::If_7'"},
    ),
    (
        "ValueError: ONNXRuntime quantization doesn't support data format:activation_type=QuantType.QInt8, "
        "weight_type=QuantType.QUInt8",
        "onnxruntime-s30d-quant-unsupported-type-combination",
        {"value": "QuantType.QInt8", "value2": "QuantType.QUInt8"},
    ),
    (
        "ValueError: Only QuantFormat.QDQ supports 16-bit quantization types.",
        "onnxruntime-s30d-quant-16bit-needs-qdq",
        {},
    ),
    (
        "RuntimeError: One of the quantized value is NaN data in [-900.5, 1200.0], quantized_data in "
        "[-448.0, nan].",
        "onnxruntime-s30d-quant-float8-nan",
        {"value": "-900.5", "value2": "1200.0"},
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Tensor 'input_ids' has invalid shape (6000), expected in range "
        "min (1), max (4096) (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:512)",
        "tensorrt-s30d-trtllm-tensor-shape-outside-profile",
        {"tensor": "input_ids", "shape": "(6000)", "shape2": "(1)", "shape3": "(4096)"},
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: prompt_embedding_table: expected type 1, "
        "provided type 7 (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:498)",
        "tensorrt-s30d-trtllm-input-dtype-mismatch",
        {"tensor": "prompt_embedding_table", "value": "1", "value2": "7"},
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Input tensor 'host_runtime_perf_knobs' not found; expected "
        "shape: (16) (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:472)",
        "tensorrt-s30d-trtllm-input-tensor-not-found",
        {"tensor": "host_runtime_perf_knobs", "shape": "(16)"},
    ),
    (
        '  File "infer.py", line 31, in allocate_buffers\n    stream = cuda.Stream()\n'
        "pycuda._driver.LogicError: explicit_context_dependent failed: invalid device context - no currently "
        "active context?",
        "tensorrt-s30d-pycuda-no-active-context",
        {"call": "explicit_context_dependent"},
    ),
    (
        "pycuda._driver.LogicError: cuMemcpyHtoDAsync failed: invalid argument",
        "tensorrt-s30d-pycuda-memcpy-invalid-argument",
        {"call": "cuMemcpyHtoDAsync"},
    ),
    (
        "[TRT] [W] CUDA initialization failure with error: 35. Please check your CUDA installation\n"
        "    runtime = trt.Runtime(TRT_LOGGER)\n"
        "TypeError: pybind11::init(): factory function returned nullptr",
        "tensorrt-s30d-python-factory-nullptr",
        {},
    ),
    (
        "[TRT] [E] 6: [cudaDriverHelpers.cpp::operator()::29] Error Code 6: Internal Error (CUDA driver is a "
        "stub library)",
        "tensorrt-s30d-cuda-driver-stub",
        {},
    ),
    (
        "ImportError: libnvinfer.so.10: cannot open shared object file: No such file or directory",
        "tensorrt-s30d-libnvinfer-missing",
        {"lib": "libnvinfer.so.10"},
    ),
    (
        "[W:onnxruntime:Default, device_discovery.cc:164 DiscoverDevicesForPlatform] GPU device discovery "
        'failed: device_discovery.cc:89 ReadFileContents Failed to open file: "/sys/class/drm/card1/device/'
        'vendor"',
        "onnxruntime-s30d-gpu-device-discovery-failed",
        {"path": "/sys/class/drm/card1/device/vendor"},
    ),
    (
        "[W:onnxruntime:, constant_folding.cc:212 ApplyImpl] Could not find a CPU kernel and hence can't "
        "constant fold Sqrt node '/norm/Sqrt'",
        "onnxruntime-s30d-constant-fold-no-cpu-kernel",
        {"op_type": "Sqrt", "op": "/norm/Sqrt"},
    ),
    (
        "[W:onnxruntime:Default, cpuid_info.cc:91 LogEarlyWarning] Unknown CPU vendor. "
        "cpuinfo_vendor value: 0",
        "onnxruntime-s30d-unknown-cpu-vendor",
        {"value": "0"},
    ),
    (
        'java.lang.UnsatisfiedLinkError: dlopen failed: library "libonnxruntime4j_jni.so" not found',
        "onnxruntime-java-native-library-not-loaded",
        {},
    ),
    (
        "[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::unique2' is not currently "
        "supported on the NPU backend and will fall back to run on the CPU. This may have performance "
        "implications. (function npu_cpu_fallback)",
        "torch-npu-s30d-op-falls-back-to-cpu",
        {"op": "aten::unique2"},
    ),
    (
        "RuntimeError: The operator 'aten::unique2' would execute its main computation on CPU through "
        "dispatcher backend fallback because no kernel is registered for the NPU PrivateUse1 backend, "
        "but CPU fallback is disabled by TORCH_NPU_FALLBACK_CPU_DISABLE=1.",
        "torch-npu-s30d-cpu-fallback-disabled",
        {"op": "aten::unique2", "value": "dispatcher backend fallback"},
    ),
    (
        "ImportError: /opt/py/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
        "_ZN3c1017RegisterOperatorsD1Ev",
        "torch-npu-s30d-undefined-symbol-torch-mismatch",
        {"value": "_ZN3c1017RegisterOperatorsD1Ev"},
    ),
]

test_each_source_form_is_answered_with_its_values = in_top3_with_values(CASES)


@pytest.mark.parametrize(("message", "entry", "named"), CASES)
def test_each_new_entry_is_the_first_answer_and_names_its_values(
    kb: KnowledgeBase, message: str, entry: str, named: dict[str, str]
) -> None:
    top = kb.answer(message, top=3).matches[0]
    assert top.entry.id == entry
    for value in named.values():
        assert value in top.cause + top.fix or value in message  # a capture the advice quotes or the message


def test_the_nullptr_text_alone_is_no_confident_tensorrt_answer(kb: KnowledgeBase) -> None:
    """pybind11 prints it for any binding's constructor: alone it is no TensorRT message (named_only)."""
    answer = kb.answer("TypeError: pybind11::init(): factory function returned nullptr", top=3)
    assert not answer.confident


def test_a_libnvinfer_missing_inside_onnxruntime_stays_onnxruntime(kb: KnowledgeBase) -> None:
    """The provider library's dependency: the TensorRT EP failed to load; onnxruntime's entry answers."""
    text = (
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_TensorRT] "
        "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1539 onnxruntime::Provider& "
        "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
        "libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.10: cannot open shared object file: "
        "No such file or directory"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxruntime-ep-library-load-failed"
    assert dict(top.captures)["lib"] == "libnvinfer.so.10"


@pytest.mark.parametrize("lib", ["libcublasLt.so.12", "libcudnn.so.9"])
def test_the_provider_library_line_answers_before_the_loader_text_it_quotes(
    kb: KnowledgeBase, lib: str
) -> None:
    """With onnxruntime's markers blanked its own line still frames the loader's text
    (framed_runtime_under)."""
    text = (
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1480 TryGetProviderInfo_CUDA] Failed to load "
        f"library libonnxruntime_providers_cuda.so with error: {lib}: cannot open shared object file: "
        "No such file or directory"
    )
    for form in (text, blank_markers(text)):
        ranked = [m.entry.id for m in kb.lookup(form, top=3)]
        assert ranked[0] == "onnxruntime-ep-library-load-failed", (form, ranked)
        if "runtime-missing-shared-object" in ranked:
            assert ranked.index("runtime-missing-shared-object") > 0


def test_a_provider_path_with_spaces_is_captured_whole(kb: KnowledgeBase) -> None:
    text = (
        "Failed to load library /home/a b/venv/onnxruntime/capi/libonnxruntime_providers_cuda.so with error: "
        "libcufft.so.11: cannot open shared object file: No such file or directory"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxruntime-ep-library-load-failed"
    assert dict(top.captures)["path"] == "/home/a b/venv/onnxruntime/capi/libonnxruntime_providers_cuda.so"


def test_the_rocm_provider_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    text = "Failed to load library libonnxruntime_providers_rocm.so with error: libamdhip64.so.6: cannot open"
    assert kb.lookup(text, top=1)[0].entry.id == "onnxruntime-rocm-ep-library-load-failed"


def test_the_profile_sentence_cut_after_but_is_still_the_profile_entry(kb: KnowledgeBase) -> None:
    for text in (
        "[E] Network has dynamic or shape inputs, but no optimization profile has been defined.",
        "[E] Network has dynamic or shape inputs, but",
    ):
        assert kb.lookup(text, top=1)[0].entry.id == "tensorrt-no-optimization-profile"


def test_a_warning_before_the_torch_npu_error_leaves_the_error_first(kb: KnowledgeBase) -> None:
    """The CPU fallback warning is context: the error the round trip raised answers first."""
    text = (
        "[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::linalg_lstsq.out' is not currently "
        "supported on the NPU backend and will fall back to run on the CPU. This may have performance "
        "implications. (function npu_cpu_fallback)\n"
        "RuntimeError: _copy_from_and_resize now only support copy with same size!\n"
        "[ERROR] 2025-01-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR01007 OPS feature not supported"
    )
    assert kb.lookup(text, top=1)[0].entry.id != "torch-npu-s30d-op-falls-back-to-cpu"


_NAME = st.from_regex(r"[A-Za-z_](?:[A-Za-z0-9_./:]{0,40}[A-Za-z0-9_])?", fullmatch=True)


@settings(max_examples=40, deadline=None)
@given(name=_NAME, got=st.integers(1, 10**6), low=st.integers(1, 64), high=st.integers(1, 10**6))
def test_the_trtllm_shape_capture_stops_at_each_value(
    kb: KnowledgeBase, name: str, got: int, low: int, high: int
) -> None:
    text = (
        f"[TensorRT-LLM][ERROR] Tensor '{name}' has invalid shape ({got}), expected in range min ({low}), "
        f"max ({high}) (/src/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:1)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-s30d-trtllm-tensor-shape-outside-profile"
    caps = dict(top.captures)
    assert (caps["tensor"], caps["shape"], caps["shape2"], caps["shape3"]) == (
        name,
        f"({got})",
        f"({low})",
        f"({high})",
    )


@settings(max_examples=40, deadline=None)
@given(tensor=st.from_regex(r"/?[a-z][a-z0-9_./]{0,40}[a-z0-9]", fullmatch=True))
def test_the_calibrator_capture_is_the_tensor_name(kb: KnowledgeBase, tensor: str) -> None:
    text = (
        f"ValueError: Unable to guess tensor type for tensor '{tensor}', running shape inference before "
        "quantization may resolve this issue."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxruntime-s30d-quant-cannot-guess-tensor-type"
    assert dict(top.captures)["tensor"] == tensor
    assert re.search(re.escape(tensor), top.cause)
