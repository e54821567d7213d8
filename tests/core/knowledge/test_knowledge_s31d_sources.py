"""onnxruntime, TensorRT, Qualcomm and Ascend (branch s31d): entries read from the tools' own sources.

* onnxruntime: the external-data path check that refuses a data file outside the model's folder (strings of
  the 1.32.0 wheel; the Hugging Face cache's links are its common case) and an execution provider's
  partition summary (coreml_execution_provider.cc), a context line;
* Torch-TensorRT (pytorch/TensorRT): the TorchScript partitioner's int64/float64 check and its truncation
  warning, the device-list warning at import, modelopt's optional converters and the missing-modelopt error,
  the engine build that returned None, the non-tensor output check, the engine's compatible-device check;
* TensorRT: the TensorRT 10 Python API removals with any module prefix, trtexec's closing FAILED line,
  TensorRT-LLM's bare world-size assertion, its prompt + new tokens > max_seq_len check and the weight shape
  check of its Python builder;
* Qualcomm: ExecuTorch's QNN delegate's step lines ('Fail to configure Qnn context' ...), the SNPE/QNN
  converters' IR graph ('Graph has no buffer ...'), the SDK's Python modules missing (envsetup not sourced,
  another Python version; markers for Python's sentence on 'qti' and libPyIrGraph);
* torch_npu and CANN: a CANN function missing at load time (a library, or libtorch_npu.so asking for an
  acl/aclnn/Hccl symbol: CANN older than torch_npu's; s30d's torch-mismatch entry keeps C++ symbols), the
  float64-to-float32 warning; an operator's tensors on the NPU and the CPU, and PyTorch's same check on
  other devices (a runtime entry, so that its sentence is any tool's text and no partial match of
  torch_npu's).

The messages are written for these tests from the tools' format strings with made-up names and values; none
is copied from the evaluation set."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.eval_explain import blank_markers
from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import in_top3_with_values

CASES = [
    (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
        "/home/u/.cache/huggingface/hub/models--org--enc/snapshots/1a2b/onnx/model.onnx failed:External data "
        "path escapes model directory. External data path: model.onnx_data",
        "onnxruntime-s31d-external-data-escapes-model-dir",
        {"path": "model.onnx_data"},
    ),
    (
        "Opened external data file escapes model directory. Opened path: /data/hub/blobs/77aa01",
        "onnxruntime-s31d-external-data-escapes-model-dir",
        {"path": "/data/hub/blobs/77aa01"},
    ),
    (
        "2024-05-15 18:38:37.673229 [W:onnxruntime:, coreml_execution_provider.cc:81 GetCapability] "
        "CoreMLExecutionProvider::GetCapability, number of partitions supported by CoreML: 12 number of "
        "nodes in the graph: 420 number of nodes supported by CoreML: 371",
        "onnxruntime-s31d-ep-partition-summary",
        {"value": "12", "value2": "420", "value3": "371"},
    ),
    (
        "RuntimeError: [Error thrown at core/partitioning/shape_analysis.cpp:183] Unable to process subgraph "
        "input type of at::kLong/at::kDouble, try to compile model with truncate_long_and_double enabled",
        "tensorrt-s31d-torchtrt-long-double-input",
        {},
    ),
    (
        "WARNING: [Torch-TensorRT] - Truncating intermediate graph input type from at::kDouble to at::kFloat",
        "tensorrt-s31d-torchtrt-truncating-input-type",
        {"dtype": "at::kDouble", "dtype2": "at::kFloat"},
    ),
    (
        "WARNING: [Torch-TensorRT] - Unable to read CUDA capable devices. Return status: 100",
        "tensorrt-s31d-torchtrt-cuda-devices-unreadable",
        {"value": "100"},
    ),
    (
        "WARNING:torch_tensorrt.dynamo.conversion.aten_ops_converters:Unable to import quantize op. Please "
        "install modelopt library (https://github.com/NVIDIA/TensorRT-Model-Optimizer) to add support for "
        "compiling quantized models",
        "tensorrt-s31d-torchtrt-modelopt-optional-warning",
        {"value": "quantize"},
    ),
    (
        "ImportError: The provided model is quantized by ModelOpt, but ModelOpt is not installed.",
        "tensorrt-s31d-torchtrt-modelopt-not-installed",
        {},
    ),
    (
        "RuntimeError: TensorRT build_serialized_network returned None; engine build failed.",
        "tensorrt-s31d-torchtrt-build-returned-none",
        {},
    ),
    (
        "RuntimeError: TensorRT requires all outputs to be Tensor!",
        "tensorrt-s31d-torchtrt-outputs-not-tensors",
        {},
    ),
    (
        "RuntimeError: [Error thrown at core/runtime/TRTEngine.cpp:170] Expected most_compatible_device to "
        "be true but got false\nNo compatible device was found for instantiating TensorRT engine",
        "tensorrt-s31d-torchtrt-no-compatible-device",
        {},
    ),
    (
        "AttributeError: 'IExecutionContext' object has no attribute 'execute_async_v2'",
        "tensorrt-s31d-trt10-removed-api-any-module",
        {"cls": "IExecutionContext", "option": "execute_async_v2"},
    ),
    (
        "&&&& FAILED TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=det.onnx --fp16",
        "tensorrt-s31d-trtexec-failed-summary",
        {"value": "100300"},
    ),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/"
        "runtime/worldConfig.cpp:91)",
        "tensorrt-s31d-trtllm-mpi-size-check-bare",
        {},
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Input length (3900) + max new tokens (512) + "
        "draft tokens (0) must be less than max sequence length (4096).",
        "tensorrt-s31d-trtllm-input-exceeds-max-seq-len",
        {"value": "3900", "value2": "512", "value4": "4096"},
    ),
    (
        "AssertionError: ('The value updated is not the same shape as the original. ', 'Updated: (1024, "
        "4096), original: (4096, 4096)')",
        "tensorrt-s31d-trtllm-weight-shape-mismatch",
        {"shape": "(1024, 4096)", "shape2": "(4096, 4096)"},
    ),
    (
        "KeyError: 'Graph has no buffer /blocks.2/Concat_output_0, referred to as input for "
        "/blocks.2/Reshape'",
        "qualcomm-s31d-converter-graph-no-buffer",
        {"tensor": "/blocks.2/Concat_output_0", "op": "/blocks.2/Reshape"},
    ),
    (
        "ModuleNotFoundError: No module named 'qti.aisw.converters'",
        "qualcomm-s31d-sdk-python-not-set-up",
        {"module": ".aisw.converters"},
    ),
    (
        "ImportError: libPyIrGraph38.so: cannot open shared object file: No such file or directory",
        "qualcomm-s31d-sdk-python-not-set-up",
        {"lib": "libPyIrGraph38"},
    ),
    (
        "E 00:00:00.412873 executorch:QnnManager.cpp:273] Fail to configure Qnn device",
        "qualcomm-s31d-executorch-qnn-step-failed",
        {"step": "configure Qnn device"},
    ),
    (
        "ImportError: /usr/local/Ascend/ascend-toolkit/latest/lib64/libhccl.so: undefined symbol: "
        "HcclCommInitRootInfoConfig",
        "ascend-s31d-cann-undefined-symbol",
        {"value": "HcclCommInitRootInfoConfig"},
    ),
    (
        "ImportError: /opt/py/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
        "aclnnGroupedMatmulGetWorkspaceSize",
        "ascend-s31d-cann-undefined-symbol",
        {"value2": "aclnnGroupedMatmulGetWorkspaceSize"},
    ),
    (
        "[W ToKernelNpu.cpp:41] Warning: Device do not support double dtype now, dtype cast repalce with "
        "float. (function operator())",
        "torch-npu-s31d-double-cast-to-float",
        {},
    ),
    (
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:0 "
        "and cpu! (when checking argument for argument index in method wrapper_NPU__index_select)",
        "ascend-s31d-torch-npu-tensors-on-two-devices",
        {"device": "npu:0", "device2": "cpu", "arg": "index"},
    ),
    (
        "RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different "
        "from other tensors on npu:1 (when checking argument in method wrapper_NPU__native_layer_norm)",
        "ascend-s31d-torch-npu-tensors-on-two-devices",
        {"device3": "cpu", "device4": "npu:1"},
    ),
]

test_each_source_form_is_answered_with_its_values = in_top3_with_values(CASES)


@pytest.mark.parametrize(("message", "entry", "named"), CASES)
def test_each_new_entry_is_the_first_answer_and_names_its_values(
    kb: KnowledgeBase, message: str, entry: str, named: dict[str, str]
) -> None:
    top = kb.answer(message, top=3).matches[0]
    assert top.entry.id == entry
    captures = dict(top.captures)
    for name, value in named.items():
        assert captures.get(name) == value, (name, captures)
        assert value in top.cause + top.fix or name in ("arg", "step", "device3", "device4", "module", "lib")


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        (
            "AttributeError: 'tensorrt_bindings.tensorrt.ICudaEngine' object has no attribute 'num_bindings'",
            "tensorrt-s31d-trt10-removed-api-any-module",
        ),
        (
            "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, "
            "npu:1 and npu:0!",
            "ascend-s31d-torch-npu-tensors-on-two-devices",
        ),
        (
            "RuntimeError: [ONNXRuntimeError] External data path for model loaded from bytes escapes working "
            "directory.",
            "onnxruntime-s31d-external-data-escapes-model-dir",
        ),
    ],
)
def test_the_source_forms_keep_their_entry_with_the_markers_blanked(
    kb: KnowledgeBase, message: str, entry: str
) -> None:
    """The wording proxy: with the tool names blanked the message's own sentence still finds its entry."""
    assert kb.lookup(blank_markers(message), top=1)[0].entry.id == entry


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
        "and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)",
        "RuntimeError: Expected all tensors to be on the same device, but got index is on cuda:1, different "
        "from other tensors on cuda:0 (when checking argument in method wrapper_CUDA__index_select)",
    ],
)
def test_a_cuda_device_mismatch_is_pytorchs_answer_not_ascends(kb: KnowledgeBase, text: str) -> None:
    """The torch_npu entry reads only npu/cpu devices; PyTorch's own check on CUDA devices is the runtime
    entry's, whose sentence is then any tool's text (no partial match of the Ascend entry)."""
    ranked = kb.lookup(text, top=3)
    assert ranked[0].entry.id == "runtime-s31d-torch-tensors-on-two-devices"
    assert all(m.reason == "words" for m in ranked[1:] if m.entry.family == "ascend")


