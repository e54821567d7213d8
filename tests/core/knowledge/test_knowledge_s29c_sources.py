"""Branch s29c: TFLite/LiteRT, Core ML, MNN and ncnn entries written from the tools' own sources.

Each row is the text as the source prints it (LiteRT's GPU delegate OpenCL/GL/EGL start-up and call
failures, the Flex delegate's eager context and type mapping, the model verifier's op versions,
tflite_flutter's state checks; Core ML's image size constraint, coremltools' MIL name and scope checks and the
neuralnetwork backend's image output check;
MNN's Vulkan and OpenCL backends and its ONNX clip option; pnnx's ncnn pass, its TorchScript loader and ncnn's
Vulkan allocator, weight upload and shader compiler) with made-up values, answered by its entry with the
captured parts in the advice.  The other tests pin where an entry stops: the look-alike wording of other tools
is no match of it, and the new marker names its family alone.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.kb import named_families
from tests.support.advice import Case, answered_by_entry

CASES: list[Case] = [
    # ---- tflite: google-ai-edge/LiteRT tflite/delegates/gpu/cl (cl_context.cc, cl_command_queue.cc) ----
    (
        "TfLiteGpuDelegate Init: Failed to create a compute context - Out of host memory",
        "tflite-s29c-gpu-opencl-call-failed",
        ("create a compute context", "Out of host memory", "TFLITE_GPU_EXPERIMENTAL_FLAGS_GL_ONLY"),
    ),
    (
        "Failed to allocate device memory (clCreateBuffer): Memory object allocation failure",
        "tflite-s29c-gpu-opencl-call-failed",
        ("allocate device memory (clCreateBuffer)", "Memory object allocation failure"),
    ),
    (
        "TfLiteGpuDelegate Init: clGetPlatformIDs returned -1001",
        "tflite-s29c-gpu-opencl-no-platform",
        ("-1001", "clinfo"),
    ),
    (
        "ERROR: TfLiteGpuDelegate Init: OpenGL ES 3.1 or above is required to use OpenGL inference.",
        "tflite-s29c-gpu-gl-backend-unavailable",
        ("OpenGL ES 3.1 or above is required", "XNNPACK"),
    ),
    (
        "TfLiteGpuDelegate Init: No EGL error, but eglInitialize failed",
        "tflite-s29c-gpu-gl-backend-unavailable",
        ("eglInitialize failed", "EGL"),
    ),
    # ---- tflite: delegates/flex (kernel.cc, util.cc), core/tools/verifier.cc ----
    (
        "ERROR: Failed to initialize eager context. This often happens when a CPU device has not been "
        "registered, presumably because some symbols from tensorflow/core:core_cpu_impl were not linked into "
        "the binary.",
        "tflite-s29c-flex-eager-context",
        ("tensorflow-lite-select-tf-ops", "core_cpu_impl"),
    ),
    (
        "ERROR: TF Lite does not support TensorFlow data type: zz_uint64",
        "tflite-s29c-flex-tf-dtype-unsupported",
        ("zz_uint64",),
    ),
    (
        "Unsupported builtin op: ZZ_CONV, version: 9",
        "tflite-s29c-verifier-unsupported-op-version",
        ("ZZ_CONV", "version 9"),
    ),
    (
        "Unsupported custom op: ZzCustom, version: 2",
        "tflite-s29c-verifier-unsupported-op-version",
        ("ZzCustom", "AddCustom"),
    ),
    # ---- tflite: tensorflow/flutter-tflite lib/src/interpreter.dart (quiver's checkState) ----
    (
        "E/flutter (4242): Unhandled Exception: Bad state: failed precondition\n"
        "#1      Interpreter.invoke (package:tflite_flutter/src/interpreter.dart:165:5)",
        "tflite-s29c-flutter-failed-precondition",
        ("TfLiteInterpreterInvoke", "adb logcat"),
    ),
    (
        "Unhandled Exception: Bad state: XNNPackDelegate already deleted.",
        "tflite-s29c-flutter-interpreter-deleted",
        ("XNNPackDelegate", "dispose()"),
    ),
    # ---- coreml: CoreML.framework MLImageSizeConstraint; coremltools MIL passes, block, nn backend ----
    (
        "Image size 1000 x 700 not in allowed set of image sizes",
        "coreml-s29c-image-size-not-allowed",
        ("1000 x 700", "EnumeratedShapes"),
    ),
    (
        "Image width (1000) is not in allowed range (224..512)",
        "coreml-s29c-image-size-not-allowed",
        ("1000", "224..512", "VNCoreMLRequest"),
    ),
    (
        "ValueError: Var names ['zz_input'] is used both as function's input and output",
        "coreml-s29c-var-names-input-and-output",
        ("'zz_input'", "rename_feature"),
    ),
    (
        "ValueError: Var %zz_loop_3 not visible in the block block7.",
        "coreml-s29c-var-not-visible-in-block",
        ("%zz_loop_3", "block7", "torch.jit.trace"),
    ),
    (
        "NotImplementedError: Image output 'zz_out' has symbolic dimensions in its shape",
        "coreml-s29c-nn-image-output-symbolic",
        ("zz_out", "mlprogram"),
    ),
    # ---- mnn: alibaba/MNN source/backend/vulkan, opencl; tools/converter/source/onnx/exec/OnnxClip.cpp ----
    (
        'Load vulkan library error: dlopen failed: library "libzzvulkan.so" not found',
        "mnn-s29c-vulkan-unavailable",
        ('library "libzzvulkan.so" not found', "vulkaninfo", "backupType"),
    ),
    (
        "Can't create vk device",
        "mnn-s29c-vulkan-unavailable",
        ("vkCreateDevice", "MNN_FORWARD_OPENCL"),
    ),
    (
        "OpenCL init error, fallback ... ",
        "mnn-s29c-opencl-unavailable",
        ("libOpenCL.so", "uses-native-library"),
    ),
    (
        "Can't find outputName zz_out in model, Failed",
        "mnn-s29c-clip-output-name-missing",
        ("zz_out", "graph.output"),
    ),
    # ---- ncnn: Tencent/ncnn tools/pnnx/src (pass_ncnn, load_torchscript.cpp), src (allocator, net, gpu) ----
    (
        "softmax along batch axis 0 is not supported",
        "ncnn-s29c-pnnx-batch-axis",
        ("'softmax'", "dimension 0", "inputshape"),
    ),
    (
        "logsumexp along batch axis is not supported yet",
        "ncnn-s29c-pnnx-batch-axis",
        ("'logsumexp'",),
    ),
    (
        "slice with dynamic end is not supported",
        "ncnn-s29c-pnnx-dynamic-slice",
        ("dynamic end", "Crop/Slice"),
    ),
    (
        "Load torchscript failed: PytorchStreamReader failed locating file constants.pkl: file not found",
        "ncnn-s29c-pnnx-load-torchscript",
        ("PytorchStreamReader failed locating file constants.pkl", "torch.jit.trace"),
    ),
    (
        "image dimension too large 9000 1 64 > 4096",
        "ncnn-s29c-vulkan-image-too-large",
        ("9000 1 64", "4096", "use_image_storage = false"),
    ),
    (
        "layer upload_model 57 zz_conv_57 failed",
        "ncnn-s29c-vulkan-upload-model-failed",
        ("layer 57 (zz_conv_57)", "use_fp16_storage"),
    ),
    (
        "compile spir-v module failed\nERROR: 0:42: 'zz_t' : undeclared identifier",
        "ncnn-s29c-vulkan-spirv-compile-failed",
        ("glslang", "use_fp16_arithmetic = false"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES, confident=True)


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "ERROR: Failed to initialize eager context. This often happens when a CPU device has not been "
            "registered, presumably because some symbols from tensorflow/core:core_cpu_impl were not linked "
            "into "
            "the binary.\nERROR: Node number 7 (TfLiteFlexDelegate) failed to prepare.",
            "tflite-s29c-flex-eager-context",
        ),
        (
            "OpenCL init error, fallback ... \nCan't Find type=3 backend, use 0 instead",
            "mnn-s29c-opencl-unavailable",
        ),
    ],
)
def test_the_cause_is_among_the_answers_of_the_whole_paste(kb: KnowledgeBase, text: str, entry: str) -> None:
    """Pasted with the line that follows it (the delegate node's failure, MNN's backend fallback), the cause
    stays among the first answers, found by its pattern."""
    assert any(m.entry.id == entry and m.reason == "pattern" for m in kb.lookup(text, top=3))


def test_the_gpu_delegate_envelope_ranks_under_the_backend_failure_it_carries(kb: KnowledgeBase) -> None:
    """'TfLiteGpuDelegate Init/Invoke: <status>' frames the backend's own failure: the entry for that failure
    answers first, the envelope follows."""
    text = (
        "java.lang.IllegalArgumentException: Internal error: Failed to run on the given Interpreter: "
        "TfLiteGpuDelegate Invoke: Failed to read data from GPU (clEnqueueReadBuffer) - Execution status "
        "error for events in wait list\nNode number 99 (TfLiteGpuDelegateV2) failed to invoke."
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ids[0] == "tflite-s29c-gpu-opencl-call-failed", ids
    top = kb.lookup(text, top=1)[0]
    assert dict(top.captures)["detail"] == "Execution status error for events in wait list"


def test_the_upload_entry_reads_without_the_layer_name(kb: KnowledgeBase) -> None:
    """A build without NCNN_STRING prints the index alone; the cause still reads as a sentence."""
    top = kb.lookup("layer upload_model 12 failed", top=1)[0]
    assert top.entry.id == "ncnn-s29c-vulkan-upload-model-failed"
    assert "layer 12 (its name not printed)" in top.cause


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        # another tool's initialisation failure is no Flex delegate eager-context failure
        ("detectNet -- failed to initialize.", "tflite-s29c-flex-eager-context"),
        ("InitializeBackend Failed to initialize backend", "tflite-s29c-flex-eager-context"),
        # a TensorRT plugin lookup's 'version: 1' is no TFLite verifier line
        (
            "getPluginCreator could not find plugin: Custom version: 1",
            "tflite-s29c-verifier-unsupported-op-version",
        ),
        # an OpenCL call of another tool without the delegate's 'Failed to <call> - <error>' form
        ("clEnqueueNDRangeKernel returned -5", "tflite-s29c-gpu-opencl-call-failed"),
        # a plain 'is not supported' of another converter is no pnnx slice line
        ("Slice with steps is not supported", "ncnn-s29c-pnnx-dynamic-slice"),
    ],
)
def test_look_alike_wording_is_no_match(kb: KnowledgeBase, text: str, entry: str) -> None:
    for m in kb.lookup(text, top=5):
        assert m.entry.id != entry or m.reason not in ("pattern", "partial"), (m.entry.id, m.reason)


@pytest.mark.parametrize(
    "text",
    [
        '  File "C:\\Anaconda3\\site-packages\\tensorflow_core\\lite\\python\\lite.py", line 98, in convert',
        '  File "/usr/lib/python3/site-packages/tensorflow_core/lite/python/interpreter.py", line 206, in zz',
    ],
)
def test_the_tensorflow_core_package_path_names_tflite(text: str) -> None:
    assert named_families(text)[:1] == ["tflite"]
