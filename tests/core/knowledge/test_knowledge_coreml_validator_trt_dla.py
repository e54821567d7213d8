"""Session s35h (issue 23, leave-source-out advice): Core ML's model validator and TensorRT's DLA placement.

Core ML (apple/coremltools ``mlmodel/src``): the neural network validator's rank check
(``NeuralNetworkValidatorUtils.hpp`` checkRank, "Layer '...' of type '...' has input rank N but expects rank
at least M"), its rank-5 input check (``NeuralNetworkValidator.cpp``, "Input MLMultiArray to neural networks
must have dimension 1 (vector) or 3 (image-like arrays)"), the interface validator's FLOAT16/INT8 feature
type that needs a newer specification version (``InterfaceValidators.cpp``) and the loader's
"unable to deserialize object" (``Utils.hpp`` loadSpecification), to which the coremlc entry is narrowed:
any other validator error after "Error reading protobuf spec." is no unreadable file.  coremltools'
predict() warning (``models/model.py``) only carries Core ML's reason: a validator error inside it is
answered by the validator's entry, not by the warning's (which stays the answer for a compiler error).

TensorRT's DLA (the developer guide's 'GPU Fallback Mode' and 'DLA Supported Layers and Restrictions'): a
layer that cannot run on the DLA without GPU fallback (the build fails), and the same layer with GPU
fallback (a placement message: it runs on the GPU).

Every message is the vendor's format with made-up names and values, never an evaluation message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import Case, answered_by_entry

_PREDICT = (
    "/opt/venv/lib/python3.10/site-packages/coremltools/models/model.py:120: RuntimeWarning: You will not be "
    "able to run predict() on this Core ML model. Underlying exception message was: Error compiling model: "
    '"Error reading protobuf spec. validator error: {}".'
)

CASES: list[Case] = [
    # NeuralNetworkValidatorUtils.hpp checkRank, inside the predict() warning and alone
    (
        _PREDICT.format("Layer 'probs' of type 'Softmax' has input rank 2 but expects rank at least 3."),
        "coreml-nn-validator-layer-rank",
        ("'probs'", "Softmax", "rank 2", "at least 3", "SoftmaxND"),
    ),
    (
        "Error compiling model compiler error: Error reading protobuf spec. validator error: "
        "Layer 'scale_12' of type 'Scale' has output rank 4 but expects rank at most 3.",
        "coreml-nn-validator-layer-rank",
        ("'scale_12'", "Scale", "output", "at most 3"),
    ),
    # NeuralNetworkValidator.cpp: the rank-5 (iOS 11/12) input mapping
    (
        _PREDICT.format(
            "Input MLMultiArray to neural networks must have dimension 1 (vector) or 3 (image-like arrays)."
        ),
        "coreml-nn-validator-input-rank-1-or-3",
        ("RANK5_ARRAY_MAPPING", "EXACT_ARRAY_MAPPING", "(C, H, W)"),
    ),
    # InterfaceValidators.cpp: FLOAT16 / INT8 features need a newer specification version
    (
        _PREDICT.format(
            "Description of multiarray feature 'logits' has FLOAT16 dataType, which is only valid in "
            "specification version >= 7. This model has version 6"
        ),
        "coreml-validator-io-dtype-spec-version",
        ("'logits'", "FLOAT16", "version 7", "version 6", "minimum_deployment_target"),
    ),
    # Utils.hpp loadSpecification: the file does not parse
    (
        "coremlc: Error: Error reading protobuf spec. validator error: unable to deserialize object",
        "coreml-coremlc-protobuf-spec-unreadable",
        ("specificationVersion", "git lfs pull"),
    ),
    # TensorRT developer guide, GPU Fallback Mode: no fallback, the build fails
    (
        "[E] Error[2]: [dlaUtils.cpp::validate::120] Error Code 2: Internal Error (Assertion "
        "allowGPUFallback failed. Layer '/head/Resize_2' is not supported on DLA but GPU fallback is not "
        "enabled.)",
        "tensorrt-dla-layer-no-gpu-fallback",
        ("'/head/Resize_2'", "--allowGPUFallback", "set_device_type"),
    ),
    # ... with fallback: the layer runs on the GPU
    (
        "ERROR: [TRT]: act_7: ActivationLayer (with ActivationType = SELU) not supported for DLA.\n"
        "WARNING: [TRT]: Default DLA is enabled but layer act_7 is not supported on DLA, falling back to "
        "GPU.",
        "tensorrt-dla-layer-falls-back-to-gpu",
        ("act_7", "ActivationLayer", "SELU", "GPU fallback is enabled"),
    ),
    (
        "[W] [TRT] Layer 'Pool_41': Unsupported on DLA. Switching this layer's device type to GPU.",
        "tensorrt-dla-layer-falls-back-to-gpu",
        ("Pool_41", "engine still builds"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


@pytest.mark.parametrize(
    "message",
    [
        # another validator error after the same prefix: no unreadable file
        'RuntimeError: Error compiling model: "Error reading protobuf spec. validator error: Load constant '
        "layer 'w_3' encodes a data buffer of length 0 but should be 64.\".",
        _PREDICT.format("Layer 'out' of type 'Softmax' has input rank 2 but expects rank at least 3."),
    ],
)
def test_a_validator_reason_is_no_unreadable_file(kb: KnowledgeBase, message: str) -> None:
    by_pattern = [m.entry.id for m in kb.lookup(message, top=5) if "pattern" in m.reason.split("+")]
    assert "coreml-coremlc-protobuf-spec-unreadable" not in by_pattern, by_pattern


@pytest.mark.parametrize(
    ("message", "not_entry"),
    [
        # ONNX Runtime's CoreML EP and other tools' rank wording are not the Core ML validator
        ("Node (Softmax_3) has input rank 2 but expects rank at least 3", "coreml-nn-validator-layer-rank"),
        ("Input tensor must have dimension 1 or 3", "coreml-nn-validator-input-rank-1-or-3"),
        # a DLA run failure, not a layer placement
        (
            "[E] Error[1]: [cudlaUtils.cpp::submit::95] Error Code 1: DLA (Failed to submit program to DLA "
            "engine.)",
            "tensorrt-dla-layer-falls-back-to-gpu",
        ),
        ("Layer 'conv_1' is not supported on DSP", "tensorrt-dla-layer-no-gpu-fallback"),
    ],
)
def test_lookalikes_do_not_match(kb: KnowledgeBase, message: str, not_entry: str) -> None:
    by_pattern = [m.entry.id for m in kb.lookup(message, top=5) if "pattern" in m.reason.split("+")]
    assert not_entry not in by_pattern, by_pattern
