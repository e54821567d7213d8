"""The knowledge tests of Rockchip (RKNN Toolkit, RKNN runtime, RKLLM): each case is a vendor's own wording
with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From h23u2 (was test_knowledge_edge_vendor_wording_h23u2.py):
described in test_knowledge_converters.py's docstring.

From s18d (was test_knowledge_qualcomm_rknn_sources_s18d.py):

Branch s18d: Qualcomm's and Rockchip's common failures, from their own sources.

* rknn-toolkit-lite2 (airockchip/rknn-toolkit2: rknn-toolkit-lite2/packages, release 2.3.2): the board-side
  Python API's own errors (rknnlite/api/rknn_lite.py and the strings of its compiled rknn_runtime module):
  librknnrt.so missing, a container without the board's files, an unsupported target, no simulator, call
  order, core_mask on a single-core NPU, a runtime without dynamic shapes, and the inputs given to
  inference();

From s20b (was test_knowledge_qualcomm_rknn_sources_s20b.py):

Branch s20b: Qualcomm's and Rockchip's device-side failures, from their own binaries.

* the RKNPU runtime (airockchip/rknn-toolkit2 release 2.3.2: the strings of
  rknpu2/runtime/Linux/librknn_api/armhf-uclibc/librknnmrt.so, whose log texts librknnrt shares): a driver
  older than the runtime, a model file that cannot be opened or is no RKNN model, NPU memory, the NHWC
  output query, an operator whose CPU fallback fails, the /dev node of the rknpu driver;
* rknn_server (the same release's rknpu2/runtime/Linux/rknn_server/aarch64/usr/bin/rknn_server) and the
  toolkit's connected-board calls (rknn-toolkit2 2.5.0 wheel, rknn/api/rknn_runtime and rknn_platform: the
  compressed string tables of their compiled modules): rknn_server not running or too old, a runtime without
  a call the toolkit needs, a protocol version from another release, the run timeout, npu_transfer_proxy;
* the toolkit's build and load steps (the same wheel's rknn/api/rknn_base): no calibration dataset, a model
  already quantized, a .pth given to load_pytorch, inputs without input_size_list, toolkit1's quantization
  option values;

From rknn_code_cards (was test_knowledge_rknn_code_cards.py):

RKNN's return-code cards (level ``code``: RKNN_ERR_*, ``rknn_init ... ret=-N``) say what a code means in
general: the runtime's own line before the failure (an operator it cannot run for a data type, the driver,
a struct size) answers first, and the code card stays in the answer after it.

From rknn_submit (was test_knowledge_rknn_submit.py):

librknnrt's "failed to submit" is read with or without the "!" that some releases print after it.

From round10 (was test_knowledge_round10.py).

From round12 (was test_knowledge_round12.py):

* entries: the converter's node-name check, the graph pruned empty by output names it does not have, the HTP
  convolution filter/channel check, FastRPC refusing to open a skel, qnn-model-lib-generator's missing model
  source and failed compile, and the RKNN compiler's register field overflow.

From round14 (was test_knowledge_round14.py):

* the RKNN logger's other levels (``D RKNN: [...]``, ``I RKNN: [...]``, ``W RKNN: [...]``) and the
  compiler's ``rknn::`` namespace name RKNN, so a build log ending in a bare C++ exception is answered as
  RKNN's, not as generic runtime text;

From round16 (was test_knowledge_round16.py):

Issue 23, round 16 (Qualcomm, RKNN, Ascend): what its dev misses taught, each written from the tool's own
source with values of our own (never an evaluation message).

* RKLLM, Rockchip's LLM runtime (``rkllm_init``, ``librkllmrt.so``, ``I rkllm:``), names RKNN;

From round21_forms (was test_knowledge_round21_forms.py).

From round21_tools (was test_knowledge_round21_tools.py):
described in test_knowledge_onnxruntime.py's docstring.

From h23f3 (was test_knowledge_round22_sources_h23f3.py): described in test_knowledge_coreml.py's docstring.

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): RKLLM's model check.

From s19d (was test_knowledge_trt_rknn_ascend_s19d.py):

Branch s19d: TensorRT's, Rockchip's and Ascend's message classes no entry covered, from their own sources.

* RKNN: the rknn-toolkit2 2.5.0 wheel's librknn_api.so (the PC-side client of a connected board) and
  librknnc.so (the compiler and its simulator runtime);

From s21b (was test_knowledge_rknn_runtime_api_and_qnn_status.py):

The RKNPU runtime's own C-API and memory texts, RKNN-Toolkit-Lite2's inference() argument checks, SNPE's
error codes, and the QNN status a backend prints after a failure's colon.

Vendor sources: airockchip/rknn-toolkit2 release 2.3.2, the strings of
rknpu2/runtime/Linux/librknn_api/armhf-uclibc/librknnmrt.so (the runtime's "E RKNN:"/"W RKNN:" formats,
shared with librknnrt) and rknpu2/runtime/Linux/librknn_api/include/rknn_api.h; the rknn-toolkit-lite2 2.3.2
wheel (rknnlite/api/rknn_lite.py and the strings of rknnlite/api/rknn_runtime.*.so).  Every message is ours,
the format string filled with names and numbers of our choosing, never an evaluation message.
From s22g: the rknn-toolkit2 2.5.0 wheel's API, board-connection, quantizer and graph-rule texts (the
compressed string tables of rknn/api/rknn_base, rknn_platform, quantizer and rules/*.so).
From s23f: the rknn-toolkit2 2.5.0 wheel's compiler (rknn/api/lib/linux-x86_64/librknnc.so strings): CPU
fallbacks, ONNX import, constant-only operators, asymmetric pads.
From s24d: the RKNPU kernel driver (Rockchip kernel drivers/rknpu/rknpu_job.c, rknpu_reset.c), librknnrt
1.5.2's strings (rockchip-linux/rknpu2 runtime/RK3588/Linux/librknn_api/armhf/librknnrt.so) and RKLLM's
runtime lines (airockchip/rknn-llm threads): NPU job timeouts, aborts, interrupts, core masks, input layouts,
model versions.
From s25c: the rknn-toolkit2 2.3.2 wheel (librknnc, librknn_api, rknn_base/rknn_compiler/load_checker
strings), the rknpu driver's rknpu_gem.c, rknn-toolkit v1's pre-compile example, rknn-llm #18/#119/#183,
rknn-toolkit2#511: unsupported cases, CPU/NPU memory, dynamic_input and load_onnx crop arguments.

From s28b (was test_knowledge_s28b_rknn_qualcomm.py):

Session s28b: RKNN's and Qualcomm's log forms as data, their new markers and entries.

* :data:`dumpscope.core.knowledge.markers.LOG_FORMS`: RKNN's forms (moved from a tuple in
  :mod:`.family`, answers unchanged) and two Qualcomm ones: the Hexagon libraries' ``<file>.cc:<line>:ERROR:``
  line (HtpPrepare.dll / libQnnHtpV*Skel.so of onnxruntime-qnn 2.7.0: ``%s:%d::ERROR:%s``) and FastRPC's
  ``<file>.c:<line>: Error 0x<status>:`` line (quic/fastrpc: src/*.c);
* the entries ``rknn-s28b-*`` / ``rkllm-s28b-*`` (the rknn-toolkit2 2.5.0 wheel's rknn_base string table and
  librknnc.so's strings; airockchip/rknn-llm's demos) and ``onnxruntime-s28b-*`` (onnxruntime's QNN EP and
  its CoreML/NNAPI helpers), each with a message in the source's format and made-up names and values;
  never an eval message.

From s29b (was test_knowledge_s29b_rknn_qualcomm.py):

Session s29b: RKNN-Toolkit2's and QNN's failure texts as their tools print them.

* ``rknn-s29b-*``: the rknn-toolkit2 2.5.0 wheel's compiled modules (``rknn/api/rules/dims``, ``rknn_utils``,
  ``graph_optimizer``, ``rknn_platform``, ``quantizer``, ``rknn_base``, ``rknn_runtime``, ``ir_utils``), whose
  messages live only in the modules' compressed string tables, and the board runtime's batch check;
* ``qualcomm-s29b-*`` and the rewritten ``qualcomm-graph-prepare-failed``: the HTP backend's graph-prepare
  lines, the QNN sample app's / qnn-net-run's stage lines and qnn-context-binary-generator's finalize chain;
* :func:`bench.build_source_grams.cython_strings` reads those string tables again, without the report lines
  that made RKNN's accuracy-analysis output look like a failure.

Every message is the source's format with made-up names and values, never an eval message.

Also from s31e_sources (test_knowledge_converters.py), s29g_specific (test_knowledge_tensorrt.py) and
s30e_sources (test_knowledge_torch_onnx.py): their notes stand in the docstrings named.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.answer import answer
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import (
    answered_by_entry,
    answered_first_with_values,
    answered_with_captures,
    answers_first,
    answers_first_above,
    assert_answered,
    first_answer,
    first_with_values,
    in_top3_with_values,
)

CASES = [
    # ---- h23u2 (test_knowledge_edge_vendor_wording_h23u2.py) ----
    (
        "rkllm init start\nI rkllm: rkllm-runtime version: 1.0.1\n\nQuery platform error!\nrkllm init failed",
        "rkllm-query-platform-error",
        ("rknpu", "librkllmrt.so", "target_platform"),
    ),
    (
        "failed to malloc npu memory\nrkllm_init failed\nsecond rkllm_init ret=-1",
        "rkllm-npu-malloc-failed",
        ("max_context_len", "rkllm_destroy"),
    ),
    (
        "I rkllm: loading rkllm model from /data/qwen.rkllm\nE rkllm: max_context[8192] must be less than "
        "the model's max_context_limit[2048]",
        "rkllm-max-context-over-model-limit",
        ("8192", "2048", "max_context=N"),
    ),
    (
        "E rkllm: error: prompt gather than max context (prompt: 2100 tokens, max context: 2048)",
        "rkllm-prompt-over-max-context",
        ("2100 tokens", "2048", "keep_history"),
    ),
    (
        "rkllm init start\nI rkllm: rkllm-runtime version: 1.2.0, rknpu driver version: 0.9.8, "
        "platform: RK3576\nE RKNN: [10:01:02.003] invalid rknn llm model magic\n"
        "E RKNN: [10:01:02.003] load model file error!",
        "rkllm-invalid-model-magic",
        ("git lfs pull", "RKLLM-Toolkit"),
    ),
    (
        "I rknn building ...\nE RKNN: [09:10:11.500] Unkown op target: 0\n"
        "E RKNN: [09:10:11.501] Unkown op target: 0",
        "rknn-unknown-op-target",
        ("target 0", "accuracy_analysis"),
    ),
    (
        "E RKNNAPI: rknn_server version is too old, please update rknn_server to at least 2.3.0",
        "rknn-server-too-old",
        ("2.3.0", "librknnrt.so"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "E RKNNAPI: rknn_init,  driver open fail!  ret = -9(ERROR_NOT_SUPPORTED)!",
        "rknn-runtime-driver-open-fail",
        ("/sys/kernel/debug/rknpu/version", "--device /dev/dri"),
    ),
    # ---- s21b (test_knowledge_rknn_runtime_api_and_qnn_status.py) ----
    # rknn-toolkit2 2.3.2: librknnmrt.so's (and librknnrt's) strings, include/rknn_api.h
    (
        "E RKNN: [10:11:12.345] rknn_set_io_mem, input(images) memory size must be: 1228800, but is: 921600",
        "rknn-s21b-set-io-mem-size",
        ("images", "1228800", "921600", "size_with_stride"),
    ),
    (
        "E RKNN: rknn_set_io_mem, output(det_out) tensor layout must be: NC1HWC2, but is: NCHW",
        "rknn-s21b-set-io-mem-type-layout",
        ("det_out", "NC1HWC2", "NCHW", "RKNN_QUERY_NATIVE_OUTPUT_ATTR"),
    ),
    (
        "E RKNN: rknn_set_io_mem, input(pixel_values) tensor type : FLOAT16 not supported "
        "in pass_through == 1",
        "rknn-s21b-set-io-mem-type-layout",
        ("pixel_values", "FLOAT16"),
    ),
    (
        "E RKNN: [03:04:05.006] rknn_inputs_set, invalid dtype: INT16, request dtype: UINT8",
        "rknn-s21b-inputs-set-type-layout",
        ("INT16", "UINT8", "pass_through=1"),
    ),
    (
        "W RKNN: [03:04:05.006] rknn_outputs_get, param output num(3) != model output num(1)",
        "rknn-s21b-io-count-size",
        ("outputs_get", "3", "RKNN_QUERY_IN_OUT_NUM"),
    ),
    (
        "E RKNN: rknn_inputs_set, param input size(307200) < model input size(1228800)",
        "rknn-s21b-io-count-size",
        ("307200", "1228800"),
    ),
    (
        "E RKNN: rknn_query, RKNN_QUERY_OUTPUT_ATTR, p_attr->index(2) >= output_num(2)!",
        "rknn-s21b-query-index-out-of-range",
        ("RKNN_QUERY_OUTPUT_ATTR", "index 2", "RKNN_QUERY_IN_OUT_NUM"),
    ),
    (
        "E RKNN: rknn_query, cmd = 19 is not in [0, 16]!",
        "rknn-s21b-query-unknown-cmd",
        ("19", "rknn_api.h"),
    ),
    (
        "E RKNN: rknn_dup_context not supported in mini runtime!",
        "rknn-s21b-mini-runtime-api",
        ("rknn_dup_context", "librknnmrt", "rknn_set_io_mem"),
    ),
    (
        "E RKNN: You must set RKNN_FLAG_MEM_ALLOC_OUTSIDE on rknn_init() "
        "if you want to call rknn_set_weight_mem!",
        "rknn-s21b-mem-alloc-outside-order",
        ("rknn_set_weight_mem", "RKNN_QUERY_MEM_SIZE"),
    ),
    (
        "E RKNN: rknn_run, input(input_ids) tensor not attached to memory!",
        "rknn-s21b-run-tensor-not-attached",
        ("input_ids", "rknn_set_io_mem", "rknn_create_mem"),
    ),
    (
        "E RKNN: [11:22:33.444] failed to allocate handle, ret: -1, errno: 12, "
        "errstr: Cannot allocate memory",
        "rknn-s21b-npu-memory-alloc-failed",
        ("Cannot allocate memory", "CmaFree", "rknn_destroy_mem"),
    ),
    (
        "E RKNN: [11:22:33.444] failed to allocate weight memory!, size: 73400320, flags: #12",
        "rknn-s20b-npu-alloc-failed",
        ("weight", "73400320", "CMA"),
    ),
    (
        "E RKNN: failed to parse operator target in config!",
        "rknn-s21b-model-config-unreadable",
        ("operator target", "target_platform", "RKNN_QUERY_SDK_VERSION"),
    ),
    (
        "E RKNN: failed to read weight data!, read size: 65536 != 2097152, errno: Success",
        "rknn-s21b-model-read-short",
        ("65536", "2097152", "weight data", "git lfs pull"),
    ),
    (
        "W RKNN: [07:08:09.010] output operator can not find nchw task for: logits, it will fallback to cpu!",
        "rknn-s21b-output-layout-cpu-fallback",
        ("logits", "nchw", "RKNN_QUERY_NATIVE_OUTPUT_ATTR"),
    ),
    (
        "E RKNN: InputOperator: not support input dtype=FP32, layout=NCHW, "
        "output dtype=INT8 , layout=NC1HWC2, please try pass_through=1 mode in set_io_mem",
        "rknn-s21b-input-operator-no-conversion",
        ("FP32", "INT8", "NC1HWC2", "pass_through=1"),
    ),
    (
        "E RKNN: [01:02:03.004] Meet unsupported indices dtype 8 for scatternd",
        "rknn-s21b-cpu-op-unsupported-type",
        ("scatternd", "indices", "INT64"),
    ),
    (
        "W RKNN: Current driver version: 0.9.2, recommend to upgrade the driver to the new version: >= 0.9.8",
        "rknn-s21b-driver-older-than-recommended",
        ("0.9.2", "0.9.8", "librknnrt.so"),
    ),
    # rknn-toolkit-lite2 2.3.2: rknnlite/api/rknn_lite.py and rknnlite/api/rknn_runtime.*.so's strings
    (
        "E inference: The lengths of inputs_pass_through and inputs are not equal.",
        "rknn-s21b-lite-inference-lists",
        ("inputs_pass_through", "astype"),
    ),
    (
        "W inference: The input[1] need NHWC data format, but the shape is not 4D, no data transpose.",
        "rknn-s21b-lite-input-data-format",
        ("input[1]", "img[None, ...]"),
    ),
    (
        "E inference: Set shape for input[0] failed. input data format = nchw, required = nhwc",
        "rknn-s21b-lite-set-shape-format",
        ("input[0]", "nchw", "nhwc", "dynamic_input"),
    ),
    (
        "W init_runtime: Query dynamic range failed. Ret code: -5. "
        "(If it is a static shape RKNN model, please ignore the above warning message.)",
        "rknn-s21b-lite-dynamic-range-query",
        ("-5", "static-shape", "RKNN_QUERY_SDK_VERSION"),
    ),
    (
        "E inference: inputs[1].dtype: float64 is not same as data_type[1]",
        "rknn-s21b-lite-inference-lists",
        ("float64", "data_type"),
    ),
    # ---- s22g: rknn-toolkit2 2.5.0 wheel, the compressed string tables of rknn/api/rknn_base (the API's
    # config/load/build/init_runtime/inference checks), rknn/api/rknn_platform (the board connection),
    # rknn/api/quantizer and rknn/api/rules/*.so (the graph rules) ----
    (
        "E inference: Please load & build model first!",
        "rknn-s22g-api-call-order",
        ("load & build", "init_runtime"),
    ),
    (
        "E load_tflite: The model has already been loaded, Please do not load again!",
        "rknn-s22g-api-repeat-call",
        ("rknn.release()", "new RKNN()"),
    ),
    (
        "E load_onnx: Model file /data/nets/detr_r50.onnx not exists!",
        "rknn-s22g-model-file-missing",
        ("/data/nets/detr_r50.onnx",),
    ),
    (
        "E load_tflite: The extension of 'seg_head.pb' is not '.tflite', "
        "please check if the model is correct!",
        "rknn-s22g-model-extension",
        ("seg_head.pb", "'.tflite'", "load_tensorflow"),
    ),
    (
        "E build: Dataset file calib_list.txt not found!",
        "rknn-s22g-dataset-file-missing",
        ("calib_list.txt", "dataset="),
    ),
    (
        "E config: Invalid float_dtype 'bfloat16', expect in ['float16']!",
        "rknn-s22g-config-invalid-value",
        ("float_dtype", "'bfloat16'", "accepted: 'float16'"),
    ),
    (
        "E config: The 'target_platform' has not been set yet, valid values are ['rk3576', 'rv1106'],\n"
        "          Please set it according to the actual platform!",
        "rknn-s22g-target-platform-unset",
        ("'rk3576', 'rv1106'", "target_platform="),
    ),
    (
        "E init_runtime: The 'target' is rk3576, but your config.target_platform is 'rk3562'!",
        "rknn-s22g-target-platform-mismatch",
        ("rk3576", "'rk3562'", "target_platform='rk3576'"),
    ),
    (
        "E build: Current target_platform(rv1103) not support do_quantization = False!",
        "rknn-s22g-float-unsupported-platform",
        ("rv1103", "do_quantization=True"),
    ),
    (
        "E init_runtime: Not support in simulator environment, please set target in init_runtime!",
        "rknn-s22g-simulator-unsupported",
        ("simulator", "target='rk3588'"),
    ),
    (
        "E build: Not support mode = cubic in 'Resize'!",
        "rknn-s22g-rule-attr-not-support",
        ("Resize", "mode = cubic", "outputs=[...]"),
    ),
    (
        "E load_onnx: The Op of 'DeformConv' is not supported yet, please remove it and try again!",
        "rknn-s22g-op-not-supported-yet",
        ("DeformConv", "reg_custom_op"),
    ),
    (
        "E build: The i_shape [1, 8, 2, 2] of Conv('stem.conv') smaller than kernel_shape [7, 7]!\n"
        "            The model can not be dynamic!",
        "rknn-s22g-dynamic-shape-check",
        ("Conv", "stem.conv", "dynamic_input="),
    ),
    (
        "E load_onnx: The input_size_list=[1, 3, 96, 96] is invalid! need to be a list of list!",
        "rknn-s22g-load-param-list",
        ("input_size_list", "1, 3, 96, 96", "[[1, 3, 640, 640]]"),
    ),
    (
        "E load_onnx: The output name head/logits is not exists. "
        "Please open the 'cls.onnx' using netron to view",
        "rknn-s22g-io-name-not-found",
        ("head/logits", "Netron"),
    ),
    (
        "E accuracy_analysis: The inputs[1].shape (3, 128, 128) is not correct! expect (1, 3, 128, 128)",
        "rknn-s22g-inference-input-shape",
        ("(3, 128, 128)", "(1, 3, 128, 128)", "np.expand_dims"),
    ),
    (
        "E inference: Feed 3 inputs, but the model has 1 inputs!",
        "rknn-s22g-inference-input-count",
        ("3 input", "per model input (1)"),
    ),
    (
        "E build: This model does not support expand batch, "
        "because the shape[0] of mask_in is not equal to 1!",
        "rknn-s22g-expand-batch",
        ("rknn_batch_size", "shape[0] of mask_in"),
    ),
    (
        "E config: The len of std_values (3) for input gray_in is wrong, expect 1!",
        "rknn-s22g-mean-std-len",
        ("std_values", "gray_in", "[[255]]"),
    ),
    (
        "E load_onnx: The input shape ['batch', 3, 512, 512] of 'frame' is not support!",
        "rknn-s22g-input-shape-not-fixed",
        ("frame", "input_size_list", "dynamic_input"),
    ),
    (
        "E build: Input tensor channel number must be equal to mean value, but 4 vs 3.",
        "rknn-s22g-mean-channel-count",
        ("4 vs 3", "mean_values=[[0, 0, 0]]"),
    ),
    (
        "E load_rknn: The 'yolo_v1_6.rknn' is invalid (wrong version)!",
        "rknn-s22g-rknn-file-invalid",
        ("yolo_v1_6.rknn", "wrong version", "export_rknn"),
    ),
    (
        "E init_runtime: Device [0123abcd] not found in ntb device list.",
        "rknn-s22g-board-connect-failed",
        ("adb devices", "rknn_server", "device_id="),
    ),
    (
        "E load_pytorch: Make sure that the torch version of './pose.pt' is consistent with the installed "
        "torch version '1.13.1'!",
        "rknn-s22g-torch-version",
        ("1.13.1", "torch.jit.trace"),
    ),
    (
        "W load_tensorflow: The installed TensorFlow version 2.10.1 may cause exceptions!",
        "rknn-s22g-tensorflow-version",
        ("2.10.1", "tf2onnx"),
    ),
    (
        "E build: Calibration data is not valid in tensor(logits_9), please change the input sample.",
        "rknn-s22g-calibration-data-invalid",
        ("logits_9", "dataset", "mean_values"),
    ),
    (
        "E load_onnx: The 'drop_2' of type Dropout is in Training mode, which is not supperted.",
        "rknn-s22g-training-mode",
        ("drop_2", "Dropout", "model.eval()"),
    ),
    (
        "W config: Generally, when the model input is an image, the range of mean_values/std_values "
        "should be in [0, 255], but the value you filled is less than 1,",
        "rknn-s22g-mean-std-scale",
        ("255", "123.675"),
    ),
    (
        "E init_runtime: The core_mask = 5 is invalid! valid values are in [0, 1, 2, 3, -1]!",
        "rknn-s22g-core-mask",
        ("core mask 5", "(0, 1, 2, 3, -1)", "NPU_CORE_"),
    ),
    (
        "W build: The output shape of 'box_out' is changed from [1, 84, 8400] to [1, 84, 8400, 1] "
        "in rknn model for performance!",
        "rknn-s22g-io-changed-for-performance",
        ("box_out", "shape", "rknn_query"),
    ),
    # ---- s23f: rknn-toolkit2 2.5.0 wheel, rknn/api/lib/linux-x86_64/librknnc.so (format strings) ----
    (
        "W RKNN: [08:09:10.111] GreaterOrEqual: meet unsupport input elems: 6 vs 2, fallback to cpu",
        "rknn-s23f-compiler-op-cpu-fallback",
        ("GreaterOrEqual", "meet unsupport input elems: 6 vs 2", "eval_perf"),
    ),
    (
        "W RKNN: [08:09:10.111] Compiler: LayerNorm: Shape not support Target:NPU, "
        "turn to Target:CPU implement.",
        "rknn-s23f-compiler-op-cpu-fallback",
        ("LayerNorm", "RKNN_Compiler_Support_Operator_List"),
    ),
    (
        "E RKNN: [08:09:10.111] Cannot import onnx model, got exception from ONNX: Unrecognized attribute: "
        "mode for operator GridSample",
        "rknn-s23f-compiler-onnx-import",
        ("import onnx model", "Unrecognized attribute: mode for operator GridSample", "onnx.checker"),
    ),
    (
        "E RKNN: [08:09:10.111] Meet unsupported sub operator with two constant inputs for rknpu!",
        "rknn-s23f-compiler-two-constant-inputs",
        ("sub", "onnxsim"),
    ),
    (
        "E RKNN: [08:09:10.111] Build op:/stem/pool/MaxPool error, Unspport asymmetric pad, when top pad(0) "
        "+ height(2) < height kernelsize(3)",
        "rknn-s23f-compiler-asymmetric-pad",
        ("/stem/pool/MaxPool", "top pad(0) + height(2) < height kernelsize(3)"),
    ),
    # ---- s24d: the RKNPU driver (rknpu_job.c), librknnrt 1.5.2 strings, RKLLM runtime lines ----
    # rknpu_job.c rknpu_job_abort: "job timeout, flags: %#x, irq status: %#x, ... task counter: %#x, ..."
    (
        "[  812.334455] RKNPU fdab0000.npu: RKNPU: job timeout, flags: 0x0, irq status: 0x0, "
        "raw status: 0x0, require mask: 0x300, task counter: 0x2a, elapsed time: 6004321us",
        "rknn-s24d-driver-job-timeout",
        ("0x2a", "/sys/kernel/debug/rknpu/version", "RKNN_LOG_LEVEL"),
    ),
    # rknpu_job.c rknpu_job_wait: "failed to wait job, task counter: %d, flags: %#x, ret = %d, elapsed time"
    (
        "RKNPU: failed to wait job, task counter: 7, flags: 0x1, ret = 0, elapsed time: 6001234us",
        "rknn-s24d-driver-job-timeout",
        ("task counter it prints, 7,", "soft reset"),
    ),
    # rknpu_job.c rknpu_job_abort: "job abort, flags: %#x, ret: %d, elapsed time: %lldus"
    (
        "RKNPU: job abort, flags: 0x5, ret: -512, elapsed time: 1500321us",
        "rknn-s24d-driver-job-abort",
        ("error -512", "ERESTARTSYS"),
    ),
    # rknpu_job.c rknpu_irq_handler: "invalid irq status: %#x, raw status: %#x, require mask: %#x, ..."
    (
        "RKNPU: invalid irq status: 0xc, raw status: 0xc, require mask: 0x300, task counter: 0x9",
        "rknn-s24d-driver-invalid-irq-status",
        ("(0xc)", "(0x300)", "job timeout"),
    ),
    # librknnrt: "invalid tensor malloc size, tensor name: %s, target: %s, size: %zu"
    (
        "E RKNN: [09:10:11.120] invalid tensor malloc size, tensor name: feat_up, target: NPU, size: 0",
        "rknn-s24d-tensor-malloc-size",
        ("0 bytes", "feat_up", "placed on NPU", "input_size_list"),
    ),
    # librknnrt: "Not support core mask: %x, fallback to single core auto mode"
    (
        "W RKNN: [09:10:11.120] Not support core mask: 3, fallback to single core auto mode",
        "rknn-s24d-runtime-core-mask",
        ("core mask 3,", "RKNN_NPU_CORE_AUTO"),
    ),
    # librknnrt: "core mask = %d is invalid for batch size: %d, fall back to CORE_AUTO mode"
    (
        "W RKNN: [09:10:11.120] core mask = 1 is invalid for batch size: 2, fall back to CORE_AUTO mode",
        "rknn-s24d-runtime-core-mask",
        ("core mask 1,", "rknn_batch_size 2"),
    ),
    # librknnrt: "pass_through mode only support channel 1, 2, 3, 4, in NHWC layout"
    (
        "E RKNN: [09:10:11.120] pass_through mode only support channel 1, 2, 3, 4, in NHWC layout",
        "rknn-s24d-runtime-input-format",
        ("pass_through=1", "RKNN_QUERY_NATIVE_INPUT_ATTR"),
    ),
    # librknnrt: "rknn_set_input_shapes error, %s fmt(%d) is invalid, only support NHWC or UNDEFINED ..."
    (
        "E RKNN: [09:10:11.120] rknn_set_input_shapes error, pixel_in fmt(2) is invalid, only support "
        "NHWC or UNDEFINED layout input",
        "rknn-s24d-runtime-input-format",
        ("fmt 2", "pixel_in", "RKNN_QUERY_INPUT_DYNAMIC_RANGE"),
    ),
    # librknnrt: "RKNN Model version: %d.%d.%d not match with rknn runtime version: %d.%d.%d"
    (
        "E RKNN: [09:10:11.120] RKNN Model version: 2.1.0 not match with rknn runtime version: 1.5.0",
        "rknn-s24d-model-newer-than-runtime",
        ("2.1.0", "1.5.0", "librknnrt.so"),
    ),
    # librknnrt: "This shared library is for RK356X/RK3588 platforms only!, hw_version = %d"
    (
        "E RKNN: [09:10:11.120] This shared library is for RK356X/RK3588 platforms only!, hw_version = 3",
        "rknn-s24d-runtime-wrong-soc",
        ("(RK356X/RK3588)", "hardware version 3", "librknnmrt.so"),
    ),
    # airockchip/rknn-llm#187, #290: RKLLM's "E rkllm: matmul(w8a8) run failed" on a driver older than 0.9.7
    (
        "I rkllm: rkllm-runtime version: 1.1.4, rknpu driver version: 0.8.2, platform: RK3588\n"
        "E rkllm: matmul(w4a16) run failed",
        "rkllm-s24d-matmul-run-failed",
        ("w4a16", "rknpu driver", "0.9.8"),
    ),
    # airockchip/rknn-llm#187: "W rkllm: Warning: Your rknpu driver version is too low, please upgrade to ..."
    (
        "W rkllm: Warning: Your rknpu driver version is too low, please upgrade to 0.9.8.",
        "rkllm-s24d-driver-too-low",
        ("(0.9.8)", "/sys/kernel/debug/rknpu/version"),
    ),
    # airockchip/rknn-llm#182: rkllm_init's ": error: failed to load model '%s'", no magic-characters line
    (
        "rkllm init start\nI rkllm: rkllm-runtime version: 1.1.4, rknpu driver version: 0.9.8, "
        "platform: RK3576\n\n: error: failed to load model 'tiny-chat-w4a16-rk3576.rkllm'\nrkllm init failed",
        "rkllm-s24d-failed-to-load-model",
        ("tiny-chat-w4a16-rk3576.rkllm", "RKLLM-Toolkit release"),
    ),
    # airockchip/rknn-llm#98, #297: RKLLM-Toolkit: "Catch exception when converting model: Not enough ..."
    (
        "ERROR: Catch exception when converting model: Not enough free space to write 4194304 bytes\n"
        "Export model failed!",
        "rkllm-s24d-export-no-space",
        ("4194304 bytes", "/dev/shm", "TMPDIR"),
    ),
    # librknnrt: "rknn_set_input_shape error, rknn model is static shape type, please export rknn with ..."
    (
        "E RKNN: [09:10:11.120] rknn_set_input_shape error, rknn model is static shape type, please export "
        "rknn with dynamic_shapes",
        "rknn-s24d-dynamic-shape-api",
        ("rknn_set_input_shape out of turn", "dynamic_input"),
    ),
    # librknnrt: "output[%d] buf size error, size = %u, expected size = %zu if want_float = %d"
    (
        "E RKNN: [09:10:11.120] output[2] buf size error, size = 256, expected size = 1024 if want_float = 1",
        "rknn-s24d-outputs-get-buf-size",
        ("output 2", "256 bytes", "1024 bytes", "is_prealloc"),
    ),
    # librknnrt: "rknn_create_mem, invalid size: %u"
    (
        "E RKNN: [09:10:11.120] rknn_create_mem, invalid size: 0",
        "rknn-s24d-create-mem-size",
        ("0 bytes", "RKNN_QUERY_NATIVE_INPUT_ATTR"),
    ),
    # s25c: rknn-toolkit2 2.3.2 wheel (librknnc.so, librknn_api.so, rknn_base/rknn_compiler/load_checker .so
    # strings), the rknpu kernel driver (rknpu_gem.c), rknn-toolkit v1's pre-compile example, rknn-llm
    # librknnc: "Meet unsupported mode in RoiAlign, mode: %s"
    (
        "E RKNN: [10:20:30.400] Meet unsupported mode in RoiAlign, mode: avg_x",
        "rknn-s25c-meet-unsupported-case",
        ("mode in RoiAlign, mode: avg_x", "RKNNToolKit2_OP_Support", "rknn_register_custom_ops"),
    ),
    # librknnc: "Meet unsupported tensor dtype in Mul, tensor name is: %s"
    (
        "E RKNN: [10:20:30.400] Meet unsupported tensor dtype in Mul, tensor name is: mul_out_9",
        "rknn-s25c-meet-unsupported-case",
        ("tensor dtype in Mul, tensor name is: mul_out_9", "outputs=[...]"),
    ),
    # librknnc: "Pad: unsupport pads < 0"
    (
        "E RKNN: [10:20:30.400] Pad: unsupport pads < 0",
        "rknn-s25c-op-form-unsupported",
        ("cannot build Pad", "unsupport pads < 0", "non-negative pads"),
    ),
    # librknnc: "Pow: unsupport input dims: %d vs %d"
    (
        "E RKNN: [10:20:30.400] Pow: unsupport input dims: 5 vs 2",
        "rknn-s25c-op-form-unsupported",
        ("cannot build Pow", "unsupport input dims: 5 vs 2", "same rank"),
    ),
    # librknnc: "Conv with output tensor name : %s failed to distrubute for DualCore Mode, fallback to ..."
    (
        "W RKNN: [10:20:30.400] Conv with output tensor name : head_conv_2 failed to distrubute for DualCore "
        "Mode, fallback to SingleCore Mode for this Conv",
        "rknn-s25c-multicore-single-core",
        ("'head_conv_2'", "rknn_set_core_mask", "eval_perf"),
    ),
    # librknn_api: "failed to malloc cpu memory, size: %lu"
    (
        "E RKNN: [11:22:33.444] failed to malloc cpu memory, size: 18446744073709000000",
        "rknn-s25c-cpu-memory-malloc",
        ("18446744073709000000 bytes", "input_size_list", "free -h"),
    ),
    # librknn_api: "failed to map memory, errno: %s",
    # "rknn_create_mem, failed to allocate device memory struct!"
    (
        "E RKNN: [11:22:33.444] failed to map memory, errno: 12",
        "rknn-s25c-runtime-map-memory",
        ("could not map", "errno 12", "ENOMEM", "cma="),
    ),
    (
        "E RKNN: [11:22:33.444] rknn_create_mem, failed to allocate device memory struct!",
        "rknn-s25c-runtime-map-memory",
        ("dmesg | grep -i rknpu", "/sys/kernel/debug/rknpu/version"),
    ),
    # rknpu driver rknpu_gem.c: LOG_DEV_ERROR(drm->dev, "failed to allocate %lu buffer.\n", size)
    (
        "RKNPU fdab0000.npu: RKNPU: failed to allocate 12582912 buffer.",
        "rknn-s25c-driver-buffer-alloc",
        ("12582912 bytes", "rknpu iommu is disabled", "cma=256M"),
    ),
    # rknn-toolkit v1 build(pre_compile=True): "E Generate nbg failed."
    (
        "D Generate pre-compile model data finished.\nE Generate nbg failed.",
        "rknn-s25c-v1-generate-nbg-failed",
        ("pre_compile=False", "rknn2precompile=True", "export_rknn_precompile_model"),
    ),
    # rknn_base: "The len of config.dynamic_input[{}] is {}, expect {}!"
    (
        "E config: The len of config.dynamic_input[2] is 3, expect 2!",
        "rknn-s25c-dynamic-input-config",
        ("counts 3 against 2", "one shape per model input"),
    ),
    # rknn_base: "The 'rknn_batch_size' is conflict with 'config.dynamic_input'!"
    (
        "E build: The 'rknn_batch_size' is conflict with 'config.dynamic_input'!",
        "rknn-s25c-dynamic-input-config",
        ("drop rknn_batch_size",),
    ),
    # rknn_base: "The '{}' in inputs={} is invalid!"
    (
        "E load_onnx: The 'Conv_17' in inputs=['Conv_17'] is invalid!",
        "rknn-s25c-load-crop-inputs",
        ("'Conv_17' given in inputs", "Netron", "tensor names"),
    ),
    # rknn_base: "Invalid shape = {} for input '{}', it's conflict with input_size_list = {}!"
    (
        "E load_onnx: Invalid shape = [1, 3, 512, 512] for input 'pixel_in', it's conflict with "
        "input_size_list = [[1, 3, 256, 256]]!",
        "rknn-s25c-load-crop-inputs",
        ("input 'pixel_in'", "one shape per entry of inputs="),
    ),
    # rknn_compiler: "RKNNCompiler_build failed. Error code: {}"
    (
        "E build: RKNNCompiler_build failed. Error code: -3",
        "rknn-s25c-compiler-build-failed",
        ("returned error -3", "'E RKNN:' lines above"),
    ),
    # librkllmrt (ggml inside rkllm_init): "ggml_calloc: failed to allocate %6.2f MB"
    (
        "I rkllm: rkllm-runtime version: 1.2.0, rknpu driver version: 0.9.8, platform: RK3588\n"
        "ggml_calloc: failed to allocate   0.00 MB\n:0: fatal error",
        "rkllm-s25c-ggml-calloc-failed",
        ("0.00 MB", "target_platform", "max_context_len"),
    ),
    # rkllm-toolkit export_rkllm: "Catch exception when converting model!"
    (
        "Converting model: 100%| 120/120 [00:00<00:00, 900.00it/s]\nCatch exception when converting model!\n"
        "Export model failed!",
        "rkllm-s25c-convert-exception",
        ("export_rkllm", "supported-model list"),
    ),
    # librknnrt's init lines ("RKNN Model Information, ... model inference type: %s") then a crash;
    # rknn-toolkit-lite2 examples/dynamic_shape
    (
        "I RKNN: [07:08:09.100] RKNN Model Information, version: 6, toolkit version: 2.2.0(compiler version: "
        "2.2.0), target: RKNPU v2, target platform: rk3576, framework name: ONNX, framework layout: NCHW, "
        "model inference type: dynamic_shape\nSegmentation fault (core dumped)",
        "rknn-s25c-dynamic-shape-model-crash",
        ("toolkit 2.2.0", "rknn_set_input_shapes", "dynamic_input"),
    ),
    # ggml.c ggml_new_tensor_impl's view check, linked into librkllmrt (rkllm.h max_context_len)
    (
        "assistant: :0: GGML_ASSERT(view_src == NULL || data_size == 0 || data_size + view_offs <= "
        "ggml_nbytes(view_src)) failed\n/opt/rkllm/lib/librkllmrt.so(+0x1a2b3c)[0x7f00112233]",
        "rkllm-s25c-ggml-view-assert",
        ("max_context_len", "rkllm_clear_kv_cache"),
    ),
    (
        "E load_pytorch: Catch exception when loading pytorch model: ./weights/net.pt",
        "rknn-s28b-load-other-format",
        (),
    ),
    ("E load_onnx: Not support QAT model!", "rknn-s28b-qat-model", ()),
    (
        "W load_onnx: Onnx opset22 is not fully supported, it may cause convert fail,"
        " it is recommended to use opset19!",
        "rknn-s28b-onnx-opset-not-fully-supported",
        ("22", "19"),
    ),
    (
        "E load_onnx: The 'com.ms.internal.nhwc' opset = 20, and onnxruntime only support to 18!",
        "rknn-s28b-ms-nhwc-opset",
        ("20",),
    ),
    (
        "E inference: The RK2118 does not support inference with NPU by toolkit!",
        "rknn-s28b-toolkit-npu-unsupported-platform",
        ("RK2118",),
    ),
    (
        "E build: The 'rknn_batch_size' is conflict with model input!",
        "rknn-s28b-rknn-batch-size",
        (),
    ),
    (
        "E inference: Model has 3 inputs, but inputs_pass_through lenght is 2, NOT EQUAL",
        "rknn-s28b-inference-list-lengths",
        ("inputs_pass_through",),
    ),
    (
        "W load_onnx: Output[1] shape with str value may cause error, replace 'anchors' with 1.",
        "rknn-s28b-output-shape-str",
        ("anchors",),
    ),
    (
        "E RKNN: [08:01:02.003] Not Support Dtype: 9. please check precision!",
        "rknn-s28b-compiler-dtype-precision",
        ("9",),
    ),
    (
        "E RKNN: [08:01:02.003] Weight backbone.0.weight (32, 16, 3, 3) assume to be 4 sparse,"
        " but failed when check sparse shape",
        "rknn-s28b-compiler-sparse-weight",
        ("backbone.0.weight",),
    ),
    ("E RKNN: [08:01:02.003] Meet Unsupport Broadcast type", "rknn-s28b-compiler-broadcast", ()),
    (
        "E RKNN: [08:01:02.003] Mul: tensor(/head/Mul_output_0) zero_point must be 0, but get -3!",
        "rknn-s28b-compiler-mul-zero-point",
        ("/head/Mul_output_0",),
    ),
    (
        "E RKNN: [08:01:02.003] Allocate conv cache tensor failed",
        "rknn-s28b-compiler-conv-cache-alloc",
        (),
    ),
    ("W Not get any connection of Dropout_12:out0", "rknn-s28b-v1-no-connection", ("Dropout_12",)),
    (
        "Error: Please provide the correct lora_model path, and advise it is the absolute path on the board.",
        "rkllm-s28b-server-demo-args",
        ("lora_model",),
    ),
    # rknn/api/rules/dims: "Only support constant '{}' in {} '{}'!"
    (
        "E load_onnx: Only support constant 'axes' in Slice '/head/Slice_7'!",
        "rknn-s29b-rule-const-input",
        ("'axes'", "Slice", "/head/Slice_7"),
    ),
    # rknn/api/rules/dims: "Not support 'roi' in Resize '{}' !"
    ("E load_onnx: Not support 'roi' in Resize 'up_2' !", "rknn-s29b-resize-roi", ("up_2",)),
    # rknn/api/rknn_utils: "Can not reshape from {} to {}"
    (
        "E build: Can not reshape from [1, 64, 40, 40] to [1, 2, 64, 400]",
        "rknn-s29b-reshape-shape-mismatch",
        ("1, 64, 40, 40", "1, 2, 64, 400"),
    ),
    # rknn/api/rknn_utils: "The two input shape {} and {} can not be broadcast!"
    (
        "E build: The two input shape [1, 8, 32] and [1, 9, 32] can not be broadcast!",
        "rknn-s29b-broadcast-shapes",
        ("1, 8, 32", "1, 9, 32"),
    ),
    # rknn/api/graph_optimizer: "Found Random node '{}', which is not supported, ..."
    (
        "E load_onnx: Found Random node 'RandomUniformLike_4', which is not supported, please remove it "
        "manually and try again!",
        "rknn-s29b-random-node",
        ("RandomUniformLike_4",),
    ),
    # rknn/api/rknn_platform: "Unsupport target_platform: {}!"
    ("E config: Unsupport target_platform: rk1808!", "rknn-s29b-unsupport-target-platform", ("rk1808",)),
    # rknn/api/rknn_platform: "Unsupport board system: {}!"
    ("E init_runtime: Unsupport board system: qnx!", "rknn-s29b-unsupport-board-os", ("system", "qnx")),
    # rknn/api/quantizer: "Quant algorithm='{}' is not supported!"
    (
        "E build: Quant algorithm='minmax' is not supported!",
        "rknn-s29b-quant-option-combination",
        ("minmax",),
    ),
    # rknn/api/graph_optimizer: "These outputs {} of model are constants, remove it from RKNN model!"
    (
        "W load_onnx: These outputs ['grid_0'] of model are constants, remove it from RKNN model!",
        "rknn-s29b-constant-io-removed",
        ("outputs", "grid_0"),
    ),
    # rknn/api/rknn_runtime: "Get performance detail Failed. Error code: {}"
    (
        "E eval_perf: Get performance detail Failed. Error code: -5",
        "rknn-s29b-board-query-failed",
        ("performance detail", "-5"),
    ),
    # rknn/api/rknn_runtime: "Target hardware platform need be pointed before get sdk version."
    (
        "E get_sdk_version: Target hardware platform need be pointed before get sdk version.",
        "rknn-s29b-sdk-version-needs-target",
        ("init_runtime(target=",),
    ),
    # rknn/api/rknn_base: "Inputs_yuv_fmt require inputs channel as 3,but got {}"
    ("E config: Inputs_yuv_fmt require inputs channel as 3,but got 4", "rknn-s29b-yuv-fmt", ("4",)),
    # rknn/api/rknn_base: "The '{}' in op_target is invalid! expect in {}!"
    (
        "E config: The 'dsp' in op_target is invalid! expect in ['cpu', 'npu']!",
        "rknn-s29b-op-target-config",
        ("dsp", "'cpu', 'npu'"),
    ),
    # rknn/api/quantizer: "Invalid operands name '{}' in custom_quantize_layers!"
    (
        "E hybrid_quantization_step2: Invalid operands name 'conv_out_9' in custom_quantize_layers!",
        "rknn-s29b-custom-quantize-layers",
        ("conv_out_9",),
    ),
    # rknn/api/ir_utils: "The Custom OP '{}' does not exist in the final RKNN model ..."
    (
        "W build: The Custom OP 'MyGelu' does not exist in the final RKNN model (may have been deleted by "
        "optimization),",
        "rknn-s29b-custom-op-removed",
        ("MyGelu",),
    ),
    # rknn/api/rknn_base: "Shape of input_initial_val[{}]={} is invalid!"
    (
        "E load_onnx: Shape of input_initial_val[1]=(3, 3) is invalid!",
        "rknn-s29b-input-initial-val",
        ("(3, 3)",),
    ),
    # the board runtime's batch check
    (
        "E RKNN: [09:01:02.345] only support input n_dims == 4 when batch_size > 1",
        "rknn-s29b-batch-input-ndims",
        ("rknn_batch_size",),
    ),
    # librknnmrt.so: "failed to open device, fd: %d"
    ("E RKNN: failed to open device, fd: -1", "rknn-s19d-runtime-open-device", ("/dev/dri/renderD129",)),
    # rknn/api/rknn_runtime: "Call rknn_get_sdk_version Failed. Error code: {}  DRV: {}"
    (
        "E get_sdk_version: Call rknn_get_sdk_version Failed. Error code: -3  DRV: 0",
        "rknn-s29b-board-query-failed",
        ("rknn_get_sdk_version", "-3"),
    ),
    (
        "E RKNN: [01:02:03.004] only support input n_dims == 4 when batch_size > 1\n"
        "E RKNN: [01:02:03.005] rknn_init, load model failed!",
        "rknn-s29b-batch-input-ndims",
        ("rknn_batch_size=1",),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


CONFIDENT_CASES = [
    # ---- s18d (test_knowledge_qualcomm_rknn_sources_s18d.py) ----
    # rknn_runtime: "Can not find dynamic library on {}!"
    (
        "E init_runtime: Can not find dynamic library on Linux_zz64!",
        "rknn-s18d-lite2-librknnrt-not-found",
        ("Linux_zz64", "/usr/lib/librknnrt.so", "rknpu2/runtime/Linux/librknn_api/aarch64"),
    ),
    # rknn_runtime: "!!! It is detected that {} is missing in the container."
    (
        "!!! It is detected that /dev/dri/renderD129 is missing in the container.",
        "rknn-s18d-lite2-container-files-missing",
        ("/dev/dri/renderD129", "-v /usr/lib/librknnrt.so:/usr/lib/librknnrt.so"),
    ),
    # rknn_runtime: "Unsupported target: {}! Currently, RKNN Toolkit Lite support these targets: {}"
    (
        "E init_runtime: Unsupported target: rk9999! Currently, RKNN Toolkit Lite support these targets: "
        "['RK3562', 'RK3566', 'RK3568', 'RK3576', 'RK3588']",
        "rknn-s18d-lite2-unsupported-target",
        ("init_runtime(target=rk9999)", "without target", "rknn-toolkit-lite (v1)"),
    ),
    # rknn_lite.py init_runtime: the message is printed with its "{}" unformatted
    (
        "E init_runtime: RKNN Toolkit Lite2 does not support simulator, please specify the target: {}",
        "rknn-s18d-lite2-no-simulator",
        ("aarch64", "rknn-toolkit2"),
    ),
    # rknn_lite.py load_rknn: "Invalid RKNN model path: {}"
    (
        "E load_rknn: Invalid RKNN model path: ./zz_models/zz_det.rknn",
        "rknn-s18d-lite2-model-path-invalid",
        ("load_rknn(./zz_models/zz_det.rknn)", "absolute path"),
    ),
    # rknn_lite.py inference
    (
        "E inference: Runtime environment is not inited, please call init_runtime to init it first!",
        "rknn-s18d-lite2-step-not-done",
        ("Runtime environment is not inited", "if ret != 0"),
    ),
    # rknn_runtime: "The core_mask is only supported by {}. Please do not set this parameter on other
    # platforms."
    (
        "W init_runtime: The core_mask is only supported by ['RK3576', 'RK3588']. Please do not set this "
        "parameter on other platforms.",
        "rknn-s18d-lite2-core-mask-platform",
        ("NPU_CORE_AUTO", "RK3566"),
    ),
    # rknn_runtime: check_dynamic_shape
    (
        "W init_runtime: The runtime library does not support dynamic shape.",
        "rknn-s18d-lite2-runtime-no-dynamic-shape",
        ("dynamic_input", "librknnrt version"),
    ),
    # rknn_runtime set_inputs: "E Unsupport inputs[{}].dtype: {}"
    (
        "E Unsupport inputs[2].dtype: float64",
        "rknn-s18d-lite2-input-dtype",
        ("input 2", "float64", "astype(np.float32)"),
    ),
    # rknn_runtime set_inputs: "The input[{}] need {}dims input, but {}dims input buffer feed."
    (
        "W inference: The input[1] need 4dims input, but 3dims input buffer feed. Please try to feed input "
        "as 4D data.",
        "rknn-s18d-lite2-input-dims",
        ("Model input 1 has 4 dimensions", "3-dimensional", "np.expand_dims(img, 0)"),
    ),
    # rknn_runtime set_inputs: "E Size of inputs[{}] is invalid!"
    (
        "E Size of inputs[3] is invalid!",
        "rknn-s18d-lite2-input-size",
        ("inputs[3]", "RKNN_QUERY_INPUT_ATTR"),
    ),
    # rknn_runtime set_inputs: "E Type of inputs[{}] is not np.ndarray!"
    (
        "E Type of inputs[0] is not np.ndarray!",
        "rknn-s18d-lite2-inputs-not-list",
        ("inference(inputs=[np.asarray(img)])",),
    ),
    # ---- s20b (test_knowledge_qualcomm_rknn_sources_s20b.py) ----
    # librknnmrt: "Mismatch driver version, %s requires driver version >= %d.%d.%d, but you have driver
    # version: %d.%d.%d which is incompatible!"
    (
        "E RKNN: [08:15:02.417] Mismatch driver version, librknnrt.so requires driver version >= 0.9.6, "
        "but you have driver version: 0.7.3 which is incompatible!",
        "rknn-s20b-driver-version-mismatch",
        ("librknnrt.so", "0.9.6", "0.7.3", "/sys/kernel/debug/rknpu/version"),
    ),
    # librknnmrt: "failed to open model: %s"
    (
        "E RKNN: failed to open model: ./weights/det_zz.rknn",
        "rknn-s20b-model-file-open-failed",
        ("./weights/det_zz.rknn", "ls -l ./weights/det_zz.rknn"),
    ),
    # librknnmrt: "invalid rknn model magic: %llx"
    (
        "E RKNN: invalid rknn model magic: 8b4a0c2f",
        "rknn-s19d-runtime-invalid-magic",
        ("8b4a0c2f", "export_rknn()"),
    ),
    # librknnmrt: "failed to read model magic!, read size: %zu != %zu, errno: %s"
    (
        "E RKNN: failed to read model magic!, read size: 3 != 8, errno: Success",
        "rknn-s19d-runtime-invalid-magic",
        ("git lfs pull",),
    ),
    # librknnmrt: "This model unsupport NHWC output, please query RKNN_QUERY_NATIVE_OUTPUT_ATTR not ..."
    (
        "E RKNN: This model unsupport NHWC output, please query RKNN_QUERY_NATIVE_OUTPUT_ATTR not "
        "RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR",
        "rknn-s20b-nhwc-output-unsupported",
        ("RKNN_QUERY_NATIVE_OUTPUT_ATTR", "NC1HWC2", "want_float"),
    ),
    # librknnmrt: "op: %s, name: %s, fallback cpu failed"
    (
        "E RKNN: op: ScatterND, name: /head/ScatterND_7, fallback cpu failed",
        "rknn-s20b-cpu-fallback-op-failed",
        ("ScatterND", "/head/ScatterND_7", "librknnmrt.so", "outputs=[...]"),
    ),
    # librknnmrt: "failed to allocate weight memory!, size: %d, flags: #%x"
    (
        "E RKNN: failed to allocate weight memory!, size: 48234496, flags: #3",
        "rknn-s20b-npu-alloc-failed",
        ("48234496", "weight buffer", "free -m", "cma"),
    ),
    # librknnmrt: "failed to open %s node, need to insmod rknpu dirver!"
    (
        "E RKNN: failed to open /dev/rknpu_zz node, need to insmod rknpu dirver!",
        "rknn-no-npu-driver",
        ("/dev/rknpu_zz", "dmesg | grep -i rknpu"),
    ),
    # rknn_server: "%ld SERVER %s(%d): Can not find valid rknpu runtime shared library!"
    (
        "4021 SERVER load_runtime(211): Can not find valid rknpu runtime shared library!",
        "rknn-s20b-server-no-runtime-lib",
        ("librknnrt.so", "/oem/usr/lib", "killall rknn_server"),
    ),
    # rknn_server: "dlsym rknn_set_input_shapes failed: %s, reuqired %s >= 1.5.2!"
    (
        "4021 SERVER load_runtime(305): dlsym rknn_set_input_shapes failed: /usr/lib/librknnrt.so: undefined "
        "symbol: rknn_set_input_shapes, reuqired librknnrt.so >= 1.5.2!",
        "rknn-s20b-server-runtime-too-old",
        ("rknn_set_input_shapes", "librknnrt.so", "1.5.2"),
    ),
    # rknn_server: "Input Number error: expect %lu, but actual %u "
    (
        "4021 SERVER handle_run(640): Input Number error: expect 3, but actual 2 ",
        "rknn-s20b-server-io-count",
        ("3 inputs/outputs", "2 were given", "inference(inputs=[...])"),
    ),
    # rknn_server: "Invalid header version, except %d, got %d"
    (
        "4021 SERVER recv_header(97): Invalid header version, except 5, got 4",
        "rknn-s20b-server-header-version",
        ("version is 4", "version 5", "pip show rknn-toolkit2"),
    ),
    # rknn_runtime: "The rknn_server on the concected device is abnormal, please start the rknn_server ..."
    (
        "E init_runtime: The rknn_server on the concected device is abnormal, please start the rknn_server "
        "on the device according to:",
        "rknn-s20b-server-not-running",
        ("adb shell ps -ef | grep rknn_server", "chmod +x"),
    ),
    # rknn_runtime: "Failed to get rknn server version, please check if rknn_server is running."
    (
        "E init_runtime: Failed to get rknn server version, please check if rknn_server is running.",
        "rknn-s20b-server-not-running",
        ("nohup /usr/bin/rknn_server",),
    ),
    # rknn_runtime: 'Run timeout, ... for example: "export RKNN_RUN_TIMEOUT_SEC=300".'
    (
        "E inference: Run timeout, if you load a very large model, please set a larger timeout by "
        'environment variable and restart, for example: "export RKNN_RUN_TIMEOUT_SEC=300".',
        "rknn-s20b-run-timeout-env",
        ("RKNN_RUN_TIMEOUT_SEC=300", "RKNN-Toolkit-Lite2"),
    ),
    # rknn_runtime: "model size is greater than 8MB, rknn server version is lower than 2.0.0b0, ..."
    (
        "E init_runtime: model size is greater than 8MB, rknn server version is lower than 2.0.0b0, can not "
        "support split model, please update rknn server version to 2.0.1 or higher.",
        "rknn-s20b-server-split-model",
        ("2.0.0b0", "rknpu2/runtime/Linux/rknn_server/aarch64/usr/bin/rknn_server"),
    ),
    # rknn_platform: "Device will use adb forward to communicate, but npu_transfer_proxy is running. ..."
    (
        "E init_runtime: Device will use adb forward to communicate, but npu_transfer_proxy is running. "
        "Please kill it manually, or it will lead to conflict.",
        "rknn-s20b-npu-transfer-proxy-conflict",
        ("ps aux | grep npu_transfer_proxy", "device_id"),
    ),
    # rknn_base: "If set do_quantization = True or auto_hybrid = True, dataset file need be provided. But it`s
    # value is None!"
    (
        "E build: If set do_quantization = True or auto_hybrid = True, dataset file need be provided. "
        "But it`s value is None!",
        "rknn-s20b-build-dataset-none",
        ("dataset='./dataset.txt'", "do_quantization=False"),
    ),
    # rknn_base: "If a quantized model has been import, please set do_quantization = False."
    (
        "E build: If a quantized model has been import, please set do_quantization = False.",
        "rknn-s20b-build-prequantized-model",
        ("build(do_quantization=False)", "QuantizeLinear"),
    ),
    # rknn_base: "The '.pth' suffix is not supported, please use 'torch.jit.trace' to save the model, and with
    # '.pt' as the suffix name!"
    (
        "E load_pytorch: The '.pth' suffix is not supported, please use 'torch.jit.trace' to save the model, "
        "and with '.pt' as the suffix name!",
        "rknn-s20b-load-pytorch-pth",
        ("traced.save('model.pt')", "input_size_list"),
    ),
    # rknn_base: "If 'inputs' set, the 'input_size_list' should be set also!"
    (
        "E load_onnx: If 'inputs' set, the 'input_size_list' should be set also!",
        "rknn-s20b-input-size-list-without-inputs",
        ("only one of inputs and input_size_list", "inputs=['images']"),
    ),
    # rknn_base: "Invalid quantized_dtype '{}', ..."
    (
        "E config: Invalid quantized_dtype 'asymmetric_affine-u8'",
        "rknn-s20b-config-invalid-quant-option",
        ("quantized_dtype='asymmetric_affine-u8'", "asymmetric_quantized-8"),
    ),
    # ---- s19d (test_knowledge_trt_rknn_ascend_s19d.py) ----
    # --- RKNN: connected-board client (librknn_api.so) ---
    (
        "E RKNNAPI: rknn_init,  server connect fail!  ret = -9(ERROR_PIPE)!",
        "rknn-s19d-api-server-connect-fail",
        ("-9(ERROR_PIPE)", "adb devices", "rknn_server"),
    ),
    (
        "E NPUTransfer(4321): Cannot connect to proxy: Connection refused",
        "rknn-s19d-api-server-connect-fail",
        ("Connection refused", "restart_rknn.sh"),
    ),
    (
        "E RKNNAPI: rknn_init,  recv(MsgLoadAck) fail, -9(ERROR_PIPE) != 12!",
        "rknn-s19d-api-msg-exchange-fail",
        ("rknn_init", "MsgLoadAck"),
    ),
    ("E RKNNAPI: RKNN VERSION UNMATCH!", "rknn-s19d-api-version-unmatch", ("librknnrt.so", "rknn_server")),
    (
        "E RKNNAPI: rknn_inputs_set,  inputs[1].buf wrong, buf = 0x7fzz, size = 4800 (attr.size = 1200), "
        "pass through = 0!",
        "rknn-s19d-api-input-buffer-size",
        ("input 1", "4800 bytes", "1200 bytes"),
    ),
    ("E RKNNAPI: rknn_inputs_set,  n_inputs = 1, expect 3!", "rknn-s19d-api-input-count", ("1 input", "(3)")),
    ("E RKNNAPI: rknn_run,  input 2 hasn't been seted!", "rknn-s19d-api-input-not-set", ("input 2",)),
    (
        "E RKNNAPI: Set input failed! only support uint8 dtype, please check your inputs of "
        "rknn.inference()!",
        "rknn-s19d-api-uint8-only",
        ("astype(np.uint8)",),
    ),
    (
        "E RKNNAPI: SET_CORE_MASK fail, ack = ACK_FAIL, expect = ACK_SUCC! Please confirm that it is called "
        "on "
        "multi-core NPU platforms!",
        "rknn-s19d-api-core-mask-single-core",
        ("NPU_CORE_AUTO", "ACK_FAIL"),
    ),
    (
        "W RKNNAPI: Input[1]:zz_mask n_dims = 2, mean_values and std_values is invalid!",
        "rknn-s19d-api-mean-std-ndims",
        ("zz_mask", "2 dimensions"),
    ),
    # --- RKNN: compiler and its runtime (librknnc.so) ---
    (
        "E RKNN: [10:00:00.000] Meet RKNN unsupport Operator: name = '/zz/ZzOp_3', type = ZzOp, it will be "
        "treated as a custom operator. Please call rknn_register_custom_ops in the RKNN C API to register "
        "the "
        "operator.",
        "rknn-s19d-compiler-unsupported-op-custom",
        ("ZzOp", "/zz/ZzOp_3", "rknn_register_custom_ops"),
    ),
    (
        "E RKNN: [10:00:00.000] Depthwise: Invalid kernel width of 11. Must be an integer in [1, 8]",
        "rknn-s19d-compiler-layer-param-range",
        ("Depthwise", "kernel width", "11", "[1, 8]"),
    ),
    (
        "E RKNN: [10:00:00.000] Layer configuration has exceeded hardware limitation",
        "rknn-s19d-compiler-hw-limit",
        ("input resolution",),
    ),
    (
        "E RKNN: [10:00:00.000] RK3588 library do not support generate RK3566/RK3568 rknn model, exit now",
        "rknn-s19d-compiler-target-library-mismatch",
        ("RK3566/RK3568", "target_platform"),
    ),
    (
        "E RKNN: [10:00:00.000] Conv: quantize parameter error, clip_truncate must >=0, plz make sure "
        "bias_scale > weight_scale * input_scale",
        "rknn-s19d-compiler-bias-scale",
        ("weight_scale * input_scale",),
    ),
    (
        "E RKNN: [10:00:00.000] dynamic shape parameter is invalid. onnx models(3) vs dynamic shape(1)!",
        "rknn-s19d-compiler-dynamic-shape-count",
        ("3 inputs", "3 shapes"),
    ),
    (
        "E RKNN: [10:00:00.000] invalid model path: ./zz.rknn, real_model_offset(0) + real_model_size(9999) "
        "> "
        "total_file_size(100)",
        "rknn-s19d-runtime-invalid-magic",
        ("./zz.rknn", "git lfs pull"),
    ),
    (
        "E RKNN: [10:00:00.000] failed to check rknpu hardware version: 0x0",
        "rknn-s19d-runtime-open-device",
        ("0x0", "/dev/dri/renderD129"),
    ),
    (
        "E RKNN: [10:00:00.000] the size of channel_mean, channel_std, channel_order must be equal",
        "rknn-s19d-compiler-mean-std-size",
        ("mean_values=[[0, 0, 0]]",),
    ),
    (
        "W RKNN: [10:00:00.000] Transpose will fallback to CPU, because input shape has exceeded the max "
        "limit, "
        "height(64) * width(9000) = 576000, required product no larger than 16384!",
        "rknn-s19d-compiler-transpose-cpu-fallback",
        ("64", "9000", "16384"),
    ),
    # airockchip/rknn-toolkit2 doc/rknn_server_proxy.md: the runtime's form without errstr
    (
        "E RKNN: [03:12:45.101] failed to allocate fd, ret: -1, errno: 12",
        "rknn-s21b-npu-memory-alloc-failed",
        ("RkLunch-stop.sh",),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


# ---- h23u2 (test_knowledge_edge_vendor_wording_h23u2.py) ----

# (the tool's own line, the family it names)
MARKED = [
    # rknn-toolkit2 2.5.0 rknn/api/lib/linux-x86_64/librknn_api.so
    (
        "I NPUTransfer(5123): Starting NPU Transfer Client, Transfer version 2.2.2 (12abf2a@2024-09-02)",
        "rknn",
    ),
    ("E NPUTransfer(5123): Alloc buffer failed!, size = 4096", "rknn"),
    # qualcomm/fastrpc inc/adsp_*.h: the skel URI a failed open quotes
    (
        "Error 0x80000406: remote_handle64_open failed for file:///libggml-htp-v79.so?htp_iface_skel_handle_invoke"
        "&_modver=1.0&_dom=cdsp",
        "qualcomm",
    ),
    ("uri file:///libmy_npu_skel_v73.so?my_npu_skel_handle_invoke&_modver=1.0", "qualcomm"),
    # onnxruntime-qnn 2.7.0 QnnHtp.dll / QnnHtpPrepare.dll
    ("opt.cc:2837::ERROR:Graph prepare failed during optimization with err: 17, Fatal Optimize", "qualcomm"),
    # the QAIRT converters' package as a path
    (
        '  File "/sdk/2.40.0/lib/python/qti/aisw/converters/onnx/onnx_to_ir.py", line 643, in convert\n'
        "    raise RuntimeError('bad input')",
        "qualcomm",
    ),
    (
        '  File "C:\\sdk\\lib\\python\\qti\\aisw\\converters\\onnx\\onnx_to_ir.py", line 12, in convert',
        "qualcomm",
    ),
    # llama.cpp ggml/src/ggml-hexagon
    ("ggml-hex: HTP0 dspqueue_create failed: 0x0000000e", "qualcomm"),
    # ai-edge-litert 2.3.0 libLiteRt.so
    (
        "An older version of this builtin might be supported. Are you using an old binary?",
        "tflite",
    ),
    (
        "Select TensorFlow op(s), included in the given model, is(are) not supported by this interpreter.",
        "tflite",
    ),
    # alibaba/MNN tools/converter/source
    ("Check failed: (notSupportOps.size()) == (0). Convert Failed", "mnn"),
    ("ReductionTflite.cpp:67: Check failed: false ==> Not Supported!!! Reduction Op: 12", "mnn"),
    ("Not Support This Pooling Type: FractionalMaxPool", "mnn"),
    ("Const Data Type Not Supported!!!==> 19", "mnn"),
    ("Framework Input ERROR or Not Support This Model Type Now!", "mnn"),
    # Tencent/ncnn src/net.cpp: the Extractor's hint
    ('find_blob_index_by_name img failed\nTry\n    ex.input("in0", in0);', "ncnn"),
    ('find_blob_index_by_name score failed\nTry\n    ex.extract("out0", out0);', "ncnn"),
    # Core ML's runtime log, Apple's BNNS Graph compile error
    ("[coreml] Failure in -executePlan:error:.", "coreml"),
    ("BNNS Graph Compile: Function main has tensor x as both an input and output.", "coreml"),
]


@pytest.mark.parametrize(("line", "family"), MARKED, ids=[f"{f}-{i}" for i, (_, f) in enumerate(MARKED)])
def test_the_tool_s_own_line_names_it(line: str, family: str) -> None:
    assert detect_families(line)[:1] == [family]


def test_an_unnamed_gguf_magic_check_is_not_rkllm_s(kb: KnowledgeBase) -> None:
    """The RKLLM runtime reads its model with a GGUF-style header check whose wording llama.cpp also prints:
    the entry's pattern counts only where RKLLM is named."""
    shown = answer(kb, "gguf_init_from_file: invalid magic characters 'abcd'")
    assert not shown.matches or shown.matches[0].entry.id != "rkllm-invalid-model-magic"


