"""The knowledge tests of Qualcomm (QNN / SNPE / QAIRT, AI Hub, FastRPC): each case is a vendor's own
wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From h23u2 (was test_knowledge_edge_vendor_wording_h23u2.py):
described in test_knowledge_converters.py's docstring.

From qnn_ep_builders_executorch (was test_knowledge_qnn_ep_builders_executorch.py):
described in test_knowledge_onnxruntime.py's docstring.

From qnn_setup (was test_knowledge_qnn_setup.py):

Issue 23, rounds 10-11's generic answers: onnxruntime's QNN execution provider failing to set up its
backend (backend, device, a precompiled EPContext binary) and QNN refusing a node's op config were answered
with the Qualcomm family card, and TensorRT's runtime destroyed before its engines with the generic "Error
Code 3" card.  Each case is written from the vendors' own wording (onnxruntime's qnn_backend_manager.cc and
qnn_execution_provider.cc, QNN's QnnGraph.h / QnnDevice.h, the strings of TensorRT's lean runtime) with values
of our own, never an evaluation message; the answer must name what the message carries and pass the bench's
judge.

From qualcomm_converter (was test_knowledge_qualcomm_converter.py):

Qualcomm's converter and runtime wording from its own sources: the QNN/SNPE converters' TranslationBank
errors (qti.aisw.converters' converter_ir/translation.py: "No translation registered for op type X",
"Converter does not support 'X' op type", a translation without a method), the skel-loading card naming the
QNN error number it captured, and a Genie call's status printed as a number.  The messages are our own, in
the tools' formats (op types and numbers of our choosing), never an evaluation message.

From qualcomm_forms (was test_knowledge_qualcomm_forms.py):

Qualcomm forms: hexadecimal QNN codes, HTP context-binary load failures and AI Hub's QAIRT summary.

The HTP backend prints QNN error codes in hexadecimal (``Failed to create context from binary with err
0x138d`` is QNN_CONTEXT_ERROR_CREATE_FROM_BINARY, 5005, of QnnContext.h); the code found is the header's
number, shown as the message printed it.  A device that lacks the HTP arch or VTCM a binary asks for, and a
binary newer than the runtime, answer with their own cause; AI Hub's ``QAIRT converter failed with exit code
N`` names the tool whose log holds the error.

From s18d (was test_knowledge_qualcomm_rknn_sources_s18d.py):

Branch s18d: Qualcomm's and Rockchip's common failures, from their own sources.

* the qai_hub client (qai_hub 0.56.0 wheel, qai_hub/client.py): authentication and configuration, a failed
  compile job's None model, torch models not traced, directory-model layout, empty input shapes;
* the QAIRT/QNN converters' Python (a public copy of qti/aisw/converters): --input_dim format and names,
  --input_encoding, dynamic shapes with --batch/--define_symbol, --input_dtype against --preserve_io and the
  quantization-overrides option checks.

From s20b (was test_knowledge_qualcomm_rknn_sources_s20b.py):

Branch s20b: Qualcomm's and Rockchip's device-side failures, from their own binaries.

* the QNN HTP/DSP backends' FastRPC transport (onnxruntime-qnn 2.7.0 wheel: QnnHtp.dll and
  QnnHtpV73Stub.dll, the QNN SDK libraries it ships): unsigned process domain refused, skel not loaded or
  of another release, a stub missing a symbol, the FastRPC retry timeout and process-name length, no
  transport instance;
* AIMET (quic/aimet, TrainingExtensions: aimet_torch v2's quantizers, quantized-module registry and
  QuantizationSimModel, aimet_onnx's encodings loader): quantizers run before compute_encodings, a module
  without a quantized definition, a sim built on a sim, encodings of another model or another sim config.

From round10 (was test_knowledge_round10.py).

From round12 (was test_knowledge_round12.py):

* the SNPE/QAIRT converters' message keys (``ERROR_TF_*``, ``ERROR_CAFFE_*``, ``ERROR_CAFFE2_*`` of
  code_to_message.py) name Qualcomm: a converter's error line seldom repeats the tool's name, and the log
  scan did not report such a line at all;
* entries: the converter's node-name check, the graph pruned empty by output names it does not have, the HTP
  convolution filter/channel check, FastRPC refusing to open a skel, qnn-model-lib-generator's missing model
  source and failed compile, and the RKNN compiler's register field overflow.

From round16 (was test_knowledge_round16.py):

Issue 23, round 16 (Qualcomm, RKNN, Ascend): what its dev misses taught, each written from the tool's own
source with values of our own (never an evaluation message).

* the QNN HTP backend's stub version check ("Stub lib id mismatch: expected (v...), detected (v...)") has an
  entry naming both builds (the stub, skel and backend libraries must come from one QAIRT release);

From round21_tools (was test_knowledge_round21_tools.py):
described in test_knowledge_onnxruntime.py's docstring.

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): QNN HTP's per-graph allocation limit.

From s19a (was test_knowledge_torch_onnx_qualcomm_s19a.py):

Branch s19a: torch.onnx's and Qualcomm's common failures, from their own sources.

* onnxruntime's QNN execution provider (microsoft/onnxruntime onnxruntime/core/providers/qnn/builder/
  qnn_backend_manager.cc): the backend library that does not load, a library that is not a backend,
  ADSP_LIBRARY_PATH already set;
* ExecuTorch's QNN delegate runtime (pytorch/executorch backends/qualcomm/runtime: QnnImplementation.cpp,
  QnnExecuTorchBackend.cpp): the QNN library that does not open, its missing provider symbol, QnnManager init;
* FastRPC (quic/fastrpc src/fastrpc_apps_user.c): the signed shell that does not open; the QNN HTP backend's
  unknown SoC at startup; GenieX's model manager (qualcomm/GenieX sdk/model-manager/crates/core/src/error.rs):
  a chipset without a published build, a quantization not there.

From s21b (was test_knowledge_rknn_runtime_api_and_qnn_status.py):

The RKNPU runtime's own C-API and memory texts, RKNN-Toolkit-Lite2's inference() argument checks, SNPE's
error codes, and the QNN status a backend prints after a failure's colon.

Vendor sources: the QNN SDK headers' error codes (QnnDevice.h, QnnGraph.h, QnnContext.h:
:data:`~dumpscope.core.knowledge.qnn_codes.QNN_ERROR_NAMES`) for the "<what> failed: N" lines of the
QnnHtp/QnnDsp backends; SNPE's Snpe_ErrorCode_t of zdl/DlSystem/DlError.h (as vendored in
quic/ai-hub-models, ai-solutions/android/SNPE), every code of which has its own card.  Every message is
ours, the format string filled with names and numbers of our choosing, never an evaluation message.

From s22b: qai_hub 0.56.0's client.py/api_utils.py, executorch's backends/qualcomm (cff6f4dd), QAIRT's
converter code_to_message.py and ONNX translations (zhiyuan8/qnn 24eb410), onnxruntime-qnn 2.7.0's EP,
Genie and QnnHtp strings.

From s23d: the QNN SDK 2.26 SampleApp (DynamicLoadUtil.cpp, Log/LogUtils.cpp; zhangyao23/-1 d76bc90), QAIRT's
converter translations and logger (zhiyuan8/qnn 24eb410), quic/aimet (c51b284b).

From s24e: QNN DLC tutorial, QnnContext.h, SNPE Java API, aimet_onnx quantsim.py, onnxruntime qnn_def.cc,
executorch qnn_partitioner.py.

From s25d: onnxruntime's QNN EP (onnxruntime/core/providers/qnn builder/*.cc, qnn_execution_provider.cc),
Genie.dll strings (onnxruntime-qnn 2.7.0), the QNN SampleApp's main.cpp.

Also from s30f_specific (test_knowledge_onnxruntime.py), s28b_rknn_qualcomm and s29b_rknn_qualcomm
(test_knowledge_rknn.py) and s29g_specific and s31d_sources (test_knowledge_tensorrt.py): their notes stand in
the docstrings named.
"""

from __future__ import annotations

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import shown_code
from dumpscope.core.knowledge.codes import extract_codes
from dumpscope.core.knowledge.family import detect_families
from dumpscope.core.knowledge.qnn_codes import GENIE_STATUS_NAMES
from tests.support.advice import (
    answered_by_entry,
    answered_first_with_values,
    answers_first,
    answers_first_above,
    assert_advice,
    assert_answered,
    first_answer,
    first_with_values,
    in_top3_with_values,
)

