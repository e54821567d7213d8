"""Branch s31e: install and version failures users hit often that got only a family card, a bare quote of the
message or no confident answer: TFLite's Keras 3 model through from_keras_model, onnxsim's source build, the
RKNN wheel for another Python/CPU, TVM without its built libraries, Paddle2ONNX's parameter file. Each case
is written from the tool's format string (or pip's wording naming the package) with values of our own.

Sources read: google-ai-edge/LiteRT tflite/python/lite.py and tflite_keras_util.py (_get_save_spec);
daquexian/onnx-simplifier setup.py; airockchip/rknn-toolkit2 rknn-toolkit2/packages and
rknn-toolkit-lite2/packages; apache/tvm python/tvm/libinfo.py (before and after ebc9348bd7);
PaddlePaddle/Paddle2ONNX paddle2onnx/parser/parser.cc (LoadParams) and utils/utils.h (P2OLogger's prefix).
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import in_top3_with_values

CASES = [
    (
        "AttributeError: 'Functional' object has no attribute '_get_save_spec'. "
        "Did you mean: '_set_save_spec'?",
        "tflite-s31e-keras3-save-spec",
        {"value": "Functional"},
    ),
    (
        "  × Building wheel for onnxsim (pyproject.toml) did not run successfully.\n  │ exit code: 1",
        "onnxsim-s31e-wheel-build-failed",
        {},
    ),
    (
        "ERROR: rknn_toolkit2-2.3.2-cp312-cp312-manylinux_2_17_aarch64.manylinux2014_aarch64.whl is not a "
        "supported wheel on this platform.",
        "rknn-s31e-wheel-tag-mismatch",
        {"py": "cp312", "platform": "manylinux_2_17_aarch64.manylinux2014_aarch64"},
    ),
    (
        "RuntimeError: Cannot find libraries: ['libtvm.so', 'libtvm_runtime.so']\nList of candidates:\n"
        "/opt/src/tvm/build/libtvm.so",
        "tvm-s31e-libraries-not-found",
        {"value": "'libtvm.so', 'libtvm_runtime.so'"},
    ),
    ("RuntimeError: Cannot find libtvm_runtime", "tvm-s31e-libraries-not-found", {"value": "libtvm_runtime"}),
    (
        "[Paddle2ONNX] Cannot open file ./ppocr_det/inference.pdiparams to read.",
        "paddle2onnx-s31e-params-open-failed",
        {"path": "./ppocr_det/inference.pdiparams"},
    ),
    (
        "[Paddle2ONNX] Unexcepted situation happend, while reading the parameters of PaddlePaddle model.",
        "paddle2onnx-s31e-params-extra-tensors",
        {},
    ),
]

test_the_tools_own_text_gets_its_entry_with_the_values = in_top3_with_values(CASES)


@pytest.mark.parametrize(("message", "entry"), [(m, e) for m, e, _ in CASES])
def test_the_entry_answers_first(kb: KnowledgeBase, message: str, entry: str) -> None:
    assert kb.answer(message, top=3).matches[0].entry.id == entry


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # pip's wording about another package's wheel or build: not these tools' entries
        (
            "ERROR: tensorrt-8.6.1-cp310-none-linux_x86_64.whl is not a supported wheel on this platform.",
            "rknn-s31e-wheel-tag-mismatch",
        ),
        ("ERROR: Failed building wheel for onnx", "onnxsim-s31e-wheel-build-failed"),
        ("ERROR: Failed building wheel for onnxsim-prebuilt-fork", "rknn-s31e-wheel-tag-mismatch"),
        # another tool's file that cannot be opened: no Paddle2ONNX prefix
        ("Cannot open file config.yaml to read.", "paddle2onnx-s31e-params-open-failed"),
        ("AttributeError: 'NoneType' object has no attribute 'shape'", "tflite-s31e-keras3-save-spec"),
        ("OSError: libtvm.so: cannot open shared object file", "tvm-s31e-libraries-not-found"),
    ],
)
def test_lookalikes_do_not_match_the_pattern(kb: KnowledgeBase, message: str, entry: str) -> None:
    assert all(m.entry.id != entry for m in kb.answer(message, top=3).matches if m.reason != "words")