def test_a_log_scan_reports_the_rkllm_line(kb: KnowledgeBase) -> None:
    log = "rkllm init start\nI rkllm: loading model\nfailed to malloc npu memory\nrkllm_init failed\n"
    problems = scan_log(io.StringIO(log), kb)
    assert any(p.matches[0].entry.id == "rkllm-npu-malloc-failed" for p in problems)


# ---- s18d (test_knowledge_qualcomm_rknn_sources_s18d.py) ----


def test_lite2_input_captures_stop_at_the_value(kb: KnowledgeBase) -> None:
    top = kb.lookup("E Unsupport inputs[0].dtype: float16x. Please check.", top=1)[0]
    assert top.entry.id == "rknn-s18d-lite2-input-dtype"
    assert dict(top.captures) == {"index": "0", "dtype": "float16x"}


# ---- s20b (test_knowledge_qualcomm_rknn_sources_s20b.py) ----


def test_driver_versions_captured_exactly(kb: KnowledgeBase) -> None:
    top = kb.lookup(
        "E RKNN: Mismatch driver version, librknnmrt.so requires driver version >= 0.9.2, but you have "
        "driver version: 0.8.8 which is incompatible!",
        top=1,
    )[0]
    assert dict(top.captures) == {"file": "librknnmrt.so", "version": "0.9.2", "version2": "0.8.8"}


