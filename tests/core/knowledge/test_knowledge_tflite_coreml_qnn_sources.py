"""Branch s27d: TFLite, Core ML and Qualcomm FastRPC entries written from the tools' own sources.

Each row is the text as the source prints it (TensorFlow's MLIR converter, the TFLite interpreter, its
XNNPACK delegate, the TFLite Task Library; coremltools' PyTorch frontend and ct.convert; the FastRPC user
library) with made-up values, answered by its entry with the captured parts in the advice.  The other tests
pin where an entry stops: the Core ML native-library entry no longer answers other tools' "Unable to load"
lines, and the default-delegate entry reads the reason the interpreter gives.
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import Case, answered_by_entry

CASES: list[Case] = [
    # ---- tflite: tensorflow/compiler/mlir/lite/flatbuffer_export.cc ----
    (
        "error: failed while converting: 'main': Ops that can be supported by the flex runtime (enabled via "
        'setting the -emit-select-tf-ops flag):\n\ttf.ZzFft {device = ""}',
        "tflite-s27d-converter-flex-ops-list",
        ("tf.ZzFft", "SELECT_TF_OPS"),
    ),
    (
        "<unknown>:0: error: failed while converting: 'main': Ops that need custom implementation "
        '(enabled via setting the -emit-custom-ops flag):\n\ttf.XlaZzOp {device = ""}',
        "tflite-s27d-converter-custom-ops-list",
        ("tf.XlaZzOp", "allow_custom_ops"),
    ),
    (
        "W tensorflow/compiler/mlir/lite/flatbuffer_export.cc:2051] TFLite interpreter needs to link Flex "
        "delegate in order to run the model since it contains the following Select TFop(s):\n"
        "Flex ops: FlexZzAdd, FlexZzCast",
        "tflite-s27d-converter-flex-delegate-warning",
        ("FlexZzAdd, FlexZzCast", "select-tf-ops"),
    ),
    (
        "W tensorflow/compiler/mlir/lite/flatbuffer_export.cc:2062] The following operation(s) need TFLite "
        "custom op implementation(s):\nCustom ops: ZzScale, ZzWindow",
        "tflite-s27d-converter-custom-op-warning",
        ("ZzScale, ZzWindow", "AddCustom"),
    ),
    # ---- tflite: the converter's graph import and variable freezing ----
    (
        "ConverterError: Merge only has 3 inputs, while only merge nodes with two inputs supported.\n\t"
        "Failed to functionalize Control Flow V1 ops. Consider using Control Flow V2 ops instead.",
        "tflite-s27d-functionalize-control-flow-v1",
        ("enable_control_flow_v2",),
    ),
    (
        "ConverterError: Variable constant folding is failed. Please consider using enabling "
        "`experimental_enable_resource_variables` flag in the TFLite converter object.",
        "tflite-s27d-variable-constant-folding",
        ("experimental_enable_resource_variables = True",),
    ),
    # ---- tflite: the interpreter, its default delegate and XNNPACK ----
    (
        "RuntimeError: tensorflow/lite/kernels/zz.cc:12 x != y (1 != 2)Node number 5 (ZZ) failed to prepare."
        "Failed to apply the default TensorFlow Lite delegate indexed at 0.",
        "tflite-s27d-default-delegate-failed",
        ("index 0", "BUILTIN_WITHOUT_DEFAULT_DELEGATES"),
    ),
    (
        "ERROR: tensorflow/lite/core/subgraph.cc BytesRequired number of elements overflowed.\n",
        "tflite-s27d-bytes-required-overflow",
        ("elements", "resize_tensor_input"),
    ),
    (
        "XNNPack delegate failed to reshape runtime\n"
        "Node number 77 (TfLiteXNNPackDelegate) failed to prepare.",
        "tflite-s27d-xnnpack-reshape-runtime",
        ("node 77", "setUseXNNPACK(false)"),
    ),
    # ---- tflite: the Task Library's vision tasks (tensorflow/tflite-support) ----
    (
        "ValueError: Mobile SSD models are expected to have exactly 4 outputs, found 3",
        "tflite-s27d-task-ssd-four-outputs",
        ("3 output(s)", "TFLite_Detection_PostProcess"),
    ),
    # ---- tflite: LiteRT Torch (ai-edge-torch), litert_torch/odml_torch/export.py ----
    (
        "RuntimeError: Lowering not found: aten._zz_fused_op.default",
        "tflite-s27d-litert-torch-lowering-not-found",
        ("aten._zz_fused_op.default",),
    ),
    # ---- coreml: coremltools' PyTorch frontend and ct.convert ----
    (
        "ValueError: When 'convert_to' is mlprogram, the minimum deployment target must be at least "
        "iOS15/macOS12/watchOS8/tvOS15",
        "coreml-s27d-convert-to-target-too-old",
        ("convert_to='mlprogram'", "ct.target.iOS15"),
    ),
    (
        "NotImplementedError: Dynamic output size is not supported for upsample_bicubic2d for the op zz_up_1",
        "coreml-s27d-torch-bicubic-dynamic",
        ("zz_up_1", "mode='bilinear'"),
    ),
    (
        "ValueError: `package_dir` must have extension .mlpackage (not .zz)",
        "coreml-s27d-package-dir-extension",
        ("'.zz'", "Model.mlpackage"),
    ),
    # ---- qualcomm: the FastRPC user library (quic/fastrpc) ----
    (
        "E/zz.app: vendor/qcom/proprietary/commonsys-intf/adsprpc/src/log_config.c:168::error: 2: "
        "AEE_SUCCESS == (nErr = apps_std_fileExists(path,&fileExists))",
        "qualcomm-s27d-fastrpc-log-config-probe",
        ("error 2", ".farf"),
    ),
    (
        "E vendor/qcom/proprietary/adsprpc/src/apps_mem_imp.c:216:Error 0x8000040d: apps_mem_request_unmap64 "
        "failed for size 4096 (vadsp 0x3ff300000)",
        "qualcomm-s27d-fastrpc-mem-unmap-failed",
        ("4096 bytes", "0x8000040d"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


def test_other_tools_unable_to_load_lines_are_not_core_mls_native_libraries(kb: KnowledgeBase) -> None:
    """The native-library entry is found by the library's own name only: 'Unable to load' and 'No module
    named' are any tool's words, and a QNN or TensorRT library that failed to load is no coremltools one."""
    for text in (
        "0.2ms [ ERROR ] Unable to load backend. dlerror(): /opt/zz/lib/aarch64-android/libZzHtp.so: "
        "cannot open shared object file: No such file or directory",
        "Internal Error (Unable to load library: zz_builder_resource_10.dll)",
        "ModuleNotFoundError: No module named 'zz_tools.libzzpython'",
    ):
        for m in kb.lookup(text, top=3):
            assert m.entry.id != "coreml-h23v2-native-libs-missing", (text, m.reason)
    top = kb.lookup("No module named 'coremltools.libmilstoragepython'", top=1)[0]
    assert top.entry.id == "coreml-h23v2-native-libs-missing"
    assert dict(top.captures)["value"] == "libmilstoragepython"


def test_the_default_delegate_entry_reads_the_interpreters_reason(kb: KnowledgeBase) -> None:
    """The interpreter names why a default delegate was not applied; the entry carries the reason and the
    index, and a line without either form (the sentence cut short before its index) is not its."""
    text = (
        "INFO: Failed to apply the default TensorFlow Lite delegate indexed at 1 because of unresolved ops "
        "(which could be resolved by another delegate). Ignoring the error, and continuing anyway."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tflite-s27d-default-delegate-failed"
    assert dict(top.captures) == {
        "value": "1",
        "reason": "unresolved ops (which could be resolved by another delegate)",
    }
    for m in kb.lookup("Failed to apply the default TensorFlow Lite delegate indexed at", top=3):
        assert m.entry.id != "tflite-s27d-default-delegate-failed" or m.reason != "pattern"
