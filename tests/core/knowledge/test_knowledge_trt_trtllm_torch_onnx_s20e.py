"""Branch s20e: TensorRT's ONNX parser, TensorRT-LLM and the dynamo-based torch.onnx exporter, the forms no
entry covered, from their own sources.

* TensorRT's ONNX parser (onnx/onnx-tensorrt 10.1: ModelImporter.cpp parseNode / parse / parseFromFile,
  onnxOpImporters.cpp Dropout and EyeLike importers);
* Polygraphy's engine loader and TensorRT runner (NVIDIA/TensorRT tools/Polygraphy: backend/trt/loader.py,
  runner.py);
* TensorRT-LLM (NVIDIA/TensorRT-LLM: cpp/tensorrt_llm/runtime/worldConfig.cpp, docs/source/reference/
  memory.md) and its Python package and CLIs as markers of the tensorrt family;
* torch.onnx (pytorch/pytorch: torch/onnx/_internal/onnx_proto_utils.py, torch/onnx/_internal/exporter/
  _core.py and _capture_strategies.py).

Every message is the vendor's string as its source prints it, with made-up names and values, not an eval
message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families
from dumpscope.core.knowledge.scan import scan_log
from tests.support.advice import assert_answered

CASES = [
    # --- TensorRT's ONNX parser ---
    (
        "[E] [TRT] ModelImporter.cpp:954: ERROR: ModelImporter.cpp:253 In function parseNode:\n"
        "[6] Invalid Node - /zz/Cast_3\n"
        "Assertion failed: legalUINT8: TensorRT does not support UINT8 types for intermediate tensors!",
        "tensorrt-s20e-parser-uint8-intermediate",
        ("network input or output", "x.float()"),
    ),
    (
        "[8] Assertion failed: !trainingMode[0]: TensorRT does not support the Dropout operator in training "
        "mode.",
        "tensorrt-s20e-parser-dropout-training-mode",
        ("model.eval()", "training_mode"),
    ),
    (
        "In node 4 (importDropout): UNSUPPORTED_NODE: Assertion failed: inputs.at(2).is_weights(): "
        "This Version of TensorRT only supports the training_mode input as an initializer.",
        "tensorrt-s20e-parser-dropout-training-mode",
        ("--fold-constants", "TrainingMode.EVAL"),
    ),
    (
        "[8] Assertion failed: !isDynamic(dims): Eyelike does not work for dynamically shaped tensors.",
        "tensorrt-s20e-parser-eyelike-dynamic",
        ("EyeLike", "--override-input-shapes"),
    ),
    (
        'ERROR: ModelImporter.cpp:120 In function parseNode:\n[7] Assertion failed: false && "ONNX graph '
        'contains nested structures that exceed the maximum allowed by TensorRT!"',
        "tensorrt-s20e-parser-nested-subgraph-depth",
        ("24 levels", "inline_local_functions"),
    ),
    (
        "[E] [TRT] ModelImporter.cpp:902: Input is not a regular file: /zz/exported_dir",
        "tensorrt-s20e-parser-not-regular-file",
        ("/zz/exported_dir is a directory", "--onnx=/zz/exported_dir/model.onnx"),
    ),
    (
        "[E] [TRT] ModelImporter.cpp:704: Parse was called with a non-empty network definition",
        "tensorrt-s20e-parser-non-empty-network",
        ("new network and a new parser", "create_network"),
    ),
    # --- Polygraphy (NVIDIA/TensorRT tools/Polygraphy/polygraphy/backend/trt: loader.py, runner.py) ---
    (
        "[E] IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization assertion "
        "stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match.)\n"
        "[!] Could not deserialize engine. See log for details.",
        "tensorrt-s20e-polygraphy-engine-deserialize-failed",
        ("deserialize_cuda_engine returned None", "--version-compatible", "--plugins"),
    ),
    (
        "[!] Invalid Context. See error log for details.",
        "tensorrt-s20e-polygraphy-invalid-context",
        ("create_execution_context", "--allocation-strategy profile"),
    ),
    (
        "[!] `execute_async_v3()` failed. Please see the logging output above for details.",
        "tensorrt-s20e-polygraphy-execute-failed",
        ("execute_async_v3", "CUDA_LAUNCH_BLOCKING=1"),
    ),
    # --- TensorRT-LLM ---
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Can't allocate new blocks. No free blocks left. "
        "(/zz/cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp:77)",
        "tensorrt-s20e-trtllm-kv-cache-no-free-blocks",
        ("kv_cache_free_gpu_mem_fraction", "in-flight batching"),
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: MPI size 1 != TP size 4 * PP size 2 "
        "(/zz/cpp/tensorrt_llm/runtime/worldConfig.cpp:98)",
        "tensorrt-s20e-trtllm-mpi-size-tp-pp",
        ("tensor parallelism 4", "pipeline parallelism 2", "with 1 MPI process", "mpirun -n"),
    ),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: MPI size 2 != TP size 1 * PP size 1 * CP Size 1 "
        "(/zz/worldConfig.cpp:90)",
        "tensorrt-s20e-trtllm-mpi-size-tp-pp",
        ("with 2 MPI process",),
    ),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Detect 3 GPUs, the GPU number is incompatible with 8 "
        "gpusPerNode when MPI size is 4 (/zz/cpp/tensorrt_llm/runtime/worldConfig.cpp:104)",
        "tensorrt-s20e-trtllm-gpus-per-node",
        ("sees 3 GPU", "4 MPI ranks", "8 GPUs per node", "CUDA_VISIBLE_DEVICES"),
    ),
    (
        '  File "/zz/site-packages/tensorrt_llm/commands/build.py", line 437, in build_model\n'
        "    assert architecture in MODEL_MAP, \\\n"
        "AssertionError: Unsupported model architecture: ZzForCausalLM",
        "tensorrt-s20e-trtllm-unsupported-architecture",
        ("architecture ZzForCausalLM", "convert_checkpoint.py"),
    ),
    # --- torch.onnx ---
    (
        "torch.onnx.errors.OnnxExporterError: Module onnx is not installed!",
        "torch-onnx-s20e-onnx-not-installed",
        ("pip install onnx", "import onnx", "protobuf"),
    ),
    (
        "TypeError: Cannot take content out from the FakeTensor ('zz.weight'). Please replace the tensor "
        "with a tensor backed by real data using ONNXProgram.apply_weights() or save the model without "
        "initializers by setting include_initializers=False.",
        "torch-onnx-s20e-fake-tensor-content",
        ("initializer zz.weight is a FakeTensor", "apply_weights(model.state_dict())"),
    ),
    (
        "[torch.onnx] Obtain model graph for `ZzNet([...]` with `torch.export.export(..., strict=False)`"
        "... ❌",
        "torch-onnx-s20e-capture-strategy-failed",
        ("capture ZzNet([...] with torch.export.export(..., strict=False)", "TorchExportError"),
    ),
    (
        "torch._dynamo.exc.UserError: Constraints violated (zz_batch)! For more information, run with "
        'TORCH_LOGS="+dynamic".\n'
        "  - Not all values of zz_batch = L['x'].size()[0] in the specified range zz_batch <= 64 are valid "
        "because zz_batch was inferred to be a constant (1).\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "torch.onnx._internal.exporter._errors.TorchExportError: Failed to export the model with "
        "torch.export. This is step 1/3 of exporting the model to ONNX.",
        "torch-onnx-s20e-export-dim-specialized",
        ("dimension zz_batch", "fixed to 1", "Dim.AUTO", "at least 2"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_s20e_source_forms(kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_the_parser_path_is_captured(kb: KnowledgeBase) -> None:
    top = kb.lookup("Input is not a regular file: /zz/models/yolo", top=1)[0]
    assert ("path", "/zz/models/yolo") in top.captures


def test_a_capture_strategy_that_succeeded_is_no_error(kb: KnowledgeBase) -> None:
    """Only the failure mark matches the entry's pattern; a success line shares its words at most (no phrase,
    so the log scan, which reports pattern and phrase matches, does not list it)."""
    line = (
        "[torch.onnx] Obtain model graph for `ZzNet([...]` with `torch.export.export(..., strict=False)`"
        "... ✅"
    )
    for m in kb.lookup(line, top=3):
        if m.entry.id == "torch-onnx-s20e-capture-strategy-failed":
            assert m.reason == "words"
    assert len(scan_log([line], kb)) == 0


@pytest.mark.parametrize(
    "text",
    [
        "trtllm-build: error: argument --gemm_plugin: invalid choice: 'zz'",
        "trtllm-serve: error: unrecognized arguments: --zz",
        '  File "/zz/site-packages/tensorrt_llm/commands/build.py", line 10, in main\nValueError: zz',
        "tensorrt_llm::common::TllmException: zz",
    ],
)
def test_tensorrt_llm_package_and_clis_name_tensorrt(kb: KnowledgeBase, text: str) -> None:
    """TensorRT-LLM is NVIDIA's TensorRT stack: its package and CLI names route to the tensorrt family."""
    assert detect_families(text)[0] == "tensorrt"
    assert kb.lookup(text, top=1)[0].entry.family == "tensorrt"


