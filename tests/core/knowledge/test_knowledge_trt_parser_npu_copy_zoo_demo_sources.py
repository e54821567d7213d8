"""Entries written from vendor sources for TensorRT's ONNX parser, Torch-TensorRT, torch_npu's copy path and
Rockchip's model zoo demos.

Each case is the vendor's format string with made-up names and values filled in, never an eval message:

* onnx/onnx-tensorrt 10.1 GA: WeightsContext.cpp (external weights: parent paths, open, read, size; an
  initializer's size check), importerUtils.cpp (non-zero Q/DQ shifts; the InstanceNormalization and
  ModulatedDeformConv2d plugins), onnxOpImporters.cpp (ROIAlign/ScatterReduction plugins, plugin fields
  missing from the node, the deprecated Scatter op);
* pytorch/TensorRT: core/conversion/conversion.cpp (``"Unsupported operator: " << schema``);
* Ascend/pytorch: torch_npu/csrc/aten/common/CopyKernel.cpp, CopyKernelOpApi.cpp, CachingHostAllocator.cpp
  (``"ACL stream synchronize failed, error code:"``);
* airockchip/rknn_model_zoo v2.3.2: examples/yolov5/cpp/main.cc and rknpu2/yolov5.cc (``init_<model>_model
  fail!``, ``read image fail!``, ``load_model fail!``), utils/file_utils.c, utils/image_utils.c (RGA's width
  alignment and its CPU fallback).
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import Case, answered_by_entry

CASES: list[Case] = [
    (
        "ERROR: [Torch-TensorRT] - Unsupported operator: aten::qq_pool.dim(Tensor self, int dim, bool "
        "keepdim=False) -> (Tensor values, Tensor indices)",
        "tensorrt-s27e-torchtrt-ts-unsupported-operator",
        ("aten::qq_pool.dim", "torch_executed_ops"),
    ),
    (
        "[E] [TRT] WeightsContext.cpp:151: Relative paths to parent (../) are not allowed in ONNX external "
        "weights! Normalized path is: ../qq/net.onnx.data",
        "tensorrt-s27e-parser-external-weights-parent-path",
        ("../qq/net.onnx.data", "save_as_external_data"),
    ),
    (
        "[E] [TRT] WeightsContext.cpp:178: Failed to open file: /srv/qq_net/net.onnx.data",
        "tensorrt-s27e-parser-external-weights-open",
        ("/srv/qq_net/net.onnx.data", "parse_from_file"),
    ),
    (
        "Failed to read weights from external file: /srv/qq_net/weights.bin",
        "tensorrt-s27e-parser-external-weights-read",
        ("/srv/qq_net/weights.bin",),
    ),
    (
        "[E] [TRT] WeightsContext.cpp:292: Unexpected size for the external weights! Expected size: 8192 "
        "bytes (shape = (32, 64)). Actual size: 4096 bytes.",
        "tensorrt-s27e-parser-external-weights-size",
        ("(32, 64)", "8192", "4096"),
    ),
    (
        "[E] [TRT] WeightsContext.cpp:459: Size mismatch when importing initializer: qq.proj.weight. "
        "Expected size: 8192 , actual size: 4096",
        "tensorrt-s27e-parser-initializer-size-mismatch",
        ("qq.proj.weight", "numpy_helper"),
    ),
    (
        "[W] [TRT] importerUtils.cpp:388: TensorRT currenly supports only zero shifts values for "
        "QuatizeLinear/DequantizeLinear ops",
        "tensorrt-s27e-parser-qdq-nonzero-shift",
        ("ActivationSymmetric",),
    ),
    (
        "In node 7 with name: /qq/RoiAlign and operator: RoiAlign (importRoiAlign): UNSUPPORTED_NODE: "
        'Assertion failed: plugin != nullptr && "ROIAlign plugin was not found in the plugin registry!"',
        "tensorrt-s27e-parser-builtin-plugin-missing",
        ("ROIAlign", "init_libnvinfer_plugins"),
    ),
    (
        "[W] [TRT] onnxOpImporters.cpp:6119: Attribute qq_gain not found in plugin node! Ensure that the "
        "plugin creator has a default value defined or the engine may fail to build.",
        "tensorrt-s27e-parser-plugin-attribute-missing",
        ("qq_gain",),
    ),
    (
        '[W] [TRT] onnxOpImporters.cpp:5209: Scatter was deprecated in Opset 11. Node: "/qq/Scatter". Use '
        "ScatterElements instead.",
        "tensorrt-s27e-parser-scatter-deprecated",
        ("/qq/Scatter", "opset_version"),
    ),
    (
        "RuntimeError: ACL stream synchronize failed, error code:507899",
        "torch-npu-s27e-copy-stream-sync-failed",
        ("507899", "ASCEND_LAUNCH_BLOCKING=1"),
    ),
    (
        "RuntimeError: ACL stream synchronize failed.",
        "torch-npu-s27e-copy-stream-sync-failed",
        ("ASCEND_LAUNCH_BLOCKING=1",),
    ),
]

ZOO: list[Case] = [
    (
        "init_qqnet_model fail! ret=-1 model_path=./model/qqnet.rknn",
        "rknn-s27e-zoo-init-model-fail",
        ("qqnet", "./model/qqnet.rknn", "librknnrt.so"),
    ),
    ("fopen ./model/qq.rknn fail!\nload_model fail!", "rknn-s27e-zoo-load-model-fail", ("./model/qq.rknn",)),
    (
        "read image fail! ret=-1 image_path=./img/qq_0001.jpg",
        "rknn-s27e-zoo-read-image-fail",
        ("./img/qq_0001.jpg",),
    ),
    ("src width is not 4/16-aligned, convert image use cpu", "rknn-s27e-zoo-rga-unaligned-cpu", ("RGA",)),
]
CASES += ZOO

test_source_forms_are_answered_by_their_entry = answered_by_entry(CASES, confident=True)


@pytest.mark.parametrize(
    "message",
    [
        # another program's file error: only the parser's WeightsContext line is the external-weights entry
        "Failed to open file: /tmp/qq.cfg",
        # a calculator's or a DSL's own "Unsupported operator" without a TorchScript schema
        "Unsupported operator: ^",
        "Unsupported operator: pow(a, b)",
        # a model loader of another program: only the zoo's own wording with its ret/path is claimed
        "init_model failed: ret=-1",
        "read image failed: ./a.jpg",
    ],
)
def test_lookalikes_are_not_answered_by_the_new_entries(kb: KnowledgeBase, message: str) -> None:
    new = [e for e in kb.entries if "-s27e-" in e.id]
    assert len(new) == len(CASES) - 1  # one entry has two cases
    assert not [e.id for e in new if e.search(message)]
    top = kb.lookup(message, top=1)
    assert not top or "-s27e-" not in top[0].entry.id