CASES = [
    # ---- h23u2 (test_knowledge_edge_vendor_wording_h23u2.py) ----
    (
        "ggml-hex: failed to query HTP version (err -1) defaulting to v73\n"
        "ggml-hex: allocating new session: HTP0\nggml-hex: failed to open session 0 : error 0x72\n"
        "ggml-hex: failed to create device/session 0",
        "ggml-hexagon-open-session-failed",
        ("0x72", "AEE_ECONNREFUSED", "TESTSIGNING"),
    ),
    (
        "[ERROR] /src/mllm/backends/qnn/op/QNNLinearOp.cpp:135 Failed to cast to QNNLinearOp\n[ERROR] "
        "/src/mllm/backends/qnn/passes/QNNGraphBuildPass.cpp:160 Failed to add node for op type: Linear "
        "in graph 'decoder.3_2'",
        "mllm-qnn-graph-build-add-node-failed",
        ("Linear", "decoder.3_2", "AOT"),
    ),
    # ---- qnn_ep_builders_executorch (test_knowledge_qnn_ep_builders_executorch.py) ----
    # backends/qualcomm/qnn_preprocess.py _build_op_wrappers
    (
        "RuntimeError: For aten_zz_op_default, call_function:aten.zz_op.default is not supported in Qnn "
        "Delegate",
        "qualcomm-executorch-op-not-supported-in-delegate",
        ("aten.zz_op.default", "aten_zz_op_default", "skip_node_op_set", "QnnPartitioner"),
    ),
    # backends/qualcomm/utils/utils.py generate_qnn_executorch_compiler_spec
    (
        "ValueError: unknown SoC model for QNN: SM0000",
        "qualcomm-executorch-unknown-soc-model",
        ("SM0000", "QcomChipset"),
    ),
    # runtime/backends/QnnBackendCommon.cpp VersionChecker (major differs: an error)
    (
        "[ERROR] [Qnn ExecuTorch]: Qnn API version 1.9.0 is not supported. The minimum supported version is "
        "2.25.0. Please make sure you have the correct backend library version.",
        "qualcomm-qnn-library-api-version-mismatch",
        ("Qnn API", "1.9.0", "2.25.0", "LD_LIBRARY_PATH"),
    ),
    # the same check, minor lower: a warning
    (
        "[WARNING] [Qnn ExecuTorch]: QNN_HTP version 5.20.0 is mismatched. The minimum supported version is "
        "5.28.0. Please make sure you have the correct backend library version.",
        "qualcomm-qnn-library-api-version-mismatch",
        ("QNN_HTP", "5.20.0", "5.28.0", "ADSP_LIBRARY_PATH"),
    ),
    # export_utils.py QnnConfig / debugger/utils.py: the SDK and NDK roots
    (
        "OSError: Environment variable QNN_SDK_ROOT must be set.",
        "qualcomm-executorch-sdk-root-unset",
        ("QNN_SDK_ROOT is not set", "envsetup.sh", "LD_LIBRARY_PATH"),
    ),
    (
        "EnvironmentError: ANDROID_NDK_ROOT was not found in environment variable",
        "qualcomm-executorch-sdk-root-unset",
        ("ANDROID_NDK_ROOT is not set", "export ANDROID_NDK_ROOT"),
    ),
    # partition/qnn_partitioner.py is_node_supported: an INFO line, the op stays on the CPU
    (
        "[QnnPartitioner] aten.zz_op.default | No node visitor, unsupported",
        "qualcomm-executorch-partitioner-no-node-visitor",
        ("aten.zz_op.default", "not an error", "CPU"),
    ),
    # export_utils.py build_executorch_binary
    (
        "RuntimeError: Currently GPU backend only supports online_prepare. Please add --online_prepare flag.",
        "qualcomm-executorch-backend-prepare-mode",
        ("GPU backend", "online_prepare", "--online_prepare"),
    ),
    # runtime/backends/QnnBackendCache.cpp GetQnnGraphInfoFromBinary
    (
        "[ERROR] [Qnn ExecuTorch]: Failed to retrieve backend binary info from QNN context binary.",
        "qualcomm-executorch-context-binary-info-unreadable",
        ("QNN_SDK_ROOT", ".pte"),
    ),
    (
        "[WARNING] [Qnn ExecuTorch]: Unknown QNN Htp hw blob info version 77.",
        "qualcomm-executorch-context-binary-info-unreadable",
        ("Htp hw blob info", "77"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "Failed to compile: Must use --truncate_64bit_io when input tensors have type int64.",
        "qualcomm-aihub-truncate-64bit-io",
        ("--truncate_64bit_io", "int32"),
    ),
    # ---- s19a (test_knowledge_torch_onnx_qualcomm_s19a.py) ----
    (
        "2025-01-01 10:00:00.000 [E:onnxruntime:, qnn_execution_provider.cc:600 "
        "onnxruntime::QNNExecutionProvider::QNNExecutionProvider] QNN SetupBackend failed Unable to load "
        "backend, error: libQnnZz.so: cannot open shared object file: No such file or directory",
        "qualcomm-s19a-qnn-ep-load-backend",
        ("libQnnZz.so: cannot open shared object file", "backend_path", "QnnHtpPrepare"),
    ),
    (
        "QNN SetupBackend failed Unable to load backend, error: load library failed",
        "qualcomm-s19a-qnn-ep-load-backend",
        ("load library failed", "ARM64 Python"),
    ),
    (
        "QNN SetupBackend failed Failed to get QNN providers!",
        "qualcomm-s19a-qnn-ep-get-providers",
        ("QnnInterface_getProviders", "not at QnnSystem"),
    ),
    (
        "[W:onnxruntime:, qnn_backend_manager.cc:290 LoadBackend] Using existing ADSP_LIBRARY_PATH setting "
        "of /opt/zz/dsp, which may cause the HTP backend to fail.",
        "qualcomm-s19a-qnn-ep-adsp-library-path",
        ("/opt/zz/dsp", "Unset ADSP_LIBRARY_PATH"),
    ),
    (
        "[ERROR] [Qnn ExecuTorch]: Cannot Open QNN library /data/local/tmp/zz/libQnnHtp.so, with error: "
        'dlopen failed: library "libQnnHtpV99Stub.so" not found',
        "qualcomm-s19a-executorch-open-qnn-library",
        ("/data/local/tmp/zz/libQnnHtp.so", "libQnnHtpV99Stub.so", "ADSP_LIBRARY_PATH"),
    ),
    (
        "[ERROR] [Qnn ExecuTorch]: QnnImplementation::Load Cannot load symbol QnnInterface_getProviders : "
        "undefined symbol: QnnInterface_getProviders",
        "qualcomm-s19a-executorch-get-providers-symbol",
        ("libQnnHtp.so", "same QNN SDK"),
    ),
    (
        "E 00:00:00.123 executorch:QnnExecuTorchBackend.cpp:50] Fail to initialize Qnn Manager",
        "qualcomm-s19a-executorch-init-qnn-manager",
        ("soc_model", "[ERROR] [Qnn ExecuTorch]"),
    ),
    (
        "E zz-runner: vendor/qcom/proprietary/adsprpc/src/fastrpc_apps_user.c:3040: Error 0xd: open_shell "
        "failed for domain 3 search paths used are /zz/dsp/ (errno Permission denied)",
        "qualcomm-s19a-fastrpc-open-shell-failed",
        ("fastrpc_shell_unsigned_3", "/zz/dsp/", "Permission denied"),
    ),
    (
        "Error 0xd: open_shell failed for domain 3 (Permission denied)",
        "qualcomm-s19a-fastrpc-open-shell-failed",
        ("fastrpc_shell_3", "Successfully opened file"),
    ),
    (
        "QnnDsp <E> Dsp startup: SoC model (ZzChip) is unknown\nQnnDsp <E> Htp startup on load failed",
        "qualcomm-s19a-htp-soc-model-unknown",
        ("ZzChip", "soc_model"),
    ),
    (
        'Error: download model failed: SDKError(Unknown error code), chipset "Snapdragon Zz CRD" not '
        "available for this model; supported: Snapdragon X Elite CRD, Snapdragon 8 Elite QRD",
        "qualcomm-s19a-geniex-chipset-unavailable",
        ("Snapdragon Zz CRD", "Snapdragon X Elite CRD, Snapdragon 8 Elite QRD"),
    ),
    (
        "quantization 'zz_w4a16' exists but is not downloaded for model 'zz-org/zz-llm'",
        "qualcomm-s19a-geniex-quant-not-found",
        ("zz_w4a16", "zz-org/zz-llm", "pull"),
    ),
    # ---- s21b (test_knowledge_rknn_runtime_api_and_qnn_status.py) ----
    # QnnDevice.h, QnnGraph.h: the code printed after the failure's colon
    ("QnnHtp <E> Failed to create device: 14001", "qualcomm-qnn-14001", ("soc_model", "htp_arch")),
    ("QnnHtp <E> Failed to retrieve graph: 6002", "qualcomm-qnn-6002", ("qnn-context-binary-utility",)),
    # ---- s22b: qai_hub 0.56.0 client.py/api_utils.py; executorch backends/qualcomm (cff6f4dd); QAIRT
    # converters'
    # code_to_message.py and onnx/data_translations.py (zhiyuan8/qnn 24eb410); onnxruntime-qnn 2.7.0's
    # onnxruntime_providers_qnn.dll, Genie.dll and QnnHtp.dll strings ----
    # qai_hub/client.py _determine_model_type, _check_input_specs, _check_inputs, _check_devices
    (
        "qai_hub.client.UserError: Unsupported model type for 'zz_net.h5'. The following types are supported",
        "qualcomm-s22b-aihub-model-type-unsupported",
        ("zz_net.h5", ".tflite"),
    ),
    (
        "qai_hub.client.UserError: Zipped model 'zz_pack.zip' must be a directory model.",
        "qualcomm-s22b-aihub-zipped-model-not-directory",
        ("zz_pack.zip", "zip -r"),
    ),
    (
        "qai_hub.client.UserError: input_specs must be dict[str, tuple[tuple[int, ...], str]]]. Got (1, 3, "
        "64, 64)",
        "qualcomm-s22b-aihub-input-specs-type",
        ("(1, 3, 64, 64)", "input_specs=dict("),
    ),
    (
        "qai_hub.client.UserError: Dataset dzz999 is expired.",
        "qualcomm-s22b-aihub-dataset-expired",
        ("dzz999", "upload_dataset"),
    ),
    (
        "qai_hub.client.UserError: The values in inputs dictionary must be list of numpy arrays with a type "
        "in (float32, int8).",
        "qualcomm-s22b-aihub-dataset-format",
        ("float32, int8", "one list entry per sample"),
    ),
    (
        "qai_hub.client.UserError: Device(name='Zz Tab 3', os='') is not available.",
        "qualcomm-s22b-aihub-device-not-available",
        ("Device(name='Zz Tab 3', os='')", "list-devices"),
    ),
    (
        "qai_hub.client.UserError: device Device(name='Zz Tab 3') does not support ONNX model input",
        "qualcomm-s22b-aihub-device-framework-unsupported",
        ("ONNX", "Device(name='Zz Tab 3')", "submit_compile_job"),
    ),
    (
        "qai_hub.client.UserError: Input model type SourceModelType.TFLITE at index 1 cannot be compiled",
        "qualcomm-s22b-aihub-model-type-not-compilable",
        ("SourceModelType.TFLITE", "submit_profile_job"),
    ),
    (
        "qai_hub.client.UserError: compile options and input_specs are not allowed when compiling ONNX "
        "embeddable models (i.e. QNN Context Binary).",
        "qualcomm-s22b-aihub-context-binary-no-options",
        ("EPContext", "input_specs="),
    ),
    (
        "qai_hub.client.UserError: Input model must be ONNX.",
        "qualcomm-s22b-aihub-quantize-job-dtypes",
        ("submit_quantize_job", "INT16"),
    ),
    (
        "qai_hub.client.UserError: All input models to a link job must be distinct.",
        "qualcomm-s22b-aihub-link-job-models",
        ("qnn_dlc", "submit_link_job"),
    ),
    (
        "qai_hub.client.UserError: Graph names must be unique. Duplicates: zz_dec",
        "qualcomm-s22b-aihub-multi-model-compile-lists",
        ("zz_dec", "graph_names"),
    ),
    (
        "qai_hub.client.UserError: Number of compile_options (1) must match number of models (2).",
        "qualcomm-s22b-aihub-multi-model-compile-lists",
        ("compile_options", "(1)"[1:2], "2 models"),
    ),
    (
        "qai_hub.client.UserError: Inference requires inputs. Either supply `inputs`, or set `profile=True` "
        "to run with random data.",
        "qualcomm-s22b-aihub-inference-needs-inputs",
        ("inputs=dict(", "submit_profile_job"),
    ),
    (
        "qai_hub.public_rest_api.APIException: Model ID 'mzz777' could not be found. It may not exist or "
        "you may not have permission to view it.",
        "qualcomm-s22b-aihub-object-not-found",
        ("mzz777", "Model", "modify_sharing"),
    ),
    (
        "qai_hub.client.UserError: Please provide client configuration.",
        "qualcomm-s22b-aihub-client-config-missing",
        ("qai-hub configure", "ClientConfig"),
    ),
    (
        "qai_hub.client.InternalError: Failed to upload model.",
        "qualcomm-s22b-aihub-internal-failure",
        ("ai-hub-support@qti.qualcomm.com",),
    ),
    (
        "ValueError: Requested job of type Inference, but got job of type Profile",
        "qualcomm-s22b-aihub-job-type-mismatch",
        ("Inference", "Profile"),
    ),
    # executorch backends/qualcomm: runtime/backends/QnnGraphCommon.cpp, SharedBuffer.cpp,
    # QnnContextCommon.cpp,
    # QnnBackendCache.cpp, ir/host/IrContext.cpp; utils/qnn_manager_lifecycle.py, __init__.py,
    # quantizer/quantizer.py,
    # builders/node_visitor.py, custom_op/interface.py, export_utils.py
    (
        "[ERROR] [Qnn ExecuTorch]: graph name: zz_decode does not exist.",
        "qualcomm-s22b-executorch-graph-name-missing",
        ("zz_decode", "method"),
    ),
    (
        "[ERROR] [Qnn ExecuTorch]: Failed to allocate the tensor by RPC memory.",
        "qualcomm-s22b-executorch-shared-buffer-rpcmem",
        ("libcdsprpc.so", "shared_buffer=False"),
    ),
    (
        "[ERROR] [Qnn ExecuTorch]: QNN context cache is invalid.",
        "qualcomm-s22b-executorch-context-cache-invalid",
        ("libQnnSystem.so",),
    ),
    (
        "[WARNING] [Qnn ExecuTorch]: Failed to interpret QNN context binary. Error code 5004. Try verifying "
        "binary with online-prepare format.",
        "qualcomm-s22b-executorch-context-binary-uninterpretable",
        ("5004", "online_prepare"),
    ),
    (
        "RuntimeError: Failed to initialize QNN backend for GPU. Ensure QNN SDK libraries are available "
        "(e.g. LD_LIBRARY_PATH includes $QNN_SDK_ROOT/lib/x86_64-linux-clang/).",
        "qualcomm-s22b-executorch-init-backend-failed",
        ("GPU", "QNN_SDK_ROOT"),
    ),
    (
        "RuntimeError: Failed to set up QNN SDK.",
        "qualcomm-s22b-executorch-sdk-setup-failed",
        ("QNN_SDK_ROOT", "LD_LIBRARY_PATH"),
    ),
    (
        "ValueError: Validation failed for node aten_zz_conv with target aten.convolution.default",
        "qualcomm-s22b-executorch-quant-validation-failed",
        ("aten_zz_conv", "aten.convolution.default", "discard_nodes"),
    ),
    (
        "ValueError: 2-bit quantization (range=2) does not support per-tensor encoding. Use per-channel "
        "quantization instead.",
        "qualcomm-s22b-executorch-two-bit-per-tensor",
        ("per channel", "range of 2"),
    ),
    (
        "ValueError: Ops missing from OpPackage: {'ZzGelu'}",
        "qualcomm-s22b-executorch-op-package-missing-ops",
        ("{'ZzGelu'}", "type_name"),
    ),
    (
        "ValueError: Target soc_model(SM9999) with LPAI backend v6 requires QNN SDK version >= 2.39. "
        "\nCurrent QNN SDK version: v2.35.0",
        "qualcomm-s22b-executorch-soc-no-lpai",
        ("SM9999", "2.39"),
    ),
    (
        "[ERROR] [Qnn ExecuTorch]: Unable to open dlc file zz_prefill.dlc for building "
        "QnnExecuTorchContextBinary",
        "qualcomm-s22b-executorch-ir-dlc-missing",
        ("zz_prefill.dlc", "libQnnIr.so"),
    ),
    # QAIRT converters: common/utils/code_to_message.py with onnx/data_translations.py,
    # onnx/onnx_translations.py,
    # onnx/op_schema.py, onnx/util.py, common/converter_ir/op_graph.py and op_graph_optimizations.py
    (
        "ValueError: ERROR_RESIZE_UNSUPPORTED_COORDINATE_TRANSFORMATION_MODE: transformation mode zz_mode "
        "was not supported. Please choose from modes: ['asymmetric', 'align_corners', 'half_pixel']",
        "qualcomm-s22b-converter-resize-mode",
        ("zz_mode", "'asymmetric', 'align_corners', 'half_pixel'"),
    ),
    (
        "ValueError: ERROR_RESIZE_INVALID_COORDINATE_TRANSFORMATION_MODE_MIX: resize cubic is not supported "
        "with mode tf_half_pixel_for_nn",
        "qualcomm-s22b-converter-resize-mode-mix",
        ("cubic", "half_pixel"),
    ),
    (
        "ValueError: ERROR_PAD_UNSUPPORTED_MODE: Unsupported mode circular set in Pad layer",
        "qualcomm-s22b-converter-pad-mode",
        ("circular", "reflect"),
    ),
    (
        "ValueError: ERROR_SLICE_DYNAMIC_INPUTS: Invalid Slice inputs /zz/Gather_4_output_0, only constant "
        "inputs supported",
        "qualcomm-s22b-converter-slice-dynamic-inputs",
        ("/zz/Gather_4_output_0", "onnxsim"),
    ),
    (
        "RuntimeError: ERROR_OP_SCHEMA_VERSION_NOT_FOUND: Could not find op schema for this translation "
        "matching version: 21, op type: ZzNorm",
        "qualcomm-s22b-converter-op-schema-not-found",
        ("op ZzNorm", "opset version 21"),
    ),
    (
        "ValueError: ERROR_UNSUPPORTED_ATTRIBUTE_VALUE: Attribute zz_flag in ZzPool Op with input zz_in_0 "
        "has an unsupported value. Expected value 0 for this Op attribute, got 1",
        "qualcomm-s22b-converter-attribute-value-unsupported",
        ("zz_flag", "ZzPool", "zz_in_0"),
    ),
    (
        "ValueError: ERROR_CAST_TYPE_UNSUPPORTED: Cannot convert op zz_cast_2: Cast type 8 is not supported",
        "qualcomm-s22b-converter-cast-type-unsupported",
        ("zz_cast_2", "8"),
    ),
    (
        "ValueError: ERROR_OPERATION_INPUTS_NOT_BROADCASTABLE: Op zz_mul_1 inputs (zz_a, zz_b) must be "
        "broadcastable. Got shapes [1, 8, 8, 16], [1, 16, 8, 8].",
        "qualcomm-s22b-converter-inputs-not-broadcastable",
        ("zz_mul_1", "1, 16, 8, 8", "--input_dim"),
    ),
    (
        "ERROR_UNSUPPORTED_INPUT_ENCODING: Unsupported input encoding passed [['zz_img', 'yuv9']].  Please "
        "provide one of this options: ['bgr', 'rgb', 'nv21']",
        "qualcomm-s22b-converter-input-option-value",
        ("encoding", "yuv9", "--input_encoding"),
    ),
    (
        "ValueError: ERROR_ATTRIBUTE_WRONG_TYPE: Node zz_conv_9: requested to extract parameter pads with "
        "type li, but stored as type f",
        "qualcomm-s22b-converter-attribute-wrong-type",
        ("zz_conv_9", "pads", "li"),
    ),
    # onnxruntime-qnn 2.7.0 onnxruntime_providers_qnn.dll (qnn_execution_provider.cc, qnn_allocator.cc,
    # opbuilders)
    (
        "Failed to parse 'backend_type' value.",
        "onnxruntime-s22b-qnn-ep-backend-type-path",
        ("'htp'", "backend_path"),
    ),
    ("Invalid soc_model: zz99", "onnxruntime-s22b-qnn-ep-soc-model-option", ("zz99", "SM8550")),
    (
        "enable_htp_prepare_and_load and enable_htp_prepare_only are mutually exclusive. Set only one of "
        "them to 1.",
        "onnxruntime-s22b-qnn-ep-context-options",
        ("ep.context_enable=1",),
    ),
    (
        "BF16 mode is enabled but soc_model is not specified. Both parameters must be set together for BF16 "
        "support.",
        "onnxruntime-s22b-qnn-ep-bf16-soc",
        ("soc_model", "enable_htp_fp16_precision"),
    ),
    (
        "Unable to load RPCMem library: zz_missing_rpc.dll",
        "qualcomm-s22b-qnn-ep-rpcmem-library",
        ("zz_missing_rpc.dll", "enable_htp_shared_memory_allocator"),
    ),
    (
        "Having zero graph inputs is not supported on this backend.",
        "onnxruntime-s22b-qnn-ep-zero-graph-inputs",
        ("constant",),
    ),
    (
        "QNN does not support out-of-range index values for ScatterND.",
        "qualcomm-s22b-qnn-ep-negative-indices",
        ("ScatterND",),
    ),
    ("Invalid vtcm_mb: zz", "qualcomm-s22b-qnn-ep-vtcm-option", ("zz", "VTCM")),
    # onnxruntime-qnn 2.7.0 Genie.dll (dialog/sampler config validation, GenieDlc_create, embedding query)
    (
        "Failed to validate sampler config: Unknown sampler config key: zz-top-q",
        "qualcomm-s22b-genie-config-unknown-key",
        ("zz-top-q", "sampler"),
    ),
    (
        "Cannot open DLC file: /data/local/tmp/zz/llm.dlc",
        "qualcomm-s22b-genie-dlc-open",
        ("/data/local/tmp/zz/llm.dlc",),
    ),
    (
        "The embeddings buffer size must be an integer multiple of the embedding vector size in bytes.",
        "qualcomm-s22b-genie-embedding-buffer-size",
        ("embedding_dim",),
    ),
    # onnxruntime-qnn 2.7.0 QnnHtp.dll (HTP op validation texts)
    (
        "QnnDsp <E> Tensor 1 and 2 have mismatching rank. 4 != 2",
        "qualcomm-s22b-htp-tensor-mismatch",
        ("rank", "4", "2"),
    ),
    (
        "QnnDsp <E> Data inputs cannot be broadcast at dimension 3. Input[1] has size 12, but expected 48 "
        "or 1.",
        "qualcomm-s22b-htp-broadcast",
        ("12 and 48", "dimension 3", "--input_dim"),
    ),
    (
        "QnnDsp <E> Inputs with dynamic shape not supported for op type ZzTopK",
        "qualcomm-s22b-htp-dynamic-shape-op",
        ("ZzTopK",),
    ),
    (
        "QnnDsp <E> Output has invalid dimension at index 1. Expected 30 but got 31",
        "qualcomm-s22b-htp-output-dimension",
        ("30", "31"),
    ),
    (
        "  812.0ms [ ERROR ] Number of input elements 1536 does not match number of output elements 0.",
        "qualcomm-s22b-htp-reshape-element-count",
        ("1536", "--input_dim"),
    ),
    # s23d: the QNN SDK 2.26 SampleApp's src/Utils/DynamicLoadUtil.cpp (zhangyao23/-1 at d76bc90; its log line
    # "%8.1fms [%-7s] " from src/Log/LogUtils.cpp) and QAIRT's converters (zhiyuan8/qnn 24eb410: the
    # translations' raise texts, logged "<time>,<ms> - <line> - ERROR - Encountered Error: <text>")
    (
        "     0.4ms [ ERROR ] Unable to load backend. pal::dynamicloading::dlError(): libQnnZz.so: "
        "cannot open shared object file: No such file or directory",
        "qualcomm-s23d-qnn-tool-load-backend",
        ("libQnnZz.so: cannot open shared object file", "--backend", "LD_LIBRARY_PATH"),
    ),
    (
        "     3.0ms [ ERROR ] Unable to load model. pal::dynamicloading::dlError(): "
        "./libzz_net.so: wrong ELF class",
        "qualcomm-s23d-qnn-tool-load-model-lib",
        ("./libzz_net.so: wrong ELF class", "qnn-model-lib-generator"),
    ),
    (
        "Unable to load system library. pal::dynamicloading::dlError(): libQnnSystemZz.so: not found",
        "qualcomm-s23d-qnn-tool-load-system-lib",
        ("libQnnSystemZz.so: not found", "--system_library"),
    ),
    (
        "     0.9ms [ ERROR ] Unable to access symbol [QnnInterface_getProviders]. "
        "pal::dynamicloading::dlError(): undefined symbol: QnnInterface_getProviders",
        "qualcomm-s23d-qnn-tool-symbol-missing",
        ("QnnInterface_getProviders", "qnn-model-lib-generator"),
    ),
    (
        "     1.1ms [ ERROR ] Failed to get interface providers: 0 interface providers.",
        "qualcomm-s23d-qnn-tool-interface-providers",
        ("same QAIRT SDK release",),
    ),
    (
        "2030-02-03 04:05:06,789 - 183 - ERROR - Encountered Error: LstmOp requires weights and biases to be "
        "constant, got dynamic tensor from zz_gate",
        "qualcomm-s23d-converter-dynamic-input-unsupported",
        ("got dynamic tensor from zz_gate", "initializers"),
    ),
    (
        "2030-02-03 04:05:06,789 - 411 - ERROR - Unsupported data layout ZZHW",
        "qualcomm-s23d-converter-op-form-unsupported",
        ("Unsupported data layout ZZHW", "--op_package_config"),
    ),
    # s23d: quic/aimet at c51b284b: aimet_onnx/quantsim.py _export_encodings,
    # aimet_torch/meta/connectedgraph.py, aimet_torch/_base/quantsim.py's input checks
    (
        "NotImplementedError: Encoding version 0.9.9 not in set of valid encoding versions "
        "{'0.6.1', '1.0.0'}.",
        "qualcomm-s23d-aimet-encoding-version-invalid",
        ("0.9.9", "{'0.6.1', '1.0.0'}", "aimet_common.quantsim.encoding_version"),
    ),
    (
        "RuntimeError: Couldn't find corresponding JIT trace for modules: zz_head, zz_head.proj",
        "qualcomm-s23d-aimet-jit-trace-missing-modules",
        ("zz_head, zz_head.proj", "prepare_model"),
    ),
    (
        "ValueError: float data_type can only be used when default_output_bw set to 16 or 32, not 4",
        "qualcomm-s23d-aimet-float-bitwidth",
        ("default_output_bw=4", "QuantizationDataType.int"),
    ),
    # s24e: QNN docs' DLC tutorial and qnn-net-run's help (a DLC given to --model); SNPE's Android Java API;
    # quic/aimet aimet_onnx/quantsim.py (libpymo.PtrToInt64); onnxruntime providers/qnn/builder/qnn_def.cc and
    # qnn_model_wrapper.cc; executorch backends/qualcomm/partition/qnn_partitioner.py
    (
        "qnn-net-run log level is : QNN_LOG_LEVEL_ERROR\nUnable to load model. dlerror(): (null)\n"
        "Failed to load ModelLib!\nCould not load model : zz_detector_int8.dlc!\nInitialization failure",
        "qualcomm-s24e-qnn-net-run-dlc-as-model",
        ("'zz_detector_int8.dlc'", "--dlc_path zz_detector_int8.dlc", "libQnnModelDlc.so"),
    ),
    (
        "     1.2ms [ ERROR ] Unable to load model. dlerror(): ./libzz_net.so: wrong ELF class: ELFCLASS32",
        "qualcomm-s23d-qnn-tool-load-model-lib",
        ("'./libzz_net.so: wrong ELF class: ELFCLASS32'", "qnn-model-lib-generator"),
    ),
    (
        "java.lang.NullPointerException: Attempt to invoke virtual method 'com.qualcomm.qti.snpe.FloatTensor "
        "com.qualcomm.qti.snpe.NeuralNetwork.createFloatTensor(int[])' on a null object reference",
        "qualcomm-s24e-snpe-java-network-null",
        ("createFloatTensor on NeuralNetwork", "NeuralNetworkBuilder.build()", "setRuntimeOrder"),
    ),
    (
        "    quant_info=libpymo.PtrToInt64(quant_info),\n"
        "TypeError: PtrToInt64(): incompatible function arguments. "
        "The following argument types are supported:\n"
        "    1. (arg0: capsule) -> int\n\n"
        "Invoked with: <aimet_common.libquant_info.QcQuantizeInfo object at 0x7f01>",
        "qualcomm-s24e-aimet-pybind-incompatible",
        ("helper PtrToInt64", "aimet-onnx and aimet-torch", "fresh virtualenv"),
    ),
    (
        "QNN.backendValidateOpConfig() failed for node `/zz/Gather_4` of type `Gather` with error code 3101",
        "qualcomm-s24e-qnn-ep-op-config-failed",
        ("Gather", "/zz/Gather_4", "QNN error 3101", "in backendValidateOpConfig", "CPU EP"),
    ),
    (
        "QNN.graphAddNode() failed for node `zz_softmax` of type `Softmax` with error code 6005",
        "qualcomm-s24e-qnn-ep-op-config-failed",
        ("zz_softmax", "QNN error 6005", "in graphAddNode"),
    ),
    (
        "[W:onnxruntime:, qnn_model_wrapper.cc:240 CreateQnnNode] Validating node failed for: /zz/Conv_11",
        "qualcomm-s24e-qnn-ep-node-failed-old",
        ("node /zz/Conv_11", "'Validating' is backendValidateOpConfig"),
    ),
    (
        "[QNN Partitioner Op Support]: aten.zz_fancy_op.default | False",
        "qualcomm-s24e-executorch-partitioner-op-unsupported",
        ("aten.zz_fancy_op.default", "(False)", "QnnQuantizer"),
    ),
    # s25d: onnxruntime's QNN EP (onnxruntime/core/providers/qnn: builder/qnn_model_wrapper.cc, qnn_model.cc,
    # qnn_backend_manager.cc, onnx_ctx_model_helper.cc, qnn_execution_provider.cc)
    (
        "[E:onnxruntime:, qnn_model_wrapper.cc:52 CreateQnnGraph] Failed to create Qnn graph: zz_QNN_77_0_0",
        "qualcomm-s25d-qnn-ep-create-graph-failed",
        ("zz_QNN_77_0_0", "QnnGraph_create", "vtcm_mb"),
    ),
    (
        "Qnn tensor not exist: /zz/Add_output_0",
        "qualcomm-s25d-qnn-ep-tensor-not-in-qnn-model",
        ("/zz/Add_output_0", "qnn_preprocess_model"),
    ),
    (
        "Parameter name not exist: zz_axis",
        "qualcomm-s25d-qnn-ep-tensor-not-in-qnn-model",
        ("zz_axis", "onnxruntime-qnn"),
    ),
    (
        "External mode should set ep_cache_context field with a relative path, but it is an absolute path: "
        "/zz/net_ctx.bin",
        "onnxruntime-s25d-qnn-ep-ep-cache-context-path",
        ("/zz/net_ctx.bin", "relative to the model", "ep.context_embed_mode=1"),
    ),
    (
        "The file path in ep_cache_context field has '..'. It's not allowed to point outside the directory.",
        "onnxruntime-s25d-qnn-ep-ep-cache-context-path",
        ("ep_cache_context", "'..'"),
    ),
    (
        "zz_QNN_12_1_0 context node name not exists in table qnn_models.",
        "onnxruntime-s25d-qnn-ep-epcontext-node-mismatch",
        ("zz_QNN_12_1_0", "main_context=1", "ep.context_enable=1"),
    ),
    (
        "Invalid ep.context_embed_mode: 7 only 0 or 1 allowed. Set to 1.",
        "onnxruntime-s25d-qnn-ep-context-embed-mode-value",
        ("set to 7", "ep.context_embed_mode"),
    ),
    (
        "Qnn context cache only works for HTP/DSP/GPU backend.",
        "qualcomm-s25d-qnn-ep-context-cache-needs-npu-backend",
        ("CPU backend", "backend_type='htp'"),
    ),
    (
        "Qnn CPU backend is loaded while CPU fallback is disabled.",
        "qualcomm-s25d-qnn-ep-cpu-backend-no-fallback",
        ("session.disable_cpu_ep_fallback", "backend_type='htp'"),
    ),
    (
        "ORT Tensor data size does not match QNN tensor data size.",
        "onnxruntime-s25d-qnn-ep-input-byte-size",
        ("make_dynamic_shape_fixed", "session.get_inputs()"),
    ),
    (
        "NPU crashed. SSR detected during QNN graph execute.",
        "qualcomm-s25d-qnn-ep-npu-ssr",
        ("subsystem restart", "ep.context_embed_mode=0"),
    ),
    (
        "Failed to compose Qnn graph.",
        "qualcomm-s25d-qnn-ep-compose-graph-failed",
        ("QnnGraph_addNode", "the reason is on the line before"),
    ),
    (
        "Unsupported context binary info version.",
        "qualcomm-s25d-qnn-ep-cached-context-unreadable",
        ("QnnSystemContext_getBinaryInfo", "same QNN SDK version"),
    ),
    (
        "Graph from cached context doesn't have any outputs.",
        "qualcomm-s25d-qnn-ep-cached-context-unreadable",
        ("QnnSystemContext_getBinaryInfo",),
    ),
    (
        "Failed to write context cache file.",
        "onnxruntime-s25d-qnn-ep-context-cache-file-io",
        ("ep.context_file_path", "writable"),
    ),
    (
        "Duplicate graph names detect across sessions: zz_QNN_5_0",
        "qualcomm-s25d-qnn-ep-duplicate-graph-names",
        ("zz_QNN_5_0", "ep.context_node_name_prefix"),
    ),
    # s25d: Genie's config validation (Genie.dll strings of onnxruntime-qnn 2.7.0)
    (
        "Failed to validate sampler config: Missing field: zz-seed",
        "qualcomm-s25d-genie-validate-config-missing-field",
        ("'sampler'", "'zz-seed'", "examples/Genie/configs"),
    ),
    (
        "Failed to validate embedding config: Unknown config key: zz-width",
        "qualcomm-s22b-genie-config-unknown-key",
        ("the embedding section holds key zz-width", "examples/Genie/configs"),
    ),
    # s25d: the QNN SDK SampleApp's argument checks (examples/QNN/SampleApp/src/main.cpp), as in qnn-net-run
    (
        "Missing option: exactly one of --model, --retrieve_context, or --dlc_path must be specified.",
        "qualcomm-s25d-qnn-net-run-model-source",
        ("--retrieve_context <context.bin>", "--dlc_path"),
    ),
    (
        "Missing option: --system_library. QNN System shared library (libQnnSystem.so) is needed to "
        "serialize "
        "profiling logs",
        "qualcomm-s25d-qnn-net-run-system-library",
        ("serialize profiling logs", "--system_library"),
    ),
    (
        "Missing option: --input_list",
        "qualcomm-s25d-qnn-net-run-required-option",
        ("--input_list", "raw files"),
    ),
    (
        "ERROR: Invalid argument passed: --zz_threads",
        "qualcomm-s25d-qnn-tool-invalid-argument",
        ("--zz_threads", "--help"),
    ),
    (
        "Error initializing QNN Function Pointers: could not load model: /zz/libzz_model.so",
        "qualcomm-s25d-qnn-tool-function-pointers",
        ("/zz/libzz_model.so", "qnn-model-lib-generator"),
    ),
    (
        "0.0ms [ ERROR ] graph_prepare.cc:6095:ERROR:Serialize error: memory usage too large",
        "qualcomm-htp-graph-allocation-limit",
        (),
    ),
    # the HTP's initial_sequencer_dp.cc line
    (
        'initial_sequencer_dp.cc:149:ERROR:A single op, "q::Softmax" (Op ID: 2f00000041), requires 0x1800000 '
        "bytes of TCM, which is greater than the TCM size of 0x400000!",
        "qualcomm-s29b-htp-op-tcm-too-large",
        ("q::Softmax", "0x1800000", "0x400000"),
    ),
    # the HTP router's summary line
    ("QnnDsp <E> RouterX86 graph prepare failed 13", "qualcomm-graph-prepare-failed", ("13",)),
    # the backend extensions config reader
    (
        "[ ERROR ] Invalid key: graphs/0/fp16_relaxed",
        "qualcomm-s29b-backend-ext-config-key",
        ("graphs/0/fp16_relaxed",),
    ),
    # qai_hub/client.py: _handle_api_exception's connection error
    (
        "Could not connect to Qualcomm AI Hub. Please visit https://app.aihub.qualcomm.com/api/ to check the "
        "service's status.",
        "qualcomm-s29b-aihub-service-unreachable",
        ("HTTPS_PROXY",),
    ),
    (
        'initial_sequencer_dp.cc:149:ERROR:A single op, "q::Conv2d_valid" (Op ID: 2a00000041), requires '
        "0x1200000 bytes of TCM, which is greater than the TCM size of 0x800000!",
        "qualcomm-s29b-htp-op-tcm-too-large",
        ("q::Conv2d_valid", "0x1200000", "0x800000"),
    ),
    (
        ' 12.5ms [ ERROR ] <E> "ScatterElements" generated: could not create op\n'
        " 12.6ms [ ERROR ] <E> RouterHexagon graph prepare failed 12\n"
        " 12.6ms [ ERROR ] <E> Failed to finalize graph (id: 1) with err 1002",
        "qualcomm-s29g-htp-op-could-not-create",
        ("ScatterElements",),
    ),
    (
        "fastrpc_apps_user.c:1729: Error 0x80000406: remote_handle_open_domain: dynamic loading failed for "
        "file:///libQnnHtpV75Skel.so?qnn_skel_handle_invoke&_modver=1.0&_dom=cdsp on domain 3 (dlerror "
        "_rtld_map_object_ex: cannot open libc++abi.so.1, errno 2 (no such file or directory))\n"
        "fastrpc_apps_user.c:1829: Error 0x80000406: remote_handle64_open failed for "
        "file:///libQnnHtpV75Skel.so?qnn_skel_handle_invoke&_modver=1.0&_dom=cdsp (errno Success)",
        "qualcomm-s29g-fastrpc-skel-dependency-missing",
        ("libc++abi.so.1", "libQnnHtpV75Skel.so", "ADSP_LIBRARY_PATH"),
    ),
    (
        "[W] <W> Cannot destroy HexNN graph as PrepreLib is not loaded",
        "qualcomm-s30f-htp-prepare-lib-teardown",
        ("libQnnHtpPrepare.so",),
    ),
    (
        "[E] <E> Failed to construct graph node as prepare lib is not loaded",
        "qualcomm-htp-prepare-lib-not-loaded",
        ("libQnnHtpPrepare.so",),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


@pytest.mark.parametrize(
    ("message", "entry_id", "named"),
    [
        (
            "QNN SetupBackend failed zz backend refused",
            "qualcomm-s25d-qnn-ep-setup-backend-failed",
            ("zz backend refused", "backend_path"),
        ),
        (
            "[QNN EP] Failed to add supported node to QNN graph during EP's compile call: zz tensor refused",
            "qualcomm-s25d-qnn-ep-compose-graph-failed",
            ("zz tensor refused", "QnnGraph_addNode"),
        ),
    ],
)
def test_the_qnn_eps_envelopes_name_the_reason_they_carry(
    kb: KnowledgeBase, message: str, entry_id: str, named: tuple[str, ...]
) -> None:
    """s25d (qnn_execution_provider.cc, qnn_model.cc): the QNN EP's 'QNN SetupBackend failed <reason>' and
    ComposeGraph's '... during EP's compile call: <reason>' are envelopes: their entry answers with the reason
    the message carries (an envelope, so the judge does not call it specific)."""
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == entry_id
    assert_advice(top, named, judged_specific=False)


def test_a_reason_with_its_own_entry_outranks_the_setup_backend_envelope(kb: KnowledgeBase) -> None:
    """s25d: the envelope entry is uncertain, so the entry of the reason it carries comes first."""
    ids = [
        m.entry.id for m in kb.lookup("QNN SetupBackend failed Failed to create device. Error: 14001", top=3)
    ]
    assert ids[0] != "qualcomm-s25d-qnn-ep-setup-backend-failed", ids
    assert "qualcomm-qnn-14001" in ids, ids


CONFIDENT_CASES = [
    # ---- s18d (test_knowledge_qualcomm_rknn_sources_s18d.py) ----
    # qai_hub client.py: HTTP 401
    (
        "qai_hub.client.UserError: Failed to authenticate.\n"
        "Failure to authenticate is likely caused by a bad or expired API token.",
        "qualcomm-s18d-aihub-auth-failed",
        ("qai-hub configure --api_token", "expired"),
    ),
    # qai_hub client.py: API_CONFIGURATION_MISSING_FIELDS
    (
        "qai_hub.client.UserError: Failed to load configuration file.\nYour API token is missing.",
        "qualcomm-s18d-aihub-token-missing",
        ("~/.qai_hub/client.ini", "qai-hub configure --api_token"),
    ),
    (
        "qai_hub.client.UserError: Model passed in was 'None' (make sure this is not the target of a failed "
        "compile job)",
        "qualcomm-s18d-aihub-model-none",
        ("get_target_model()", "download_job_logs"),
    ),
    (
        "qai_hub.client.UserError: The torch model must be exported.",
        "qualcomm-s18d-aihub-torch-not-exported",
        ("torch.jit.trace",),
    ),
    (
        "qai_hub.client.UserError: input_specs must be provided for TorchScript models.",
        "qualcomm-s18d-aihub-torchscript-input-specs",
        ("input_specs=dict(image=(1, 3, 224, 224))",),
    ),
    (
        "qai_hub.client.UserError: Model directory 'zz_export/zz.onnx' can contain at most one .data file.",
        "qualcomm-s18d-aihub-onnx-dir-layout",
        ("zz_export/zz.onnx", "can contain at most one .data file", "all_tensors_to_one_file=True"),
    ),
    (
        "qai_hub.client.UserError: The shape of input 'zz_ids' (1, 0) defines an empty tensor. Remove the "
        "input or modify the input shape (all dim lengths should be > 0) and try again.",
        "qualcomm-s18d-aihub-empty-input-shape",
        ("input zz_ids", "(1, 0)", "fixed positive size"),
    ),
    # qti/aisw/converters/common/input_shape.py
    (
        "RuntimeError: Got incorrect input shape [1,3,64,64] for input name zz_in, shape can be integers or "
        "integers followed by * to indicate dynamic shape.",
        "qualcomm-s18d-converter-input-dim-format",
        ("input zz_in", "--input_dim zz_in 1,3,224,224", "--source_model_input_shape zz_in"),
    ),
    (
        "RuntimeError: Got incorrect input shape 1,3,64*x,64 for input name zz_in, dynamic shape marker * "
        "should be a suffix. E.g. [1,3,224*,224*]",
        "qualcomm-s18d-converter-input-dim-format",
        ("input zz_in", "put * only at the end"),
    ),
    # qti/aisw/converters/onnx/onnx_model_api.py
    (
        "ValueError: input_dim command input name(s) not found: zz_image",
        "qualcomm-s18d-converter-input-dim-name-not-found",
        ("zz_image", "graph.input"),
    ),
    (
        "ValueError: --input_dim command not supported with initializer zz_conv.weight",
        "qualcomm-s18d-converter-input-dim-on-initializer",
        ("zz_conv.weight", "keep_initializers_as_inputs=False"),
    ),
    # qti/aisw/converters/common/converter_base.py
    (
        "ValueError: Received incorrect number of input encodings for input zz_data. Got 3, expected \n"
        "one input encoding and one (optional) output encoding per graph input in the \n"
        "following format: \n"
        '    --input_encoding "INPUT_NAME" INPUT_ENCODING_IN [INPUT_ENCODING_OUT] \n',
        "qualcomm-s18d-converter-input-encoding-arity",
        ("zz_data was given 3 encodings", "nv21"),
    ),
    # qti/aisw/converters/onnx/onnx_to_ir.py
    (
        "RuntimeError: Graph conversion with dynamic shapes is not supported along with define_symbol, batch "
        "or custom-ops option.",
        "qualcomm-s18d-converter-dynamic-with-batch",
        ("--define_symbol", "no * in --input_dim"),
    ),
    (
        "2025-03-04 10:11:12,131 - 240 - ERROR - Datatype mismatch for tensor zz_tokens. float32 datatype "
        "set with --input_dtype and int64 datatype set with --preserve_io!",
        "qualcomm-s18d-converter-input-dtype-vs-preserve-io",
        ("Input zz_tokens was given dtype float32", "(int64)", "--input_dtype zz_tokens float32"),
    ),
    # qti/aisw/converters/backend/qnn_quantizer.py and aimet/qnn_quantsim_adapter.py
    (
        "Exception: Invalid combination: --quantization_overrides and --ignore_encodings cannot be provided "
        "at the same time.",
        "qualcomm-s18d-converter-overrides-vs-ignore",
        ("--ignore_quantization_overrides", "--input_list"),
    ),
    (
        "RuntimeError: --float_fallback can only be provided when user specify encodings through "
        "--quantization_overrides",
        "qualcomm-s18d-converter-float-fallback-needs-overrides",
        ("--quantization_overrides FILE.encodings", "without --input_list"),
    ),
    # qti/aisw/converters/common/converter_ir/op_graph_optimizations.py
    (
        "ValueError: Invalid offset overridden for symmetric encodings got [3], expected 0 or -32768 or "
        "-32767.",
        "qualcomm-s18d-converter-symmetric-offset-override",
        ("offset is 3", "0, -32768 or -32767", "is_symmetric"),
    ),
    # ---- s20b (test_knowledge_qualcomm_rknn_sources_s20b.py) ----
    # QnnHtpV73Stub: " <E> DspTransport.createUnsignedPD unable to load unsigned PD"
    (
        "QnnDsp <E> DspTransport.createUnsignedPD unable to load unsigned PD",
        "qualcomm-s20b-htp-unsigned-pd",
        ("USE_SIGNED_PROCESS_DOMAIN", "/dev/fastrpc-cdsp"),
    ),
    # QnnHtpV73Stub: " <E> DspTransport.createUnsignedPD failed, 0x%08x"
    (
        "QnnDsp <E> DspTransport.createUnsignedPD failed, 0x0000004b",
        "qualcomm-s20b-htp-unsigned-pd",
        ("0x0000004b", "USE_SIGNED_PROCESS_DOMAIN"),
    ),
    # QnnHtp: " <E> Unable to load Skel Library. transportStatus: %d"
    (
        "QnnDsp <E> Unable to load Skel Library. transportStatus: 27",
        "qualcomm-s20b-skel-not-loaded",
        ("transport status 27", "ADSP_LIBRARY_PATH", "qnn-platform-validator"),
    ),
    # QnnHtp: " <E> Error in verify skel version"
    (
        "QnnDsp <E> Error in verify skel version",
        "qualcomm-s20b-skel-not-loaded",
        ("libQnnHtpV##Skel.so", "same QAIRT release"),
    ),
    # QnnHtp: " <E> Failed to resolve symbol 'stubLoadMultiPdFuncs' for multiPd: %s"
    (
        "QnnDsp <E> Failed to resolve symbol 'stubLoadMultiPdFuncs' for multiPd: undefined symbol zz",
        "qualcomm-s20b-stub-symbol-missing",
        ("stubLoadMultiPdFuncs", "/proc/<pid>/maps"),
    ),
    # QnnHtpV73Stub: " <E> Fastrpc call retry timeout! (over %u ms)"
    (
        "QnnDsp <E> Fastrpc call retry timeout! (over 7500 ms)",
        "qualcomm-s20b-fastrpc-retry-timeout",
        ("7500 ms", "qnn-net-run"),
    ),
    # QnnHtpV73Stub: " <E> DspTransport.openSession failed: FastRPC process/executable name exceeds ..."
    (
        "QnnDsp <E> DspTransport.openSession failed: FastRPC process/executable name exceeds supported "
        "length. Use a shorter executable name. Error code: 0x0000000e",
        "qualcomm-s20b-fastrpc-process-name-length",
        ("shorter name", "symlink"),
    ),
    # QnnHtp: " <E> Failed to get transport instance for device %u core %u pd %u"
    (
        "QnnDsp <E> Failed to get transport instance for device 1 core 0 pd 2",
        "qualcomm-s20b-transport-instance",
        ("device 1", "ADSP_LIBRARY_PATH"),
    ),
    # QnnHtp: " <E> Error in rpc memory initialization - cannot create transport instance"
    (
        "QnnDsp <E> Error in rpc memory initialization - cannot create transport instance",
        "qualcomm-s20b-transport-instance",
        ("QnnDsp <E> lines before this one",),
    ),
    # aimet_torch v2 quantizer.py: "Failed to run QuantizeDequantize since quantization parameters are not
    # initialized. Please initialize the quantization parameters using `compute_encodings()`."
    (
        "RuntimeError: Failed to run QuantizeDequantize since quantization parameters are not initialized. "
        "Please initialize the quantization parameters using `compute_encodings()`.",
        "qualcomm-s20b-aimet-quantizer-not-initialized",
        ("QuantizeDequantize", "sim.compute_encodings(forward_pass_callback"),
    ),
    # aimet_torch v2 nn/base.py: "The quantized module definition of {module_cls} is not registered. ..."
    (
        "RuntimeError: The quantized module definition of <class 'zz_pkg.blocks.ZzMixer'> is not registered. "
        "Please register the quantized module definition of <class 'zz_pkg.blocks.ZzMixer'> using "
        "`@QuantizationMixin.implements(ZzMixer)` decorator.",
        "qualcomm-s20b-aimet-module-not-registered",
        ("zz_pkg.blocks.ZzMixer", "@QuantizationMixin.implements(zz_pkg.blocks.ZzMixer)", "prepare_model"),
    ),
    # aimet_torch v2 quantsim.py: "QuantizationSimModel can only take base models WITHOUT quantized modules or
    # quantizers, but " + problem
    (
        "RuntimeError: QuantizationSimModel can only take base models WITHOUT quantized modules or "
        "quantizers, but the model already contains quantizers: stem.conv, head.fc.",
        "qualcomm-s20b-aimet-sim-of-sim",
        ("stem.conv, head.fc", "in_place=True"),
    ),
    # aimet_onnx quantsim.py: "The following encoding names were present in the encodings to load but not
    # found in the model: " + str(names)
    (
        "AssertionError: The following encoding names were present in the encodings to load but not found in "
        "the model: ['/zz/Mul_output_0', 'zz_logits']",
        "qualcomm-s20b-aimet-encoding-names-not-found",
        ("['/zz/Mul_output_0', 'zz_logits']", "load_encodings_to_sim"),
    ),
    # aimet_torch v2 nn/base.py: "Failed to import encoding for parameter {param_name}: no quantizer present."
    (
        "RuntimeError: Failed to import encoding for parameter zz_bias: no quantizer present.",
        "qualcomm-s20b-aimet-import-encoding-no-quantizer",
        ("for parameter zz_bias", "strict=False"),
    ),
    # aimet_torch v2 nn/base.py: "Failed to import output encoding at index {i}: no quantizer present."
    (
        "RuntimeError: Failed to import output encoding at index 3: no quantizer present.",
        "qualcomm-s20b-aimet-import-encoding-no-quantizer",
        ("for output index 3", "config_file"),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


# ---- qnn_ep_builders_executorch (test_knowledge_qnn_ep_builders_executorch.py) ----

_WARN = (
    "2025-01-07 10:00:00.1 [W:onnxruntime:, qnn_execution_provider.cc:231 "
    "onnxruntime::QNNExecutionProvider::IsNodeSupported] "
)


_NODE = "qualcomm-qnn-ep-node-not-supported"


CLAUSE_CASES = [
    # batch_norm_op_builder.cc: "QNN BatchNorm doesn't support dynamic scale."
    (
        _WARN + "BatchNormalization node `bn_zz1` is not supported: batch_norm_op_builder.cc:120 "
        "onnxruntime::qnn::BatchNormOpBuilder::IsOpSupported QNN BatchNorm doesn't support dynamic scale.",
        "qnn-ep-static-input",
        ("BatchNormalization node bn_zz1", "QNN BatchNorm doesn't support dynamic scale.", "initializer"),
    ),
    # clip_op_builder.cc: "QNN EP: Clip min/max must be a constant initializer."
    (
        _WARN + "Clip node `clip_zz2` is not supported: clip_op_builder.cc:60 "
        "onnxruntime::qnn::ClipOpBuilder::ExplicitOpCheck QNN EP: Clip min/max must be a constant "
        "initializer.",
        "qnn-ep-static-input",
        ("Clip node clip_zz2", "Clip min/max must be a constant initializer", "make_dynamic_shape_fixed"),
    ),
    # resize_op_builder.cc: "QNN EP: Resize on the NPU does not support nearest_mode "
    (
        _WARN + "Resize node `up_zz3` is not supported: resize_op_builder.cc:210 "
        "onnxruntime::qnn::ResizeOpBuilder::IsOpSupported QNN EP: Resize on the NPU does not support "
        "nearest_mode round_prefer_floor",
        "qnn-ep-backend-limit",
        ("Resize node up_zz3", "on the NPU does not support nearest_mode round_prefer_floor", "backend_path"),
    ),
    # conv_op_builder.cc: "Non-constant Conv inputs only support per-tensor quantization"
    (
        _WARN + "Conv node `conv_zz4` is not supported: conv_op_builder.cc:98 "
        "onnxruntime::qnn::ConvOpBuilder::IsOpSupported QNN EP: Non-constant Conv inputs only support "
        "per-tensor quantization",
        "qnn-ep-quantization",
        ("Conv node conv_zz4", "per-tensor quantization", "get_qnn_qdq_config"),
    ),
    # qnn_utils.cc GetQminQmax: "Qnn Data Type: %d not supported yet."
    (
        _WARN + "Gemm node `fc_zz5` is not supported: qnn_utils.cc:454 "
        "onnxruntime::qnn::utils::GetQminQmax Qnn Data Type: 1234 not supported yet.",
        "qnn-ep-data-type",
        ("Gemm op", "node fc_zz5", "Qnn Data Type: 1234 not supported yet.", "enable_htp_fp16_precision"),
    ),
    # layer_norm_op_builder.cc: "QNN LayerNorm: axis out of range after normalization."
    (
        _WARN + "LayerNormalization node `ln_zz6` is not supported: layer_norm_op_builder.cc:75 "
        "onnxruntime::qnn::LayerNormOpBuilder::IsOpSupported QNN LayerNorm: axis out of range after "
        "normalization.",
        "qnn-ep-axis",
        ("LayerNormalization node ln_zz6", "axis out of range after normalization", "Transpose"),
    ),
    # conv_op_builder.cc: "QNN Conv only supports 3D(rank 5), 2D (rank 4) or 1D (rank 3) inputs."
    (
        _WARN + "Conv node `conv_zz7` is not supported: conv_op_builder.cc:80 "
        "onnxruntime::qnn::ConvOpBuilder::IsOpSupported QNN Conv only supports 3D(rank 5), 2D (rank 4) or "
        "1D (rank 3) inputs.",
        "qnn-ep-rank",
        ("Conv op", "node conv_zz7", "QNN Conv only supports 3D(rank 5)", "Reshape"),
    ),
    # conv_transpose / conv_op_builder.cc: "QNN EP: QNN's TransposeConv2d operator only supports default
    # dilation values of 1."
    (
        _WARN + "ConvTranspose node `deconv_zz8` is not supported: conv_op_builder.cc:140 "
        "onnxruntime::qnn::ConvOpBuilder::IsOpSupported QNN EP: QNN's TransposeConv2d operator only supports "
        "default dilation values of 1.",
        "qnn-ep-unsupported-form",
        ("ConvTranspose node deconv_zz8", "only supports default dilation values of 1", "CPU execution"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES, ids=[c[1] for c in CLAUSE_CASES])
def test_a_qnn_ep_builder_reason_is_answered_by_its_class(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=f"{_NODE}+{clause}")


def test_a_reason_of_no_class_keeps_the_envelope_with_the_reason_quoted(kb: KnowledgeBase) -> None:
    # group_norm / instance_norm builders: "5 input expected per BatchNorm Onnx Spec." reads as none of the
    # classes: the envelope's own advice (the node falls back to the CPU provider) names node and reason.
    message = (
        _WARN + "BatchNormalization node `bn_zz9` is not supported: batch_norm_op_builder.cc:40 "
        "onnxruntime::qnn::BatchNormOpBuilder::IsOpSupported 5 input expected per BatchNorm Onnx Spec."
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == _NODE
    # an envelope that quotes the reason is not judged specific advice, and is not claimed to be
    assert_advice(top, ("BatchNormalization", "bn_zz9", "5 input expected per BatchNorm Onnx Spec"), False)


@pytest.mark.parametrize(
    ("message", "named"),
    [
        (_WARN + "FooBarOp node `foo_zz10` will not be assigned to QNN EP.", ("FooBarOp", "foo_zz10")),
        ("Operators of type `FooBarOp` are not supported by QNN EP.", ("FooBarOp",)),
        ("[QNN EP]: Missing OpBuilder for OpType FooBarOp", ("FooBarOp",)),
    ],
)
def test_an_op_type_qnn_ep_has_no_builder_for(
    kb: KnowledgeBase, message: str, named: tuple[str, ...]
) -> None:
    top = assert_answered(kb, message, named, entry="qualcomm-qnn-ep-op-type-not-assigned")
    assert "CPU execution provider" in top.fix


def test_an_epcontext_binary_file_that_is_not_there(kb: KnowledgeBase) -> None:
    # qnn_backend_manager.cc GetFileSizeIfValid, as onnxruntime's status prints it
    message = (
        "qnn_backend_manager.cc:900 onnxruntime::qnn::QnnBackendManager::GetFileSizeIfValid Failed to "
        "retrieve size of file: /data/zz/model_ctx.bin, error: No such file or directory"
    )
    assert_answered(
        kb,
        message,
        (
            "/data/zz/model_ctx.bin",
            "No such file or directory",
            "ep_cache_context",
            "ep.context_embed_mode=1",
        ),
        entry="qualcomm-qnn-ep-context-binary-file-missing",
    )


@pytest.mark.parametrize(
    "message",
    [
        # QnnHtp library strings (QnnHtp.dll of onnxruntime_qnn 2.7.0), as QNN's logger prints them
        "QnnDsp <E> Failed to construct graph node as prepare lib is not loaded",
        "QnnDsp <E> RouterX86 cannot call gpeSerializeGraphToMem, PrepreLib not loaded",
        "QnnDsp <E> Failed to load prepare lib in contextCreateFromBinaryDeserialize: 7",
    ],
)
def test_the_htp_prepare_library_not_loaded(kb: KnowledgeBase, message: str) -> None:
    assert_answered(
        kb, message, ("libQnnHtpPrepare.so", "context binary"), entry="qualcomm-htp-prepare-lib-not-loaded"
    )


def test_a_lone_quantize_partition_is_a_warning_not_a_failure(kb: KnowledgeBase) -> None:
    # qnn_execution_provider.cc GetCapability: a partition of one QuantizeLinear/DequantizeLinear is dropped
    top = assert_answered(
        kb,
        _WARN.replace("IsNodeSupported", "GetCapability")
        + "QNN EP does not support a single Quantize/Dequantize node in a partition.",
        ("CPU execution provider", "is not supported: <reason>", "get_qnn_qdq_config"),
        entry="qualcomm-qnn-ep-does-not-support",
    )
    assert "still runs" in top.cause


def test_unsupported_nodes_listed_when_cpu_fallback_is_disabled(kb: KnowledgeBase) -> None:
    # qnn_execution_provider.cc GetCapability: the list goes to the ERROR log only without CPU fallback
    assert_answered(
        kb,
        "[E:onnxruntime:, qnn_execution_provider.cc:700 GetCapability] Unsupported nodes in QNN EP: "
        "ZzOp (zz_node_1)",
        ("ZzOp (zz_node_1)", "session.disable_cpu_ep_fallback"),
        entry="qualcomm-qnn-ep-unsupported-nodes-no-fallback",
    )


# ---- qnn_setup (test_knowledge_qnn_setup.py) ----


def test_a_qnn_code_in_qnns_own_wording_keeps_its_code_entry(kb: KnowledgeBase) -> None:
    """QNN's own "Failed to create context from binary with err N" is answered by the code's entry; only
    onnxruntime's wording (LoadCachedQnnContextFromBuffer, an EPContext model) is the EPContext card."""
    top = kb.lookup("QnnDsp <E> Failed to create context from binary with err 5005", top=1)[0]
    assert top.entry.id != "qualcomm-qnn-ep-context-from-binary-failed"


def test_a_vulkan_device_error_is_not_qnns(kb: KnowledgeBase) -> None:
    """Other libraries print "Failed to create device. Error: " too: only QNN's error names or codes count."""
    matches = kb.lookup("Failed to create device. Error: VK_ERROR_INITIALIZATION_FAILED", top=3)
    assert all(m.entry.id != "qualcomm-qnn-ep-create-device-failed" for m in matches)


def test_a_bare_invalid_op_config_still_says_which_error_it_is(kb: KnowledgeBase) -> None:
    """Without the layer's name the card reads as a sentence without it (no blank, no placeholder text)."""
    top = kb.lookup("QnnGraph_addNode failed: QNN_GRAPH_ERROR_INVALID_OP_CONFIG", top=1)[0]
    assert top.entry.id == "qualcomm-graph-addnode-invalid-op-config"
    assert "{layer" not in top.cause + top.fix
    assert "rejected a layer while the graph was built" in top.cause and "the message names" not in top.cause


ORT = "[E:onnxruntime:, qnn_execution_provider.cc:611 GetCapability] QNN SetupBackend failed "


CASES_QNN_SETUP = [
    (
        "qualcomm-qnn-ep-initialize-backend-failed",
        ORT + "qnn_backend_manager.cc:301 InitializeBackend Failed to initialize backend",
        "",
    ),
    (
        "qualcomm-qnn-ep-initialize-backend-failed",
        ORT + "Failed to initialize backend. Error: QNN_COMMON_ERROR_PLATFORM_NOT_SUPPORTED",
        "QNN_COMMON_ERROR_PLATFORM_NOT_SUPPORTED",
    ),
    ("qualcomm-qnn-ep-create-device-failed", ORT + "Failed to create device. Error: 14001", "14001"),
    (
        "qualcomm-qnn-ep-create-device-failed",
        ORT + "Failed to create device. Error: QNN_DEVICE_ERROR_HARDWARE_UNAVAILABLE",
        "QNN_DEVICE_ERROR_HARDWARE_UNAVAILABLE",
    ),
    (
        "qualcomm-qnn-ep-context-from-binary-failed",
        "Failed to load from EpContext model. qnn_backend_manager.cc:702 "
        "onnxruntime::qnn::QnnBackendManager::LoadCachedQnnContextFromBuffer "
        "Failed to create context from binary.",
        "",
    ),
    (
        "qualcomm-graph-addnode-invalid-op-config",
        "[init] SNPE build failed: error_code=7005; error_message= QnnGraph_addNode() failed for layer: "
        "/encoder/Gather_7; QNN_GRAPH_ERROR_INVALID_OP_CONFIG: Some elements in the op config data "
        "are invalid; "
        "error_component=QNN",
        "/encoder/Gather_7",
    ),
]


# (entry id, message, a value the advice must name or ""), checked as every entry row is.
test_the_setup_failure_is_answered_specifically = answered_by_entry(
    [(message, entry_id, (value,) if value else ()) for entry_id, message, value in CASES_QNN_SETUP]
)


# ---- qualcomm_converter (test_knowledge_qualcomm_converter.py) ----


@pytest.mark.parametrize(
    ("message", "entry_id", "op_type"),
    [
        (
            "KeyError: 'No translation registered for op type onnx_gridsample.'",
            "no-translation",
            "onnx_gridsample",
        ),
        ("raise KeyError: No translation registered for op type tf_cumprod", "no-translation", "tf_cumprod"),
        ("KeyError: \"Converter does not support 'Atanh' op type\"", "no-translation", "Atanh"),
        (
            "KeyError: \"Translation for 'onnx_roialign' does not define an indexed method 'INFER_SHAPE'\"",
            "translation-method-missing",
            "onnx_roialign",
        ),
        (
            "NotImplementedError: ADD_OP method not found for op type onnx_nonmaxsuppression.",
            "method-not-found",
            "onnx_nonmaxsuppression",
        ),
    ],
)
def test_a_converter_translation_error_names_its_op_type(
    kb: KnowledgeBase, message: str, entry_id: str, op_type: str
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.family == "qualcomm"
    assert entry_id in top.entry.id, top.entry.id
    assert dict(top.captures)["op_type"] == op_type
    assert op_type in top.cause and op_type in top.fix
    assert specific(top) == (True, ""), specific(top)


def test_the_older_converters_full_sentence_still_answers_qualcomm(kb: KnowledgeBase) -> None:
    text = (
        "No translation registered for op type HardSwish. Op is most likely not supported by the converter."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "qualcomm"
    assert dict(top.captures).get("op_type") == "HardSwish"


@pytest.mark.parametrize(
    "text",
    [
        "Converter does not support dynamic shapes.",  # no quoted op type: not the converter's sentence
        "Converter does not support 'int4' quantization",
    ],
)
def test_other_does_not_support_sentences_are_not_the_converters(kb: KnowledgeBase, text: str) -> None:
    by_pattern = [m for m in kb.lookup(text, top=5) if "pattern" in m.reason]
    assert all("qualcomm-converter-" not in m.entry.id for m in by_pattern)


@pytest.mark.parametrize("number", ["1008", "4000", "0x3e8"])
def test_the_skel_card_names_the_number_it_captured(kb: KnowledgeBase, number: str) -> None:
    top = kb.lookup(f"QnnDsp <E> Failed to load skel, error: {number}", top=1)[0]
    assert top.entry.id == "qualcomm-failed-to-load-skel"
    assert dict(top.captures)["value"] == number  # the capture stops at the number
    assert f"error {number}" in top.cause and f"error {number}" in top.fix
    assert specific(top) == (True, ""), specific(top)


@pytest.mark.parametrize(("number", "name"), sorted(GENIE_STATUS_NAMES.items()))
def test_a_genie_status_number_after_a_genie_call_is_its_status(
    kb: KnowledgeBase, number: int, name: str
) -> None:
    text = f"E MyApp : GenieDialog_query returned: {number}"
    assert [c.key for c in extract_codes(text)] == [f"genie:{name}"]
    top = kb.lookup(text, top=1)[0]
    assert f"genie:{name}" in top.entry.keys, top.entry.id


@pytest.mark.parametrize(
    "text",
    [
        "GenieDialog_query returned: 0",  # GENIE_STATUS_SUCCESS
        "GenieDialog_query returned: 4",  # a warning, no failure
        "Genie status: -99",  # no status of GenieCommon.h
        "grep returned: -1",  # no Genie call
    ],
)
def test_numbers_that_are_no_genie_error_are_no_code(text: str) -> None:
    assert not [c for c in extract_codes(text) if c.key.startswith("genie:")]


def test_the_genie_table_is_genie_commons_error_block() -> None:
    assert sorted(GENIE_STATUS_NAMES) == list(range(-14, 0))
    assert all(name.startswith("GENIE_STATUS_ERROR_") for name in GENIE_STATUS_NAMES.values())


@pytest.mark.parametrize(
    ("message", "tensor"),
    [
        ("[WARNING] [Qnn ExecuTorch]: PreRegisterMem failed to get file descriptor.", ""),
        (
            "[WARNING] [Qnn ExecuTorch]: Tensor name input_0_tokens_0 failed to get file descriptor.",
            "input_0_tokens_0",
        ),
        (
            "[WARNING] [Qnn ExecuTorch]: Tensor name output_logits is failed to get file descriptor.",
            "output_logits",
        ),
    ],
)
def test_executorchs_shared_buffer_without_a_file_descriptor(
    kb: KnowledgeBase, message: str, tensor: str
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "qualcomm-executorch-custom-mem-no-file-descriptor"
    assert "QnnExecuTorchAllocCustomMem" in top.fix
    if tensor:
        assert dict(top.captures)["tensor"] == tensor and tensor in top.cause and tensor in top.fix
    assert specific(top) == (True, ""), specific(top)


# ---- qualcomm_forms (test_knowledge_qualcomm_forms.py) ----


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("QnnDsp <E> Failed to create context from binary with err 0x138d", "qnn:5005"),
        (
            "[ERROR] [Qnn ExecuTorch]: QnnDsp <E> Failed to create context from binary with err 0x3ea",
            "qnn:1002",
        ),
        ("QnnDsp <E> Failed to validate op x with error 0xc26", "qnn:0xc26"),  # keyed as printed
        ("QnnDsp <E> graph prepare failed with error 0x1f", "qnn:0x1f"),  # 31: no QNN code, kept as printed
    ],
)
def test_a_hexadecimal_qnn_code_is_the_headers_number(text: str, key: str) -> None:
    """The printed form stays a key too (a code labelled as printed is still found)."""
    keys = [c.key for c in extract_codes(text)]
    assert key in keys
    printed = "qnn:" + text.rsplit(" ", 1)[-1]
    assert printed in keys
    assert [k for k in keys if k.startswith("qnn:")] in ([printed], [printed, key])


def test_the_hexadecimal_code_answers_with_its_entry_shown_as_printed(kb: KnowledgeBase) -> None:
    top = kb.lookup("QnnDsp <E> Failed to create context from binary with err 0x138d", top=1)[0]
    assert top.entry.id == "qualcomm-qnn-5005"
    assert shown_code(top).startswith("0x138d")


@pytest.mark.parametrize(
    ("text", "entry_id", "captures"),
    [
        (
            "[ERROR] [Qnn ExecuTorch]: Request feature arch with value 75 unsupported",
            "qualcomm-htp-request-feature-unsupported",
            {"arg": "arch", "value": "75"},
        ),
        (
            "QnnDsp <E> Request feature vtcm size with value 8 unsupported",
            "qualcomm-htp-request-feature-unsupported",
            {"arg": "vtcm size", "value": "8"},
        ),
        (
            "QnnDsp <E> Using newer context binary on old SDK",
            "qualcomm-htp-context-blob-newer-than-runtime",
            {},
        ),
        (
            "<E> Can't read future blob. Newest blob version supported: 3.2.2. Current blob version: 3.3.4.",
            "qualcomm-htp-context-blob-newer-than-runtime",
            {"version": "3.2.2", "version2": "3.3.4"},
        ),
        (
            "QAIRT quantizer failed with exit code 1",
            "qualcomm-aihub-qairt-tool-exit-code",
            {"arg": "quantizer", "value": "1"},
        ),
        (
            "Model compile failed due to an internal error.\nQAIRT converter failed with exit code 2",
            "qualcomm-aihub-qairt-tool-exit-code",
            {"arg": "converter", "value": "2"},
        ),
    ],
)
def test_the_form_answers_with_its_values(
    kb: KnowledgeBase, text: str, entry_id: str, captures: dict[str, str]
) -> None:
    answer = kb.answer(text, top=3)
    top = answer.matches[0]
    assert top.entry.id == entry_id and answer.confidence == "high"
    for name, value in captures.items():
        assert dict(top.captures)[name] == value and value in top.cause + top.fix


@pytest.mark.parametrize(
    "text",
    [
        "Request feature arch with value unsupported",  # no value: not the HTP's sentence
        "Using newer model on old runtime",
        "converter failed with exit code 1",  # no QAIRT
    ],
)
def test_near_misses_are_not_pattern_matches(kb: KnowledgeBase, text: str) -> None:
    new = {
        "qualcomm-htp-request-feature-unsupported",
        "qualcomm-htp-context-blob-newer-than-runtime",
        "qualcomm-aihub-qairt-tool-exit-code",
    }
    assert not any(m.entry.id in new and m.reason.startswith("pattern") for m in kb.lookup(text, top=5))


# ---- s18d (test_knowledge_qualcomm_rknn_sources_s18d.py) ----


def test_unrelated_authentication_text_is_not_ai_hub(kb: KnowledgeBase) -> None:
    # a registry login's "Failed to authenticate" without the qai_hub client around it is not AI Hub's
    found = kb.answer("Error response from daemon: Get https://registry.example/v2/: Failed to authenticate")
    assert all(not m.entry.id.startswith("qualcomm-s18d") for m in found.matches)


# ---- s20b (test_knowledge_qualcomm_rknn_sources_s20b.py) ----


def test_other_process_domain_text_is_not_the_unsigned_pd_entry(kb: KnowledgeBase) -> None:
    # a signed-PD failure names no unsigned PD: the entry must not claim it
    found = kb.answer("QnnDsp <E> DspTransport.createSignedPD failed, 0x0000004b")
    assert all(m.entry.id != "qualcomm-s20b-htp-unsigned-pd" for m in found.matches)


# ---- round10 (test_knowledge_round10.py) ----

# (entry id, message from the source's wording with our own values, values the answer must show)
VALUE_CASES = [
    (
        "qualcomm-converter-frontend-op-not-supported",
        "2025-03-04 05:06:07,890 - 230 - ERROR - Encountered Error: The following operators are not "
        "supported in frontend TFLite: 'BROADCAST_ARGS'",
        ("TFLite frontend", "BROADCAST_ARGS"),
    ),
]


test_the_entry_answers_first_with_the_message_values = answered_first_with_values(VALUE_CASES)


# ---- round12 (test_knowledge_round12.py) ----


@pytest.mark.parametrize(
    "text",
    [
        "2023-01-02 03:04:05,678 - 183 - ERROR - Conversion failed: ERROR_TF_INVALID_INPUT_DIMS: Invalid "
        "input dimensions: 1,a,3",
        "ERROR_CAFFE_LAYER_TYPE_NOT_SUPPORTED: Cannot resolve Foo layer of type Bar which is not yet "
        "supported",
        "ERROR_CAFFE2_SNPE_OP_SUPPORT_ERR: Cannot resolve op type Baz",
    ],
)
def test_a_converter_message_key_names_qualcomm(text: str) -> None:
    assert detect_families(text)[:1] == ["qualcomm"]


def test_a_key_like_word_elsewhere_is_no_marker() -> None:
    """Only the converters' prefixes: an upper-case constant of another tool is not theirs."""
    assert "qualcomm" not in detect_families("ValueError: ERROR_INVALID_ARGUMENT in my_tf_loader")


def test_the_node_name_check_names_the_node(kb: KnowledgeBase) -> None:
    text = (
        "2023-01-02 03:04:05,678 - 122 - ERROR - Conversion failed: ERROR_TF_NODE_NOT_FOUND_IN_GRAPH: Node "
        "not found in graph. Node name: net/logits:0"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-converter-node-not-found-in-graph"
    assert dict(top.captures)["node"] == "net/logits:0"
    assert "net/logits:0" in top.fix


def test_the_output_node_check_of_the_tf_loader(kb: KnowledgeBase) -> None:
    top = kb.lookup("ERROR_TF_OUTPUT_NODE_NOT_WITHIN_GRAPH: Output node heads/box not within graph.", top=1)[
        0
    ]
    assert top.entry.id == "qualcomm-converter-node-not-found-in-graph"
    assert dict(top.captures)["node"] == "heads/box"


def test_an_output_node_warning_is_the_pruning_entry_not_the_node_check(kb: KnowledgeBase) -> None:
    """The ONNX frontend's warning has no "not within graph": it belongs to the pruned-empty failure."""
    text = (
        "2024-05-06 07:08:09,101 - 240 - WARNING - Output node 512, specified via command line, does not "
        "exist in graph.\nEncountered Error: After pruning disconnected nodes, this model is empty."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-converter-model-empty-after-pruning"
    assert dict(top.captures)["node"] == "512"
    assert "--out_node" in top.fix


def test_the_htp_convolution_filter_check_says_which_count_disagrees(kb: KnowledgeBase) -> None:
    text = "QnnDsp <E> Filters in[1] dimension 8 at index 2 not equal to channel_in 96 / groups 1."
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-htp-conv-filter-channels"
    assert "96" in top.cause and "8" in top.cause
    assert "channel_in" in top.cause


def test_the_transposed_convolution_form(kb: KnowledgeBase) -> None:
    text = "Filters in[1] dimension 4 at index 3 not equal to channel_out 64 / groups 2."
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-htp-conv-filter-channels"
    assert "channel_out 64" in top.cause


def test_fastrpc_refusing_a_skel_names_the_library(kb: KnowledgeBase) -> None:
    text = (
        "Error 0x80000406: remote_handle64_open failed for file:///libQnnHtpV68Skel.so?qnn_skel_handle_invoke"
        "&_modver=1.0&_dom=cdsp (errno Success)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-fastrpc-skel-open-failed"
    assert "libQnnHtpV68Skel.so" in top.fix
    assert "ADSP_LIBRARY_PATH" in top.fix


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "FileNotFoundError: Unable to find the model source file, invalid path: /tmp/build/net.cpp",
            "qualcomm-model-lib-generator-source-missing",
        ),
        (
            '  File "/opt/qairt/2.30.0/bin/x86_64-linux-clang/qnn-model-lib-generator", line 140\n'
            "RuntimeError: Failed to compile model library for target: aarch64-android",
            "qualcomm-model-lib-generator-compile-failed",
        ),
    ],
)
def test_the_model_library_generators_own_failures(kb: KnowledgeBase, text: str, entry: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == entry
    assert top.entry.family == "qualcomm"


# ---- round16 (test_knowledge_round16.py) ----


@pytest.mark.parametrize("prefix", ["", "[ERROR] [Qnn ExecuTorch]:  <E> ", "E QnnDsp  :  <E> "])
def test_the_htp_stub_version_check_names_both_builds(kb: KnowledgeBase, prefix: str) -> None:
    text = (
        f"{prefix}Stub lib id mismatch: expected (v2.33.0.250327124043_117917), "
        "detected (v2.29.0.241129103708_105762)\nUnable to load Remote symbols 1008"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "qualcomm-htp-stub-lib-id-mismatch"
    assert dict(top.captures) == {
        "version": "v2.33.0.250327124043_117917",
        "value": "v2.29.0.241129103708_105762",
    }
    assert "v2.33.0.250327124043_117917" in top.fix and "ADSP_LIBRARY_PATH" in top.fix


# ---- round21_tools (test_knowledge_round21_tools.py) ----


def test_geniex_plugin_load(kb: KnowledgeBase) -> None:
    found, m = first_answer(kb, '{"code":-100302,"error":"SDKError(Invalid plugin)"}')
    assert m.entry.id == "qualcomm-h23v2-geniex-plugin-load"
    assert dict(m.captures)["value"] == "Invalid plugin"
    assert "plugin_id" in m.entry.cause and "ml_get_plugin_list" in m.entry.fix


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


def test_qnn_htp_allocation_limit(kb: KnowledgeBase) -> None:
    msg = (
        "0.0ms [ ERROR ] fa_alloc.cc:2813:ERROR:graph requires estimated allocation of 3999999 KB, limit is "
        "2097152 KB\n0.0ms [ ERROR ] graph_prepare.cc:742:ERROR:error during "
        "serialize: memory usage too large"
    )
    assert_answered(
        kb, msg, ("3999999 KB", "2097152 KB", "num_sharding"), entry="qualcomm-htp-graph-allocation-limit"
    )


# ---- s19a (test_knowledge_torch_onnx_qualcomm_s19a.py) ----


def test_executorch_init_envelope_ranks_under_the_cause(kb: KnowledgeBase) -> None:
    """'Fail to initialize Qnn Manager' is the envelope: with the library error above it, the library error
    answers."""
    log = (
        "[ERROR] [Qnn ExecuTorch]: Cannot Open QNN library libQnnHtp.so, with error: dlopen failed: library "
        '"libQnnHtp.so" not found\n'
        "E 00:00:00.123 executorch:QnnExecuTorchBackend.cpp:50] Fail to initialize Qnn Manager"
    )
    assert kb.lookup(log, top=1)[0].entry.id == "qualcomm-s19a-executorch-open-qnn-library"


def test_fastrpc_open_shell_errno_wrapped_onto_the_next_line(kb: KnowledgeBase) -> None:
    """A logcat line wrapped inside the errno parentheses still answers, with the errno text captured."""
    top = assert_answered(
        kb,
        "Error 0xd: open_shell failed for domain 3 search paths used are /zz/dsp/ "
        "(errno Permission\n denied)",
        ("fastrpc_shell_unsigned_3", "/zz/dsp/"),
        entry="qualcomm-s19a-fastrpc-open-shell-failed",
    )
    assert ("detail", "Permission\n denied") in top.captures


# ---- s21b (test_knowledge_rknn_runtime_api_and_qnn_status.py) ----


#: Snpe_ErrorCode_t of SNPE's zdl/DlSystem/DlError.h (quic/ai-hub-models@b31d2ec, ai-solutions/android/SNPE/
#: 03-ObjectDetection/app/src/main/cpp/inc/zdl/DlSystem/DlError.h): number and name without SNPE_ERRORCODE_.
#: 915 (DSP_UDO_INVALID_QUANTIZATION_TYPE_ERROR) is left to the 9xx range card: test_knowledge_sources.py
#: keeps it as the code without an entry of its own.
SNPE_ERROR_CODES = """
10 CAPI_CREATE_FAILURE
11 CAPI_HANDLEGEN_FAILURE
12 CAPI_DELETE_FAILURE
13 CAPI_BAD_HANDLE
14 CAPI_BAD_ARGUMENT
15 CAPI_BAD_ALLOC
100 CONFIG_MISSING_PARAM
101 CONFIG_INVALID_PARAM
102 CONFIG_MISSING_FILE
103 CONFIG_NNCONFIG_NOT_SET
104 CONFIG_NNCONFIG_INVALID
105 CONFIG_WRONG_INPUT_NAME
106 CONFIG_INCORRECT_INPUT_DIMENSIONS
107 CONFIG_DIMENSIONS_MODIFICATION_NOT_SUPPORTED
108 CONFIG_BOTH_OUTPUT_LAYER_TENSOR_NAMES_SET
120 CONFIG_NNCONFIG_ONLY_TENSOR_SUPPORTED
121 CONFIG_NNCONFIG_ONLY_USER_BUFFER_SUPPORTED
200 DLSYSTEM_MISSING_BUFFER
201 DLSYSTEM_TENSOR_CAST_FAILED
202 DLSYSTEM_FIXED_POINT_PARAM_INVALID
203 DLSYSTEM_SIZE_MISMATCH
204 DLSYSTEM_NAME_NOT_FOUND
205 DLSYSTEM_VALUE_MISMATCH
206 DLSYSTEM_INSERT_FAILED
207 DLSYSTEM_TENSOR_FILE_READ_FAILED
208 DLSYSTEM_DIAGLOG_FAILURE
209 DLSYSTEM_LAYER_NOT_SET
210 DLSYSTEM_WRONG_NUMBER_INPUT_BUFFERS
211 DLSYSTEM_RUNTIME_TENSOR_SHAPE_MISMATCH
212 DLSYSTEM_TENSOR_MISSING
213 DLSYSTEM_TENSOR_ITERATION_UNSUPPORTED
214 DLSYSTEM_BUFFER_MANAGER_MISSING
215 DLSYSTEM_RUNTIME_BUFFER_SOURCE_UNSUPPORTED
216 DLSYSTEM_BUFFER_CAST_FAILED
217 DLSYSTEM_WRONG_TRANSITION_TYPE
218 DLSYSTEM_LAYER_ALREADY_REGISTERED
219 DLSYSTEM_TENSOR_DIM_INVALID
240 DLSYSTEM_BUFFERENCODING_UNKNOWN
241 DLSYSTEM_BUFFER_INVALID_PARAM
300 DLCONTAINER_MODEL_PARSING_FAILED
301 DLCONTAINER_UNKNOWN_LAYER_CODE
302 DLCONTAINER_MISSING_LAYER_PARAM
303 DLCONTAINER_LAYER_PARAM_NOT_SUPPORTED
304 DLCONTAINER_LAYER_PARAM_INVALID
305 DLCONTAINER_TENSOR_DATA_MISSING
306 DLCONTAINER_MODEL_LOAD_FAILED
307 DLCONTAINER_MISSING_RECORDS
308 DLCONTAINER_INVALID_RECORD
309 DLCONTAINER_WRITE_FAILURE
310 DLCONTAINER_READ_FAILURE
311 DLCONTAINER_BAD_CONTAINER
312 DLCONTAINER_BAD_DNN_FORMAT_VERSION
313 DLCONTAINER_UNKNOWN_AXIS_ANNOTATION
314 DLCONTAINER_UNKNOWN_SHUFFLE_TYPE
315 DLCONTAINER_TEMP_FILE_FAILURE
400 NETWORK_EMPTY_NETWORK
401 NETWORK_CREATION_FAILED
402 NETWORK_PARTITION_FAILED
403 NETWORK_NO_OUTPUT_DEFINED
404 NETWORK_MISMATCH_BETWEEN_NAMES_AND_DIMS
405 NETWORK_MISSING_INPUT_NAMES
406 NETWORK_MISSING_OUTPUT_NAMES
407 NETWORK_EXECUTION_FAILED
500 HOST_RUNTIME_TARGET_UNAVAILABLE
600 CPU_LAYER_NOT_SUPPORTED
601 CPU_LAYER_PARAM_NOT_SUPPORTED
602 CPU_LAYER_PARAM_INVALID
603 CPU_LAYER_PARAM_COMBINATION_INVALID
604 CPU_BUFFER_NOT_FOUND
605 CPU_NETWORK_NOT_SUPPORTED
606 CPU_UDO_OPERATION_FAILED
700 CPU_FXP_LAYER_NOT_SUPPORTED
701 CPU_FXP_LAYER_PARAM_NOT_SUPPORTED
702 CPU_FXP_LAYER_PARAM_INVALID
703 CPU_FXP_OPTION_INVALID
800 GPU_LAYER_NOT_SUPPORTED
801 GPU_LAYER_PARAM_NOT_SUPPORTED
802 GPU_LAYER_PARAM_INVALID
803 GPU_LAYER_PARAM_COMBINATION_INVALID
804 GPU_KERNEL_COMPILATION_FAILED
805 GPU_CONTEXT_NOT_SET
806 GPU_KERNEL_NOT_SET
807 GPU_KERNEL_PARAM_INVALID
808 GPU_OPENCL_CHECK_FAILED
809 GPU_OPENCL_FUNCTION_ERROR
810 GPU_BUFFER_NOT_FOUND
811 GPU_TENSOR_DIM_INVALID
812 GPU_MEMORY_FLAGS_INVALID
813 GPU_UNEXPECTED_NUMBER_OF_IO
814 GPU_LAYER_PROXY_ERROR
815 GPU_BUFFER_IN_USE
816 GPU_BUFFER_MODIFICATION_ERROR
817 GPU_DATA_ARRANGEMENT_INVALID
818 GPU_UDO_OPERATION_FAILED
900 DSP_LAYER_NOT_SUPPORTED
901 DSP_LAYER_PARAM_NOT_SUPPORTED
902 DSP_LAYER_PARAM_INVALID
903 DSP_LAYER_PARAM_COMBINATION_INVALID
904 DSP_STUB_NOT_PRESENT
905 DSP_LAYER_NAME_TRUNCATED
906 DSP_LAYER_INPUT_BUFFER_NAME_TRUNCATED
907 DSP_LAYER_OUTPUT_BUFFER_NAME_TRUNCATED
908 DSP_RUNTIME_COMMUNICATION_ERROR
909 DSP_RUNTIME_INVALID_PARAM_ERROR
910 DSP_RUNTIME_SYSTEM_ERROR
911 DSP_RUNTIME_CRASHED_ERROR
912 DSP_BUFFER_SIZE_ERROR
913 DSP_UDO_EXECUTE_ERROR
914 DSP_UDO_LIB_NOT_REGISTERED_ERROR
1000 MODEL_VALIDATION_LAYER_NOT_SUPPORTED
1001 MODEL_VALIDATION_LAYER_PARAM_NOT_SUPPORTED
1002 MODEL_VALIDATION_LAYER_PARAM_INVALID
1003 MODEL_VALIDATION_LAYER_PARAM_MISSING
1004 MODEL_VALIDATION_LAYER_PARAM_COMBINATION_INVALID
1005 MODEL_VALIDATION_LAYER_ORDERING_INVALID
1006 MODEL_VALIDATION_INVALID_CONSTRAINT
1007 MODEL_VALIDATION_MISSING_BUFFER
1008 MODEL_VALIDATION_BUFFER_REUSE_NOT_SUPPORTED
1009 MODEL_VALIDATION_LAYER_COULD_NOT_BE_ASSIGNED
1010 MODEL_VALIDATION_UDO_LAYER_FAILED
1100 UDL_LAYER_EMPTY_UDL_NETWORK
1101 UDL_LAYER_PARAM_INVALID
1102 UDL_LAYER_INSTANCE_MISSING
1103 UDL_LAYER_SETUP_FAILED
1104 UDL_EXECUTE_FAILED
1105 UDL_BUNDLE_INVALID
1106 UDO_REGISTRATION_FAILED
1107 UDO_GET_PACKAGE_FAILED
1108 UDO_GET_IMPLEMENTATION_FAILED
1200 STD_LIBRARY_ERROR
1210 UNKNOWN_EXCEPTION
1300 STORAGE_INVALID_KERNEL_REPO
1400 AIP_LAYER_NOT_SUPPORTED
1401 AIP_LAYER_PARAM_NOT_SUPPORTED
1402 AIP_LAYER_PARAM_INVALID
1403 AIP_LAYER_PARAM_COMBINATION_INVALID
1404 AIP_STUB_NOT_PRESENT
1405 AIP_LAYER_NAME_TRUNCATED
1406 AIP_LAYER_INPUT_BUFFER_NAME_TRUNCATED
1407 AIP_LAYER_OUTPUT_BUFFER_NAME_TRUNCATED
1408 AIP_RUNTIME_COMMUNICATION_ERROR
1409 AIP_RUNTIME_INVALID_PARAM_ERROR
1410 AIP_RUNTIME_SYSTEM_ERROR
1411 AIP_RUNTIME_TENSOR_MISSING
1412 AIP_RUNTIME_TENSOR_SHAPE_MISMATCH
1413 AIP_RUNTIME_BAD_AIX_RECORD
1500 DLCACHING_INVALID_METADATA
1501 DLCACHING_INVALID_INITBLOB
1600 INFRA_CLUSTERMGR_INSTANCE_INVALID
1601 INFRA_CLUSTERMGR_EXECUTE_SYNC_FAILED
1700 MEMORY_CORRUPTION_ERROR
"""


@pytest.mark.parametrize(
    ("number", "name"), [tuple(line.split()) for line in SNPE_ERROR_CODES.strip().splitlines()]
)
def test_every_snpe_error_code_has_its_own_card(kb: KnowledgeBase, number: str, name: str) -> None:
    """A code printed as SNPE's record (error_code=N) or by name answers with that code's own card and
    specific advice, never with a neighbour's or the range's."""
    for message in (
        f"error_code={number}; error_message=made-up text; error_component=System; line_no=12; thread_id=1",
        f"zdl::DlSystem::ErrorCode::SNPE_{name}",
    ):
        top = assert_answered(kb, message, entry=f"snpe-{number}")
        assert not top.entry.generic


FIRST_VALUE_CASES = [
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
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(
    FIRST_VALUE_CASES, unquoted=("module", "lib")
)


def test_the_qnn_tools_summary_lines_answer_alone_and_yield_to_their_cause(kb: KnowledgeBase) -> None:
    """The sample app's / qnn-net-run's stage line and qnn-context-binary-generator's finalize chain say where
    the tool stopped, not why: alone they are answered (a generic summary, medium confidence, the step
    named); after the backend's own lines, the entries keyed by the codes those lines print rank above
    them."""
    for line, entry, part in (
        ("[ ERROR ] Create From Binary failure", "qualcomm-s29b-qnn-app-stage-failure", "Create From Binary"),
        (
            "[ ERROR ] Finalize Graph for Idx = 2 failed with error = 6020",
            "qualcomm-s29b-context-binary-not-finalized",
            "6020",
        ),
    ):
        found = kb.answer(line)
        top = found.matches[0]
        assert top.entry.id == entry and top.entry.generic and top.entry.consequence
        assert found.confidence == "medium"
        assert part in top.cause
    paste = (
        "[ ERROR ] <E> Failed to load skel, error: 4000\n"
        "[ ERROR ] <E> Transport layer setup failed: 14001\n"
        "[ ERROR ] Device Creation failure"
    )
    ids = [m.entry.id for m in kb.lookup(paste, top=3)]
    assert "qualcomm-s29b-qnn-app-stage-failure" not in ids
    assert any("qnn:4000" in m.entry.keys or "qnn:14001" in m.entry.keys for m in kb.lookup(paste, top=3))


test_the_htp_line_that_names_the_op_ranks_over_the_finalize_failure = answers_first_above(
    [
        (
            "graph_prepare.cc:1377:ERROR:Op 0x1c00000011 preparation failed with err:-1\n"
            '<E> "Gelu" generated: could not create op\n<E> Failed to finalize graph (id: 1) with err 1002',
            "qualcomm-s29g-htp-op-could-not-create",
            "qualcomm-graph-finalize-failed",
        )
    ]
)
test_the_finalize_failure_alone_keeps_its_checklist = answers_first(
    [("QnnDsp <E> Failed to finalize graph (id: 1) with err 1002", "qualcomm-graph-finalize-failed")]
)
