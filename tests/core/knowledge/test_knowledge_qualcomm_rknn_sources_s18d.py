"""Branch s18d: Qualcomm's and Rockchip's common failures, from their own sources.

* rknn-toolkit-lite2 (airockchip/rknn-toolkit2: rknn-toolkit-lite2/packages, release 2.3.2): the board-side
  Python API's own errors (rknnlite/api/rknn_lite.py and the strings of its compiled rknn_runtime module):
  librknnrt.so missing, a container without the board's files, an unsupported target, no simulator, call
  order, core_mask on a single-core NPU, a runtime without dynamic shapes, and the inputs given to
  inference();
* the qai_hub client (qai_hub 0.56.0 wheel, qai_hub/client.py): authentication and configuration, a failed
  compile job's None model, torch models not traced, directory-model layout, empty input shapes;
* the QAIRT/QNN converters' Python (a public copy of qti/aisw/converters): --input_dim format and names,
  --input_encoding, dynamic shapes with --batch/--define_symbol, --input_dtype against --preserve_io and the
  quantization-overrides option checks.

Every message is the vendor's string as its source prints it, with made-up names and values, not an eval
message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CASES = [
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
]


_IDS = [f"{c[1]}-{i}" for i, c in enumerate(CASES)]


@pytest.mark.parametrize(("message", "entry", "named"), CASES, ids=_IDS)
def test_vendor_text_answered_with_its_parts(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)
    assert kb.answer(message).confidence == "high"


def test_lite2_input_captures_stop_at_the_value(kb: KnowledgeBase) -> None:
    top = kb.lookup("E Unsupport inputs[0].dtype: float16x. Please check.", top=1)[0]
    assert top.entry.id == "rknn-s18d-lite2-input-dtype"
    assert dict(top.captures) == {"index": "0", "dtype": "float16x"}


def test_unrelated_authentication_text_is_not_ai_hub(kb: KnowledgeBase) -> None:
    # a registry login's "Failed to authenticate" without the qai_hub client around it is not AI Hub's
    found = kb.answer("Error response from daemon: Get https://registry.example/v2/: Failed to authenticate")
    assert all(not m.entry.id.startswith("qualcomm-s18d") for m in found.matches)