def test_a_specialized_dimension_without_the_exporter_is_not_torch_onnx(kb: KnowledgeBase) -> None:
    """torch.export's constraint text is torch.onnx's only inside the exporter's report: alone (torch.compile
    in another framework) the entry's pattern does not answer it (its words may still rank it,
    unconfidently)."""
    text = (
        "Constraints violated (L['zz'].size()[0])! For more information, run with TORCH_LOGS=\"+dynamic\".\n"
        "  - Not all values of RelaxedUnspecConstraint(L['zz'].size()[0]) are valid because "
        "L['zz'].size()[0] was inferred to be a constant (64)."
    )
    for m in kb.lookup(text, top=3):
        if m.entry.id == "torch-onnx-s20e-export-dim-specialized":
            assert m.reason == "words"


def test_the_build_summary_points_above(kb: KnowledgeBase) -> None:
    """trtllm-build's closing assertion follows the failing rank's own error: inside a tensorrt_llm traceback
    it is answered as that summary, pointing above."""
    top = assert_answered(
        kb,
        '  File "/zz/site-packages/tensorrt_llm/commands/build.py", line 380, in parallel_build\n'
        "AssertionError: Engine building failed, please check error log.",
        ("first traceback",),
        entry="tensorrt-s20e-trtllm-engine-building-failed",
    )
    assert top.entry.consequence
