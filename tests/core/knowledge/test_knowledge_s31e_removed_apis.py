"""Branch s31e: the failures of code written for an older release of a tool whose API was since removed
(OpenVINO's Inference Engine API 1.0, Model Optimizer, POT and openvino.runtime namespace; torch.onnx's
dynamo_export and the onnxscript the new exporter imports; onnx.optimizer; coremltools' ONNX converter;
the tflite_runtime package). Before these entries each got the generic 'install the missing module' answer,
which is wrong advice for a module the current release no longer has. Each case is the wording the Python
import system, a shell or the compiler prints for such a removal, with names of our own.

Sources read: docs.openvino.ai/2025/documentation/legacy-features.html; openvinotoolkit/openvino
src/bindings/python/src/openvino/runtime/__init__.py (2025.x deprecation warning) and the openvino 2026.4.1
wheel (no openvino/runtime); pytorch/pytorch torch/onnx/__init__.py and _internal/exporter/_core.py in
torch 2.14.0 (dynamo=True default, import onnxscript, no dynamo_export); onnx/onnx commit 03e6c8f2a (v1.9.0);
apple/coremltools commit 973eae67 (6.0b1); google-ai-edge/LiteRT's ai-edge-litert wheel.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import in_top3_with_values

CASES = [
    ("ModuleNotFoundError: No module named 'openvino.inference_engine'", "openvino-s31e-api1-removed", {}),
    (
        "ImportError: cannot import name 'IENetwork' from 'openvino.inference_engine' (unknown location)",
        "openvino-s31e-api1-removed",
        {},
    ),
    (
        "src/detect.cpp:5:10: fatal error: inference_engine.hpp: No such file or directory",
        "openvino-s31e-api1-removed",
        {"header": "inference_engine.hpp"},
    ),
    ("ModuleNotFoundError: No module named 'openvino.tools.mo'", "openvino-s31e-mo-removed", {}),
    ("/bin/sh: 1: mo: not found", "openvino-s31e-mo-removed", {}),
    ("zsh: command not found: mo", "openvino-s31e-mo-removed", {}),
    (
        "ImportError: cannot import name 'PartialShape' from 'openvino.runtime' (unknown location)",
        "openvino-s31e-runtime-namespace-removed",
        {"name": "PartialShape"},
    ),
    ("ModuleNotFoundError: No module named 'openvino.tools.pot'", "openvino-s31e-pot-removed", {}),
    (
        "ModuleNotFoundError: No module named 'onnxscript'",
        "torch-onnx-s31e-onnxscript-missing",
        {"value": "onnxscript"},
    ),
    (
        "ModuleNotFoundError: No module named 'onnxscript._framework_apis.torch_2_11'",
        "torch-onnx-s31e-onnxscript-missing",
        {"value": "onnxscript._framework_apis.torch_2_11"},
    ),
    (
        "AttributeError: module 'torch.onnx' has no attribute 'ExportOptions'",
        "torch-onnx-s31e-dynamo-export-removed",
        {"name": "ExportOptions"},
    ),
    (
        "ImportError: cannot import name 'optimizer' from 'onnx' (/opt/venv/lib/python3.10/site-packages/"
        "onnx/__init__.py)",
        "onnx-s31e-optimizer-removed",
        {},
    ),
    (
        "ModuleNotFoundError: No module named 'coremltools.converters.onnx'",
        "coreml-s31e-onnx-converter-removed",
        {},
    ),
    ("ERROR: No matching distribution found for tflite_runtime", "tflite-s31e-tflite-runtime-missing", {}),
]

test_the_removed_api_gets_its_entry_with_the_values = in_top3_with_values(CASES)


@pytest.mark.parametrize(("message", "entry"), [(m, e) for m, e, _ in CASES])
def test_the_removed_api_entry_answers_first(kb: KnowledgeBase, message: str, entry: str) -> None:
    # first, not under the generic missing-module entry whose advice (install it) is wrong for these
    assert kb.answer(message, top=3).matches[0].entry.id == entry


@pytest.mark.parametrize(
    "message",
    [
        "ModuleNotFoundError: No module named 'openvino'",  # not installed at all: the generic answer
        "ModuleNotFoundError: No module named 'openvino_genai'",
        "bash: demo: command not found",  # another command ending in 'mo'
        "sh: 1: ./run_mo: not found",
        "ImportError: cannot import name 'Core' from 'openvino' (unknown location)",
        "ModuleNotFoundError: No module named 'onnxsim'",
        "ModuleNotFoundError: No module named 'onnxruntime'",
        "AttributeError: module 'torch.onnx' has no attribute 'export'",
        "ImportError: cannot import name 'helper' from 'onnx'",
    ],
)
def test_other_missing_modules_are_not_a_removed_api(kb: KnowledgeBase, message: str) -> None:
    removed = {e for _, e, _ in CASES}
    assert all(m.entry.id not in removed for m in kb.answer(message, top=3).matches if m.reason != "words")