def test_fallback_capture_stops_at_the_name(kb: KnowledgeBase) -> None:
    top = kb.lookup("E RKNN: op: TopK, name: /post/TopK_1, fallback cpu failed", top=1)[0]
    assert dict(top.captures) == {"op_type": "TopK", "op": "/post/TopK_1"}


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # any tool's "failed to open model": the RKNN entry answers it only after the runtime's "RKNN:" prefix
        ("Failed to open model: /srv/zz/detector.onnx", "rknn-s20b-model-file-open-failed"),
        # a symbol another library could not resolve is no QNN HTP stub of another release
        ("Failed to resolve symbol 'zz_plugin_init' in libzz.so", "qualcomm-s20b-stub-symbol-missing"),
    ],
)
def test_generic_wording_is_not_claimed(kb: KnowledgeBase, message: str, entry: str) -> None:
    found = kb.answer(message)
    assert not (found.confident and found.matches[0].entry.id == entry)


# ---- rknn_code_cards (test_knowledge_rknn_code_cards.py) ----


def test_rknn_init_failure_answers_with_the_data_type_line_before_it(kb: KnowledgeBase) -> None:
    """The return code's card (RKNN_ERR_FAIL) says what the code means in general: the runtime's own line
    before it, an operator it cannot run for a data type, answers first; the code stays in the answer."""
    text = (
        "I RKNN: [08:10:11.000] RKNN Runtime Information, librknnrt version: 1.5.2\n"
        "E RKNN: [08:10:11.123] Meet unsupported Cast, dtype = 7\n"
        "E RKNN: [08:10:11.124] rknn_init, load model failed!\nrknn_init fail! ret=-1"
    )
    found = kb.lookup(text, top=5)
    assert found[0].entry.id == "rknn-meet-unsupported-abc-dtype"
    assert dict(found[0].captures) == {"arg": "Cast", "dtype": "7"}
    assert "[Cast]" in found[0].cause and "float16" in found[0].fix
    assert any(m.entry.id == "rknn-RKNN-ERR-FAIL-1" for m in found)


