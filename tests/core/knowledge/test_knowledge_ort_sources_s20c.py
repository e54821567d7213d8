"""s20c: onnxruntime's forms beyond the core runtime, each answered from the wording of the code that
prints it: the Rust ``ort`` crate's library loading (pykeio/ort src/lib.rs), the Java binding's tensor check
(java/.../OrtUtil.java), onnxruntime-genai's genai_config.json reader (src/config.cpp, src/json.cpp),
onnxruntime-web's backend start-up (js/web/lib/wasm/wasm-factory.ts, wasm-core-impl.ts), ORT-format loading
(core/session/inference_session.cc), and two CPU-kernel checks pasted without their run-time envelope.
Every message is the vendor's wording with names and values of our own; the advice must carry what the
message gave."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import assert_answered

ENTRY_CASES = [
    (
        "thread 'main' panicked at src/lib.rs:160:5:\nort 2.0.0-rc.9 is not compatible with the ONNX Runtime "
        "binary found at `C:\\Windows\\System32\\onnxruntime.dll`; expected GetVersionString to return "
        "'1.20.x', but got '1.17.1'",
        "onnxruntime-rust-ort-version-mismatch",
        (
            "2.0.0-rc.9",
            "1.17.1",
            "onnxruntime 1.20",
            "C:\\Windows\\System32\\onnxruntime.dll",
            "ORT_DYLIB_PATH",
        ),
    ),
    (
        "Failed to load ONNX Runtime dylib: ort 2.0.0-rc.12 is not compatible with the ONNX Runtime "
        "binary found at `/srv/bin/libonnxruntime.so`; expected version >= '1.24.x', but got '1.21.0'",
        "onnxruntime-rust-ort-version-mismatch",
        ("2.0.0-rc.12", "1.21.0", "onnxruntime 1.24", "/srv/bin/libonnxruntime.so"),
    ),
    (
        "Failed to load ONNX Runtime dylib: failed to load from `D:\\tools\\onnxruntime.dll`: LoadLibraryExW "
        '{ source: Os { code: 193, kind: Uncategorized, message: "%1 is not a valid Win32 application." } }',
        "onnxruntime-rust-ort-dylib-load-failed",
        ("D:\\tools\\onnxruntime.dll", "193", "ORT_DYLIB_PATH"),
    ),
    (
        "An error occurred while attempting to load the ONNX Runtime binary at `libonnxruntime.dylib`: "
        "dlopen(libonnxruntime.dylib, 0x0005): tried: 'libonnxruntime.dylib' (no such file)",
        "onnxruntime-rust-ort-dylib-load-failed",
        ("libonnxruntime.dylib", "no such file", "next to the executable"),
    ),
    (
        "Failed to load ONNX Runtime dylib: /home/u/ortlib/libonnxruntime_providers_cuda.so does not export "
        "`OrtGetApiBase`",
        "onnxruntime-rust-ort-no-api-base",
        ("/home/u/ortlib/libonnxruntime_providers_cuda.so", "OrtGetApiBase", "libonnxruntime.so"),
    ),
    (
        'Exception in thread "main" ai.onnxruntime.OrtException: '
        "Supplied array is ragged, expected 32, found 17",
        "onnxruntime-java-ragged-array",
        ("32", "17", "LongBuffer", "padding"),
    ),
    (
        "Error encountered while parsing '/data/llm/qwen-int4/genai_config.json' JSON Error: "
        'search:speculative: Unknown value "draft_len" at line 73 index 18',
        "onnxruntime-genai-config-unknown-value",
        (
            "/data/llm/qwen-int4/genai_config.json",
            '"draft_len"',
            "search:speculative",
            "line 73",
            "model builder",
        ),
    ),
    (
        "onnxruntime_genai.Model: Error encountered while parsing 'model/genai_config.json' JSON Error: "
        "model:context_length - Expected a number but saw a string at line 9 index 30",
        "onnxruntime-genai-config-type-mismatch",
        ("model:context_length", "a number", "JSON string", "without quotes"),
    ),
    (
        "Error: no available backend found. ERR: [webnn] Error: "
        "WebNN is not supported in current environment",
        "onnxruntime-web-webgpu-unavailable",
        ("WebNN", "navigator.ml", "'wasm'"),
    ),
    (
        "Uncaught (in promise) Error: no available backend found. ERR: [webgpu] Error: Failed to get GPU "
        'adapter. You may need to enable flag "--enable-unsafe-webgpu" if you are using Chrome.',
        "onnxruntime-web-webgpu-unavailable",
        ("requestAdapter", "--enable-unsafe-webgpu", "https"),
    ),
    (
        "Error: no available backend found. ERR: [webgpu] backend not found., [wasm] RangeError: "
        "WebAssembly.Memory(): could not allocate memory",
        "onnxruntime-web-wasm-out-of-memory",
        ("could not allocate memory", "session.release()"),
    ),
    (
        "Error: previous call to 'initializeWebAssembly()' failed.",
        "onnxruntime-web-wasm-previous-init-failed",
        ("initializeWebAssembly", "first", "wasmPaths"),
    ),
    (
        "Error: no available backend found. ERR: [wasm] Error: WebAssembly SIMD is not supported in "
        "the current environment.",
        "onnxruntime-web-wasm-simd-unsupported",
        ("SIMD", "non-SIMD"),
    ),
    (
        "Ort::Exception: ORT format model is not supported in this build.",
        "onnxruntime-ort-format-load-not-in-build",
        (".ort", "session.load_model_format", "--disable_ort_format_load"),
    ),
    (
        "Error: Cannot find module '/srv/app/node_modules/onnxruntime-node/bin/napi-v3/win32/ia32/"
        "onnxruntime_binding.node'",
        "onnxruntime-node-binding-not-found",
        ("win32/ia32", "serverExternalPackages", "onnxruntime-web"),
    ),
    (
        "Failed to load library libonnxruntime_providers_openvino.so with error: libopenvino.so.2520: cannot "
        "open shared object file: No such file or directory",
        "onnxruntime-openvino-ep-library-load-failed",
        ("libopenvino.so.2520", "LD_LIBRARY_PATH", "add_openvino_libs_to_path"),
    ),
    (
        'LoadLibrary failed with error 126 "" when trying to load "C:\\py\\Lib\\site-packages\\onnxruntime'
        '\\capi\\onnxruntime_providers_openvino.dll"',
        "onnxruntime-openvino-ep-library-load-failed",
        ("126", "add_openvino_libs_to_path", "setupvars.bat"),
    ),
    (
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_MIGraphX] Failed to load "
        "library libonnxruntime_providers_migraphx.so with error: libmigraphx_c.so.3: cannot open shared "
        "object file: No such file or directory",
        "onnxruntime-rocm-ep-library-load-failed",
        ("migraphx", "libmigraphx_c.so.3", "/opt/rocm/lib"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), ENTRY_CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(ENTRY_CASES)]
)
def test_a_binding_or_tool_message_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


BARE_KERNEL_CASES = [
    (
        "Attempting to broadcast an axis by a dimension other than 1. 77 by 128",
        "ort-broadcast-axis",
        ("77", "128"),
    ),
    (
        "indices element out of data bounds, idx=30522 must be within the inclusive range [-30522,30521]",
        "ort-gather-index-out-of-bounds",
        ("30522", "[-30522, 30521]"),
    ),
]


@pytest.mark.parametrize(
    ("message", "clause", "named"), BARE_KERNEL_CASES, ids=[c[1] for c in BARE_KERNEL_CASES]
)
def test_a_cpu_kernel_check_without_its_envelope_is_onnxruntimes(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    """Before s20c these texts were read as TVM's and onnx's wording (by their words only)."""
    assert detect_families(message)[:1] == ["onnxruntime"]
    assert_answered(kb, message, named, clause=clause)
    assert kb.answer(message).confident


def test_the_axis_range_check_onnx_also_prints_gets_no_onnxruntime_marker() -> None:
    """onnx's shape inference prints "axis N is not in valid range [-r,r-1]" as well
    (onnx/defs/shape_inference.h)."""
    assert "onnxruntime" not in detect_families("axis 4 is not in valid range [-4,3]")


def test_the_cuda_provider_load_failure_keeps_its_cuda_answer(kb: KnowledgeBase) -> None:
    """The OpenVINO and ROCm/MIGraphX provider libraries left the CUDA/TensorRT-minded entry for their own;
    the CUDA provider's failure is still that entry's."""
    message = (
        "Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.12: cannot open "
        "shared object file: No such file or directory"
    )
    assert kb.lookup(message, top=1)[0].entry.id == "onnxruntime-ep-library-load-failed"