def test_an_attribute_error_of_another_class_is_not_the_tensorrt_api_answer(kb: KnowledgeBase) -> None:
    """The removed names are read on TensorRT's own classes only."""
    text = "AttributeError: 'Trainer' object has no attribute 'execute_async_v2'"
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert "tensorrt-s31d-trt10-removed-api-any-module" not in ids


def test_the_summary_and_step_lines_are_generic_consequences(kb: KnowledgeBase) -> None:
    """trtexec's FAILED line, Torch-TensorRT's 'returned None' and ExecuTorch's step line only report the
    outcome: after the tool's own error they leave the first place to the entry of that error."""
    text = (
        "[06/01/2024-10:00:00] [E] [TRT] 4: [network.cpp::validate::3062] Error Code 4: Internal Error "
        "(Network has dynamic or shape inputs, but no optimization profile has been defined.)\n"
        "&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "tensorrt-no-optimization-profile"
    for entry in (
        "tensorrt-s31d-trtexec-failed-summary",
        "tensorrt-s31d-torchtrt-build-returned-none",
        "qualcomm-s31d-executorch-qnn-step-failed",
    ):
        found = next(e for e in kb.entries if e.id == entry)
        assert found.generic and found.consequence


_SHAPE = st.lists(st.integers(1, 65536), min_size=1, max_size=4).map(
    lambda d: "(" + ", ".join(map(str, d)) + ")"
)


@settings(max_examples=40, deadline=None)
@given(updated=_SHAPE, original=_SHAPE)
def test_the_trtllm_weight_shapes_are_captured_whole(kb: KnowledgeBase, updated: str, original: str) -> None:
    text = (
        "AssertionError: The value updated is not the same shape as the original. "
        f"Updated: {updated}, original: {original}"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-s31d-trtllm-weight-shape-mismatch"
    assert dict(top.captures) == {"shape": updated, "shape2": original}


@settings(max_examples=40, deadline=None)
@given(prompt=st.integers(1, 10**6), new=st.integers(1, 10**5), limit=st.integers(1, 10**6))
def test_the_trtllm_lengths_are_captured(kb: KnowledgeBase, prompt: int, new: int, limit: int) -> None:
    text = (
        f"[TensorRT-LLM][ERROR] Assertion failed: Input length ({prompt}) + max new tokens ({new}) must be "
        f"less than max sequence length ({limit})."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-s31d-trtllm-input-exceeds-max-seq-len"
    captures = dict(top.captures)
    assert (captures["value"], captures["value2"], captures["value4"]) == (str(prompt), str(new), str(limit))


def test_a_cpp_symbol_missing_from_torch_npu_is_still_the_torch_mismatch(kb: KnowledgeBase) -> None:
    """A mangled C++ symbol is torch's (torch and torch_npu versions); an acl/aclnn/Hccl one is CANN's."""
    text = (
        "ImportError: /opt/py/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
        "_ZNK3c1010TensorImpl15incref_pyobjectEv"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "torch-npu-s30d-undefined-symbol-torch-mismatch"


@pytest.mark.parametrize(
    "text",
    [
        "ModuleNotFoundError: No module named 'foo.bar'",
        "export failure 1.1s: No module named '           .                   '",
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
        "m.onnx failed:External data path does not exist: model.onnx.data",
    ],
)
def test_the_new_entries_are_no_partial_answer_of_any_tools_sentence(kb: KnowledgeBase, text: str) -> None:
    """Their anchors are the tools' own sentences ('no module named 'qti', 'external data path escapes
    model directory'), not Python's or onnxruntime's general wording around them."""
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert "qualcomm-s31d-sdk-python-not-set-up" not in ids
    assert "onnxruntime-s31d-external-data-escapes-model-dir" not in ids
