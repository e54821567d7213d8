"""Branch s20b: Qualcomm's and Rockchip's device-side failures, from their own binaries.

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
* the QNN HTP/DSP backends' FastRPC transport (onnxruntime-qnn 2.7.0 wheel: QnnHtp.dll and
  QnnHtpV73Stub.dll, the QNN SDK libraries it ships): unsigned process domain refused, skel not loaded or
  of another release, a stub missing a symbol, the FastRPC retry timeout and process-name length, no
  transport instance;
* AIMET (quic/aimet, TrainingExtensions: aimet_torch v2's quantizers, quantized-module registry and
  QuantizationSimModel, aimet_onnx's encodings loader): quantizers run before compute_encodings, a module
  without a quantized definition, a sim built on a sim, encodings of another model or another sim config.

Every message is the vendor's string as its binary prints it, with made-up names and values, not an eval
message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CASES = [
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
]


_IDS = [f"{c[1]}-{i}" for i, c in enumerate(CASES)]


@pytest.mark.parametrize(("message", "entry", "named"), CASES, ids=_IDS)
def test_vendor_text_answered_with_its_parts(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)
    assert kb.answer(message).confidence == "high"


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


def test_other_process_domain_text_is_not_the_unsigned_pd_entry(kb: KnowledgeBase) -> None:
    # a signed-PD failure names no unsigned PD: the entry must not claim it
    found = kb.answer("QnnDsp <E> DspTransport.createSignedPD failed, 0x0000004b")
    assert all(m.entry.id != "qualcomm-s20b-htp-unsigned-pd" for m in found.matches)


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