def test_rknn_model_version_still_answers_a_failed_init(kb: KnowledgeBase) -> None:
    """The return code's card goes under the line that says why, not over it."""
    text = (
        "E RKNN: [02:59:59.949] Invalid RKNN model version 6\n"
        "E RKNN: [02:59:59.949] rknn_init, load model failed!\nrknn_init fail! ret=-1"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "rknn-RKNN-ERR-MODEL-INVALID-6"
    assert dict(top.captures)["version"] == "6"


def test_a_code_card_follows_the_line_that_says_why(kb: KnowledgeBase) -> None:
    """RKNN's return-code cards (level 'code') go under the runtime's own line, and stay in the answer."""
    text = (
        "E RKNN: failed to open rknpu module, need to insmod rknpu dirver!\n"
        "Exception: RKNN init failed. error code: RKNN_ERR_FAIL"
    )
    found = kb.lookup(text, top=3)
    assert [m.entry.id for m in found[:2]] == ["rknn-no-npu-driver", "rknn-RKNN-ERR-FAIL-1"]


# ---- rknn_submit (test_knowledge_rknn_submit.py) ----


@pytest.mark.parametrize("bang", ["!", ""])
def test_failed_to_submit_names_the_op_in_both_forms(kb: KnowledgeBase, bang: str) -> None:
    text = (
        f"E RKNN: [07:15:34.839] failed to submit{bang}, op id: 42, op name: Split:/Gather_64_2sl_2sp, "
        "flags: 0x5, task start: 8, task number: 2, run task counter: 0, int status: 0"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "rknn-failed-to-submit"
    assert dict(top.captures) == {"arg": "42", "op": "Split:/Gather_64_2sl_2sp"}
    assert "Split:/Gather_64_2sl_2sp" in top.cause


def test_another_submit_failure_is_no_pattern_match(kb: KnowledgeBase) -> None:
    """Without the op id and name the runtime prints, at most a partial match (medium confidence)."""
    found = [m for m in kb.lookup("failed to submit the job, op id unknown", top=5)]
    assert not any(m.entry.id == "rknn-failed-to-submit" and m.reason.startswith("pattern") for m in found)


# ---- round10 (test_knowledge_round10.py) ----

# (entry id, message from the source's wording with our own values, values the answer must show)
VALUE_CASES = [
    (
        "rknn-failed-to-submit",
        "E RKNN: [08:00:01.100] failed to submit!, op id: 7, op name: MaxPool:/pool/MaxPool, flags: 0x5, "
        "task start: 2, task number: 9, run task counter: 0, int status: 0",
        ("MaxPool:/pool/MaxPool", "rknn_dup_context"),
    ),
]


test_the_entry_answers_first_with_the_message_values = answered_first_with_values(VALUE_CASES)


# ---- round12 (test_knowledge_round12.py) ----


def test_the_rknn_register_field_overflow_quotes_value_and_limit(kb: KnowledgeBase) -> None:
    text = (
        "E RKNN: [08:09:10.111] REGTASK: The bit width of field value exceeds the limit, target: v2, offset: "
        "0x4020, shift = 0, limit: 0xffff, value: 0x12000"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "rknn-regtask-field-bit-width-exceeded"
    assert "0x12000" in top.cause and "0xffff" in top.cause


# ---- round14 (test_knowledge_round14.py) ----


@pytest.mark.parametrize("level", ["D", "I", "W"])
def test_a_bare_cpp_exception_after_the_rknn_logger_is_rknns(kb: KnowledgeBase, level: str) -> None:
    text = (
        f"{level} RKNN: [09:15:02.417] >>>>>> start: rknn::FuseTwoLayersPass\n"
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)\nAborted"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "rknn"


def test_the_rknn_namespace_alone_names_rknn(kb: KnowledgeBase) -> None:
    text = (
        "terminate called after throwing an instance of 'std::out_of_range' in rknn::SplitConvPass\n"
        "what(): vector::_M_range_check: __n (which is 7) >= this->size() (which is 1)"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "rknn"


def test_an_info_line_of_the_rknn_logger_is_no_problem(kb: KnowledgeBase) -> None:
    log = "I RKNN: [09:15:02.417] compress = 0, conv_eltwise_activation_fuse = 1\nstep done\n"
    assert scan_log(io.BytesIO(log.encode()), kb) == []


# ---- round16 (test_knowledge_round16.py) ----


@pytest.mark.parametrize(
    "text",
    [
        "rkllm init start\nfailed to allocate npu memory\nrkllm init failed",
        "ret = rkllm_init(&handle, &param, &callback); returned -1",
        "OSError: librkllmrt.so: cannot open shared object file: No such file or directory",
    ],
)
def test_rkllm_names_rknn(kb: KnowledgeBase, text: str) -> None:
    assert kb.lookup(text, top=1)[0].entry.family == "rknn"


# ---- round21_forms (test_knowledge_round21_forms.py) ----

CAPTURE_CASES = [
    (
        "E RKNN: [09:00:00.001] failed to malloc npu memory, size: 2048000000, flags: 0x2\n"
        "E rkllm: rkllm_init failed",
        "rknn-h23v2-failed-to-malloc-npu-memory",
        {"value": "2048000000"},
        "/sys/kernel/debug/rknpu/version",
    ),
]


test_the_form_gets_its_entry_captures_and_fix_words = answered_with_captures(CAPTURE_CASES)


# ---- round21_tools (test_knowledge_round21_tools.py) ----


@pytest.mark.parametrize(
    ("message", "library"),
    [
        (
            "E Catch exception when init runtime!\n"
            'E   File "rknn/api/rknn_runtime.py", line 99, in _load_library\n'
            "E OSError: libGAL.so: cannot open shared object file: No such file or directory",
            "libGAL.so",
        ),
        ("E RKNN: OSError: librknnrt.so: cannot open shared object file: No such file", "librknnrt.so"),
        (
            "E init_runtime: rknn.api failed\nOSError: libOpenVX.so.1.2: cannot open shared object file",
            "libOpenVX.so.1.2",
        ),
    ],
)
def test_rknn_runtime_library_missing(kb: KnowledgeBase, message: str, library: str) -> None:
    found, m = first_answer(kb, message)
    assert m.entry.id == "rknn-h23v2-runtime-library-missing"
    assert found.confidence == "high"
    assert dict(m.captures)["value"] == library
    assert "librknnrt.so" in m.entry.fix and "galcore" in m.entry.fix


# ---- h23f3 (test_knowledge_round22_sources_h23f3.py) ----


def test_rknpu_probe_region_busy(kb: KnowledgeBase) -> None:
    message = "[ 4.201337] RKNPU fdab0000.npu: can't request region for resource [mem 0xfdab0000-0xfdabffff]"
    _, m = first_answer(kb, message)
    assert m.entry.id == "rknn-h23f3-rknpu-mem-region-busy"
    assert dict(m.captures)["value"] == "mem 0xfdab0000-0xfdabffff"
    assert "/proc/iomem" in m.entry.fix


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


def test_rkllm_invalid_model(kb: KnowledgeBase) -> None:
    msg = (
        "I rkllm: rkllm-runtime version: 1.1.4, rknpu driver version: 0.9.7, "
        "platform: RK3576\nE rkllm: invalid rkllm model!"
    )
    assert_answered(kb, msg, ("export_rkllm", "target_platform"), entry="rkllm-invalid-model")


# s25c: the captured parts stop at the value (librknnc "Pad: unsupport pads < 0", librknn_api
# "failed to malloc cpu memory, size: %lu", the rknpu driver's "failed to allocate %lu buffer.")
test_the_s25c_forms_capture_their_values = answered_with_captures(
    [
        (
            "E RKNN: [10:20:30.400] Pad: unsupport pads < 0",
            "rknn-s25c-op-form-unsupported",
            {"op": "Pad", "detail": "unsupport pads < 0"},
            "non-negative pads",
        ),
        (
            "E RKNN: [11:22:33.444] failed to malloc cpu memory, size: 4096000",
            "rknn-s25c-cpu-memory-malloc",
            {"value": "4096000"},
            "free -h",
        ),
        (
            "RKNPU fdab0000.npu: RKNPU: failed to allocate non-contiguous 4194304 buffer.",
            "rknn-s25c-driver-buffer-alloc",
            {"value": "4194304"},
            "cma=256M",
        ),
    ]
)


def test_ggml_lines_without_rkllm_are_not_answered_as_rkllm(kb: KnowledgeBase) -> None:
    """ggml's own lines (llama.cpp prints them too) are RKLLM's only beside librkllmrt or an rkllm line: alone
    they get no confident answer, and no RKLLM entry by its pattern."""
    for text in (
        "ggml_calloc: failed to allocate   0.00 MB",
        "GGML_ASSERT(view_src == NULL || data_size == 0 || data_size + view_offs <= ggml_nbytes(view_src)) "
        "failed\n./llama-cli(+0x1c7e34)[0x7f84da7e34]",
    ):
        assert kb.answer(text).confidence == "none"
        assert all(m.reason == "words" for m in kb.lookup(text, top=3) if m.entry.id.startswith("rkllm-s25c"))


def test_a_fallback_or_a_dtype_form_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    """s25c's general 'Meet unsupported' and '<Op>: unsupport' entries leave the forms older entries answer
    (librknnc's CPU fallback, librknnrt's dtype of a CPU op) to those entries."""
    text = "W RKNN: [10:20:30.400] Less: meet unsupport input elems: 3 vs 4, fallback to cpu"
    fallback = kb.lookup(text, top=1)
    assert fallback[0].entry.id == "rknn-s23f-compiler-op-cpu-fallback"
    dtype = kb.lookup("E RKNN: [10:20:30.400] Meet unsupported input dtype 8 for gather", top=1)
    assert dtype[0].entry.id == "rknn-s21b-cpu-op-unsupported-type"


FIRST_VALUE_CASES = [
    (
        "ERROR: rknn_toolkit2-2.3.2-cp312-cp312-manylinux_2_17_aarch64.manylinux2014_aarch64.whl is not a "
        "supported wheel on this platform.",
        "rknn-s31e-wheel-tag-mismatch",
        {"py": "cp312", "platform": "manylinux_2_17_aarch64.manylinux2014_aarch64"},
    ),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


#: ``init_<model>_model fail!`` only says that the init failed: the librknnrt line before it says why; alone
#: it still answers.
test_the_zoo_demos_init_failure_ranks_under_the_runtime_line_that_says_why = answers_first_above(
    [
        (
            "E RKNN: [08:01:02.345] Invalid RKNN model version 6\n"
            "E RKNN: [08:01:02.346] rknn_init, load model failed!\n"
            "rknn_init fail! ret=-1\n"
            "init_mobilenet_model fail! ret=-1 model_path=./model/mobilenet.rknn",
            "rknn-RKNN-ERR-MODEL-INVALID-6",
            "rknn-s27e-zoo-init-model-fail",
        )
    ]
)
test_the_zoo_demos_init_failure_alone_still_answers = answers_first(
    [("init_retinaface_model fail! ret=-1 model_path=model/RetinaFace.rknn", "rknn-s27e-zoo-init-model-fail")]
)
